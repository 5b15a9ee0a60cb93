#pragma once
// Loads a trace file (any supported format, plain or gzip) into a queryable in-memory trace:
// reader → importer → sorter → trackers → storage → SQL (see ../../../shared/DESIGN.md §3).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct LoadOptions {
  // Events are buffered and ordered before state is derived. 0 sorts the whole trace (exact for
  // any buffer layout); a positive window flushes events older than (newest - window) as the
  // trace advances, bounding memory for very long traces. Late events count in
  // `sorter_push_event_out_of_order`.
  int64_t sort_window_ns = 0;
  // Upper bound on the bytes of one packet; bigger ones are skipped as corrupt.
  int64_t max_packet_bytes = 256 << 20;
  // Drops track events before the trace's TrackEventRangeOfInterest start (trace_processor's
  // --crop-track-events, which its diff tests run with); off by default, as there.
  bool crop_track_events = false;
};

struct LoadInfo {
  std::string format;          // "perfetto_proto", "systrace", "json", ...
  bool gzip = false;
  int64_t file_bytes = 0;      // bytes on disk
  int64_t decoded_bytes = 0;   // bytes after decompression
  int64_t packets = 0;
  int64_t events = 0;          // events handed to the trackers
  std::map<std::string, int64_t> packet_kinds;  // e.g. "ftrace_events", "track_event"
  std::map<std::string, int64_t> event_kinds;   // e.g. "sched_switch", "print"
  int64_t load_ns = 0;
  int64_t peak_rss_bytes = 0;
  // Where the load time went: reading + decoding into the sorter, ordering + deriving rows
  // (trackers), then stats/metadata and opening the SQL layer.
  int64_t decode_ns = 0;
  int64_t sort_and_track_ns = 0;
  int64_t finalize_ns = 0;
  int64_t events_buffered_peak = 0;  // events held by the sorter before the first was routed
  int64_t rss_after_decode_bytes = 0;
  int64_t storage_bytes = 0;         // memory of the tables and strings once loaded
};

class LoadedTrace {
 public:
  LoadedTrace(std::unique_ptr<TraceStorage> storage, std::unique_ptr<TraceDatabase> db,
              LoadInfo info)
      : storage_(std::move(storage)), db_(std::move(db)), info_(std::move(info)) {}

  TraceStorage& storage() { return *storage_; }
  TraceDatabase& db() { return *db_; }
  const LoadInfo& info() const { return info_; }
  absl::StatusOr<QueryResult> Query(std::string_view sql, const QueryOptions& options = {}) {
    return db_->Execute(sql, options);
  }

 private:
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
  LoadInfo info_;
};

// Errors: NOT_FOUND (no such file), INVALID_ARGUMENT (unrecognised or corrupt beyond
// recovery; a partially readable trace loads with `stats` entries instead).
absl::StatusOr<std::unique_ptr<LoadedTrace>> LoadTraceFile(const std::string& path,
                                                           const LoadOptions& options = {});
absl::StatusOr<std::unique_ptr<LoadedTrace>> LoadTraceBytes(std::string_view bytes,
                                                            const LoadOptions& options = {});

}  // namespace tw

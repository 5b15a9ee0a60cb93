#pragma once
// Turns sorted Chrome JSON trace events (JsonEventData) into rows with trace_processor's JSON
// semantics: 'B'/'E'/'X' slices and 'i'/'I'/'R' instants on thread tracks (global and process
// instants on their own tracks), 'b'/'e'/'n' nestable async slices on per-id tracks, 'C'
// counters on per-process tracks, 's'/'t'/'f' (v1) and bind_id (v2) flows, 'T' thread states,
// and 'M' names and sort indexes. Every event, whatever its phase, ties its tid to its pid.
// A complete event that partially overlaps another on its thread spills onto one of the
// thread's overflow tracks (thread_overlapping_slice) instead of nesting wrongly.
//
// Ordering: the sorter hands over events by timestamp, in file order within a timestamp. Once
// the trace has shown an 'X' event, trace_processor orders each timestamp's events by phase:
// ends ('E') first, then complete events longest first, then the rest in file order. The
// tracker holds one timestamp's events to apply that order (JsonEventData::order_by_phase).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"

namespace tw {

struct TraceContext;
class AsyncTrackSets;
class FlowTracker;
class LegacyEventTracks;

class JsonEventTracker {
 public:
  explicit JsonEventTracker(TraceContext* ctx);
  ~JsonEventTracker();

  // Takes the event's data (moves it out: the sorter frees the event afterwards).
  void OnEvent(int64_t ts, JsonEventData& event);
  // Imports the held events when a non-JSON event at a later time arrives. Cheap when nothing
  // is held (every event of every trace passes through here).
  void FlushBefore(int64_t ts) {
    if (!held_.empty() && ts > held_ts_) FlushTimestamp();
  }
  // End of trace: imports the events still held, places counters on their tracks and writes
  // sort-index hints into process / thread args.
  void Finish();

 private:
  void FlushTimestamp();
  void Import(int64_t ts, const JsonEventData& e);
  void Counters(int64_t ts, const JsonEventData& e, uint32_t utid);
  void Instant(int64_t ts, const JsonEventData& e, uint32_t utid);
  void Async(int64_t ts, const JsonEventData& e);
  void FlowV1(int64_t ts, const JsonEventData& e, uint32_t utid);
  void ThreadState(int64_t ts, const JsonEventData& e, uint32_t utid);
  void Metadata(const JsonEventData& e, uint32_t utid);
  // A slice just began on `track`: v1 flow ends waiting for "the next slice" bind to it.
  void OnSliceBegun(uint32_t track, std::optional<uint32_t> slice);
  // v2 flows (bind_id with flow_in / flow_out) attach to the innermost slice on `track`.
  void MaybeAddFlow(int64_t ts, uint32_t track, const JsonEventData& e);
  // Counts `stat` for the event at `ts` with a trace_import_logs row naming the event and its
  // phase (plus `extra` args), as trace_processor logs an event it could not import.
  void EventError(int64_t ts, const JsonEventData& e, std::string_view stat,
                  std::vector<Arg> extra = {});
  void ParserFailure(int64_t ts, const JsonEventData& e) {
    EventError(ts, e, "json_parser_failure");
  }
  // A complete event that partially overlaps one on its thread's track goes on the first of
  // the thread's overflow tracks that is free at `ts` (trace_processor's spill).
  uint32_t OverlapTrack(uint32_t utid, int64_t ts, int64_t dur);
  void WriteSortIndexHints();

  TraceContext* ctx_;
  std::unique_ptr<AsyncTrackSets> sets_;
  std::unique_ptr<LegacyEventTracks> async_tracks_;
  std::unique_ptr<FlowTracker> flows_;
  StringId no_name_ = kNullStringId;  // "[No name]": slices without a name
  StringId running_ = kNullStringId;

  int64_t held_ts_ = 0;
  std::vector<JsonEventData> held_;  // the events of held_ts_, in file order

  // v1 flow ends without "bp":"e" bind to the next slice that begins on their track.
  absl::flat_hash_map<uint32_t, std::vector<uint64_t>> pending_flow_ends_;
  struct OverflowTrack {
    uint32_t track;
    int64_t busy_until;
  };
  absl::flat_hash_map<uint32_t, std::vector<OverflowTrack>> overflow_tracks_;  // by utid
  std::map<uint32_t, int64_t> process_sort_index_;  // ordered: arg sets must not depend on hashing
  std::map<uint32_t, int64_t> thread_sort_index_;
};

}  // namespace tw

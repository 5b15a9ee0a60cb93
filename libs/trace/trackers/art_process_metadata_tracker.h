#pragma once
// Rows of ArtProcessMetadata packets, which ART writes with a heap dump: the dumped process
// (name, uid, and its package in package_list), the heap_graph row of the dump — with
// dump_reason 'OOME' when an OutOfMemoryError triggered it — and, for such an error, its
// details (heap_graph_java_oome_details) and the Java callstack of the failing thread
// (heap_graph_thread_callsite, its frames on one placeholder mapping named
// "art_process_metadata", each with a symbol row for its source file and line).

#include <cstdint>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/heap_graph_events.h"

namespace tw {

struct TraceContext;

class ArtProcessMetadataTracker {
 public:
  explicit ArtProcessMetadataTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const ArtProcessMetadataData& data);

 private:
  void AddOomeCallstack(uint32_t heap_graph_id, uint32_t utid,
                        const std::vector<ArtProcessMetadataData::JavaFrame>& frames);
  uint32_t Frame(std::string_view method, const std::optional<std::string>& source_file,
                 std::optional<int32_t> line);
  uint32_t Callsite(std::optional<uint32_t> parent, uint32_t frame, uint32_t depth);

  TraceContext* ctx_;
  std::optional<uint32_t> mapping_;
  // (function, source file, line or -1) → frame; (parent or -1, frame, depth) → callsite.
  absl::flat_hash_map<std::tuple<StringId, StringId, int64_t>, uint32_t> frames_;
  absl::flat_hash_map<std::tuple<int64_t, uint32_t, uint32_t>, uint32_t> callsites_;
};

}  // namespace tw

#pragma once
// Tracks implied by legacy (Chrome JSON-era) TrackEvent phases rather than by descriptors:
//  - async events ('b'/'e'/'n', 'S'/'T'/'p'/'F') go on tracks identified by their id: global
//    for unscoped/global ids, per process for local ids; concurrent ids get separate tracks of
//    one set, named after the first event seen with that id;
//  - global / process-scoped instant events ('i'/'I' with a scope);
//  - per-thread thread_time / thread_instruction_count counters from legacy fields.

#include <cstdint>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/storage/string_pool.h"
#include "libs/trace/trackers/async_track_sets.h"

namespace tw {

struct TraceContext;

class LegacyEventTracks {
 public:
  enum class AsyncUse : uint8_t { kBegin, kEnd, kInstant };

  LegacyEventTracks(TraceContext* ctx, AsyncTrackSets* sets) : ctx_(ctx), sets_(sets) {}

  // `scope` separates id spaces (the category or name, plus an explicit id_scope).
  uint32_t AsyncTrack(StringId name, uint32_t upid, int64_t trace_id, bool process_scoped,
                      StringId scope, AsyncUse use);
  uint32_t GlobalInstantTrack();
  uint32_t ProcessInstantTrack(uint32_t upid);
  uint32_t ThreadTimeTrack(uint32_t utid);
  uint32_t ThreadInstructionCountTrack(uint32_t utid);

 private:
  TraceContext* ctx_;
  AsyncTrackSets* sets_;
  absl::flat_hash_map<std::pair<uint32_t, int64_t>, StringId> process_root_names_;
  absl::flat_hash_map<int64_t, StringId> global_root_names_;
  std::optional<uint32_t> global_instants_;
  absl::flat_hash_map<uint32_t, uint32_t> process_instants_;
};

}  // namespace tw

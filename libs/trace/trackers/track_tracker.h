#pragma once
// Creates tracks (the timelines slices and counters live on) once per identity: a thread's
// slice track, a process's named async track, a cpu's counter of some kind, and so on. Each
// track records its dimensions both as args (dimension_arg_set_id, as trace_processor does)
// and in denormalised columns the typed views read directly.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/args_tracker.h"

namespace tw {

class TrackTracker {
 public:
  TrackTracker(TraceStorage* storage, ArgsTracker* args);

  // The track of type `type` with dimensions `dims` (trace_processor's blueprints: a track is
  // identified by its type and its dimension values, stored in blueprint order as the
  // dimension_arg_set_id args; "utid" / "upid" / "cpu" also fill the typed views' columns).
  // Created on first use with `name` and `unit`.
  uint32_t InternTrack(std::string_view type, std::string_view event_type, StringId name,
                       const std::vector<Arg>& dims, StringId unit = kNullStringId);
  // Dimension args with interned keys.
  Arg Dim(std::string_view key, int64_t value);
  Arg DimString(std::string_view key, StringId value);
  Arg DimUint(std::string_view key, uint64_t value);

  // thread_execution: the slice track of a thread (dimension utid).
  uint32_t InternThreadTrack(uint32_t utid);
  // A slice track of a process keyed by name (dimensions upid, name).
  uint32_t InternProcessTrack(uint32_t upid, StringId name, std::string_view type);
  // A global slice track; `name_is_dimension` when the name tells tracks of the type apart.
  uint32_t InternGlobalTrack(StringId name, std::string_view type, bool name_is_dimension);
  // A slice track per cpu (dimension cpu).
  uint32_t InternCpuTrack(uint32_t cpu, StringId name, std::string_view type);

  // Counter tracks: the scope's dimension first (cpu / upid / utid), then `extra`.
  uint32_t InternGlobalCounterTrack(StringId name, std::string_view type,
                                    StringId unit = kNullStringId,
                                    const std::vector<Arg>& extra = {});
  uint32_t InternCpuCounterTrack(uint32_t cpu, StringId name, std::string_view type,
                                 StringId unit = kNullStringId,
                                 const std::vector<Arg>& extra = {});
  uint32_t InternProcessCounterTrack(uint32_t upid, StringId name, std::string_view type,
                                     StringId unit = kNullStringId,
                                     const std::vector<Arg>& extra = {});
  uint32_t InternThreadCounterTrack(uint32_t utid, StringId name, std::string_view type,
                                    StringId unit = kNullStringId,
                                    const std::vector<Arg>& extra = {});

  // The machine whose events are being turned into rows (machine.id; 0 is the host): tracks
  // interned while it is set belong to it, as trace_processor keeps one track set per machine.
  void set_machine(uint32_t machine) { machine_ = machine; }

  // A track with no identity to dedupe by (track_event descriptors manage their own).
  uint32_t CreateTrack(StringId name, std::string_view type, std::string_view event_type);

 private:
  TraceStorage* storage_;
  ArgsTracker* args_;
  absl::flat_hash_map<std::string, uint32_t> tracks_;  // type + dimension values → track
  // utid → its thread_execution track (UINT32_MAX: not interned yet). Every atrace and
  // track-less slice event asks for one; this skips building the string key each time.
  std::vector<uint32_t> thread_tracks_;
  StringId utid_key_, upid_key_, cpu_key_, name_key_;
  uint32_t machine_ = 0;
};

}  // namespace tw

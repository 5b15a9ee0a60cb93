#pragma once
// Everything a new row of the track table needs, for trackers that create tracks whose identity
// they manage themselves (track-event descriptor tracks, compressed async track sets).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/args_tracker.h"

namespace tw {

struct TrackSpec {
  StringId name = kNullStringId;
  std::string_view type;                 // trace_processor's track type (blueprint name)
  std::string_view event_type = "slice"; // 'slice' | 'counter' | 'state'
  std::optional<uint32_t> utid;          // denormalised dimensions the typed views read
  std::optional<uint32_t> upid;
  StringId unit = kNullStringId;
  std::vector<Arg> dimensions;           // dimension_arg_set_id, in blueprint order
  std::vector<Arg> source_args;          // source_arg_set_id
  std::optional<uint32_t> parent_id;
  std::optional<int64_t> track_group_id;
};

inline uint32_t CreateTrack(TraceStorage* storage, ArgsTracker* args, const TrackSpec& spec) {
  TrackTable& t = storage->track;
  const uint32_t id = t.Insert({.name = spec.name,
                                .type = storage->Intern(spec.type),
                                .event_type = storage->Intern(spec.event_type)});
  if (spec.utid) t.utid.Set(id, *spec.utid);
  if (spec.upid) t.upid.Set(id, *spec.upid);
  if (spec.unit != kNullStringId) t.counter_unit.Set(id, spec.unit);
  if (auto set = args->AddArgSet(spec.dimensions)) t.dimension_arg_set_id.Set(id, *set);
  if (auto set = args->AddArgSet(spec.source_args)) t.source_arg_set_id.Set(id, *set);
  if (spec.parent_id) t.parent_id.Set(id, *spec.parent_id);
  if (spec.track_group_id) t.track_group_id.Set(id, *spec.track_group_id);
  return id;
}

}  // namespace tw

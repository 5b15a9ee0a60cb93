#include "libs/trace/trackers/track_tracker.h"

namespace tw {
namespace {
enum Kind { kThreadSlice, kProcessSlice, kGlobalSlice, kCpuSlice, kGlobalCounter, kCpuCounter,
            kProcessCounter, kThreadCounter };
}

TrackTracker::TrackTracker(TraceStorage* storage, ArgsTracker* args)
    : storage_(storage), args_(args) {}

uint32_t TrackTracker::Intern(const Key& key, StringId name, std::string_view type,
                              std::string_view event_type, std::optional<uint32_t> utid,
                              std::optional<uint32_t> upid, std::optional<uint32_t> cpu,
                              StringId unit) {
  auto it = tracks_.find(key);
  if (it != tracks_.end()) return it->second;
  TrackTable& t = storage_->track;
  const uint32_t id = t.Insert(
      {.name = name, .type = storage_->Intern(type), .event_type = storage_->Intern(event_type)});
  std::vector<Arg> dims;
  if (cpu) {
    t.cpu.Set(id, *cpu);
    dims.push_back(args_->MakeArg("cpu", ArgValue::Int(*cpu)));
  }
  if (upid) {
    t.upid.Set(id, *upid);
    dims.push_back(args_->MakeArg("upid", ArgValue::Int(*upid)));
  }
  if (utid) {
    t.utid.Set(id, *utid);
    dims.push_back(args_->MakeArg("utid", ArgValue::Int(*utid)));
  }
  if (auto set = args_->AddArgSet(dims)) t.dimension_arg_set_id.Set(id, *set);
  if (unit != kNullStringId) t.counter_unit.Set(id, unit);
  tracks_.emplace(key, id);
  return id;
}

uint32_t TrackTracker::InternThreadTrack(uint32_t utid) {
  return Intern({kThreadSlice, utid, kNullStringId, kNullStringId}, kNullStringId, "thread",
                "slice", utid, std::nullopt, std::nullopt, kNullStringId);
}

uint32_t TrackTracker::InternProcessTrack(uint32_t upid, StringId name, std::string_view type) {
  const StringId type_id = storage_->Intern(type);
  return Intern({kProcessSlice, upid, name, type_id}, name, type, "slice", std::nullopt, upid,
                std::nullopt, kNullStringId);
}

uint32_t TrackTracker::InternGlobalTrack(StringId name, std::string_view type) {
  const StringId type_id = storage_->Intern(type);
  return Intern({kGlobalSlice, 0, name, type_id}, name, type, "slice", std::nullopt,
                std::nullopt, std::nullopt, kNullStringId);
}

uint32_t TrackTracker::InternCpuTrack(uint32_t cpu, StringId name, std::string_view type) {
  const StringId type_id = storage_->Intern(type);
  return Intern({kCpuSlice, cpu, name, type_id}, name, type, "slice", std::nullopt,
                std::nullopt, cpu, kNullStringId);
}

uint32_t TrackTracker::InternGlobalCounterTrack(StringId name, std::string_view type,
                                                StringId unit) {
  const StringId type_id = storage_->Intern(type);
  return Intern({kGlobalCounter, 0, name, type_id}, name, type, "counter", std::nullopt,
                std::nullopt, std::nullopt, unit);
}

uint32_t TrackTracker::InternCpuCounterTrack(uint32_t cpu, StringId name, std::string_view type,
                                             StringId unit) {
  const StringId type_id = storage_->Intern(type);
  return Intern({kCpuCounter, cpu, name, type_id}, name, type, "counter", std::nullopt,
                std::nullopt, cpu, unit);
}

uint32_t TrackTracker::InternProcessCounterTrack(uint32_t upid, StringId name,
                                                 std::string_view type, StringId unit) {
  const StringId type_id = storage_->Intern(type);
  return Intern({kProcessCounter, upid, name, type_id}, name, type, "counter", std::nullopt,
                upid, std::nullopt, unit);
}

uint32_t TrackTracker::InternThreadCounterTrack(uint32_t utid, StringId name,
                                                std::string_view type) {
  const StringId type_id = storage_->Intern(type);
  return Intern({kThreadCounter, utid, name, type_id}, name, type, "counter", utid,
                std::nullopt, std::nullopt, kNullStringId);
}

std::vector<TrackTracker::AsyncSlot>& TrackTracker::AsyncSet(uint32_t upid, StringId name,
                                                             std::string_view type) {
  return async_sets_[Key{kProcessSlice, upid, name, storage_->Intern(type)}];
}

uint32_t TrackTracker::NewAsyncTrack(uint32_t upid, StringId name, std::string_view type) {
  const uint32_t track = CreateTrack(name, type, "slice");
  storage_->track.upid.Set(track, upid);
  if (auto dims = args_->AddArgSet({args_->MakeArg("upid", ArgValue::Int(upid)),
                                    args_->MakeArg("name", ArgValue::String(name))})) {
    storage_->track.dimension_arg_set_id.Set(track, *dims);
  }
  return track;
}

std::optional<uint32_t> TrackTracker::InternAsyncBegin(uint32_t upid, StringId name,
                                                       int64_t cookie, std::string_view type) {
  std::vector<AsyncSlot>& set = AsyncSet(upid, name, type);
  for (const AsyncSlot& slot : set) {
    if (slot.cookie == cookie) return std::nullopt;
  }
  for (AsyncSlot& slot : set) {
    if (!slot.cookie) {
      slot.cookie = cookie;
      return slot.track;
    }
  }
  const uint32_t track = NewAsyncTrack(upid, name, type);
  set.push_back({track, cookie});
  return track;
}

std::optional<uint32_t> TrackTracker::InternAsyncEnd(uint32_t upid, StringId name,
                                                     int64_t cookie, std::string_view type) {
  std::vector<AsyncSlot>& set = AsyncSet(upid, name, type);
  for (AsyncSlot& slot : set) {
    if (slot.cookie == cookie) {
      slot.cookie.reset();
      return slot.track;
    }
  }
  return std::nullopt;
}

uint32_t TrackTracker::InternAsyncInstant(uint32_t upid, StringId name, std::string_view type) {
  std::vector<AsyncSlot>& set = AsyncSet(upid, name, type);
  for (AsyncSlot& slot : set) {
    if (!slot.cookie) return slot.track;
  }
  // Every slot is busy: add one and leave it free.
  const uint32_t track = NewAsyncTrack(upid, name, type);
  set.push_back({track, std::nullopt});
  return track;
}

uint32_t TrackTracker::CreateTrack(StringId name, std::string_view type,
                                   std::string_view event_type) {
  return storage_->track.Insert(
      {.name = name, .type = storage_->Intern(type), .event_type = storage_->Intern(event_type)});
}

}  // namespace tw

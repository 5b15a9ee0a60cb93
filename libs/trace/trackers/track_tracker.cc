#include "libs/trace/trackers/track_tracker.h"

#include "libs/trace/trackers/track_descriptions.h"

namespace tw {

TrackTracker::TrackTracker(TraceStorage* storage, ArgsTracker* args)
    : storage_(storage),
      args_(args),
      utid_key_(storage->Intern("utid")),
      upid_key_(storage->Intern("upid")),
      cpu_key_(storage->Intern("cpu")),
      name_key_(storage->Intern("name")) {}

Arg TrackTracker::Dim(std::string_view key, int64_t value) {
  return args_->MakeArg(key, ArgValue::Int(value));
}

Arg TrackTracker::DimUint(std::string_view key, uint64_t value) {
  return args_->MakeArg(key, ArgValue::Uint(value));
}

Arg TrackTracker::DimString(std::string_view key, StringId value) {
  return args_->MakeArg(key, ArgValue::String(value));
}

uint32_t TrackTracker::InternTrack(std::string_view type, std::string_view event_type,
                                   StringId name, const std::vector<Arg>& dims, StringId unit) {
  const StringId type_id = storage_->Intern(type);
  std::string key;
  key.reserve(8 + dims.size() * 24);
  auto put = [&key](uint64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
  put(type_id);
  put(machine_);
  for (const Arg& d : dims) {
    put(d.key);
    put(static_cast<uint64_t>(d.value.type));
    put(static_cast<uint64_t>(d.value.int_value));
    put(d.value.string_value);
  }
  auto it = tracks_.find(key);
  if (it != tracks_.end()) return it->second;
  TrackTable& t = storage_->track;
  const uint32_t id =
      t.Insert({.name = name, .type = type_id, .event_type = storage_->Intern(event_type)});
  if (machine_ != 0) t.machine_id.Set(id, machine_);
  for (const Arg& d : dims) {
    if (d.value.type != ArgValue::Type::kInt) continue;
    const uint32_t v = static_cast<uint32_t>(d.value.int_value);
    if (d.key == utid_key_) t.utid.Set(id, v);
    if (d.key == upid_key_) t.upid.Set(id, v);
    if (d.key == cpu_key_) t.cpu.Set(id, v);
  }
  if (auto set = args_->AddArgSet(dims)) t.dimension_arg_set_id.Set(id, *set);
  if (unit != kNullStringId) t.counter_unit.Set(id, unit);
  // A kind of track told apart by one string dimension may explain itself.
  for (const Arg& d : dims) {
    if (d.value.type != ArgValue::Type::kString) continue;
    if (auto text = TrackDescription(type, storage_->Str(d.value.string_value))) {
      if (auto set = args_->AddArgSet(
              {args_->MakeArg("description", ArgValue::String(storage_->Intern(*text)))})) {
        t.source_arg_set_id.Set(id, *set);
      }
    }
    break;
  }
  tracks_.emplace(std::move(key), id);
  return id;
}

uint32_t TrackTracker::InternThreadTrack(uint32_t utid) {
  // The cache holds the host's tracks only: a remote machine's track has its own identity.
  if (machine_ != 0) {
    return InternTrack("thread_execution", "slice", kNullStringId, {Dim("utid", utid)});
  }
  if (utid >= thread_tracks_.size()) thread_tracks_.resize(utid + 1, UINT32_MAX);
  uint32_t& track = thread_tracks_[utid];
  if (track == UINT32_MAX) {
    track = InternTrack("thread_execution", "slice", kNullStringId, {Dim("utid", utid)});
  }
  return track;
}

uint32_t TrackTracker::InternProcessTrack(uint32_t upid, StringId name, std::string_view type) {
  return InternTrack(type, "slice", name, {Dim("upid", upid), DimString("name", name)});
}

uint32_t TrackTracker::InternGlobalTrack(StringId name, std::string_view type,
                                         bool name_is_dimension) {
  if (name_is_dimension) return InternTrack(type, "slice", name, {DimString("name", name)});
  return InternTrack(type, "slice", name, {});
}

uint32_t TrackTracker::InternCpuTrack(uint32_t cpu, StringId name, std::string_view type) {
  return InternTrack(type, "slice", name, {Dim("cpu", cpu)});
}

namespace {
std::vector<Arg> Concat(Arg first, const std::vector<Arg>& extra) {
  std::vector<Arg> dims;
  dims.reserve(extra.size() + 1);
  dims.push_back(first);
  dims.insert(dims.end(), extra.begin(), extra.end());
  return dims;
}
}  // namespace

uint32_t TrackTracker::InternGlobalCounterTrack(StringId name, std::string_view type,
                                                StringId unit, const std::vector<Arg>& extra) {
  return InternTrack(type, "counter", name, extra, unit);
}

uint32_t TrackTracker::InternCpuCounterTrack(uint32_t cpu, StringId name, std::string_view type,
                                             StringId unit, const std::vector<Arg>& extra) {
  return InternTrack(type, "counter", name, Concat(Dim("cpu", cpu), extra), unit);
}

uint32_t TrackTracker::InternProcessCounterTrack(uint32_t upid, StringId name,
                                                 std::string_view type, StringId unit,
                                                 const std::vector<Arg>& extra) {
  return InternTrack(type, "counter", name, Concat(Dim("upid", upid), extra), unit);
}

uint32_t TrackTracker::InternThreadCounterTrack(uint32_t utid, StringId name,
                                                std::string_view type, StringId unit,
                                                const std::vector<Arg>& extra) {
  return InternTrack(type, "counter", name, Concat(Dim("utid", utid), extra), unit);
}

uint32_t TrackTracker::CreateTrack(StringId name, std::string_view type,
                                   std::string_view event_type) {
  return storage_->track.Insert(
      {.name = name, .type = storage_->Intern(type), .event_type = storage_->Intern(event_type)});
}

}  // namespace tw

#include "libs/trace/trackers/gpu_tracker.h"

namespace tw {

uint32_t GpuTracker::GetOrCreateGpu(int64_t gpu_id) {
  auto it = gpus_.find(gpu_id);
  if (it != gpus_.end()) return it->second;
  const uint32_t row = ctx_->storage->gpu.Insert({.gpu = static_cast<uint32_t>(gpu_id)});
  gpus_.emplace(gpu_id, row);
  return row;
}

void GpuTracker::OnEvent(int64_t ts, const GpuEventData& e) {
  switch (e.kind) {
    case GpuEventData::Kind::kCounterDescriptor: return OnDescriptor(e);
    case GpuEventData::Kind::kCounterSamples: return OnSamples(ts, e);
    case GpuEventData::Kind::kGpuInfo: return OnGpuInfo(e);
  }
}

uint32_t GpuTracker::CounterTrackFor(int64_t gpu_id, const GpuEventData::Spec& spec) {
  const uint32_t ugpu = GetOrCreateGpu(gpu_id);
  TrackTracker& tracks = ctx_->tracks;
  const uint32_t track = tracks.InternTrack(
      "gpu_counter", "counter", spec.name,
      {tracks.Dim("ugpu", ugpu), tracks.Dim("gpu", static_cast<uint32_t>(gpu_id)),
       tracks.DimString("name", spec.name)},
      spec.unit);
  TrackTable& t = ctx_->storage->track;
  if (t.source_arg_set_id.IsNull(track)) {
    if (auto set = ctx_->args.AddArgSet(
            {ctx_->args.MakeArg("description", ArgValue::String(spec.description))})) {
      t.source_arg_set_id.Set(track, *set);
    }
  }
  return track;
}

void GpuTracker::OnDescriptor(const GpuEventData& e) {
  CounterMap& counters = e.interned
                             ? interned_counters_[{e.sequence_id, e.generation, e.iid}]
                             : legacy_counters_;
  GpuCounterGroupTable& groups = ctx_->storage->gpu_counter_group;
  // The descriptor's own groups, by id, name the standard groups specs refer to.
  absl::flat_hash_map<int64_t, const GpuEventData::Group*> group_info;
  for (const GpuEventData::Group& g : e.groups) group_info.emplace(g.group_id, &g);
  absl::flat_hash_map<uint32_t, uint32_t> track_of;  // counter_id → track, this descriptor
  for (const GpuEventData::Spec& spec : e.specs) {
    const uint32_t track = CounterTrackFor(e.gpu_id, spec);
    if (track_of.emplace(spec.counter_id, track).second) {
      if (spec.groups.empty()) {
        groups.Insert({.group_id = 0, .track_id = track});  // UNCLASSIFIED
      }
      for (int64_t g : spec.groups) {
        auto it = group_info.find(g);
        groups.Insert(
            {.group_id = g,
             .track_id = track,
             .name = it == group_info.end() ? kNullStringId : it->second->name,
             .description = it == group_info.end() ? kNullStringId : it->second->description});
      }
    }
    counters[spec.counter_id] = CounterTrack{track, spec.forwards_looking};
  }
  // Custom groups list their counters themselves.
  for (const GpuEventData::Group& g : e.groups) {
    for (uint32_t id : g.counter_ids) {
      auto it = track_of.find(id);
      if (it != track_of.end()) groups.Insert({.group_id = g.group_id,
                       .track_id = it->second,
                       .name = g.name,
                       .description = g.description});
    }
  }
}

void GpuTracker::OnSamples(int64_t ts, const GpuEventData& e) {
  const CounterMap* counters = &legacy_counters_;
  if (e.interned) {
    auto it = interned_counters_.find(InternedKey{e.sequence_id, e.generation, e.iid});
    if (it == interned_counters_.end()) return;  // its descriptor was reported missing
    counters = &it->second;
  }
  CounterTable& table = ctx_->storage->counter;
  for (const auto& [counter_id, value] : e.samples) {
    auto it = counters->find(counter_id);
    if (it == counters->end()) {
      // An interned descriptor without this counter is a mismatch; the legacy ones may simply
      // not have been described yet.
      if (e.interned) ctx_->storage->IncrementStat("gpu_counters_invalid_spec");
      continue;
    }
    std::optional<uint32_t>& last = last_sample_[it->second.track];
    if (it->second.forwards_looking) {
      last = table.Insert({.ts = ts, .track_id = it->second.track, .value = value});
    } else {
      const uint32_t row = table.Insert({.ts = ts, .track_id = it->second.track, .value = 0});
      if (last) table.value.Set(*last, value);
      last = row;
    }
  }
}

void GpuTracker::OnGpuInfo(const GpuEventData& e) {
  const uint32_t row = GetOrCreateGpu(e.gpu_id);
  GpuTable& gpu = ctx_->storage->gpu;
  if (e.name != kNullStringId) gpu.name.Set(row, e.name);
  if (e.vendor != kNullStringId) gpu.vendor.Set(row, e.vendor);
  if (e.model != kNullStringId) gpu.model.Set(row, e.model);
  if (e.architecture != kNullStringId) gpu.architecture.Set(row, e.architecture);
  if (e.uuid != kNullStringId) gpu.uuid.Set(row, e.uuid);
  if (e.pci_bdf != kNullStringId) gpu.pci_bdf.Set(row, e.pci_bdf);
  if (auto set = ctx_->args.AddArgSet(e.args)) gpu.arg_set_id.Set(row, *set);
}

}  // namespace tw

#include "libs/trace/trackers/flow_tracker.h"

namespace tw {

FlowTracker::FlowTracker(TraceStorage* storage, ArgsTracker* args, SliceTracker* slices)
    : storage_(storage), args_(args), slices_(slices) {}

std::pair<uint32_t, uint32_t> FlowTracker::Ordered(uint32_t existing, uint32_t incoming) const {
  const int64_t existing_ts = storage_->slice.ts[existing];
  const int64_t incoming_ts = storage_->slice.ts[incoming];
  if (existing_ts > incoming_ts) return {incoming, existing};
  return {existing, incoming};
}

void FlowTracker::Insert(uint64_t id, uint32_t out, uint32_t in) {
  const uint32_t row = storage_->flow.Insert(
      {.slice_out = out, .slice_in = in, .trace_id = static_cast<int64_t>(id)});
  auto v1 = v1_keys_.find(id);
  if (v1 == v1_keys_.end()) return;
  const std::vector<Arg> args = {args_->MakeArg("name", ArgValue::String(v1->second.name)),
                                 args_->MakeArg("cat", ArgValue::String(v1->second.category))};
  if (auto set = args_->AddArgSet(args)) storage_->flow.arg_set_id.Set(row, *set);
}

void FlowTracker::Begin(uint32_t slice, uint64_t id) {
  if (!open_.try_emplace(id, slice).second) storage_->IncrementStat("flow_duplicate_id");
}

void FlowTracker::Step(uint32_t slice, uint64_t id) {
  auto it = open_.find(id);
  if (it == open_.end()) {
    storage_->IncrementStat("flow_step_without_start");
    return;
  }
  const auto [out, in] = Ordered(it->second, slice);
  Insert(id, out, in);
  it->second = slice;
}

void FlowTracker::End(uint32_t slice, uint64_t id, bool close) {
  auto it = open_.find(id);
  if (it == open_.end()) {
    storage_->IncrementStat("flow_end_without_start");
    return;
  }
  const auto [out, in] = Ordered(it->second, slice);
  if (close) open_.erase(it);
  Insert(id, out, in);
}

void FlowTracker::ClosePending(uint32_t slice, uint64_t id) {
  const uint32_t out = open_.try_emplace(id, 0).first->second;
  Insert(id, out, slice);
}

uint64_t FlowTracker::V1FlowId(uint64_t source_id, StringId category, StringId name) {
  const V1Key key{source_id, category, name};
  auto [it, inserted] = v1_ids_.try_emplace(key, next_v1_id_);
  if (inserted) {
    v1_keys_[next_v1_id_] = key;
    ++next_v1_id_;
  }
  return it->second;
}

void FlowTracker::BeginOnTrack(uint32_t track, uint64_t id) {
  const std::optional<uint32_t> slice = slices_->GetTopmostSliceOnTrack(track);
  if (!slice) {
    storage_->IncrementStat("flow_no_enclosing_slice");
    return;
  }
  Begin(*slice, id);
}

void FlowTracker::StepOnTrack(uint32_t track, uint64_t id) {
  const std::optional<uint32_t> slice = slices_->GetTopmostSliceOnTrack(track);
  if (!slice) {
    storage_->IncrementStat("flow_no_enclosing_slice");
    return;
  }
  Step(*slice, id);
}

void FlowTracker::EndOnTrack(uint32_t track, uint64_t id, bool bind_enclosing_slice,
                             bool close) {
  // An end that binds to the *next* slice is never completed by trace_processor either (the
  // next-slice binding is not wired there); it is dropped.
  if (!bind_enclosing_slice) return;
  const std::optional<uint32_t> slice = slices_->GetTopmostSliceOnTrack(track);
  if (!slice) {
    storage_->IncrementStat("flow_no_enclosing_slice");
    return;
  }
  End(*slice, id, close);
}

}  // namespace tw

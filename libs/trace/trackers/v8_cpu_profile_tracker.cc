#include "libs/trace/trackers/v8_cpu_profile_tracker.h"

#include <limits>

#include "libs/trace/trackers/trace_context.h"

namespace tw {

V8CpuProfileTracker::Profile& V8CpuProfileTracker::ProfileFor(uint64_t session, uint32_t pid) {
  auto [it, inserted] = profiles_.try_emplace({session, pid});
  if (inserted) {
    // V8 frames have no addresses: one placeholder mapping spans the whole address space.
    TraceStorage* storage = ctx_->storage;
    if (empty_ == kNullStringId) empty_ = storage->Intern("");
    it->second.mapping = storage->stack_profile_mapping.Insert(
        {.build_id = empty_,
         .exact_offset = 0,
         .start_offset = 0,
         .start = 0,
         .end = static_cast<int64_t>(std::numeric_limits<uint64_t>::max()),
         .load_bias = 0,
         .name = empty_});
  }
  return it->second;
}

uint32_t V8CpuProfileTracker::Frame(Profile& p, StringId name, StringId url) {
  auto [it, inserted] = p.frames.try_emplace({name, url}, 0);
  if (!inserted) return it->second;
  TraceStorage* storage = ctx_->storage;
  // Each frame gets its own symbol set naming the function and its script.
  const uint32_t symbol_set = storage->stack_profile_symbol.row_count();
  storage->stack_profile_symbol.Insert(
      {.symbol_set_id = symbol_set, .name = name, .source_file = url});
  it->second = storage->stack_profile_frame.Insert(
      {.name = name, .mapping = p.mapping, .rel_pc = 0, .symbol_set_id = symbol_set});
  return it->second;
}

uint32_t V8CpuProfileTracker::Callsite(std::optional<uint32_t> parent, uint32_t frame,
                                       uint32_t depth) {
  const int64_t parent_key = parent ? static_cast<int64_t>(*parent) : -1;
  auto [it, inserted] = callsite_ids_.try_emplace({parent_key, frame, depth}, 0);
  if (inserted) {
    it->second = ctx_->storage->stack_profile_callsite.Insert(
        {.depth = depth, .parent_id = parent, .frame_id = frame});
  }
  return it->second;
}

void V8CpuProfileTracker::OnNodes(const V8CpuProfileData& data) {
  Profile& p = ProfileFor(data.session_id, data.pid);
  StackProfileCallsiteTable& callsites = ctx_->storage->stack_profile_callsite;
  for (const V8CpuProfileData::Node& n : data.nodes) {
    if (n.reparent) {
      // A node defined before the node naming it as a child: it moves under that node.
      auto child = p.callsites.find(n.id);
      auto parent = p.callsites.find(*n.parent);
      if (child == p.callsites.end() || parent == p.callsites.end()) continue;
      callsites.depth.Set(child->second, n.depth);
      callsites.parent_id.Set(child->second, parent->second);
      continue;
    }
    const uint32_t frame = Frame(p, n.function_name, n.url);
    if (n.frame_only) continue;
    std::optional<uint32_t> parent;
    if (n.parent) {
      auto it = p.callsites.find(*n.parent);
      if (it == p.callsites.end()) continue;  // the importer checked it: not expected
      parent = it->second;
    }
    p.callsites[n.id] = Callsite(parent, frame, n.depth);
  }
}

void V8CpuProfileTracker::OnSample(int64_t ts, const V8CpuProfileData& data) {
  auto profile = profiles_.find({data.session_id, data.pid});
  std::optional<uint32_t> callsite;
  if (profile != profiles_.end()) {
    if (auto it = profile->second.callsites.find(data.node_id);
        it != profile->second.callsites.end()) {
      callsite = it->second;
    }
  }
  TraceStorage* storage = ctx_->storage;
  if (!callsite) {
    storage->IncrementStat("legacy_v8_cpu_profile_invalid_sample");
    return;
  }
  const uint32_t utid = ctx_->processes.UpdateThread(data.tid, data.pid);
  ctx_->processes.GetOrCreateProcess(data.pid);
  storage->cpu_profile_stack_sample.Insert(
      {.ts = ts, .callsite_id = *callsite, .utid = utid, .process_priority = 0});
  storage->ExtendBounds(ts);
}

void V8CpuProfileTracker::OnEvent(int64_t ts, const V8CpuProfileData& data) {
  switch (data.kind) {
    case V8CpuProfileData::Kind::kSession:
      ProfileFor(data.session_id, data.pid);
      return;
    case V8CpuProfileData::Kind::kNodes:
      OnNodes(data);
      return;
    case V8CpuProfileData::Kind::kSample:
      OnSample(ts, data);
      return;
  }
}

}  // namespace tw

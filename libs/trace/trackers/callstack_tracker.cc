#include "libs/trace/trackers/callstack_tracker.h"

#include <limits>

namespace tw {

std::optional<uint32_t> CallstackTracker::InternCallstack(
    const std::vector<CallstackFrame>& frames) {
  std::optional<uint32_t> callsite;
  uint32_t depth = 0;
  for (const CallstackFrame& f : frames) callsite = Callsite(callsite, Frame(f), depth++);
  return callsite;
}

uint32_t CallstackTracker::InlineMapping() {
  if (!inline_mapping_) {
    const StringId empty = storage_->Intern("");
    inline_mapping_ = storage_->stack_profile_mapping.Insert(
        {.build_id = empty,
         .exact_offset = 0,
         .start_offset = 0,
         .start = 0,
         .end = static_cast<int64_t>(std::numeric_limits<uint64_t>::max()),
         .load_bias = 0,
         .name = storage_->Intern("track_event_inline")});
  }
  return *inline_mapping_;
}

uint32_t CallstackTracker::Mapping(const CallstackFrame::Mapping& m) {
  auto [it, inserted] = mappings_.try_emplace(
      {m.build_id, m.name, m.exact_offset, m.start_offset, m.start, m.end, m.load_bias}, 0);
  if (!inserted) return it->second;
  it->second = storage_->stack_profile_mapping.Insert(
      {.build_id = m.build_id == kNullStringId ? storage_->Intern("") : m.build_id,
       .exact_offset = static_cast<int64_t>(m.exact_offset),
       .start_offset = static_cast<int64_t>(m.start_offset),
       .start = static_cast<int64_t>(m.start),
       .end = static_cast<int64_t>(m.end),
       .load_bias = static_cast<int64_t>(m.load_bias),
       .name = m.name});
  return it->second;
}

uint32_t CallstackTracker::Frame(const CallstackFrame& f) {
  if (f.is_inline) {
    const int64_t line = f.line_number ? static_cast<int64_t>(*f.line_number) : -1;
    auto [it, inserted] = inline_frames_.try_emplace({f.function_name, f.source_file, line}, 0);
    if (!inserted) return it->second;
    // Its source location lives in a symbol set of its own.
    const uint32_t symbol_set = storage_->stack_profile_symbol.row_count();
    storage_->stack_profile_symbol.Insert({.symbol_set_id = symbol_set,
                                           .name = f.function_name,
                                           .source_file = f.source_file,
                                           .line_number = f.line_number});
    it->second = storage_->stack_profile_frame.Insert({.name = f.function_name,
                                                       .mapping = InlineMapping(),
                                                       .rel_pc = 0,
                                                       .symbol_set_id = symbol_set});
    return it->second;
  }
  const uint32_t mapping = Mapping(f.mapping);
  auto [it, inserted] = frames_.try_emplace({mapping, f.rel_pc, f.function_name}, 0);
  if (inserted) {
    it->second = storage_->stack_profile_frame.Insert(
        {.name = f.function_name, .mapping = mapping, .rel_pc = static_cast<int64_t>(f.rel_pc)});
  }
  return it->second;
}

uint32_t CallstackTracker::Callsite(std::optional<uint32_t> parent, uint32_t frame,
                                    uint32_t depth) {
  const int64_t parent_key = parent ? static_cast<int64_t>(*parent) : -1;
  auto [it, inserted] = callsites_.try_emplace({parent_key, frame, depth}, 0);
  if (inserted) {
    it->second = storage_->stack_profile_callsite.Insert(
        {.depth = depth, .parent_id = parent, .frame_id = frame});
  }
  return it->second;
}

}  // namespace tw

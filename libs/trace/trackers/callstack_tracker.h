#pragma once
// Turns the callstacks events carry (today: track events' TrackEvent.callstack / callstack_iid)
// into stack_profile rows, as trace_processor does: a mapping per binary (inline frames share
// one placeholder mapping, "track_event_inline", spanning every address), a frame per function
// location in a mapping (inline frames also get a symbol row with their source file and line),
// and a callsite per distinct (parent callsite, frame, depth) — so equal callstacks share one
// leaf callsite.

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class CallstackTracker {
 public:
  explicit CallstackTracker(TraceStorage* storage) : storage_(storage) {}

  // The leaf callsite (stack_profile_callsite.id) of `frames`, outermost first; nullopt when
  // there are none.
  std::optional<uint32_t> InternCallstack(const std::vector<CallstackFrame>& frames);
  // The stack_profile_frame row of `frame` (and its mapping), made on first sight: profilers
  // that define frames before callstacks (heapprofd) get rows in definition order.
  uint32_t InternFrame(const CallstackFrame& frame) { return Frame(frame); }

 private:
  uint32_t InlineMapping();
  uint32_t Mapping(const CallstackFrame::Mapping& m);
  uint32_t Frame(const CallstackFrame& f);
  uint32_t Callsite(std::optional<uint32_t> parent, uint32_t frame, uint32_t depth);

  TraceStorage* storage_;
  std::optional<uint32_t> inline_mapping_;
  // Mappings by what describes them: (build id, name, exact offset, start offset, start, end,
  // load bias) → mapping.
  absl::flat_hash_map<
      std::tuple<StringId, StringId, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t>, uint32_t>
      mappings_;
  // Inline frames: (function, source file, line or -1) → frame.
  absl::flat_hash_map<std::tuple<StringId, StringId, int64_t>, uint32_t> inline_frames_;
  // Frames in a mapping: (mapping, rel_pc, function) → frame.
  absl::flat_hash_map<std::tuple<uint32_t, uint64_t, StringId>, uint32_t> frames_;
  // (parent callsite or -1, frame, depth) → callsite.
  absl::flat_hash_map<std::tuple<int64_t, uint32_t, uint32_t>, uint32_t> callsites_;
};

}  // namespace tw

#pragma once
// Turns raw_syscalls sys_enter/sys_exit into slices named "sys_<name>" on the thread's track.
// An atrace marker written inside a sys_write ends that write's slice at the marker (the
// write is how the marker reached the kernel), as trace_processor does.

#include <cstdint>
#include <vector>

#include "libs/trace/trackers/slice_tracker.h"
#include "libs/trace/trackers/syscall_names.h"
#include "libs/trace/trackers/track_tracker.h"

namespace tw {

class SyscallTracker {
 public:
  SyscallTracker(TraceStorage* storage, TrackTracker* tracks, SliceTracker* slices);

  void set_arch(SyscallArch arch) { arch_ = arch; }
  void Enter(int64_t ts, uint32_t utid, int64_t number);
  void Exit(int64_t ts, uint32_t utid, int64_t number);
  // Called before an atrace marker of `utid` is processed.
  void MaybeTruncateOngoingWrite(int64_t ts, uint32_t utid);

 private:
  StringId NameOf(int64_t number);

  TraceStorage* storage_;
  TrackTracker* tracks_;
  SliceTracker* slices_;
  SyscallArch arch_ = SyscallArch::kUnknown;
  std::vector<StringId> names_;  // by number, for the current arch
  std::vector<bool> in_write_;   // by utid
  StringId write_ = kNullStringId;
  StringId rt_sigreturn_ = kNullStringId;
};

}  // namespace tw

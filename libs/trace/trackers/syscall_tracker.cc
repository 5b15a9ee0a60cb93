#include "libs/trace/trackers/syscall_tracker.h"

#include <string>

namespace tw {
namespace {
constexpr int64_t kMaxSyscalls = 4096;
}

SyscallTracker::SyscallTracker(TraceStorage* storage, TrackTracker* tracks,
                               SliceTracker* slices)
    : storage_(storage), tracks_(tracks), slices_(slices) {}

StringId SyscallTracker::NameOf(int64_t number) {
  if (number < 0 || number >= kMaxSyscalls) return kNullStringId;
  if (names_.empty()) {
    write_ = storage_->Intern("sys_write");
    rt_sigreturn_ = storage_->Intern("sys_rt_sigreturn");
  }
  if (static_cast<size_t>(number) >= names_.size()) names_.resize(number + 1, kNullStringId);
  StringId& id = names_[number];
  if (id == kNullStringId) {
    const std::string_view name = SyscallName(arch_, static_cast<uint32_t>(number));
    id = storage_->Intern(name.empty() ? "sys_" + std::to_string(number)
                                       : "sys_" + std::string(name));
  }
  return id;
}

void SyscallTracker::Enter(int64_t ts, uint32_t utid, int64_t number) {
  const StringId name = NameOf(number);
  if (name == kNullStringId) return;
  const uint32_t track = tracks_->InternThreadTrack(utid);
  if (name == rt_sigreturn_) {
    // Never returns: a zero-length slice rather than one left open.
    slices_->Scoped(ts, track, kNullStringId, name, 0, {});
    return;
  }
  slices_->Begin(ts, track, kNullStringId, name, {});
  if (name == write_) {
    if (utid >= in_write_.size()) in_write_.resize(utid + 1);
    in_write_[utid] = true;
  }
}

void SyscallTracker::Exit(int64_t ts, uint32_t utid, int64_t number) {
  const StringId name = NameOf(number);
  if (name == kNullStringId) return;
  if (name == write_) {
    // Already ended by an atrace marker written through it.
    if (utid >= in_write_.size() || !in_write_[utid]) return;
    in_write_[utid] = false;
  }
  slices_->End(ts, tracks_->InternThreadTrack(utid), kNullStringId, name, {});
}

void SyscallTracker::MaybeTruncateOngoingWrite(int64_t ts, uint32_t utid) {
  if (utid >= in_write_.size() || !in_write_[utid]) return;
  in_write_[utid] = false;
  slices_->End(ts, tracks_->InternThreadTrack(utid), kNullStringId, write_, {});
}

}  // namespace tw

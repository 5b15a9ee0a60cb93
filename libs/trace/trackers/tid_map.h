#pragma once
// tid → utid of the thread a tid currently names. ProcessTracker asks it for nearly every
// scheduler event (the next thread of a switch, the wakee of a waking, the pid of every other
// ftrace event), so the common case is two dependent loads: a Linux tid is below pid_max
// (at most 2^22), and those tids live in 4096-entry pages allocated on first use, so memory
// follows the tid ranges a trace uses. Other tids (negative, or the 64-bit ids of JSON and
// synthetic traces) go to a hash map.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace tw {

class TidMap {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // The utid `tid` names, or kNone.
  uint32_t Find(int64_t tid) const {
    if (IsDense(tid)) {
      const uint64_t t = static_cast<uint64_t>(tid);
      const std::unique_ptr<uint32_t[]>& page = pages_[t >> kPageShift];
      return page ? page[t & kPageMask] : kNone;
    }
    auto it = sparse_.find(tid);
    return it == sparse_.end() ? kNone : it->second;
  }
  bool Contains(int64_t tid) const { return Find(tid) != kNone; }

  void Set(int64_t tid, uint32_t utid) {
    if (!IsDense(tid)) {
      sparse_[tid] = utid;
      return;
    }
    const uint64_t t = static_cast<uint64_t>(tid);
    std::unique_ptr<uint32_t[]>& page = pages_[t >> kPageShift];
    if (!page) {
      page = std::make_unique<uint32_t[]>(kPageSize);
      std::fill(page.get(), page.get() + kPageSize, kNone);
    }
    page[t & kPageMask] = utid;
  }

  void Erase(int64_t tid) {
    if (!IsDense(tid)) {
      sparse_.erase(tid);
      return;
    }
    const uint64_t t = static_cast<uint64_t>(tid);
    if (const std::unique_ptr<uint32_t[]>& page = pages_[t >> kPageShift]) {
      page[t & kPageMask] = kNone;
    }
  }

 private:
  static constexpr uint32_t kDenseBits = 22;  // PID_MAX_LIMIT on 64-bit Linux is 2^22
  static constexpr uint32_t kPageShift = 12;
  static constexpr uint32_t kPageSize = 1u << kPageShift;
  static constexpr uint32_t kPageMask = kPageSize - 1;

  static bool IsDense(int64_t tid) {
    return static_cast<uint64_t>(tid) < (uint64_t{1} << kDenseBits);
  }

  std::vector<std::unique_ptr<uint32_t[]>> pages_ =
      std::vector<std::unique_ptr<uint32_t[]>>(size_t{1} << (kDenseBits - kPageShift));
  absl::flat_hash_map<int64_t, uint32_t> sparse_;
};

}  // namespace tw

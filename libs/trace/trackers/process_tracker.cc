#include "libs/trace/trackers/process_tracker.h"

#include <algorithm>

namespace tw {

ProcessTracker::ProcessTracker(TraceStorage* storage) : storage_(storage) {
  // Row 0 of process and thread: the idle task. It only becomes reachable through pid/tid 0
  // once a kernel data source says so (SetPidZeroIsUpidZeroIdleProcess).
  const uint32_t upid = storage_->process.Insert({.pid = 0});
  const uint32_t utid = storage_->thread.Insert({.tid = 0});
  storage_->thread.upid.Set(utid, upid);
  storage_->thread.is_main_thread.Set(utid, 1);
  storage_->thread.is_idle.Set(utid, 1);
  thread_names_.emplace_back();
  process_name_priority_.push_back(ProcessNamePriority::kOther);
}

void ProcessTracker::SetPidZeroIsUpidZeroIdleProcess() {
  if (live_tid_.Contains(0)) return;
  tids_[0] = {0};
  live_tid_.Set(0, 0);
  pids_[0] = 0;
  UpdateThreadName(0, storage_->Intern("swapper"), ThreadNamePriority::kTraceProcessorConstant);
}

uint32_t ProcessTracker::StartNewThread(std::optional<int64_t> ts, int64_t tid) {
  const uint32_t utid = storage_->thread.Insert({.tid = tid});
  if (ts) storage_->thread.start_ts.Set(utid, *ts);
  tids_[tid].push_back(utid);
  live_tid_.Set(tid, utid);
  thread_names_.resize(utid + 1);
  return utid;
}

void ProcessTracker::EndThread(int64_t ts, int64_t tid) {
  const std::optional<uint32_t> utid = GetThreadOrNull(tid);
  if (!utid) return;
  ThreadTable& threads = storage_->thread;
  threads.end_ts.Set(*utid, ts);
  auto& list = tids_[tid];
  list.erase(std::remove(list.begin(), list.end(), *utid), list.end());
  RefreshLiveTid(tid);
  const std::optional<uint32_t> upid = threads.upid.Get(*utid);
  if (!upid) return;
  if (storage_->process.pid[*upid] != tid) return;
  // The main thread ending ends the process.
  storage_->process.end_ts.Set(*upid, ts);
  pids_.erase(tid);
  InvalidateProcessThreads(*upid);
}

bool ProcessTracker::IsThreadAlive(uint32_t utid) const {
  const ThreadTable& threads = storage_->thread;
  if (!threads.end_ts.IsNull(utid)) return false;
  const std::optional<uint32_t> upid = threads.upid.Get(utid);
  if (!upid) return true;
  if (!storage_->process.end_ts.IsNull(*upid)) return false;
  auto it = pids_.find(storage_->process.pid[*upid]);
  return it == pids_.end() || it->second == *upid;
}

void ProcessTracker::RefreshLiveTid(int64_t tid) {
  auto it = tids_.find(tid);
  if (it != tids_.end()) {
    for (auto u = it->second.rbegin(); u != it->second.rend(); ++u) {
      if (IsThreadAlive(*u)) {
        live_tid_.Set(tid, *u);
        return;
      }
    }
  }
  live_tid_.Erase(tid);
}

void ProcessTracker::InvalidateProcessThreads(uint32_t upid) {
  auto it = process_threads_.find(upid);
  if (it == process_threads_.end()) return;
  for (uint32_t utid : it->second) RefreshLiveTid(storage_->thread.tid[utid]);
}

std::optional<uint32_t> ProcessTracker::GetThreadOrNull(int64_t tid, int64_t pid) {
  auto it = tids_.find(tid);
  if (it == tids_.end()) return std::nullopt;
  for (auto u = it->second.rbegin(); u != it->second.rend(); ++u) {
    if (!IsThreadAlive(*u)) continue;
    const std::optional<uint32_t> upid = storage_->thread.upid.Get(*u);
    if (!upid || storage_->process.pid[*upid] == pid) return *u;
  }
  return std::nullopt;
}

uint32_t ProcessTracker::UpdateThread(int64_t tid, int64_t pid) {
  return GetOrCreateThreadWithParent(tid, GetOrCreateProcess(pid), tid == pid);
}

uint32_t ProcessTracker::GetOrCreateThreadWithParent(int64_t tid, uint32_t upid,
                                                     bool is_main_thread) {
  const std::optional<uint32_t> found = GetThreadOrNull(tid, storage_->process.pid[upid]);
  const uint32_t utid = found ? *found : StartNewThread(std::nullopt, tid);
  if (found) {
    live_tid_.Set(tid, utid);
    auto& list = tids_[tid];
    if (list.back() != utid) {
      list.erase(std::remove(list.begin(), list.end(), utid), list.end());
      list.push_back(utid);
    }
  }
  if (storage_->thread.upid.IsNull(utid)) AssociateThreadToProcess(utid, upid, is_main_thread);
  ResolvePendingAssociations(utid, *storage_->thread.upid.Get(utid));
  return utid;
}

void ProcessTracker::UpdateThreadName(uint32_t utid, StringId name,
                                      ThreadNamePriority priority) {
  if (name == kNullStringId) return;
  if (thread_names_.size() <= utid) thread_names_.resize(utid + 1);
  ThreadName& current = thread_names_[utid];
  if (priority < current.priority) return;
  current.priority = priority;
  // Every sched_switch renames both its threads, nearly always to the name they have: the
  // column is written only when the name changes.
  if (name == current.name) return;
  current.name = name;
  storage_->thread.name.Set(utid, name);
}

void ProcessTracker::UpdateThreadNameAndMaybeProcessName(uint32_t utid, StringId name,
                                                         ThreadNamePriority priority) {
  UpdateThreadName(utid, name, priority);
  const std::optional<uint32_t> upid = storage_->thread.upid.Get(utid);
  if (!upid) return;
  if (storage_->process.pid[*upid] == storage_->thread.tid[utid]) {
    UpdateProcessName(*upid, name, ProcessNamePriority::kSystem);
  }
}

void ProcessTracker::AssociateThreads(uint32_t utid1, uint32_t utid2) {
  const ThreadTable& threads = storage_->thread;
  const std::optional<uint32_t> upid1 = threads.upid.Get(utid1);
  const std::optional<uint32_t> upid2 = threads.upid.Get(utid2);
  if (upid1 && !upid2) {
    AssociateThreadToProcess(utid2, *upid1, threads.tid[utid2] == storage_->process.pid[*upid1]);
    ResolvePendingAssociations(utid2, *upid1);
    return;
  }
  if (upid2 && !upid1) {
    AssociateThreadToProcess(utid1, *upid2, threads.tid[utid1] == storage_->process.pid[*upid2]);
    ResolvePendingAssociations(utid1, *upid2);
    return;
  }
  if (upid1 && upid1 != upid2) {
    storage_->IncrementStat("process_tracker_errors");
    return;
  }
  if (upid1) return;  // already in the same process
  pending_assocs_.emplace_back(utid1, utid2);
}

void ProcessTracker::ResolvePendingAssociations(uint32_t first_utid, uint32_t upid) {
  std::vector<uint32_t> resolved = {first_utid};
  while (!resolved.empty()) {
    const uint32_t utid = resolved.back();
    resolved.pop_back();
    for (auto it = pending_parent_assocs_.begin(); it != pending_parent_assocs_.end();) {
      if (it->first != utid) {
        ++it;
        continue;
      }
      storage_->process.parent_upid.Set(it->second, upid);
      *it = pending_parent_assocs_.back();
      pending_parent_assocs_.pop_back();
    }
    for (auto it = pending_assocs_.begin(); it != pending_assocs_.end();) {
      uint32_t other;
      if (it->first == utid) {
        other = it->second;
      } else if (it->second == utid) {
        other = it->first;
      } else {
        ++it;
        continue;
      }
      AssociateThreadToProcess(other, upid,
                               storage_->thread.tid[other] == storage_->process.pid[upid]);
      resolved.push_back(other);
      *it = pending_assocs_.back();
      pending_assocs_.pop_back();
    }
  }
}

void ProcessTracker::AssociateThreadToProcess(uint32_t utid, uint32_t upid, bool is_main) {
  storage_->thread.upid.Set(utid, upid);
  storage_->thread.is_main_thread.Set(utid, is_main ? 1 : 0);
  process_threads_[upid].push_back(utid);
}

uint32_t ProcessTracker::StartNewProcess(std::optional<int64_t> ts,
                                         std::optional<uint32_t> parent_upid, int64_t pid,
                                         StringId name, ThreadNamePriority priority,
                                         bool associate_main_thread) {
  std::optional<uint32_t> recycled;
  if (auto it = pids_.find(pid); it != pids_.end()) recycled = it->second;
  pids_.erase(pid);
  tids_.erase(pid);
  live_tid_.Erase(pid);
  if (associate_main_thread) {
    const uint32_t utid = StartNewThread(ts, pid);
    UpdateThreadName(utid, name, priority);
  }
  const uint32_t upid = GetOrCreateProcessInternal(pid, associate_main_thread);
  if (ts) storage_->process.start_ts.Set(upid, *ts);
  UpdateProcessName(upid, name, ProcessNamePriority::kSystem);
  if (parent_upid) storage_->process.parent_upid.Set(upid, *parent_upid);
  if (recycled) InvalidateProcessThreads(*recycled);
  return upid;
}

uint32_t ProcessTracker::GetOrCreateProcess(int64_t pid) {
  return GetOrCreateProcessInternal(pid, true);
}

uint32_t ProcessTracker::GetOrCreateProcessWithoutMainThread(int64_t pid) {
  return GetOrCreateProcessInternal(pid, false);
}

uint32_t ProcessTracker::GetOrCreateProcessInternal(int64_t pid, bool associate_main_thread) {
  if (auto it = pids_.find(pid); it != pids_.end()) return it->second;
  const uint32_t upid = storage_->process.Insert({.pid = pid});
  process_name_priority_.resize(upid + 1, ProcessNamePriority::kOther);
  pids_[pid] = upid;
  if (associate_main_thread) UpdateThread(pid, pid);
  return upid;
}

std::optional<uint32_t> ProcessTracker::GetProcessOrNull(int64_t pid) const {
  auto it = pids_.find(pid);
  if (it == pids_.end()) return std::nullopt;
  return it->second;
}

void ProcessTracker::AssociateCreatedProcessToParentThread(uint32_t upid, uint32_t parent_utid) {
  const std::optional<uint32_t> parent_upid = storage_->thread.upid.Get(parent_utid);
  if (parent_upid) {
    storage_->process.parent_upid.Set(upid, *parent_upid);
  } else {
    pending_parent_assocs_.emplace_back(parent_utid, upid);
  }
}

void ProcessTracker::SetProcessParent(uint32_t upid, uint32_t parent_upid) {
  if (storage_->process.parent_upid.IsNull(upid)) {
    storage_->process.parent_upid.Set(upid, parent_upid);
  }
}

void ProcessTracker::SetProcessMetadata(uint32_t upid, std::string_view name,
                                        std::string_view cmdline) {
  UpdateProcessName(upid, storage_->Intern(name), ProcessNamePriority::kSystem);
  storage_->process.cmdline.Set(upid, storage_->Intern(cmdline));
}

void ProcessTracker::UpdateProcessName(uint32_t upid, StringId name,
                                       ProcessNamePriority priority) {
  if (name == kNullStringId) return;
  if (process_name_priority_.size() <= upid) process_name_priority_.resize(upid + 1);
  if (priority >= process_name_priority_[upid]) {
    storage_->process.name.Set(upid, name);
    process_name_priority_[upid] = priority;
  }
}

void ProcessTracker::SetProcessUid(uint32_t upid, int64_t uid) {
  storage_->process.uid.Set(upid, uid);
  storage_->process.android_appid.Set(upid, uid % 100000);
  storage_->process.android_user_id.Set(upid, uid / 100000);
}

void ProcessTracker::SetStartTsIfUnset(uint32_t upid, int64_t ts) {
  if (storage_->process.start_ts.IsNull(upid)) storage_->process.start_ts.Set(upid, ts);
}

void ProcessTracker::SetMainThread(uint32_t utid, bool is_main) {
  storage_->thread.is_main_thread.Set(utid, is_main ? 1 : 0);
}

}  // namespace tw

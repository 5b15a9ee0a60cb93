#include "libs/trace/trackers/sched_tracker.h"

namespace tw {

SchedTracker::SchedTracker(TraceStorage* storage, ProcessTracker* processes)
    : storage_(storage),
      processes_(processes),
      running_(storage->Intern("Running")),
      runnable_(storage->Intern("R")) {}

uint32_t SchedTracker::Cpu(uint32_t cpu) {
  CpuTable& cpus = storage_->cpu;
  while (cpus.row_count() <= cpu) cpus.Insert({.cpu = cpus.row_count()});
  return cpu;
}

StringId SchedTracker::StateString(int64_t raw_state) {
  auto it = state_strings_.find(raw_state);
  if (it != state_strings_.end()) return it->second;
  const std::string s = TaskStateToString(raw_state, kernel_version_);
  const StringId id = s.empty() ? kNullStringId : storage_->Intern(s);
  if (id == kNullStringId) storage_->IncrementStat("task_state_invalid");
  state_strings_.emplace(raw_state, id);
  return id;
}

void SchedTracker::PushSchedSwitch(int64_t ts, uint32_t cpu, int64_t prev_pid,
                                   StringId prev_comm, int32_t prev_prio, int64_t prev_state,
                                   int64_t next_pid, StringId next_comm, int32_t next_prio) {
  if (cpu >= pending_.size()) pending_.resize(cpu + 1);
  PendingSched& pending = pending_[cpu];
  const uint32_t next_utid = processes_->GetOrCreateThread(next_pid);
  processes_->UpdateThreadName(next_utid, next_comm, ThreadNamePriority::kFtrace);
  const StringId state = StateString(prev_state);
  SchedSliceTable& sched = storage_->sched_slice;
  if (pending.slice_row != UINT32_MAX) {
    if (prev_pid == pending.last_pid) {
      sched.dur.Set(pending.slice_row, ts - sched.ts[pending.slice_row]);
      sched.end_state.Set(pending.slice_row, state);
    } else {
      storage_->IncrementStat("mismatched_sched_switch_tids");
    }
  }
  const uint32_t prev_utid = processes_->GetOrCreateThread(prev_pid);
  processes_->UpdateThreadName(prev_utid, prev_comm, ThreadNamePriority::kFtrace);
  pending.slice_row = sched.Insert(
      {.ts = ts, .dur = -1, .utid = next_utid, .priority = next_prio, .ucpu = Cpu(cpu)});
  pending.last_pid = next_pid;
  pending.last_utid = next_utid;
  pending.last_prio = next_prio;
  (void)prev_prio;
  SwitchThreadStates(ts, cpu, prev_utid, state, next_utid);
}

void SchedTracker::PushCompactSchedSwitch(int64_t ts, uint32_t cpu, int64_t prev_state,
                                          int64_t next_pid, StringId next_comm,
                                          int32_t next_prio) {
  if (cpu >= pending_.size()) pending_.resize(cpu + 1);
  PendingSched& pending = pending_[cpu];
  const uint32_t next_utid = processes_->GetOrCreateThread(next_pid);
  processes_->UpdateThreadName(next_utid, next_comm, ThreadNamePriority::kFtrace);
  if (pending.last_utid == UINT32_MAX) {
    storage_->IncrementStat("compact_sched_switch_skipped");
    pending.last_pid = next_pid;
    pending.last_utid = next_utid;
    pending.last_prio = next_prio;
    return;
  }
  const StringId state = StateString(prev_state);
  SchedSliceTable& sched = storage_->sched_slice;
  if (pending.slice_row != UINT32_MAX) {
    sched.dur.Set(pending.slice_row, ts - sched.ts[pending.slice_row]);
    sched.end_state.Set(pending.slice_row, state);
  }
  const uint32_t prev_utid = pending.last_utid;
  pending.last_pid = next_pid;
  pending.last_utid = next_utid;
  pending.last_prio = next_prio;
  pending.slice_row = sched.Insert(
      {.ts = ts, .dur = -1, .utid = next_utid, .priority = next_prio, .ucpu = Cpu(cpu)});
  SwitchThreadStates(ts, cpu, prev_utid, state, next_utid);
}

void SchedTracker::PushWaking(int64_t ts, uint32_t cpu, int64_t wakee_pid, StringId comm,
                              std::optional<int64_t> waker_pid,
                              std::optional<uint32_t> common_flags) {
  uint32_t waker_utid;
  if (waker_pid) {
    waker_utid = processes_->GetOrCreateThread(*waker_pid);
  } else {
    if (cpu >= pending_.size() || pending_[cpu].last_utid == UINT32_MAX) {
      storage_->IncrementStat("compact_sched_waking_skipped");
      return;
    }
    waker_utid = pending_[cpu].last_utid;
  }
  const uint32_t utid = processes_->GetOrCreateThread(wakee_pid);
  if (waker_pid) processes_->UpdateThreadName(utid, comm, ThreadNamePriority::kFtrace);
  if (utid >= thread_rows_.size() || thread_rows_[utid].last_row == UINT32_MAX) {
    AddOpenState(ts, utid, runnable_, std::nullopt, waker_utid, common_flags);
    return;
  }
  // A wakeup of a thread that is not blocked changes nothing (trace_processor records these
  // as spurious wakeups).
  if (!IsBlocked(storage_->thread_state.state[thread_rows_[utid].last_row])) return;
  ClosePending(ts, utid, false);
  AddOpenState(ts, utid, runnable_, std::nullopt, waker_utid, common_flags);
}

void SchedTracker::PushNewTask(int64_t ts, uint32_t new_utid, uint32_t waker_utid) {
  AddOpenState(ts, new_utid, runnable_, std::nullopt, waker_utid, 0u);
}

void SchedTracker::PushBlockedReason(int64_t pid, std::optional<bool> io_wait,
                                     StringId function) {
  const std::optional<uint32_t> utid = processes_->GetThreadOrNull(pid);
  if (!utid || *utid >= thread_rows_.size()) return;
  const uint32_t row = thread_rows_[*utid].last_blocked_row;
  if (row == UINT32_MAX) return;
  if (io_wait) storage_->thread_state.io_wait.Set(row, *io_wait ? 1 : 0);
  if (function != kNullStringId) storage_->thread_state.blocked_function.Set(row, function);
}

void SchedTracker::SwitchThreadStates(int64_t ts, uint32_t cpu, uint32_t prev_utid,
                                      StringId prev_state, uint32_t next_utid) {
  // If the previous thread's last known state is not Running, events were lost: leave that
  // row open rather than inventing a duration.
  const bool data_loss = prev_utid < thread_rows_.size() &&
                         thread_rows_[prev_utid].last_row != UINT32_MAX &&
                         !IsRunning(storage_->thread_state.state[thread_rows_[prev_utid].last_row]);
  ClosePending(ts, prev_utid, data_loss);
  AddOpenState(ts, prev_utid, prev_state, std::nullopt, std::nullopt, std::nullopt);
  ClosePending(ts, next_utid, false);
  AddOpenState(ts, next_utid, running_, cpu, std::nullopt, std::nullopt);
}

void SchedTracker::ClosePending(int64_t ts, uint32_t utid, bool data_loss) {
  if (utid >= thread_rows_.size() || thread_rows_[utid].last_row == UINT32_MAX) return;
  if (data_loss) return;
  const uint32_t row = thread_rows_[utid].last_row;
  storage_->thread_state.dur.Set(row, ts - storage_->thread_state.ts[row]);
}

void SchedTracker::AddOpenState(int64_t ts, uint32_t utid, StringId state,
                                std::optional<uint32_t> cpu, std::optional<uint32_t> waker_utid,
                                std::optional<uint32_t> common_flags) {
  if (utid == processes_->swapper_utid()) return;
  std::optional<uint32_t> waker_id;
  if (waker_utid && *waker_utid < thread_rows_.size() &&
      thread_rows_[*waker_utid].last_row != UINT32_MAX) {
    const uint32_t waker_row = thread_rows_[*waker_utid].last_row;
    if (IsRunning(storage_->thread_state.state[waker_row])) waker_id = waker_row;
  }
  std::optional<int8_t> irq;
  if (common_flags) irq = (*common_flags & (0x08 | 0x10)) ? 1 : 0;
  std::optional<uint32_t> ucpu;
  if (cpu) ucpu = Cpu(*cpu);
  const uint32_t row = storage_->thread_state.Insert({.ts = ts,
                                                      .utid = utid,
                                                      .state = state,
                                                      .waker_utid = waker_utid,
                                                      .waker_id = waker_id,
                                                      .irq_context = irq,
                                                      .ucpu = ucpu});
  if (utid >= thread_rows_.size()) thread_rows_.resize(utid + 1);
  ThreadRows& rows = thread_rows_[utid];
  if (IsRunning(state)) {
    rows = {row, UINT32_MAX};
  } else if (IsBlocked(state)) {
    rows = {row, row};
  } else {
    rows.last_row = row;
  }
}

}  // namespace tw

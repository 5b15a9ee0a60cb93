#include "libs/trace/trackers/sched_tracker.h"

namespace tw {

SchedTracker::SchedTracker(TraceStorage* storage, ProcessTracker* processes,
                           ArgsTracker* args)
    : storage_(storage),
      processes_(processes),
      args_(args),
      running_(storage->Intern("Running")),
      runnable_(storage->Intern("R")),
      sched_switch_(storage->Intern("sched_switch")),
      sched_waking_(storage->Intern("sched_waking")) {
  const char* const kSwitch[] = {"prev_comm", "prev_pid",  "prev_prio", "prev_state",
                                 "next_comm", "next_pid", "next_prio"};
  for (int i = 0; i < 7; ++i) switch_keys_[i] = storage->Intern(kSwitch[i]);
  const char* const kWaking[] = {"comm", "pid", "prio", "target_cpu"};
  for (int i = 0; i < 4; ++i) waking_keys_[i] = storage->Intern(kWaking[i]);
  success_key_ = storage->Intern("success");
}

void SchedTracker::PrepareRawSwitch(int64_t prev_pid, StringId prev_comm, int32_t prev_prio,
                                    int64_t prev_state, int64_t next_pid, StringId next_comm,
                                    int32_t next_prio, RawSwitch* raw) {
  auto arg = [&](int i, ArgValue v) { return Arg{switch_keys_[i], switch_keys_[i], v}; };
  raw->args[0] = arg(0, ArgValue::String(prev_comm));
  raw->args[1] = arg(1, ArgValue::Int(prev_pid));
  raw->args[2] = arg(2, ArgValue::Int(prev_prio));
  raw->args[3] = arg(3, ArgValue::Int(prev_state));
  raw->args[4] = arg(4, ArgValue::String(next_comm));
  raw->args[5] = arg(5, ArgValue::Int(next_pid));
  raw->args[6] = arg(6, ArgValue::Int(next_prio));
  raw->key = args_->PrepareArgSet(raw->args);
}

void SchedTracker::AddRawSwitch(int64_t ts, uint32_t cpu, uint32_t prev_utid,
                                const RawSwitch& raw) {
  storage_->ftrace_event.Insert({.ts = ts,
                                 .name = sched_switch_,
                                 .utid = prev_utid,
                                 .arg_set_id = args_->AddPreparedArgSet(raw.args, raw.key),
                                 .common_flags = 0,
                                 .ucpu = Cpu(cpu)});
}

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
  RawSwitch raw;
  PrepareRawSwitch(prev_pid, prev_comm, prev_prio, prev_state, next_pid, next_comm, next_prio,
                   &raw);
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
  SwitchThreadStates(ts, cpu, prev_utid, state, next_utid);
  AddRawSwitch(ts, cpu, prev_utid, raw);
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
  const uint32_t prev_utid = pending.last_utid;
  // The previous thread's fields are inferred; its name is looked up afresh (a task_rename
  // may have changed it while it ran, or the update above if it switches to itself).
  RawSwitch raw;
  PrepareRawSwitch(pending.last_pid, storage_->thread.name[prev_utid], pending.last_prio,
                   prev_state, next_pid, next_comm, next_prio, &raw);
  const StringId state = StateString(prev_state);
  SchedSliceTable& sched = storage_->sched_slice;
  if (pending.slice_row != UINT32_MAX) {
    sched.dur.Set(pending.slice_row, ts - sched.ts[pending.slice_row]);
    sched.end_state.Set(pending.slice_row, state);
  }
  pending.last_pid = next_pid;
  pending.last_utid = next_utid;
  pending.last_prio = next_prio;
  pending.slice_row = sched.Insert(
      {.ts = ts, .dur = -1, .utid = next_utid, .priority = next_prio, .ucpu = Cpu(cpu)});
  SwitchThreadStates(ts, cpu, prev_utid, state, next_utid);
  AddRawSwitch(ts, cpu, prev_utid, raw);
}

void SchedTracker::PushCompactSchedSwitchRawOnly(int64_t ts, uint32_t cpu, int64_t prev_state,
                                                 int64_t next_pid, StringId next_comm,
                                                 int32_t next_prio) {
  if (cpu >= pending_.size()) pending_.resize(cpu + 1);
  PendingSched& pending = pending_[cpu];
  const uint32_t next_utid = processes_->GetOrCreateThread(next_pid);
  processes_->UpdateThreadName(next_utid, next_comm, ThreadNamePriority::kFtrace);
  if (pending.last_utid != UINT32_MAX) {
    const uint32_t prev_utid = pending.last_utid;
    RawSwitch raw;
    PrepareRawSwitch(pending.last_pid, storage_->thread.name[prev_utid], pending.last_prio,
                     prev_state, next_pid, next_comm, next_prio, &raw);
    AddRawSwitch(ts, cpu, prev_utid, raw);
  } else {
    // As any first switch of a cpu: without prev fields it has no row.
    storage_->IncrementStat("compact_sched_switch_skipped");
  }
  // No slice starts, and none stays open: the next kept switch starts the first one.
  SchedSliceTable& sched = storage_->sched_slice;
  if (pending.slice_row != UINT32_MAX) {
    sched.dur.Set(pending.slice_row, ts - sched.ts[pending.slice_row]);
    sched.end_state.Set(pending.slice_row, StateString(prev_state));
  }
  pending = {.slice_row = UINT32_MAX, .last_pid = next_pid, .last_utid = next_utid,
             .last_prio = next_prio};
}

void SchedTracker::PushWaking(int64_t ts, int64_t wakee_pid, StringId comm, int64_t waker_pid) {
  const uint32_t utid = processes_->GetOrCreateThread(wakee_pid);
  processes_->UpdateThreadName(utid, comm, ThreadNamePriority::kFtrace);
  const uint32_t waker_utid = processes_->GetOrCreateThread(waker_pid);
  // Plain events' common_flags are not read: irq_context stays unknown.
  PushWakingState(ts, utid, waker_utid, std::nullopt);
}

void SchedTracker::AddPlainWakingRow(int64_t ts, uint32_t cpu, int64_t common_pid,
                                     StringId comm, int32_t pid, int32_t prio,
                                     std::optional<int32_t> success, int32_t target_cpu) {
  // As the generic path (EventRouter::OnFtraceRaw): the running thread first, then the row.
  const uint32_t utid = processes_->GetOrCreateThread(common_pid);
  Cpu(cpu);
  auto arg = [](StringId key, ArgValue v) { return Arg{key, key, v}; };
  Arg args[5] = {arg(waking_keys_[0], ArgValue::String(comm)),
                 arg(waking_keys_[1], ArgValue::Int(pid)),
                 arg(waking_keys_[2], ArgValue::Int(prio))};
  size_t count = 3;
  if (success) args[count++] = arg(success_key_, ArgValue::Int(*success));
  args[count++] = arg(waking_keys_[3], ArgValue::Int(target_cpu));
  storage_->ftrace_event.Insert({.ts = ts,
                                 .name = sched_waking_,
                                 .utid = utid,
                                 .arg_set_id = args_->AddArgSet(absl::MakeConstSpan(args, count)),
                                 .common_flags = 0,
                                 .ucpu = cpu});
}

void SchedTracker::PushCompactWaking(int64_t ts, uint32_t cpu, int64_t wakee_pid,
                                     StringId comm, int32_t target_cpu, int32_t prio,
                                     uint32_t common_flags, bool derive) {
  // The waker is whoever runs on the cpu; without a switch seen there yet it is unknown.
  if (cpu >= pending_.size() || pending_[cpu].last_utid == UINT32_MAX) {
    storage_->IncrementStat("compact_sched_waking_skipped");
    return;
  }
  const uint32_t waker_utid = pending_[cpu].last_utid;
  auto arg = [&](int i, ArgValue v) { return Arg{waking_keys_[i], waking_keys_[i], v}; };
  const Arg args[] = {arg(0, ArgValue::String(comm)), arg(1, ArgValue::Int(wakee_pid)),
                      arg(2, ArgValue::Int(prio)), arg(3, ArgValue::Int(target_cpu))};
  // Hashed first, stored last: the thread_state work overlaps the index's cache miss.
  const ArgsTracker::SetHash key = args_->PrepareArgSet(args);
  const uint32_t utid = processes_->GetOrCreateThread(wakee_pid);
  if (derive) PushWakingState(ts, utid, waker_utid, common_flags);
  storage_->ftrace_event.Insert({.ts = ts,
                                 .name = sched_waking_,
                                 .utid = waker_utid,
                                 .arg_set_id = args_->AddPreparedArgSet(args, key),
                                 .common_flags = common_flags,
                                 .ucpu = Cpu(cpu)});
}

void SchedTracker::PushWakingState(int64_t ts, uint32_t utid, uint32_t waker_utid,
                                   std::optional<uint32_t> common_flags) {
  if (utid >= thread_rows_.size() || thread_rows_[utid].last_row == UINT32_MAX) {
    AddOpenState(ts, utid, runnable_, std::nullopt, waker_utid, common_flags);
    return;
  }
  // A wakeup of a thread that is not blocked changes nothing (trace_processor records these
  // as spurious wakeups).
  if (!IsBlocked(thread_rows_[utid].last_state)) return;
  ClosePending(ts, utid, false);
  AddOpenState(ts, utid, runnable_, std::nullopt, waker_utid, common_flags);
}

void SchedTracker::PushNewTask(int64_t ts, uint32_t new_utid, uint32_t waker_utid) {
  AddOpenState(ts, new_utid, runnable_, std::nullopt, waker_utid, 0u);
}

void SchedTracker::PushBlockedReason(int64_t pid, std::optional<bool> io_wait,
                                     StringId function) {
  const uint32_t utid = processes_->GetOrCreateThread(pid);
  if (utid >= thread_rows_.size()) return;
  const uint32_t row = thread_rows_[utid].last_blocked_row;
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
                         !IsRunning(thread_rows_[prev_utid].last_state);
  ClosePending(ts, prev_utid, data_loss);
  AddOpenState(ts, prev_utid, prev_state, std::nullopt, std::nullopt, std::nullopt);
  ClosePending(ts, next_utid, false);
  AddOpenState(ts, next_utid, running_, cpu, std::nullopt, std::nullopt);
}

void SchedTracker::ClosePending(int64_t ts, uint32_t utid, bool data_loss) {
  if (utid >= thread_rows_.size() || thread_rows_[utid].last_row == UINT32_MAX) return;
  if (data_loss) return;
  const ThreadRows& rows = thread_rows_[utid];
  storage_->thread_state.dur.Set(rows.last_row, ts - rows.last_ts);
}

void SchedTracker::AddOpenState(int64_t ts, uint32_t utid, StringId state,
                                std::optional<uint32_t> cpu, std::optional<uint32_t> waker_utid,
                                std::optional<uint32_t> common_flags) {
  if (utid == processes_->swapper_utid()) return;
  std::optional<uint32_t> waker_id;
  if (waker_utid && *waker_utid < thread_rows_.size() &&
      thread_rows_[*waker_utid].last_row != UINT32_MAX) {
    const ThreadRows& waker = thread_rows_[*waker_utid];
    if (IsRunning(waker.last_state)) waker_id = waker.last_row;
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
    rows.last_blocked_row = UINT32_MAX;
  } else if (IsBlocked(state)) {
    rows.last_blocked_row = row;
  }
  rows.last_row = row;
  rows.last_state = state;
  rows.last_ts = ts;
}

}  // namespace tw

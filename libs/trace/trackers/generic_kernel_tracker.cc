#include "libs/trace/trackers/generic_kernel_tracker.h"

#include <string_view>


namespace tw {
namespace {

// The generic kernel names the source of a thread's name with the same weight as ftrace: a
// process tree's comm wins over it.
constexpr ThreadNamePriority kTaskNamePriority = ThreadNamePriority::kFtrace;

}  // namespace

GenericKernelTracker::GenericKernelTracker(TraceContext* ctx)
    : ctx_(ctx), storage_(ctx->storage) {
  // thread_state's letters, as for Linux tasks; Created and Running are spelled out.
  const char* const kNames[] = {"Unknown", "Created", "R", "Running", "S",
                                "D",       "T",       "Z", "X"};
  for (int i = 0; i < 9; ++i) state_names_[i] = storage_->Intern(kNames[i]);
  running_ = state_names_[kGenericTaskRunning];
  dead_ = state_names_[kGenericTaskDead];
}

std::optional<uint32_t> GenericKernelTracker::CurrentRow(uint32_t utid) const {
  if (utid >= current_row_.size() || current_row_[utid] == UINT32_MAX) return std::nullopt;
  return current_row_[utid];
}

StringId GenericKernelTracker::CurrentState(uint32_t utid) const {
  const std::optional<uint32_t> row = CurrentRow(utid);
  return row ? storage_->thread_state.state[*row] : kNullStringId;
}

std::optional<uint32_t> GenericKernelTracker::ThreadFor(int64_t ts, const GenericTaskData& task) {
  ProcessTracker& processes = ctx_->processes;
  const std::optional<uint32_t> live = processes.GetThreadOrNull(task.tid);
  switch (task.state) {
    case kGenericTaskCreated: {
      if (live) {  // a thread cannot be created twice
        storage_->IncrementStat("generic_task_state_invalid_order");
        return std::nullopt;
      }
      const uint32_t utid = processes.StartNewThread(ts, task.tid);
      processes.UpdateThreadName(utid, task.comm, kTaskNamePriority);
      return utid;
    }
    case kGenericTaskDestroyed: {
      // The end of a thread, even one never seen before.
      const uint32_t utid = live ? *live : processes.GetOrCreateThread(task.tid);
      if (!live) processes.UpdateThreadName(utid, task.comm, kTaskNamePriority);
      processes.EndThread(ts, task.tid);
      return utid;
    }
    case kGenericTaskRunnable:
    case kGenericTaskRunning:
    case kGenericTaskInterruptibleSleep:
    case kGenericTaskUninterruptibleSleep:
    case kGenericTaskStopped:
    case kGenericTaskDead: {
      if (live) {
        const StringId previous = CurrentState(*live);
        // A dead task can only be destroyed, and a running one cannot start running again.
        if (previous == dead_ || (task.state == kGenericTaskRunning && previous == running_)) {
          storage_->IncrementStat("generic_task_state_invalid_order");
          return std::nullopt;
        }
      }
      const uint32_t utid = live ? *live : processes.GetOrCreateThread(task.tid);
      processes.UpdateThreadName(utid, task.comm, kTaskNamePriority);
      return utid;
    }
    default:
      storage_->IncrementStat("task_state_invalid");
      return std::nullopt;
  }
}

GenericKernelTracker::SchedChange GenericKernelTracker::UpdateSched(int64_t ts, uint32_t cpu,
                                                                    const GenericTaskData& task,
                                                                    uint32_t utid,
                                                                    StringId state) {
  if (cpu >= on_cpu_.size()) on_cpu_.resize(cpu + 1);
  OnCpu& current = on_cpu_[cpu];
  SchedSliceTable& sched = storage_->sched_slice;
  if (state == running_) {
    SchedChange change = SchedChange::kStarted;
    if (current.slice_row != UINT32_MAX) {
      // Another task was running here: its slice ends now; its own event at this instant, if
      // it comes, says in which state.
      sched.dur.Set(current.slice_row, ts - sched.ts[current.slice_row]);
      preempted_slice_[current.utid] = current.slice_row;
      change = SchedChange::kPreempted;
    }
    current.slice_row = sched.Insert(
        {.ts = ts, .dur = -1, .utid = utid, .priority = task.prio, .ucpu = ctx_->sched.Cpu(cpu)});
    current.tid = task.tid;
    current.utid = utid;
    return change;
  }
  if (current.slice_row != UINT32_MAX && current.tid == task.tid) {
    sched.dur.Set(current.slice_row, ts - sched.ts[current.slice_row]);
    sched.end_state.Set(current.slice_row, state);
    current = OnCpu{};
    return SchedChange::kLeft;
  }
  auto preempted = preempted_slice_.find(utid);
  if (preempted != preempted_slice_.end()) {
    const uint32_t row = preempted->second;
    if (sched.ts[row] + sched.dur[row] == ts) {
      sched.end_state.Set(row, state);
      preempted_slice_.erase(preempted);
      return SchedChange::kPreemptedEndState;
    }
  }
  return SchedChange::kNone;
}

void GenericKernelTracker::PushThreadState(int64_t ts, uint32_t utid, StringId state,
                                           std::optional<uint32_t> cpu) {
  ThreadStateTable& states = storage_->thread_state;
  if (const std::optional<uint32_t> row = CurrentRow(utid)) {
    states.dur.Set(*row, ts - states.ts[*row]);
    // Two state changes of one task at one instant: one of them is lost.
    if (states.ts[*row] == ts) storage_->IncrementStat("generic_task_state_invalid_order");
  }
  // The idle task (utid 0) has no thread states, as for ftrace.
  if (utid == ctx_->processes.swapper_utid()) return;
  std::optional<uint32_t> ucpu;
  if (cpu) ucpu = ctx_->sched.Cpu(*cpu);
  const uint32_t row = states.Insert({.ts = ts, .utid = utid, .state = state, .ucpu = ucpu});
  if (utid >= current_row_.size()) current_row_.resize(utid + 1, UINT32_MAX);
  current_row_[utid] = row;
}

void GenericKernelTracker::OnTaskState(int64_t ts, uint32_t cpu, const GenericTaskData& task) {
  const std::optional<uint32_t> utid = ThreadFor(ts, task);
  if (!utid) return;
  const StringId state = state_names_[task.state];
  // Who was running on the cpu before this event changes it.
  const OnCpu before = cpu < on_cpu_.size() ? on_cpu_[cpu] : OnCpu{};
  switch (UpdateSched(ts, cpu, task, *utid, state)) {
    case SchedChange::kPreemptedEndState:
      // The unknown state the preemption gave this task becomes the real one.
      if (const std::optional<uint32_t> row = CurrentRow(*utid)) {
        storage_->thread_state.state.Set(*row, state);
      }
      return;
    case SchedChange::kPreempted:
      PushThreadState(ts, before.utid, kNullStringId, std::nullopt);
      break;
    case SchedChange::kStarted:
    case SchedChange::kLeft:
    case SchedChange::kNone:
      break;
  }
  std::optional<uint32_t> on;
  if (state == running_) on = cpu;
  PushThreadState(ts, *utid, state, on);
}

void GenericKernelTracker::OnTaskRename(const GenericTaskData& task) {
  const uint32_t utid = ctx_->processes.GetOrCreateThread(task.tid);
  ctx_->processes.UpdateThreadNameAndMaybeProcessName(utid, task.comm, kTaskNamePriority);
}

void GenericKernelTracker::OnProcessTree(const GenericProcessTreeData& tree) {
  ProcessTracker& processes = ctx_->processes;
  for (const GenericProcessTreeData::Process& p : tree.processes) {
    // The name is the command line's first word.
    const std::string_view cmdline = p.cmdline;
    const std::string_view name = cmdline.substr(0, cmdline.find(' '));
    const uint32_t parent = processes.GetOrCreateProcessWithoutMainThread(p.ppid);
    const uint32_t upid = processes.GetOrCreateProcessWithoutMainThread(p.pid);
    processes.SetProcessParent(upid, parent);
    processes.SetProcessMetadata(upid, name, cmdline);
  }
  for (const GenericProcessTreeData::Thread& t : tree.threads) {
    const uint32_t upid = processes.GetOrCreateProcessWithoutMainThread(t.pid);
    const uint32_t utid = processes.GetOrCreateThreadWithParent(t.tid, upid, false);
    processes.SetMainThread(utid, t.is_main_thread);
    storage_->thread.is_idle.Set(utid, t.is_idle ? 1 : 0);
    processes.UpdateThreadName(utid, t.comm, ThreadNamePriority::kProcessTree);
  }
}

}  // namespace tw

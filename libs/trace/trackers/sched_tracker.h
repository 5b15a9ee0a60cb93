#pragma once
// Turns scheduler events into `sched_slice` (what ran on each CPU) and `thread_state` (what each
// thread was doing: Running, R, R+, S, D, ...), the two tables most CPU analyses start from.
// The rules follow trace_processor: the idle task has no thread_state rows, wakeups only
// matter for blocked threads, and a blocked reason annotates the thread's last blocked row.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/args_tracker.h"
#include "libs/trace/trackers/process_tracker.h"
#include "libs/trace/events/task_state.h"

namespace tw {

class SchedTracker {
 public:
  SchedTracker(TraceStorage* storage, ProcessTracker* processes, ArgsTracker* args);

  void set_kernel_version(std::optional<KernelVersion> v) { kernel_version_ = v; }

  void PushSchedSwitch(int64_t ts, uint32_t cpu, int64_t prev_pid, StringId prev_comm,
                       int32_t prev_prio, int64_t prev_state, int64_t next_pid,
                       StringId next_comm, int32_t next_prio);
  // compact_sched carries no prev_pid/prev_comm: the previous thread is whoever we last saw
  // switched in on that cpu (the first switch per cpu is therefore skipped).
  void PushCompactSchedSwitch(int64_t ts, uint32_t cpu, int64_t prev_state, int64_t next_pid,
                              StringId next_comm, int32_t next_prio);
  // A compact sched_switch from before every cpu's data is complete (FtraceDropWindow): only
  // its ftrace_event row, and who runs on the cpu now (for the next switch's prev fields).
  void PushCompactSchedSwitchRawOnly(int64_t ts, uint32_t cpu, int64_t prev_state,
                                     int64_t next_pid, StringId next_comm, int32_t next_prio);
  // A plain sched_waking: `waker_pid` woke `wakee_pid` (its ftrace_event row is the generic
  // path's, or AddPlainWakingRow's for the usual payload).
  void PushWaking(int64_t ts, int64_t wakee_pid, StringId comm, int64_t waker_pid);
  // The ftrace_event row of a plain sched_waking whose decoder pushed no kFtraceRaw twin
  // (SchedWakingData::raw_row): the same row and args the generic path writes.
  void AddPlainWakingRow(int64_t ts, uint32_t cpu, int64_t common_pid, StringId comm,
                         int32_t pid, int32_t prio, std::optional<int32_t> success,
                         int32_t target_cpu);
  // A compact sched_waking: the waker is the thread running on `cpu`; it also gets its
  // ftrace_event row here, since only this tracker knows that thread.
  // `derive` false: the ftrace_event row only (an event FtraceDropWindow keeps raw).
  void PushCompactWaking(int64_t ts, uint32_t cpu, int64_t wakee_pid, StringId comm,
                         int32_t target_cpu, int32_t prio, uint32_t common_flags,
                         bool derive = true);
  void PushNewTask(int64_t ts, uint32_t new_utid, uint32_t waker_utid);
  void PushBlockedReason(int64_t pid, std::optional<bool> io_wait, StringId function);

  // The cpu row (ucpu) for a cpu number, creating cpu rows up to it.
  uint32_t Cpu(uint32_t cpu);

 private:
  struct PendingSched {
    uint32_t slice_row = UINT32_MAX;
    int64_t last_pid = -1;
    uint32_t last_utid = UINT32_MAX;
    int32_t last_prio = 0;
  };
  // A thread's latest thread_state row, and that row's state and ts: every switch and wakeup
  // asks for them, and reading them back from the packed columns cost a decode (and often a
  // cache miss, a thread's rows being scattered through the table) each time.
  struct ThreadRows {
    uint32_t last_row = UINT32_MAX;
    uint32_t last_blocked_row = UINT32_MAX;
    StringId last_state = kNullStringId;
    int64_t last_ts = 0;
  };

  StringId StateString(int64_t raw_state);
  // sched_switch and compact sched_waking rows of ftrace_event, with their fields as args in
  // the proto's field order (trace_processor writes these itself, not the generic path).
  // The args are built and hashed first (PrepareArgSet) and the row written last, after the
  // sched and thread_state work, which so overlaps the arg-set index's cache miss.
  struct RawSwitch {
    Arg args[7];
    ArgsTracker::SetHash key;
  };
  void PrepareRawSwitch(int64_t prev_pid, StringId prev_comm, int32_t prev_prio,
                        int64_t prev_state, int64_t next_pid, StringId next_comm,
                        int32_t next_prio, RawSwitch* raw);
  void AddRawSwitch(int64_t ts, uint32_t cpu, uint32_t prev_utid, const RawSwitch& raw);
  void PushWakingState(int64_t ts, uint32_t utid, uint32_t waker_utid,
                       std::optional<uint32_t> common_flags);
  void SwitchThreadStates(int64_t ts, uint32_t cpu, uint32_t prev_utid, StringId prev_state,
                          uint32_t next_utid);
  void ClosePending(int64_t ts, uint32_t utid, bool data_loss);
  void AddOpenState(int64_t ts, uint32_t utid, StringId state, std::optional<uint32_t> cpu,
                    std::optional<uint32_t> waker_utid, std::optional<uint32_t> common_flags);
  bool IsRunning(StringId s) const { return s == running_; }
  bool IsBlocked(StringId s) const { return s != running_ && s != runnable_; }

  TraceStorage* storage_;
  ProcessTracker* processes_;
  ArgsTracker* args_;
  std::optional<KernelVersion> kernel_version_;
  std::vector<PendingSched> pending_;  // by cpu
  std::vector<ThreadRows> thread_rows_;  // by utid
  absl::flat_hash_map<int64_t, StringId> state_strings_;
  StringId running_;
  StringId runnable_;
  StringId sched_switch_;
  StringId sched_waking_;
  StringId switch_keys_[7];  // prev_comm, prev_pid, prev_prio, prev_state, next_comm, ...
  StringId waking_keys_[4];  // comm, pid, prio, target_cpu
  StringId success_key_;
};

}  // namespace tw

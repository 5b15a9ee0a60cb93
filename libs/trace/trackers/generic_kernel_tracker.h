#pragma once
// Turns the generic kernel data source (task states, renames, process trees) into sched_slice,
// thread_state, thread and process rows, with trace_processor's semantics.
//
// A task state event speaks for one task: "tid 7 is Running on cpu 0", "tid 7 is now S". So a
// context switch reaches us as two events in either order:
//   - old task leaves (S), then new task runs: the leave closes the cpu's slice with end state S;
//   - new task runs, then old task leaves at the same instant: the run closes the old slice
//     with no end state (the old task gets a thread_state row of unknown state), and the leave
//     that follows at that same timestamp fills in the end state of both.
// Orders that cannot happen on a real kernel (two Running in a row, anything but Destroyed after
// Dead, Created for a live thread, two states at one instant) are counted in
// `generic_task_state_invalid_order` and the offending event is dropped.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/events/generic_kernel_events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class GenericKernelTracker {
 public:
  explicit GenericKernelTracker(TraceContext* ctx);

  void OnTaskState(int64_t ts, uint32_t cpu, const GenericTaskData& task);
  void OnTaskRename(const GenericTaskData& task);
  void OnProcessTree(const GenericProcessTreeData& tree);

 private:
  // What a task state event did to its cpu's sched slices.
  enum class SchedChange {
    kNone,              // nothing on a cpu (a state change of a task that was not running)
    kStarted,           // the task started running on an idle cpu
    kPreempted,         // the task started running, closing another task's slice
    kLeft,              // the running task left the cpu: its slice closed with this state
    kPreemptedEndState  // the state of a task whose slice a preemption closed at this instant
  };
  struct OnCpu {
    uint32_t slice_row = UINT32_MAX;  // the open sched_slice row; UINT32_MAX: none
    int64_t tid = 0;
    uint32_t utid = 0;
  };

  // The thread the event is about, or nullopt when the event is invalid (counted in stats).
  std::optional<uint32_t> ThreadFor(int64_t ts, const GenericTaskData& task);
  SchedChange UpdateSched(int64_t ts, uint32_t cpu, const GenericTaskData& task, uint32_t utid,
                          StringId state);
  // Ends the thread's current thread_state row at `ts` and opens one in `state`.
  void PushThreadState(int64_t ts, uint32_t utid, StringId state, std::optional<uint32_t> cpu);
  // The state of the thread's current thread_state row (kNullStringId: none, or unknown).
  StringId CurrentState(uint32_t utid) const;
  std::optional<uint32_t> CurrentRow(uint32_t utid) const;

  TraceContext* ctx_;
  TraceStorage* storage_;
  std::vector<OnCpu> on_cpu_;  // by cpu
  // By utid: the sched_slice row a preemption closed without an end state, until the task's
  // own event at that instant supplies it.
  absl::flat_hash_map<uint32_t, uint32_t> preempted_slice_;
  std::vector<uint32_t> current_row_;  // by utid: its open thread_state row, UINT32_MAX if none
  StringId state_names_[9];            // by TaskStateEnum value
  StringId running_;
  StringId dead_;
};

}  // namespace tw

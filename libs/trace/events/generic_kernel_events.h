#pragma once
// Payloads of the generic kernel data source (TracePacket generic_kernel_*): the scheduling and
// thread lifetimes of a kernel described without ftrace. A task state event speaks for one task
// only — it says "tid is now Running on cpu 2", not who it replaced — so the tracker, not the
// decoder, pairs them into sched slices.

#include <cstdint>
#include <string>
#include <vector>

#include "libs/trace/events/events.h"

namespace tw {

// GenericKernelTaskStateEvent.TaskStateEnum: a generic representation of a task's state, not
// necessarily one-to-one with what the kernel tracks.
enum GenericTaskState : int32_t {
  kGenericTaskUnknown = 0,
  kGenericTaskCreated = 1,
  kGenericTaskRunnable = 2,
  kGenericTaskRunning = 3,
  kGenericTaskInterruptibleSleep = 4,
  kGenericTaskUninterruptibleSleep = 5,
  kGenericTaskStopped = 6,
  kGenericTaskDead = 7,
  kGenericTaskDestroyed = 8,
};

// A generic_kernel_process_tree packet: processes and threads the kernel reports, incrementally
// (a process and its threads may come in different packets).
struct GenericProcessTreeData {
  struct Process {
    int64_t pid = 0;
    int64_t ppid = 0;
    std::string cmdline;  // processes without one are skipped by the decoder
  };
  struct Thread {
    int64_t tid = 0;
    int64_t pid = 0;
    StringId comm = kNullStringId;  // null: not given
    bool is_main_thread = false;
    bool is_idle = false;
  };
  std::vector<Process> processes;
  std::vector<Thread> threads;
};

}  // namespace tw

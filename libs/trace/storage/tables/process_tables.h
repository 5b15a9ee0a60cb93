#pragma once
// Who ran: processes, threads, CPUs and the machine the trace was recorded on.

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// clang-format off
#define TW_PROCESS_TABLE(TABLE, COLUMN)                                                          \
  TABLE(ProcessTable, process,                                                                   \
        "One row per process the trace saw. Its id is the upid: unique over the whole trace, "   \
        "unlike pids, which the kernel reuses.")                                                 \
  COLUMN(pid, Int64, kNone, {}, "The kernel's process id (thread group id).")                    \
  COLUMN(name, String, kNone, {},                                                                \
         "Process name: the first word of its command line, else the main thread's name.")      \
  COLUMN(start_ts, OptInt64, kNone, {},                                                          \
         "When the process started, if the trace saw it start (fork, process tree with start "   \
         "time).")                                                                               \
  COLUMN(end_ts, OptInt64, kNone, {}, "When the process died, if the trace saw it die.")         \
  COLUMN(parent_upid, OptUint32, kNone, {}, "The parent process (process.id), when known.")      \
  COLUMN(uid, OptInt64, kNone, {}, "The Linux user id the process ran as.")                      \
  COLUMN(android_appid, OptInt64, kNone, {},                                                     \
         "Android app id: the uid without its user part (uid % 100000).")                        \
  COLUMN(android_user_id, OptInt64, kNone, {},                                                   \
         "The Android user (profile) the process belongs to (uid / 100000).")                    \
  COLUMN(cmdline, String, kNone, {}, "The full command line, words separated by spaces.")        \
  COLUMN(arg_set_id, OptUint32, kNone, {},                                                       \
         "Extra facts about the process as args (args.arg_set_id).")                             \
  COLUMN(machine_id, OptUint32, kNone, 0, "The machine it ran on (machine.id); 0 is the host.")
// clang-format on
TW_DEFINE_TABLE(TW_PROCESS_TABLE)

// clang-format off
#define TW_THREAD_TABLE(TABLE, COLUMN)                                                           \
  TABLE(ThreadTable, thread,                                                                     \
        "One row per thread the trace saw. Its id is the utid: unique over the whole trace, "    \
        "unlike tids, which the kernel reuses.")                                                 \
  COLUMN(tid, Int64, kNone, {}, "The kernel's thread id.")                                       \
  COLUMN(name, String, kNone, {}, "Thread name (comm), as last named in the trace.")             \
  COLUMN(start_ts, OptInt64, kNone, {}, "When the thread started, if the trace saw it start.")   \
  COLUMN(end_ts, OptInt64, kNone, {}, "When the thread exited, if the trace saw it exit.")       \
  COLUMN(upid, OptUint32, kNone, {}, "The process the thread belongs to (process.id).")          \
  COLUMN(is_main_thread, OptInt8, kNone, {},                                                     \
         "1 when tid equals its process's pid; NULL when the process is unknown.")               \
  COLUMN(is_idle, Int8, kNone, 0, "1 for a CPU's idle task (swapper, tid 0).")                   \
  COLUMN(machine_id, OptUint32, kNone, 0, "The machine it ran on (machine.id); 0 is the host.")   \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "Extra facts about the thread as args.")
// clang-format on
TW_DEFINE_TABLE(TW_THREAD_TABLE)

// clang-format off
#define TW_CPU_TABLE(TABLE, COLUMN)                                                              \
  TABLE(CpuTable, cpu,                                                                           \
        "One row per CPU (ucpu = id, unique across machines). Rows with a NULL cpu are "         \
        "placeholders the public `cpu` view leaves out.")                                        \
  COLUMN(cpu, OptUint32, kNone, {}, "The CPU number as the kernel numbers it on its machine.")   \
  COLUMN(cluster_id, Uint32, kNone, 0,                                                           \
         "The CPU's cluster: CPUs with the same frequency table share one (0, 1, ... from the "  \
         "slowest).")                                                                            \
  COLUMN(processor, String, kNone, {}, "The processor's name, as /proc/cpuinfo gives it.")       \
  COLUMN(machine_id, OptUint32, kNone, 0, "The machine (machine.id); 0 is the host.")            \
  COLUMN(capacity, OptInt64, kNone, {},                                                          \
         "The kernel's relative compute capacity of the CPU (1024 for the biggest), if known.")  \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "Extra facts about the CPU as args.")
// clang-format on
TW_DEFINE_TABLE(TW_CPU_TABLE)

// clang-format off
#define TW_CPU_FREQ_TABLE(TABLE, COLUMN)                                                         \
  TABLE(CpuFreqTable, cpu_freq,                                                                  \
        "The frequencies each CPU can run at (cpu_info packets), one row per (CPU, frequency).") \
  COLUMN(ucpu, Uint32, kNone, {}, "The CPU (cpu.id).")                                           \
  COLUMN(freq, Uint32, kNone, {}, "An available frequency, in kHz.")
// clang-format on
TW_DEFINE_TABLE(TW_CPU_FREQ_TABLE)

// clang-format off
#define TW_MACHINE_TABLE(TABLE, COLUMN)                                                          \
  TABLE(MachineTable, machine,                                                                   \
        "The machines whose data the trace holds: the host (raw_id 0) and any remote machine "   \
        "that sent data to it.")                                                                 \
  COLUMN(raw_id, Uint32, kNone, {}, "The machine id the trace's packets carry; 0 is the host.")   \
  COLUMN(sysname, String, kNone, {}, "Kernel name from uname (e.g. Linux).")                     \
  COLUMN(release, String, kNone, {}, "Kernel release from uname (e.g. 5.10.198-android13-4).")   \
  COLUMN(version, String, kNone, {}, "Kernel version string from uname.")                        \
  COLUMN(arch, String, kNone, {}, "Machine architecture from uname (e.g. aarch64).")             \
  COLUMN(num_cpus, OptInt64, kNone, {}, "How many CPUs the machine has.")                        \
  COLUMN(android_build_fingerprint, String, kNone, {}, "Android build fingerprint.")             \
  COLUMN(android_device_manufacturer, String, kNone, {}, "Android device manufacturer.")         \
  COLUMN(android_sdk_version, OptInt64, kNone, {}, "Android SDK (API) level.")                   \
  COLUMN(trace_id, OptUint32, kNone, {}, "The trace file that described the machine.")           \
  COLUMN(name, String, kNone, {}, "The machine's name, when the trace gives one.")               \
  COLUMN(system_ram_bytes, OptInt64, kNone, {}, "Physical memory of the machine, in bytes.")     \
  COLUMN(system_ram_gb, OptInt64, kNone, {}, "Physical memory rounded to whole GB.")
// clang-format on
TW_DEFINE_TABLE(TW_MACHINE_TABLE)

}  // namespace tw

// The generic kernel data source: task state events paired into sched slices and thread states
// (in either order of a context switch's two events), thread lifetimes, invalid orders counted
// and dropped, process trees, renames and cpu frequency.

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

namespace tp = pf::trace_packet;

enum State { kCreated = 1, kRunnable, kRunning, kSleeping, kUninterruptible, kStopped, kDead,
             kDestroyed };

class GenericKernelTrace {
 public:
  // A task state event; `cpu` only where it matters (Running) or where a test wants it.
  GenericKernelTrace& Task(int64_t ts, int64_t tid, State state, std::optional<int32_t> cpu = {},
                           std::string comm = "", std::optional<int32_t> prio = {}) {
    namespace f = pf::generic_kernel_task_state_event;
    proto::Writer e;
    if (cpu) e.Int(f::kCpu, *cpu);
    if (!comm.empty()) e.String(f::kComm, comm);
    e.Int(f::kTid, tid);
    e.Int(f::kState, state);
    if (prio) e.Int(f::kPrio, *prio);
    return Packet(ts, tp::kGenericKernelTaskStateEvent, e);
  }
  GenericKernelTrace& Rename(int64_t ts, int64_t tid, std::string comm) {
    proto::Writer e;
    e.Int(pf::generic_kernel_task_rename_event::kTid, tid);
    e.String(pf::generic_kernel_task_rename_event::kComm, comm);
    return Packet(ts, tp::kGenericKernelTaskRenameEvent, e);
  }
  GenericKernelTrace& CpuFrequency(int64_t ts, int32_t cpu, int64_t hz) {
    proto::Writer e;
    e.Int(pf::generic_kernel_cpu_frequency_event::kCpu, cpu);
    e.Int(pf::generic_kernel_cpu_frequency_event::kFreqHz, hz);
    return Packet(ts, tp::kGenericKernelCpuFreqEvent, e);
  }
  GenericKernelTrace& Packet(int64_t ts, uint32_t field, const proto::Writer& body) {
    proto::Writer packet;
    packet.Varint(tp::kTimestamp, static_cast<uint64_t>(ts));
    packet.Message(field, body);
    trace_.Message(pf::trace::kPacket, packet);
    return *this;
  }
  std::unique_ptr<LoadedTrace> Load() {
    auto t = LoadTraceBytes(trace_.Take());
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? std::move(*t) : nullptr;
  }

 private:
  proto::Writer trace_;
};

constexpr char kSched[] =
    "SELECT s.ts, s.dur, s.cpu, t.tid, s.end_state, s.priority FROM sched_slice s "
    "JOIN thread t USING (utid) ORDER BY s.ts, s.cpu";
constexpr char kStates[] =
    "SELECT s.ts, s.dur, t.tid, s.state, s.cpu FROM thread_state s JOIN thread t USING (utid) "
    "ORDER BY s.ts, t.tid";

TEST(GenericKernel, ContextSwitchesInEitherOrderBecomeSlicesAndStates) {
  GenericKernelTrace trace;
  trace.Task(1000, 500, kRunning, 1, "render", 110)
      // The old task leaves first, then the new one runs.
      .Task(1600, 500, kSleeping, 1)
      .Task(1600, 600, kRunning, 1, "worker", 120)
      // The new task runs first; the old one's state follows at the same instant.
      .Task(2500, 700, kRunning, 1, "audio", 100)
      .Task(2500, 600, kRunnable, 1);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"1000", "600", "1", "500", "S", "110"},
                                          {"1600", "900", "1", "600", "R", "120"},
                                          {"2500", "-1", "1", "700", "NULL", "100"}}));
  EXPECT_EQ(Rows(t->db(), kStates), (Table{{"1000", "600", "500", "Running", "1"},
                                           {"1600", "-1", "500", "S", "NULL"},
                                           {"1600", "900", "600", "Running", "1"},
                                           {"2500", "-1", "600", "R", "NULL"},
                                           {"2500", "-1", "700", "Running", "1"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT tid, name FROM thread WHERE tid > 0 ORDER BY tid"),
            (Table{{"500", "render"}, {"600", "worker"}, {"700", "audio"}}));
}

TEST(GenericKernel, APreemptedTaskWithoutItsOwnEventKeepsAnUnknownState) {
  GenericKernelTrace trace;
  trace.Task(100, 21, kRunning, 0, "a").Task(300, 22, kRunning, 0, "b");
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"100", "200", "0", "21", "NULL", "0"},
                                          {"300", "-1", "0", "22", "NULL", "0"}}));
  EXPECT_EQ(Rows(t->db(), kStates), (Table{{"100", "200", "21", "Running", "0"},
                                           {"300", "-1", "21", "NULL", "NULL"},
                                           {"300", "-1", "22", "Running", "0"}}));
}

TEST(GenericKernel, ALifetimeFromCreatedToDestroyed) {
  GenericKernelTrace trace;
  trace.Task(10, 42, kCreated, {}, "init_task")
      .Task(20, 42, kRunnable)
      .Task(30, 42, kRunning, 0)
      .Task(50, 42, kDead)
      .Task(60, 42, kDestroyed);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT tid, name, start_ts, end_ts FROM thread WHERE tid = 42"),
            (Table{{"42", "init_task", "10", "60"}}));
  EXPECT_EQ(Rows(t->db(), kStates), (Table{{"10", "10", "42", "Created", "NULL"},
                                           {"20", "10", "42", "R", "NULL"},
                                           {"30", "20", "42", "Running", "0"},
                                           {"50", "10", "42", "Z", "NULL"},
                                           {"60", "-1", "42", "X", "NULL"}}));
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"30", "20", "0", "42", "Z", "0"}}));
}

TEST(GenericKernel, ATidReusedAfterDestroyedIsANewThread) {
  GenericKernelTrace trace;
  trace.Task(10, 8, kCreated, {}, "first").Task(20, 8, kDestroyed).Task(30, 8, kCreated, {},
                                                                         "second");
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT name, start_ts, end_ts FROM thread WHERE tid = 8 ORDER BY utid"),
            (Table{{"first", "10", "20"}, {"second", "30", "NULL"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM stats WHERE name = "
                            "'generic_task_state_invalid_order' AND value > 0"),
            "0");
}

TEST(GenericKernel, ImpossibleOrdersAreCountedAndDropped) {
  GenericKernelTrace trace;
  trace.Task(100, 9, kRunning, 0, "t")
      .Task(200, 9, kRunning, 0)   // running twice
      .Task(300, 9, kCreated)      // created while alive
      .Task(400, 9, kDead)
      .Task(500, 9, kRunnable)     // anything but Destroyed after Dead
      .Task(600, 9, kDestroyed);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = "
                            "'generic_task_state_invalid_order'"),
            "3");
  EXPECT_EQ(Rows(t->db(), kStates), (Table{{"100", "300", "9", "Running", "0"},
                                           {"400", "200", "9", "Z", "NULL"},
                                           {"600", "-1", "9", "X", "NULL"}}));
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"100", "300", "0", "9", "Z", "0"}}));
}

TEST(GenericKernel, TwoStatesAtOneInstantAreCounted) {
  GenericKernelTrace trace;
  trace.Task(100, 11, kRunning, 2, "t").Task(100, 11, kUninterruptible, 2);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = "
                            "'generic_task_state_invalid_order'"),
            "1");
}

TEST(GenericKernel, UnknownStateIsInvalid) {
  GenericKernelTrace trace;
  trace.Task(100, 12, static_cast<State>(0), 0).Task(200, 12, static_cast<State>(42), 0);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = 'task_state_invalid'"), "2");
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM thread_state"), "0");
}

TEST(GenericKernel, SixtyFourBitTids) {
  const int64_t tid = 7'000'000'000'000'000'123;
  GenericKernelTrace trace;
  trace.Task(100, tid, kRunning, 0, "big").Task(400, tid, kStopped, 0);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"100", "300", "0", std::to_string(tid), "T", "0"}}));
}

TEST(GenericKernel, RenameNamesTheThread) {
  GenericKernelTrace trace;
  trace.Task(100, 15, kCreated, {}, "old").Rename(200, 15, "new").Rename(300, 16, "unseen");
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT tid, name, start_ts FROM thread WHERE tid > 0 ORDER BY tid"),
            (Table{{"15", "new", "100"}, {"16", "unseen", "NULL"}}));
}

TEST(GenericKernel, ProcessTreeNamesProcessesAndThreads) {
  namespace tree = pf::generic_kernel_process_tree;
  namespace proc = pf::generic_kernel_process_tree_process;
  namespace thr = pf::generic_kernel_process_tree_thread;
  auto process = [](int64_t pid, std::optional<int64_t> ppid, std::optional<std::string> cmd) {
    proto::Writer p;
    p.Int(proc::kPid, pid);
    if (ppid) p.Int(proc::kPpid, *ppid);
    if (cmd) p.String(proc::kCmdline, *cmd);
    return p;
  };
  auto thread = [](int64_t tid, int64_t pid, std::string comm, bool main, bool idle) {
    proto::Writer t;
    t.Int(thr::kTid, tid);
    t.Int(thr::kPid, pid);
    t.String(thr::kComm, comm);
    if (main) t.Bool(thr::kIsMainThread, true);
    if (idle) t.Bool(thr::kIsIdle, true);
    return t;
  };
  proto::Writer body;
  body.Message(tree::kProcesses, process(1, std::nullopt, "launcher"));
  body.Message(tree::kProcesses, process(30, 1, "/bin/server --port 80"));
  body.Message(tree::kProcesses, process(31, 1, std::nullopt));  // no cmdline: skipped
  body.Message(tree::kThreads, thread(30, 30, "server", true, false));
  body.Message(tree::kThreads, thread(33, 30, "server-io", false, false));
  body.Message(tree::kThreads, thread(50, 77, "orphan", false, false));
  body.Message(tree::kThreads, thread(4, 4, "idle", false, true));
  GenericKernelTrace trace;
  trace.Packet(5, tp::kGenericKernelProcessTree, body);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT p.pid, p.name, p.cmdline, pp.pid FROM process p "
                 "LEFT JOIN process pp ON pp.upid = p.parent_upid WHERE p.pid > 0 ORDER BY p.pid"),
            (Table{{"1", "launcher", "launcher", "0"},
                   {"4", "NULL", "NULL", "NULL"},
                   {"30", "/bin/server", "/bin/server --port 80", "1"},
                   {"77", "NULL", "NULL", "NULL"}}));
  EXPECT_EQ(Rows(t->db(),
                 "SELECT t.tid, t.name, p.pid, t.is_main_thread, t.is_idle FROM thread t "
                 "JOIN process p USING (upid) WHERE t.tid > 0 ORDER BY t.tid"),
            (Table{{"4", "idle", "4", "0", "1"},
                   {"30", "server", "30", "1", "0"},
                   {"33", "server-io", "30", "0", "0"},
                   {"50", "orphan", "77", "0", "0"}}));
}

TEST(GenericKernel, CpuFrequencyIsTheCpufreqCounterInKhz) {
  GenericKernelTrace trace;
  trace.CpuFrequency(5, 3, 1'800'000'000).CpuFrequency(9, 3, 600'000'000);
  auto t = trace.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT c.ts, t.cpu, CAST(c.value AS INT), t.name FROM counter c "
                 "JOIN cpu_counter_track t ON c.track_id = t.id "
                 "WHERE t.type = 'cpu_frequency' ORDER BY c.ts"),
            (Table{{"5", "3", "1800000", "cpufreq"}, {"9", "3", "600000", "cpufreq"}}));
}

}  // namespace
}  // namespace tw

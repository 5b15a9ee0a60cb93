// linux.perf.counters and linux.perf.samples: perf samples joined to the counter values they
// read, and their callstacks as a call tree, over traces written as traced_perf writes them
// (PerfSampleDefaults, interned callstacks, PerfSample packets).

#include <gtest/gtest.h>

#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/perf_trace_writer.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

using perf_testing::PerfEvent;
using perf_testing::PerfTraceWriter;

// PerfEvents.Counter values.
constexpr uint64_t kSwCpuClock = 1, kHwCpuCycles = 10, kHwInstructions = 11;

std::unique_ptr<LoadedTrace> TwoCpuTrace() {
  PerfTraceWriter w;
  // Sequence 1: cpu-clock timebase, cycles and instructions followers, on cpus 0 and 1.
  w.Defaults(1, PerfEvent{.counter = kSwCpuClock},
             {{.counter = kHwCpuCycles}, {.counter = kHwInstructions}});
  w.Add(1, {.ts = 1000, .cpu = 0, .pid = 7, .tid = 8, .cpu_mode = 2, .timebase_count = 100,
            .follower_counts = {400, 900}});
  w.Add(1, {.ts = 2000, .cpu = 1, .pid = 7, .tid = 9, .cpu_mode = 1, .timebase_count = 110,
            .follower_counts = {500, 600}});
  // A follower value beyond the configured followers has no track and is dropped.
  w.Add(1, {.ts = 3000, .cpu = 0, .pid = 7, .tid = 8, .timebase_count = 120,
            .follower_counts = {300, 450, 77}});
  auto t = LoadTraceBytes(w.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(LinuxPerfCounters, OneRowPerSampleAndCounter) {
  auto t = TwoCpuTrace();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(),
                 "INCLUDE PERFETTO MODULE linux.perf.counters;"
                 "SELECT sample_id, ts, cpu, cpu_mode, perf_session_id, t.name, counter_value "
                 "FROM linux_perf_sample_with_counters JOIN track t ON t.id = track_id "
                 "ORDER BY sample_id, t.name"),
            (Table{{"0", "1000", "0", "user", "0", "cpu-clock", "100"},
                   {"0", "1000", "0", "user", "0", "cpu-cycles", "400"},
                   {"0", "1000", "0", "user", "0", "instructions", "900"},
                   {"1", "2000", "1", "kernel", "0", "cpu-clock", "110"},
                   {"1", "2000", "1", "kernel", "0", "cpu-cycles", "500"},
                   {"1", "2000", "1", "kernel", "0", "instructions", "600"},
                   {"2", "3000", "0", "unknown", "0", "cpu-clock", "120"},
                   {"2", "3000", "0", "unknown", "0", "cpu-cycles", "300"},
                   {"2", "3000", "0", "unknown", "0", "instructions", "450"}}));
  // The counter rows are the ones on the sample's own cpu's tracks.
  EXPECT_EQ(Scalar(t->db(),
                   "SELECT count(*) FROM linux_perf_sample_with_counters w "
                   "JOIN perf_counter_track t ON t.id = w.track_id WHERE t.cpu != w.cpu"),
            "0");
}

TEST(LinuxPerfCounters, CounterForSampleAnswersInstructionsPerCycle) {
  auto t = TwoCpuTrace();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(),
                 "INCLUDE PERFETTO MODULE linux.perf.counters;"
                 "SELECT id, linux_perf_counter_for_sample(id, 'instructions') / "
                 "linux_perf_counter_for_sample(id, 'cpu-cycles'), "
                 "linux_perf_counter_for_sample(id, 'branch-misses') FROM perf_sample ORDER BY id"),
            (Table{{"0", "2.25", "NULL"}, {"1", "1.2", "NULL"}, {"2", "1.5", "NULL"}}));
}

// Three samples: two in main → parse (one of them deeper, in a mangled C++ function), one in
// main itself. The tree has main → parse → Parser::read.
TEST(LinuxPerfSamples, SummaryTreeCountsSelfAndCumulative) {
  PerfTraceWriter w;
  w.Defaults(1, PerfEvent{.counter = kSwCpuClock}, {});
  w.Callstack(1, 1, {{"main", "/bin/app", 0x10}});
  w.Callstack(1, 2, {{"main", "/bin/app", 0x10}, {"parse", "/bin/app", 0x20}});
  w.Callstack(1, 3, {{"main", "/bin/app", 0x10}, {"parse", "/bin/app", 0x20},
                     {"_ZN6Parser4readEv", "/lib/libparse.so", 0x30}});
  w.Add(1, {.ts = 100, .cpu = 0, .pid = 5, .tid = 5, .timebase_count = 1, .callstack_iid = 3});
  w.Add(1, {.ts = 200, .cpu = 0, .pid = 5, .tid = 5, .timebase_count = 1, .callstack_iid = 3});
  w.Add(1, {.ts = 300, .cpu = 0, .pid = 5, .tid = 5, .timebase_count = 1, .callstack_iid = 1});
  // A sample without a callstack is not in the tree.
  w.Add(1, {.ts = 400, .cpu = 0, .pid = 5, .tid = 5, .timebase_count = 1});
  auto t = LoadTraceBytes(w.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(),
                 "INCLUDE PERFETTO MODULE linux.perf.samples;"
                 "SELECT c.name, p.name, c.mapping_name, c.self_count, c.cumulative_count, "
                 "c.source_file "
                 "FROM linux_perf_samples_summary_tree c "
                 "LEFT JOIN linux_perf_samples_summary_tree p ON p.id = c.parent_id ORDER BY c.id"),
            (Table{{"main", "NULL", "/bin/app", "1", "3", "NULL"},
                   {"parse", "main", "/bin/app", "0", "2", "NULL"},
                   {"Parser::read()", "parse", "/lib/libparse.so", "2", "2", "NULL"}}));
  // Ids are the callsites'.
  EXPECT_EQ(Scalar((*t)->db(),
                   "SELECT count(*) FROM linux_perf_samples_summary_tree t "
                   "JOIN perf_sample s ON s.callsite_id = t.id WHERE t.self_count > 0"),
            "3");
}

}  // namespace
}  // namespace tw::stdlib_testing

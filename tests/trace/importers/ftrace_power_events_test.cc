// cpu_idle, cpu_frequency and suspend_resume ftrace events. cpu_idle / cpu_frequency: a counter
// row on the cpu's track and an ftrace_event row with the event's fields as args. The decoder
// carries the usual (state, cpu_id) payload inline, without a generic twin event; any other
// payload layout takes the generic path. Both must give the same rows.

#include <gtest/gtest.h>

#include <memory>
#include <cstdio>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"
#include "tools/synth/sched_trace_writer.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

enum class Layout { kCanonical, kReversed, kExtraField };

// One FtraceEvent on `cpu`'s bundle; the payload's fields in the given layout.
void AddPowerEvent(proto::Writer& trace, uint32_t cpu, int64_t ts, int32_t pid,
                   uint32_t event_field, uint32_t state, uint32_t cpu_id, Layout layout,
                   std::optional<uint32_t> common_flags = std::nullopt) {
  proto::Writer body;
  if (layout == Layout::kReversed) {
    body.Varint(2, cpu_id);
    body.Varint(1, state);
  } else {
    body.Varint(1, state);
    body.Varint(2, cpu_id);
    if (layout == Layout::kExtraField) body.Varint(9, 7);  // a field this build does not know
  }
  importer_testing::AddFtraceEvent(trace, cpu, ts, pid, event_field, body, common_flags);
}

std::unique_ptr<LoadedTrace> LoadWith(Layout layout) {
  proto::Writer trace;
  AddPowerEvent(trace, 1, 100, 0, pf::ftrace_event::kCpuIdle, 0xffffffffu, 1, layout, 1);
  AddPowerEvent(trace, 0, 150, 42, pf::ftrace_event::kCpuFrequency, 1804800, 0, layout);
  AddPowerEvent(trace, 1, 200, 0, pf::ftrace_event::kCpuIdle, 1, 1, layout);
  // A cpu_id beyond the cpus the engine tracks: an ftrace_event row, no counter.
  AddPowerEvent(trace, 2, 250, 0, pf::ftrace_event::kCpuIdle, 0, 5000, layout);
  return importer_testing::LoadOrFail(trace);
}

const Table kFtraceRows = {{"100", "cpu_idle", "1", "0", "0"},
                           {"150", "cpu_frequency", "0", "42", "0"},
                           {"200", "cpu_idle", "1", "0", "0"},
                           {"250", "cpu_idle", "2", "0", "0"}};
const Table kArgs = {{"100", "cpu_id", "1", "uint"},     {"100", "state", "4294967295", "uint"},
                     {"150", "cpu_id", "0", "uint"},     {"150", "state", "1804800", "uint"},
                     {"200", "cpu_id", "1", "uint"},     {"200", "state", "1", "uint"},
                     {"250", "cpu_id", "5000", "uint"},  {"250", "state", "0", "uint"}};
const Table kCounters = {{"100", "cpuidle", "1", "4294967295"},
                         {"150", "cpufreq", "0", "1804800"},
                         {"200", "cpuidle", "1", "1"}};

TEST(FtracePowerEvents, EveryPayloadLayoutGivesTheSameRows) {
  for (Layout layout : {Layout::kCanonical, Layout::kReversed, Layout::kExtraField}) {
    SCOPED_TRACE(static_cast<int>(layout));
    auto t = LoadWith(layout);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(Rows(t->db(), "SELECT f.ts, f.name, f.cpu, th.tid, f.common_flags "
                            "FROM ftrace_event AS f JOIN thread AS th USING (utid) ORDER BY f.ts"),
              kFtraceRows);
    EXPECT_EQ(Rows(t->db(), "SELECT f.ts, a.key, a.display_value, a.value_type "
                            "FROM ftrace_event AS f JOIN args AS a USING (arg_set_id) "
                            "WHERE a.key IN ('state', 'cpu_id') ORDER BY f.ts, a.key"),
              kArgs);
    EXPECT_EQ(Rows(t->db(), "SELECT c.ts, t.name, t.cpu, CAST(c.value AS INT) FROM counter AS c "
                            "JOIN cpu_counter_track AS t ON t.id = c.track_id ORDER BY c.ts"),
              kCounters);
  }
}

// The benchmark's "mixed" shape in small: every generated power event and blocked reason lands,
// whatever the sched encoding.
TEST(FtracePowerEvents, SyntheticTraceWithIdleFrequencyAndBlockedReasons) {
  for (synth::SchedEncoding encoding : {synth::SchedEncoding::kPlain, synth::SchedEncoding::kCompact}) {
    synth::SchedTraceOptions o;
    o.cpus = 2;
    o.duration_ns = 300'000'000;
    o.processes = 4;
    o.threads = 20;
    o.load = 0.5;
    o.encoding = encoding;
    o.cpu_idle = true;
    o.frequency_rate_hz = 50;
    o.blocked_reason_fraction = 1;
    const std::string path = ::testing::TempDir() + "/power_" + synth::SchedEncodingName(encoding) + ".pb";
    SCOPED_TRACE(path);
    synth::SchedTraceSummary sum;
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, path, &sum).ok());
    ASSERT_GT(sum.cpu_idle, 100);
    ASSERT_GT(sum.cpu_frequency, 10);
    ASSERT_GT(sum.blocked_reason, 10);
    auto t = LoadTraceFile(path);
    ASSERT_TRUE(t.ok()) << t.status();
    auto count = [&](const std::string& sql) { return Rows((*t)->db(), sql)[0][0]; };
    EXPECT_EQ(count("SELECT COUNT(*) FROM ftrace_event WHERE name = 'cpu_idle'"),
              std::to_string(sum.cpu_idle));
    EXPECT_EQ(count("SELECT COUNT(*) FROM counter JOIN cpu_counter_track AS t ON t.id = track_id "
                    "WHERE t.name = 'cpufreq'"),
              std::to_string(sum.cpu_frequency));
    EXPECT_EQ(count("SELECT COUNT(*) FROM ftrace_event WHERE name = 'sched_blocked_reason'"),
              std::to_string(sum.blocked_reason));
    // Each reported D sleep carries its io_wait; compact_sched has no prev fields, so the first
    // switch on each cpu (and a D sleep it began) is unknown.
    const int64_t reported = std::stoll(
        count("SELECT COUNT(*) FROM thread_state WHERE state = 'D' AND io_wait IS NOT NULL"));
    if (encoding == synth::SchedEncoding::kPlain) {
      EXPECT_EQ(reported, sum.blocked_reason);
    } else {
      EXPECT_LE(reported, sum.blocked_reason);
      EXPECT_GE(reported, sum.blocked_reason - o.cpus);
    }
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace tw

namespace tw {
namespace {

void AddSuspendResume(proto::Writer& trace, int64_t ts, std::string_view action, int32_t val,
                      bool start) {
  proto::Writer body;
  body.String(1, action);  // SuspendResumeFtraceEvent: action, val, start
  body.Int(2, val);
  body.Varint(3, start ? 1 : 0);
  importer_testing::AddFtraceEvent(trace, 2, ts, 7, pf::ftrace_event::kSuspendResume, body);
}

// A suspend whose prepare step fails: freeze_processes runs inside suspend_enter and calls
// thaw_processes, and suspend_enter never ends; its slice ends with that thaw_processes. A
// second, successful suspend after it is left alone, and timekeeping_freeze's val (the cpu)
// does not split its begin from its end.
TEST(SuspendResume, FailedPrepareEndsSuspendEnterAtThaw) {
  proto::Writer trace;
  AddSuspendResume(trace, 1000, "suspend_enter", 3, true);
  AddSuspendResume(trace, 1200, "freeze_processes", 0, true);
  AddSuspendResume(trace, 1250, "thaw_processes", 0, true);
  AddSuspendResume(trace, 1290, "thaw_processes", 0, false);
  AddSuspendResume(trace, 1300, "freeze_processes", 0, false);
  AddSuspendResume(trace, 1500, "suspend_enter", 3, true);
  AddSuspendResume(trace, 1600, "freeze_processes", 0, true);
  AddSuspendResume(trace, 1700, "freeze_processes", 0, false);
  AddSuspendResume(trace, 2000, "suspend_enter", 3, false);
  AddSuspendResume(trace, 3000, "timekeeping_freeze", 4, true);
  AddSuspendResume(trace, 3500, "timekeeping_freeze", 1, false);
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT s.ts, s.dur, s.name FROM slice s JOIN track t "
                             "ON s.track_id = t.id WHERE t.name = 'Suspend/Resume Latency' "
                             "ORDER BY s.ts"),
            (Table{{"1000", "290", "suspend_enter(3)"},
                   {"1200", "100", "freeze_processes(0)"},
                   {"1250", "40", "thaw_processes(0)"},
                   {"1500", "500", "suspend_enter(3)"},
                   {"1600", "100", "freeze_processes(0)"},
                   {"3000", "500", "timekeeping_freeze(0)"}}));
  EXPECT_EQ(Rows((*t)->db(), "SELECT extract_arg(arg_set_id, 'event_type'), "
                             "extract_arg(arg_set_id, 'cpu') FROM slice WHERE ts = 1000"),
            (Table{{"Main Kernel Suspend Event", "2"}}));
}

}  // namespace
}  // namespace tw

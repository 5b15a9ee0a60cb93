// Plain sched_waking ftrace events: a runnable thread_state row for the woken thread and an
// ftrace_event row with the event's fields as args. The decoder carries the usual payload
// (comm, pid, prio, [success,] target_cpu) in the typed event and the sched tracker writes its
// row, with no heap-allocated generic twin; any other layout takes the generic path. Every
// layout must give the same rows.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

enum class Layout { kCanonical, kWithoutSuccess, kReversed, kExtraField };

void AddWaking(proto::Writer& trace, uint32_t cpu, int64_t ts, int32_t common_pid,
               const std::string& comm, int32_t pid, int32_t prio, int32_t target_cpu,
               Layout layout) {
  namespace sw = pf::sched_waking_ftrace_event;
  proto::Writer body;
  if (layout == Layout::kReversed) {
    body.Varint(sw::kTargetCpu, static_cast<uint64_t>(target_cpu));
    body.Varint(sw::kSuccess, 1);
    body.Varint(sw::kPrio, static_cast<uint64_t>(prio));
    body.Varint(sw::kPid, static_cast<uint64_t>(pid));
    body.String(sw::kComm, comm);
  } else {
    body.String(sw::kComm, comm);
    body.Varint(sw::kPid, static_cast<uint64_t>(pid));
    body.Varint(sw::kPrio, static_cast<uint64_t>(prio));
    if (layout != Layout::kWithoutSuccess) body.Varint(sw::kSuccess, 1);
    body.Varint(sw::kTargetCpu, static_cast<uint64_t>(target_cpu));
    if (layout == Layout::kExtraField) body.Varint(9, 7);  // a field this build does not know
  }
  importer_testing::AddFtraceEvent(trace, cpu, ts, common_pid, pf::ftrace_event::kSchedWaking,
                                   body);
}

std::unique_ptr<LoadedTrace> LoadWith(Layout layout) {
  proto::Writer trace;
  AddWaking(trace, 0, 100, 10, "wakee", 20, 120, 1, layout);
  AddWaking(trace, 1, 200, 0, "other", 21, 98, 0, layout);
  AddWaking(trace, 0, 300, 20, "wakee", 10, 120, 0, layout);
  return importer_testing::LoadOrFail(trace);
}

TEST(FtraceSchedWaking, EveryPayloadLayoutGivesTheSameRows) {
  const Table ftrace_rows = {{"100", "sched_waking", "0", "10", "0"},
                             {"200", "sched_waking", "1", "0", "0"},
                             {"300", "sched_waking", "0", "20", "0"}};
  const Table thread_states = {{"100", "20", "R", "10"}, {"200", "21", "R", "0"},
                               {"300", "10", "R", "20"}};
  for (Layout layout :
       {Layout::kCanonical, Layout::kWithoutSuccess, Layout::kReversed, Layout::kExtraField}) {
    SCOPED_TRACE(static_cast<int>(layout));
    auto t = LoadWith(layout);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(Rows(t->db(), "SELECT f.ts, f.name, f.cpu, th.tid, f.common_flags "
                            "FROM ftrace_event AS f JOIN thread AS th USING (utid) ORDER BY f.ts"),
              ftrace_rows);
    Table args = {{"100", "comm", "wakee", "string"}, {"100", "pid", "20", "int"},
                  {"100", "prio", "120", "int"},      {"100", "success", "1", "int"},
                  {"100", "target_cpu", "1", "int"},  {"200", "comm", "other", "string"},
                  {"200", "pid", "21", "int"},        {"200", "prio", "98", "int"},
                  {"200", "success", "1", "int"},     {"200", "target_cpu", "0", "int"},
                  {"300", "comm", "wakee", "string"}, {"300", "pid", "10", "int"},
                  {"300", "prio", "120", "int"},      {"300", "success", "1", "int"},
                  {"300", "target_cpu", "0", "int"}};
    if (layout == Layout::kWithoutSuccess) {
      Table without;
      for (const auto& row : args) {
        if (row[1] != "success") without.push_back(row);
      }
      args = without;
    }
    EXPECT_EQ(Rows(t->db(), "SELECT f.ts, a.key, a.display_value, a.value_type "
                            "FROM ftrace_event AS f JOIN args AS a USING (arg_set_id) "
                            "ORDER BY f.ts, a.key"),
              args);
    // Threads are created in the same order whichever path wrote the row.
    EXPECT_EQ(Rows(t->db(), "SELECT utid, tid FROM thread ORDER BY utid"),
              (Table{{"0", "0"}, {"1", "10"}, {"2", "20"}, {"3", "21"}}));
    // A thread first seen in a wake-up is runnable from it, woken by the event's common pid.
    EXPECT_EQ(Rows(t->db(), "SELECT s.ts, th.tid, s.state, w.tid FROM thread_state AS s "
                            "JOIN thread AS th USING (utid) "
                            "JOIN thread AS w ON w.utid = s.waker_utid ORDER BY s.ts, th.tid"),
              thread_states);
  }
}

}  // namespace
}  // namespace tw

// Task lifecycle ftrace events and the names they give threads: task_rename names the thread
// (and its process when it is the main thread); sched_process_exit names nothing, so a thread
// seen only through its exit keeps no name, as in trace_processor.

#include <gtest/gtest.h>

#include <memory>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

void AddEvent(proto::Writer& trace, int64_t ts, int32_t pid, uint32_t field,
              const proto::Writer& body) {
  importer_testing::AddFtraceEvent(trace, 0, ts, pid, field, body);
}

TEST(FtraceTaskEvents, ExitDoesNotNameButRenameDoes) {
  proto::Writer trace;
  // sched_process_exit: comm 1, pid 2, tgid 3, prio 4.
  proto::Writer exit;
  exit.String(1, "cat");
  exit.Varint(2, 77);
  exit.Varint(3, 77);
  exit.Varint(4, 120);
  AddEvent(trace, 100, 77, pf::ftrace_event::kSchedProcessExit, exit);
  // task_rename: pid 1, oldcomm 2, newcomm 3.
  proto::Writer rename;
  rename.Varint(1, 88);
  rename.String(2, "sh");
  rename.String(3, "worker");
  AddEvent(trace, 200, 88, pf::ftrace_event::kTaskRename, rename);
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT tid, name FROM thread WHERE tid IN (77, 88) ORDER BY tid"),
            (Table{{"77", "NULL"}, {"88", "worker"}}));
}

}  // namespace
}  // namespace tw

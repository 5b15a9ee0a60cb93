// ufshcd_command: the UFS commands in flight (a counter) and one slice per command on its
// tag's track, named after its SCSI operation.

#include <gtest/gtest.h>

#include "libs/trace/trackers/ufs_command_tracker.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kUfshcdCommand = 406;  // FtraceEvent.ufshcd_command

void AddCommand(proto::Writer& trace, int64_t ts, uint32_t tag, uint32_t opcode,
                uint32_t doorbell, uint32_t phase, uint32_t group_id = 0) {
  proto::Writer c;
  c.String(1, "13200000.ufs");      // dev_name
  if (doorbell) c.Varint(2, doorbell);
  c.Varint(5, opcode);
  c.Varint(7, tag);
  if (group_id) c.Varint(9, group_id);
  c.Varint(10, phase);  // str_t: 0 send, 1 complete
  importer_testing::AddFtraceEvent(trace, 0, ts, 0, kUfshcdCommand, c);
}

TEST(UfsCommandName, ScsiOperationsAndGroupIds) {
  EXPECT_EQ(UfsCommandName(0x28, 0), "READ (10)");
  EXPECT_EQ(UfsCommandName(0x2a, 0x16), "WRITE (10) (GID=0x16)");
  EXPECT_EQ(UfsCommandName(0x35, 0), "SYNCHRONIZE CACHE (10)");
  EXPECT_EQ(UfsCommandName(0xff, 0), "UNDEFINED");
}

TEST(FtraceUfs, CommandsInFlightAndPerTagSlices) {
  proto::Writer trace;
  AddCommand(trace, 100, 3, 0x28, 0b1000, 0);          // tag 3 sent: 1 in flight
  AddCommand(trace, 110, 9, 0x2a, 0b1000001000, 0, 5);  // tag 9 sent: 2 in flight
  AddCommand(trace, 150, 3, 0x28, 0b1000000000, 1);    // tag 3 done: 1 left
  AddCommand(trace, 180, 9, 0x2a, 0, 1);               // tag 9 done, no doorbell: 0
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT c.ts, CAST(c.value AS INT) FROM counter c JOIN counter_track t "
                 "ON c.track_id = t.id WHERE t.name = 'io.ufs.command.count' ORDER BY c.ts"),
            (Table{{"100", "1"}, {"110", "2"}, {"150", "1"}, {"180", "0"}}));
  EXPECT_EQ(Rows(t->db(),
                 "SELECT t.name, s.ts, s.dur, s.name FROM slice s JOIN track t "
                 "ON s.track_id = t.id ORDER BY s.ts"),
            (Table{{"io.ufs.command.tag[003]", "100", "50", "READ (10)"},
                   {"io.ufs.command.tag[009]", "110", "70", "WRITE (10) (GID=0x5)"}}));
}

}  // namespace
}  // namespace tw

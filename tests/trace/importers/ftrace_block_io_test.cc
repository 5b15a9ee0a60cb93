// block_io_start / block_io_done: one "block_io" slice per request, from issue to completion,
// on its block device's track, with the sector as an arg.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kBlockIoStart = 546, kBlockIoDone = 547;  // FtraceEvent fields

void AddBlockIo(proto::Writer& trace, uint32_t field, int64_t ts, int32_t pid, uint64_t dev,
                uint64_t sector) {
  proto::Writer e;
  e.Varint(1, dev);     // dev
  e.Varint(2, sector);  // sector
  importer_testing::AddFtraceEvent(trace, 0, ts, pid, field, e);
}

TEST(FtraceBlockIo, RequestsAreSlicesOnTheirDevicesTrack) {
  proto::Writer trace;
  AddBlockIo(trace, kBlockIoStart, 100, 40, 259, 8000);
  AddBlockIo(trace, kBlockIoStart, 130, 41, 260, 16);
  AddBlockIo(trace, kBlockIoDone, 190, 0, 259, 8000);  // completed from an irq: pid 0
  AddBlockIo(trace, kBlockIoDone, 400, 0, 260, 16);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT s.name, s.ts, s.dur, EXTRACT_ARG(t.dimension_arg_set_id, 'block_device'), "
                 "EXTRACT_ARG(s.arg_set_id, 'sector') FROM slice s JOIN track t "
                 "ON s.track_id = t.id AND t.type = 'block_io' ORDER BY s.ts"),
            (Table{{"block_io", "100", "90", "259", "8000"},
                   {"block_io", "130", "270", "260", "16"}}));
}

}  // namespace
}  // namespace tw

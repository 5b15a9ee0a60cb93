// kprobe_event: a probed kernel function's entry and return become a slice on the thread that
// ran it, an instant probe a zero-length slice; unknown types place nothing.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kKprobeEvent = 542;  // FtraceEvent.kprobe_event (KprobeEvent)

void AddKprobe(proto::Writer& trace, int64_t ts, int32_t pid, const std::string& name,
               int type) {
  proto::Writer k;
  k.String(1, name);  // name
  k.Varint(2, static_cast<uint64_t>(type));  // type: 1 begin, 2 end, 3 instant
  importer_testing::AddFtraceEvent(trace, 2, ts, pid, kKprobeEvent, k);
}

TEST(FtraceKprobe, EntryAndReturnNestOnTheThreadInstantsAreZeroLength) {
  proto::Writer trace;
  AddKprobe(trace, 100, 7, "vfs_read", 1);
  AddKprobe(trace, 120, 7, "ext4_file_read_iter", 1);
  AddKprobe(trace, 150, 7, "ext4_file_read_iter", 2);
  AddKprobe(trace, 160, 7, "kmalloc", 3);
  AddKprobe(trace, 300, 7, "vfs_read", 2);
  AddKprobe(trace, 310, 8, "ignored", 0);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT s.ts, s.dur, s.depth, s.name, tt.utid = th.utid FROM slice s "
                 "JOIN thread_track tt ON s.track_id = tt.id JOIN thread th ON th.tid = 7 "
                 "ORDER BY s.ts"),
            (Table{{"100", "200", "0", "vfs_read", "1"},
                   {"120", "30", "1", "ext4_file_read_iter", "1"},
                   {"160", "0", "1", "kmalloc", "1"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT COUNT(*) FROM ftrace_event WHERE name = 'kprobe_event'"),
            (Table{{"6"}}));
}

}  // namespace
}  // namespace tw

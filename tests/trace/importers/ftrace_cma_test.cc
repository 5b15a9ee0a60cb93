// CMA allocations: "mm_cma_alloc" slices on the allocating thread, ended by the event the
// running kernel version emits (cma_alloc_info on 5.10-6.0, cma_alloc_finish on 6.1+, which
// takes its counts from mm_alloc_contig_migrate_range_info); none on older kernels.

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

// FtraceEvent field numbers.
constexpr uint32_t kCmaAllocStart = 465, kCmaAllocInfo = 466, kCmaAllocFinish = 576,
                   kMigrateRangeInfo = 577;

void AddRelease(proto::Writer& trace, const std::string& release) {
  proto::Writer uts;
  uts.String(pf::utsname::kSysname, "Linux");
  uts.String(pf::utsname::kRelease, release);
  proto::Writer info;
  info.Message(pf::system_info::kUtsname, uts);
  proto::Writer packet;
  packet.Message(pf::trace_packet::kSystemInfo, info);
  trace.Message(pf::trace::kPacket, packet);
}

void AddStart(proto::Writer& trace, int64_t ts, int32_t pid) {
  proto::Writer start;
  start.Varint(1, 8);           // align
  start.Varint(2, 512);         // count
  start.String(3, "reserved");  // name
  importer_testing::AddFtraceEvent(trace, 1, ts, pid, kCmaAllocStart, start);
}

constexpr char kSlices[] =
    "SELECT ts, dur, EXTRACT_ARG(arg_set_id, 'cma_name'), EXTRACT_ARG(arg_set_id, "
    "'cma_req_pages'), EXTRACT_ARG(arg_set_id, 'cma_nr_migrated'), EXTRACT_ARG(arg_set_id, "
    "'cma_nr_mapped') FROM slice WHERE name = 'mm_cma_alloc' ORDER BY ts";

TEST(FtraceCma, Kernel5_10EndsWithCmaAllocInfo) {
  proto::Writer trace;
  AddRelease(trace, "5.15.94-android14");
  AddStart(trace, 1000, 50);
  proto::Writer info;
  info.Varint(2, 512);          // count
  info.String(6, "reserved");   // name
  info.Varint(7, 40);           // nr_mapped
  info.Varint(8, 300);          // nr_migrated
  info.Varint(10, 0x1234);      // pfn
  importer_testing::AddFtraceEvent(trace, 1, 4000, 50, kCmaAllocInfo, info);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kSlices), (Table{{"1000", "3000", "reserved", "512", "300", "40"}}));
}

TEST(FtraceCma, Kernel6_1EndsWithFinishAndTakesCountsFromMigrateRangeInfo) {
  proto::Writer trace;
  AddRelease(trace, "6.1.25");
  AddStart(trace, 1000, 60);
  proto::Writer migrate;
  migrate.Varint(3, 77);  // nr_migrated
  migrate.Varint(5, 9);   // nr_mapped
  importer_testing::AddFtraceEvent(trace, 1, 1500, 60, kMigrateRangeInfo, migrate);
  proto::Writer finish;
  finish.String(1, "reserved");  // name
  finish.Varint(4, 256);         // count
  importer_testing::AddFtraceEvent(trace, 1, 2000, 60, kCmaAllocFinish, finish);
  // A second allocation with no migration: its counts are zero, not the previous ones.
  AddStart(trace, 3000, 60);
  importer_testing::AddFtraceEvent(trace, 1, 3200, 60, kCmaAllocFinish, finish);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kSlices), (Table{{"1000", "1000", "reserved", "256", "77", "9"},
                                           {"3000", "200", "reserved", "256", "0", "0"}}));
}

TEST(FtraceCma, OlderOrUnknownKernelsHaveNoSlices) {
  for (const char* release : {"4.19.113", ""}) {
    SCOPED_TRACE(release);
    proto::Writer trace;
    if (*release) AddRelease(trace, release);
    AddStart(trace, 1000, 70);
    proto::Writer info;
    info.String(6, "reserved");
    importer_testing::AddFtraceEvent(trace, 1, 2000, 70, kCmaAllocInfo, info);
    auto t = importer_testing::LoadOrFail(trace);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(Rows(t->db(), "SELECT COUNT(*) FROM slice"), (Table{{"0"}}));
  }
}

}  // namespace
}  // namespace tw

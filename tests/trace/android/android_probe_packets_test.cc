// Android probe packets with their own tables or tracks: user_list → android_user_list, and GPU
// memory totals (GpuMemTotalEvent packets and gpu_mem_total ftrace events) → "GPU Memory"
// counters per GPU and process.

#include <gtest/gtest.h>

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

constexpr uint32_t kGpuMemTotalFtraceEvent = 340;  // FtraceEvent.gpu_mem_total

void AddPacket(proto::Writer& trace, const proto::Writer& packet) {
  trace.Message(pf::trace::kPacket, packet);
}

std::unique_ptr<LoadedTrace> Load(proto::Writer& trace) {
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

proto::Writer UserList(std::initializer_list<std::pair<int32_t, std::string_view>> users) {
  proto::Writer list;
  for (const auto& [uid, type] : users) {
    proto::Writer user;
    user.String(pf::android_user_list_user_info::kType, type);
    user.Int(pf::android_user_list_user_info::kUid, uid);
    list.Message(pf::android_user_list::kUsers, user);
  }
  proto::Writer packet;
  packet.Message(pf::trace_packet::kUserList, list);
  return packet;
}

TEST(AndroidUserList, OneRowPerUserAcrossRepeatedListings) {
  proto::Writer trace;
  AddPacket(trace, UserList({{0, "android.os.usertype.full.SYSTEM"},
                             {10, "android.os.usertype.full.SECONDARY"}}));
  AddPacket(trace, UserList({{10, "android.os.usertype.full.GUEST"}}));
  proto::Writer failed;
  proto::Writer error_list;
  error_list.Int(pf::android_user_list::kError, -1);
  failed.Message(pf::trace_packet::kUserList, error_list);
  AddPacket(trace, failed);
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->db().Execute("INCLUDE PERFETTO MODULE android.user_list").ok());
  EXPECT_EQ(Rows(t->db(), "SELECT android_user_id, type FROM android_user_list "
                          "ORDER BY android_user_id"),
            (Table{{"0", "android.os.usertype.full.SYSTEM"},
                   {"10", "android.os.usertype.full.GUEST"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = 'user_list_errors'"), "1");
}

proto::Writer GpuMemPacket(int64_t ts, uint32_t gpu, uint32_t pid, uint64_t size) {
  proto::Writer event;
  event.Varint(pf::gpu_mem_total_event::kGpuId, gpu);
  event.Varint(pf::gpu_mem_total_event::kPid, pid);
  event.Varint(pf::gpu_mem_total_event::kSize, size);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Message(pf::trace_packet::kGpuMemTotalEvent, event);
  return packet;
}

// One ftrace bundle on cpu 0 holding `event` (an FtraceEvent body without timestamp and pid).
proto::Writer FtracePacket(int64_t ts, int32_t common_pid, uint32_t event_id,
                           const proto::Writer& body) {
  proto::Writer event;
  event.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  event.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(common_pid));
  event.Message(event_id, body);
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, 0);
  bundle.Message(pf::ftrace_event_bundle::kEvent, event);
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceEvents, bundle);
  return packet;
}

proto::Writer GpuMemFtrace(int64_t ts, int32_t common_pid, uint32_t gpu, uint32_t pid,
                           uint64_t size) {
  proto::Writer body;
  body.Varint(1, gpu);  // GpuMemTotalFtraceEvent: gpu_id = 1, pid = 2, size = 3
  body.Varint(2, pid);
  body.Varint(3, size);
  return FtracePacket(ts, common_pid, kGpuMemTotalFtraceEvent, body);
}

TEST(GpuMemory, GlobalAndProcessTotalsPerGpu) {
  proto::Writer trace;
  AddPacket(trace, GpuMemPacket(0, 0, 0, 123));
  AddPacket(trace, GpuMemPacket(0, 0, 42, 100));
  AddPacket(trace, GpuMemPacket(0, 1, 0, 456));
  AddPacket(trace, GpuMemFtrace(5, 0, 0, 0, 256));
  AddPacket(trace, GpuMemFtrace(5, 42, 0, 42, 233));
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(
      SELECT ct.name, ct.unit, ct.type, extract_arg(ct.dimension_arg_set_id, 'gpu'), p.pid,
             c.ts, CAST(c.value AS INT)
      FROM counter_track AS ct
      LEFT JOIN process_counter_track AS pct USING (id) LEFT JOIN process AS p USING (upid)
      JOIN counter AS c ON c.track_id = ct.id
      ORDER BY 4, c.ts, p.pid)"),
            (Table{{"GPU Memory", "bytes", "gpu_memory", "0", "NULL", "0", "123"},
                   {"GPU Memory", "bytes", "process_gpu_memory", "0", "42", "0", "100"},
                   {"GPU Memory", "bytes", "gpu_memory", "0", "NULL", "5", "256"},
                   {"GPU Memory", "bytes", "process_gpu_memory", "0", "42", "5", "233"},
                   {"GPU Memory", "bytes", "gpu_memory", "1", "NULL", "0", "456"}}));
}

TEST(GpuMemory, FtraceTotalAfterProcessDeathIsDropped) {
  proto::Writer trace;
  AddPacket(trace, GpuMemPacket(0, 0, 7, 100));
  proto::Writer free_event;
  free_event.String(pf::sched_process_free_ftrace_event::kComm, "app");
  free_event.Int(pf::sched_process_free_ftrace_event::kPid, 7);
  AddPacket(trace, FtracePacket(12, 0, pf::ftrace_event::kSchedProcessFree, free_event));
  AddPacket(trace, GpuMemFtrace(15, 0, 0, 7, 0));  // a kworker reporting after the death
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT c.ts, CAST(c.value AS INT) FROM counter AS c "
                          "JOIN counter_track AS ct ON c.track_id = ct.id "
                          "WHERE ct.name = 'GPU Memory' ORDER BY c.ts"),
            (Table{{"0", "100"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM process WHERE pid = 7"), "1");
}

}  // namespace
}  // namespace tw

// Graphics and video ftrace events with their own slices: v4l2 buffer queue/dequeue (instants
// joined by flows) and virtio-gpu / virtio-video device queues (command slices per queue).

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

// FtraceEvent oneof field numbers (ftrace_event.proto).
constexpr uint32_t kV4l2Qbuf = 422;
constexpr uint32_t kV4l2Dqbuf = 423;
constexpr uint32_t kVirtioVideoCmd = 439;
constexpr uint32_t kVirtioVideoCmdDone = 440;
constexpr uint32_t kVirtioVideoResourceQueue = 441;
constexpr uint32_t kVirtioVideoResourceQueueDone = 442;
constexpr uint32_t kVirtioGpuCmdQueue = 468;
constexpr uint32_t kVirtioGpuCmdResponse = 469;

void AddFtrace(proto::Writer& trace, int64_t ts, int32_t pid, uint32_t event_id,
               const proto::Writer& body) {
  proto::Writer event;
  event.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  event.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(pid));
  event.Message(event_id, body);
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, 0);
  bundle.Message(pf::ftrace_event_bundle::kEvent, event);
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceEvents, bundle);
  trace.Message(pf::trace::kPacket, packet);
}

std::unique_ptr<LoadedTrace> Load(proto::Writer& trace) {
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

proto::Writer V4l2Buffer(uint32_t index, uint32_t type) {
  proto::Writer w;  // V4l2QbufFtraceEvent / V4l2DqbufFtraceEvent share field numbers
  w.Varint(4, index);
  w.Varint(5, 0);  // minor
  w.Varint(6, 0);  // sequence
  w.Varint(18, type);
  return w;
}

TEST(V4l2Events, QueueAndDequeueInstantsJoinedByFlow) {
  proto::Writer trace;
  AddFtrace(trace, 100, 10, kV4l2Qbuf, V4l2Buffer(19, 9));
  AddFtrace(trace, 110, 10, kV4l2Qbuf, V4l2Buffer(20, 9));
  AddFtrace(trace, 200, 11, kV4l2Dqbuf, V4l2Buffer(19, 9));
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT ts, dur, name FROM slice "
                          "WHERE category = 'Video 4 Linux 2' ORDER BY ts"),
            (Table{{"100", "0", "VIDIOC_QBUF minor=0 seq=0 type=9 index=19"},
                   {"110", "0", "VIDIOC_QBUF minor=0 seq=0 type=9 index=20"},
                   {"200", "0", "VIDIOC_DQBUF minor=0 seq=0 type=9 index=19"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT o.ts, i.ts FROM flow AS f JOIN slice AS o ON o.id = f.slice_out "
                          "JOIN slice AS i ON i.id = f.slice_in"),
            (Table{{"100", "200"}}));
}

proto::Writer VirtioGpu(std::string_view queue, uint32_t seqno, uint32_t type, uint32_t fence,
                        uint32_t num_free) {
  proto::Writer w;  // VirtioGpuCmdQueueFtraceEvent / ...CmdResponse share field numbers
  w.Varint(3, fence);
  w.String(5, queue);
  w.Varint(6, num_free);
  w.Varint(7, seqno);
  w.Varint(8, type);
  return w;
}

TEST(VirtioGpuEvents, CommandSlicesFreeCountsAndUnfencedLatency) {
  proto::Writer trace;
  AddFtrace(trace, 1000, 5, kVirtioGpuCmdQueue, VirtioGpu("control", 7, 0x207, 99, 503));
  AddFtrace(trace, 1010, 5, kVirtioGpuCmdQueue, VirtioGpu("control", 8, 0x203, 0, 501));
  AddFtrace(trace, 1500, 6, kVirtioGpuCmdResponse, VirtioGpu("control", 7, 0x1100, 99, 506));
  AddFtrace(trace, 1600, 6, kVirtioGpuCmdResponse, VirtioGpu("control", 8, 0x1100, 0, 506));
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.name, t.name FROM slice AS s "
                          "JOIN track AS t ON s.track_id = t.id ORDER BY s.ts"),
            (Table{{"1000", "500", "SUBMIT_3D", "Virtgpu Control Queue"},
                   {"1010", "590", "CTX_DETACH_RESOURCE", "Virtgpu Control Queue"}}));
  // Only the unfenced command (seqno 8) measures latency.
  EXPECT_EQ(Rows(t->db(), "SELECT t.name, c.ts, CAST(c.value AS INT) FROM counter AS c "
                          "JOIN counter_track AS t ON c.track_id = t.id ORDER BY t.name, c.ts"),
            (Table{{"Virtgpu Control Free", "1000", "503"},
                   {"Virtgpu Control Free", "1010", "501"},
                   {"Virtgpu Control Latency", "1600", "590"}}));
}

proto::Writer VideoResource(int32_t stream, int32_t resource) {
  proto::Writer w;
  w.Varint(5, 0x101);  // queue_type OUTPUT
  w.Int(6, resource);
  w.Int(7, stream);
  return w;
}

proto::Writer VideoCommand(uint32_t stream, uint32_t type) {
  proto::Writer w;
  w.Varint(1, stream);
  w.Varint(2, type);
  return w;
}

TEST(VirtioVideoEvents, ResourceSlicesPerQueueAndCommandSlices) {
  proto::Writer trace;
  AddFtrace(trace, 100, 5, kVirtioVideoResourceQueue, VideoResource(4, 102));
  AddFtrace(trace, 110, 5, kVirtioVideoCmd, VideoCommand(4, 0x105));
  AddFtrace(trace, 120, 5, kVirtioVideoResourceQueue, VideoResource(4, 62));
  AddFtrace(trace, 300, 6, kVirtioVideoCmdDone, VideoCommand(4, 0x105));
  AddFtrace(trace, 400, 6, kVirtioVideoResourceQueueDone, VideoResource(4, 102));
  AddFtrace(trace, 500, 6, kVirtioVideoResourceQueueDone, VideoResource(4, 62));
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  // The two resources overlap on one queue: each gets its own track of that name.
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.name, t.name, s.depth FROM slice AS s "
                          "JOIN track AS t ON s.track_id = t.id ORDER BY s.ts"),
            (Table{{"100", "300", "Resource #102", "virtio_video stream #4 OUTPUT", "0"},
                   {"110", "100000", "RESOURCE_QUEUE", "virtio_video stream #4 Requests", "0"},
                   {"120", "380", "Resource #62", "virtio_video stream #4 OUTPUT", "0"},
                   {"300", "100000", "RESOURCE_QUEUE", "virtio_video stream #4 Responses",
                    "0"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT COUNT(DISTINCT track_id) FROM slice WHERE name GLOB 'Resource*'"),
            (Table{{"2"}}));
}

}  // namespace
}  // namespace tw

// GraphicsFrameEvent buffer events → per-event slices on "Buffer: <id> <layer>" and the frame's
// APP / GPU / SF / Display phases, read through frame_slice and gpu_track.

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

namespace bt = pf::graphics_buffer_event_type;

void AddBufferEvent(proto::Writer& trace, int64_t ts, std::optional<uint32_t> buffer_id,
                    uint32_t frame, uint32_t type) {
  proto::Writer event;
  event.Varint(pf::graphics_frame_event_buffer_event::kFrameNumber, frame);
  event.Varint(pf::graphics_frame_event_buffer_event::kType, type);
  event.String(pf::graphics_frame_event_buffer_event::kLayerName, "layer1");
  if (buffer_id) event.Varint(pf::graphics_frame_event_buffer_event::kBufferId, *buffer_id);
  proto::Writer frame_event;
  frame_event.Message(pf::graphics_frame_event::kBufferEvent, event);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  packet.Message(pf::trace_packet::kGraphicsFrameEvent, frame_event);
  trace.Message(pf::trace::kPacket, packet);
}

TEST(GraphicsFrameEvents, BufferEventsAndFramePhases) {
  proto::Writer trace;
  AddBufferEvent(trace, 1, 1, 11, bt::kDequeue);
  AddBufferEvent(trace, 4, 1, 11, bt::kQueue);
  AddBufferEvent(trace, 6, 1, 11, bt::kAcquireFence);
  AddBufferEvent(trace, 8, 1, 11, bt::kLatch);
  AddBufferEvent(trace, 14, 1, 11, bt::kPresentFence);
  AddBufferEvent(trace, 20, 1, 12, bt::kDequeue);   // never queued: renamed "0" by the next
  AddBufferEvent(trace, 25, 1, 13, bt::kDequeue);
  AddBufferEvent(trace, 30, std::nullopt, 14, bt::kDequeue);  // no buffer id: dropped
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT s.ts, g.name, s.dur, s.name, s.frame_number, s.layer_name
      FROM gpu_track AS g JOIN frame_slice AS s ON s.track_id = g.id
      WHERE g.scope = 'graphics_frame_event' AND g.name NOT GLOB 'Buffer*'
      ORDER BY s.ts, g.name)"),
            (Table{{"1", "APP_1 layer1", "3", "11", "11", "layer1"},
                   {"4", "GPU_1 layer1", "2", "11", "11", "layer1"},
                   {"8", "SF_1 layer1", "6", "11", "11", "layer1"},
                   {"14", "Display_layer1", "-1", "11", "11", "layer1"},
                   {"20", "APP_1 layer1", "-1", "0", "0", "layer1"},
                   {"25", "APP_1 layer1", "-1", "13", "13", "layer1"}}));
  // Times are measured against the buffer's latest queue/acquire/latch so far; before the
  // first latch acquire→latch is negative (trace_processor clamps only queue→acquire).
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT s.ts, s.name, s.queue_to_acquire_time, s.acquire_to_latch_time
      FROM frame_slice AS s JOIN track AS t ON s.track_id = t.id
      WHERE t.name = 'Buffer: 1 layer1' AND s.ts <= 14 ORDER BY s.ts)"),
            (Table{{"1", "Dequeue", "0", "0"},
                   {"4", "Queue", "0", "0"},
                   {"6", "AcquireFenceSignaled", "2", "-6"},
                   {"8", "Latch", "2", "2"},
                   {"14", "PresentFenceSignaled", "2", "2"}}));
  EXPECT_EQ(Scalar((*t)->db(),
                   "SELECT value FROM stats WHERE name = 'graphics_frame_event_parser_errors'"),
            "2");  // the present fence (no buffer phase) and the event without a buffer id
}

}  // namespace
}  // namespace tw

// The GPU timeline data sources: render stages (legacy and interned specifications, compute
// kernels, Vulkan debug names, subpasses, flows), GPU logs, vkQueueSubmit, generic GPU
// frequency, graphics contexts and the GpuTrackEvent extensions of track events.

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

// Field numbers of the messages written here (Perfetto's gpu protos).
constexpr uint32_t kRenderStageEvent = 53, kGpuLog = 63, kVulkanApiEvent = 65,
                   kGenericGpuFrequency = 129;  // TracePacket
constexpr uint32_t kInternedData = 12, kSequenceFlags = 13;  // TracePacket
namespace rs {  // GpuRenderStageEvent
constexpr uint32_t kEventId = 1, kDuration = 2, kHwQueueId = 3, kStageId = 4, kContext = 5,
                   kExtraData = 6, kSpecifications = 7, kRenderTargetHandle = 8, kGpuId = 11,
                   kCommandBufferHandle = 12, kHwQueueIid = 13, kStageIid = 14,
                   kSubpassMask = 15, kRenderPassInstanceId = 16, kName = 17,
                   kEventWaitIds = 18, kKernelIid = 19, kLaunch = 21;
}

proto::Writer Packet(int64_t ts, uint32_t field, const proto::Writer& payload,
                     uint32_t sequence = 1) {
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, sequence);
  packet.Message(field, payload);
  return packet;
}

proto::Writer Description(std::string_view name, std::string_view description = {}) {
  proto::Writer d;
  d.String(1, name);
  if (!description.empty()) d.String(2, description);
  return d;
}

TEST(GpuTimeline, LegacySpecificationsNameQueuesAndStagesAsTheyArrive) {
  proto::Writer trace;
  // A stage on queue 1 before any specification: a placeholder track, renamed later.
  proto::Writer early;
  early.Varint(rs::kEventId, 1);
  early.Varint(rs::kDuration, 5);
  early.Varint(rs::kHwQueueId, 1);
  early.Varint(rs::kStageId, 1);
  trace.Message(pf::trace::kPacket, Packet(0, kRenderStageEvent, early));
  proto::Writer specs;
  specs.Message(2, Description("queue 0", "first queue"));
  specs.Message(2, Description("queue 1"));
  specs.Message(3, Description("stage 0"));
  specs.Message(3, Description("stage 1", "the second stage"));
  proto::Writer with_specs;
  with_specs.Message(rs::kSpecifications, specs);
  trace.Message(pf::trace::kPacket, Packet(1, kRenderStageEvent, with_specs));
  proto::Writer stage;
  stage.Varint(rs::kEventId, 2);
  stage.Varint(rs::kDuration, 5);
  stage.Varint(rs::kHwQueueId, 0);
  stage.Varint(rs::kStageId, 1);
  stage.Varint(rs::kContext, 42);
  proto::Writer extra;
  extra.String(1, "key");
  extra.String(2, "value");
  stage.Message(rs::kExtraData, extra);
  stage.Varint(rs::kRenderPassInstanceId, 7);
  stage.Packed(rs::kSubpassMask, std::vector<uint64_t>{0x8, 0xf0});
  trace.Message(pf::trace::kPacket, Packet(10, kRenderStageEvent, stage));
  proto::Writer unknown;  // a queue and a stage no specification describes
  unknown.Varint(rs::kEventId, 3);
  unknown.Varint(rs::kDuration, 1);
  unknown.Int(rs::kHwQueueId, -1);
  unknown.Varint(rs::kStageId, 9);
  trace.Message(pf::trace::kPacket, Packet(20, kRenderStageEvent, unknown));

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT s.ts, g.name, g.description, s.name, s.hw_queue_id, s.context_id,
             extract_arg(s.arg_set_id, 'description'), extract_arg(s.arg_set_id, 'key'),
             extract_arg(s.arg_set_id, 'correlation_id'), s.render_subpasses
      FROM gpu_track g JOIN gpu_slice s ON s.track_id = g.id ORDER BY s.ts)"),
            (Table{{"0", "queue 1", "NULL", "render stage(1)", "1", "0", "NULL", "NULL",
                    "NULL", "NULL"},
                   {"10", "queue 0", "first queue", "stage 1", "0", "42", "the second stage",
                    "value", "rp:#7", "3,68,69,70,71"},
                   {"20", "Unknown GPU Queue 4294967295", "NULL",
                    "render stage(9)", "4294967295", "0", "NULL", "NULL",
                    "NULL", "NULL"}}));
  EXPECT_EQ(Scalar((*t)->db(),
                   "SELECT group_concat(DISTINCT type) FROM track WHERE id IN "
                   "(SELECT track_id FROM slice)"),
            "gpu_render_stage");
}

TEST(GpuTimeline, InternedSpecificationsContextsKernelsAndFlows) {
  proto::Writer trace;
  proto::Writer interned;
  proto::Writer queue;
  queue.Varint(1, 5);
  queue.String(2, "compute queue");
  queue.String(3, "runs kernels");
  interned.Message(24, queue);  // gpu_specifications
  proto::Writer stage_spec;
  stage_spec.Varint(1, 6);
  stage_spec.String(2, "dispatch");
  stage_spec.String(3, "a compute dispatch");
  stage_spec.Varint(4, 2);  // COMPUTE
  interned.Message(24, stage_spec);
  proto::Writer context;
  context.Varint(1, 77);
  context.Varint(2, 300);
  context.Varint(3, 4);  // CUDA
  interned.Message(23, context);  // graphics_contexts
  proto::Writer kernel;
  kernel.Varint(1, 3);
  kernel.String(2, "_Z3addPf");
  kernel.String(3, "add(float*)");
  kernel.String(4, "sm_90");
  interned.Message(1000, kernel);  // compute_kernels
  proto::Writer first;
  first.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  first.Varint(kSequenceFlags, 1);  // incremental state cleared
  first.Message(kInternedData, interned);
  trace.Message(pf::trace::kPacket, first);

  auto stage = [&](int64_t ts, uint64_t event_id, std::optional<uint64_t> waits) {
    proto::Writer s;
    s.Varint(rs::kEventId, event_id);
    s.Varint(rs::kDuration, 4);
    s.Varint(rs::kHwQueueIid, 5);
    s.Varint(rs::kStageIid, 6);
    s.Varint(rs::kContext, 77);
    s.Varint(rs::kKernelIid, 3);
    proto::Writer grid;
    grid.Varint(1, 64);
    grid.Varint(2, 1);
    proto::Writer launch;
    launch.Message(1, grid);
    s.Message(rs::kLaunch, launch);
    if (waits) s.Varint(rs::kEventWaitIds, *waits);
    proto::Writer packet = Packet(ts, kRenderStageEvent, s);
    packet.Varint(kSequenceFlags, 2);
    trace.Message(pf::trace::kPacket, packet);
  };
  stage(100, 1, std::nullopt);
  stage(100, 2, 1);  // overlaps the first: a second track of the queue's set; waits for it

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT s.name, g.name, g.description, s.render_stage_category,
             extract_arg(s.arg_set_id, 'kernel_name'),
             extract_arg(s.arg_set_id, 'kernel_demangled_name'),
             extract_arg(s.arg_set_id, 'arch'),
             extract_arg(s.arg_set_id, 'launch.grid_size.x'),
             extract_arg(s.arg_set_id, 'launch.grid_size.y'),
             extract_arg(g.dimension_arg_set_id, 'track_compressor_idx')
      FROM gpu_slice s JOIN gpu_track g ON s.track_id = g.id ORDER BY s.id)"),
            (Table{{"dispatch", "compute queue", "runs kernels", "2", "_Z3addPf", "add(float*)",
                    "sm_90", "64", "1", "0"},
                   {"dispatch", "compute queue", "runs kernels", "2", "_Z3addPf", "add(float*)",
                    "sm_90", "64", "1", "1"}}));
  EXPECT_EQ(Rows((*t)->db(), "SELECT context_id, pid, api FROM __intrinsic_gpu_context"),
            (Table{{"77", "300", "CUDA"}}));
  EXPECT_EQ(Scalar((*t)->db(), "SELECT COUNT(*) FROM flow"), "1");
}

TEST(GpuTimeline, LogsQueueSubmitsDebugNamesAndFrequency) {
  proto::Writer trace;
  proto::Writer log;
  log.Varint(1, 3);  // INFO
  log.String(2, "driver");
  log.String(3, "hello");
  trace.Message(pf::trace::kPacket, Packet(5, kGpuLog, log));
  proto::Writer odd_log;  // a severity beyond the enum's
  odd_log.Varint(1, 17);
  trace.Message(pf::trace::kPacket, Packet(5, kGpuLog, odd_log));
  proto::Writer name;
  name.Varint(3, 6);  // VK_OBJECT_TYPE_COMMAND_BUFFER
  name.Varint(4, 0x10);
  name.String(5, "main cb");
  proto::Writer api_name;
  api_name.Message(1, name);
  trace.Message(pf::trace::kPacket, Packet(6, kVulkanApiEvent, api_name));
  proto::Writer submit;
  submit.Varint(1, 9);  // duration
  submit.Varint(2, 10);
  submit.Varint(3, 11);
  submit.Varint(5, 0x10);
  submit.Varint(5, 0x20);
  submit.Varint(6, 3);
  proto::Writer api_submit;
  api_submit.Message(2, submit);
  trace.Message(pf::trace::kPacket, Packet(7, kVulkanApiEvent, api_submit));
  proto::Writer stage;
  stage.Varint(rs::kEventId, 1);
  stage.Varint(rs::kDuration, 2);
  stage.Varint(rs::kCommandBufferHandle, 0x10);
  stage.String(rs::kName, "named stage");
  trace.Message(pf::trace::kPacket, Packet(8, kRenderStageEvent, stage));
  proto::Writer freq;
  freq.Varint(1, 0);
  freq.Varint(2, 1500000);
  trace.Message(pf::trace::kPacket, Packet(9, kGenericGpuFrequency, freq));

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT g.scope, g.name, s.ts, s.dur, s.name,
             extract_arg(s.arg_set_id, 'tag'), extract_arg(s.arg_set_id, 'message'),
             extract_arg(s.arg_set_id, 'command_buffers[1]'), s.command_buffer_name
      FROM gpu_track g JOIN gpu_slice s ON s.track_id = g.id ORDER BY s.ts, s.id)"),
            (Table{{"gpu_log", "GPU Log", "5", "0", "INFO", "driver", "hello", "NULL",
                    "NULL"},
                   {"gpu_log", "GPU Log", "5", "0", "UNKNOWN_SEVERITY", "NULL", "NULL", "NULL",
                    "NULL"},
                   {"vulkan_events", "Vulkan Events", "7", "9", "vkQueueSubmit", "NULL",
                    "NULL", "32", "NULL"},
                   {"gpu_render_stage", "Unknown GPU Queue 0", "8", "2", "named stage",
                    "NULL", "NULL", "NULL", "main cb"}}));
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT t.name, t.type, t.unit, CAST(c.value AS INT) FROM counter c JOIN counter_track t
      ON c.track_id = t.id)"),
            (Table{{"gpufreq", "gpu_frequency", "kHz", "1500000"}}));
}

TEST(GpuTimeline, TrackEventGpuExtensions) {
  proto::Writer trace;
  proto::Writer descriptor;
  descriptor.Varint(pf::track_descriptor::kUuid, 1);
  descriptor.String(pf::track_descriptor::kName, "gpu api calls");
  trace.Message(pf::trace::kPacket, Packet(1, pf::trace_packet::kTrackDescriptor, descriptor, 2));
  auto event = [&](int64_t ts, uint32_t type, std::string_view name,
                   std::optional<uint64_t> submission) {
    proto::Writer e;
    e.Varint(pf::track_event::kType, type);
    if (!name.empty()) e.String(pf::track_event::kName, name);
    e.Varint(pf::track_event::kTrackUuid, 1);
    if (type == 1) e.Varint(3001, 4);  // gpu_api: GPU_API_CUDA
    if (submission) {
      proto::Writer correlation;
      correlation.Varint(1, *submission);
      e.Message(3000, correlation);
    }
    trace.Message(pf::trace::kPacket, Packet(ts, pf::trace_packet::kTrackEvent, e, 2));
  };
  event(10, 1, "cuLaunchKernel", 9);  // TYPE_SLICE_BEGIN
  event(20, 2, "", std::nullopt);     // TYPE_SLICE_END
  proto::Writer stage;
  stage.Varint(rs::kEventId, 9);
  stage.Varint(rs::kDuration, 3);
  stage.String(rs::kName, "kernel");
  trace.Message(pf::trace::kPacket, Packet(30, kRenderStageEvent, stage));

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT name, extract_arg(arg_set_id, 'gpu_api') FROM slice
      WHERE extract_arg(arg_set_id, 'gpu_api') IS NOT NULL)"),
            (Table{{"cuLaunchKernel", "GPU_API_CUDA"}}));
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT o.name, i.name FROM flow f JOIN slice o ON f.slice_out = o.id
      JOIN slice i ON f.slice_in = i.id)"),
            (Table{{"cuLaunchKernel", "kernel"}}));
}

}  // namespace
}  // namespace tw

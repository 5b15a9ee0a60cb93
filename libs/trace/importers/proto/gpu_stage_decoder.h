#pragma once
// Decodes the GPU timeline packets: gpu_render_stage_event (what GPU hardware queues executed,
// with interned or legacy queue / stage specifications, graphics contexts and compute kernels),
// gpu_log, vulkan_api_event (object debug names, vkQueueSubmit) and
// generic_gpu_frequency_event. Interned data is resolved against the packet's sequence here;
// the events go to GpuStageTracker in time order.

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

struct GpuStageData;

class GpuStageDecoder {
 public:
  explicit GpuStageDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeRenderStage(const PacketContext& packet, const proto::Field& field);
  void DecodeGpuLog(const PacketContext& packet, const proto::Field& field);
  void DecodeVulkanApiEvent(const PacketContext& packet, const proto::Field& field);
  void DecodeGenericGpuFrequency(const PacketContext& packet, const proto::Field& field);

 private:
  void ReadSpecifications(const proto::Field& field, GpuStageData* out);
  void ReadContext(const PacketContext& packet, uint64_t context, GpuStageData* out);
  void ReadStage(const PacketContext& packet, uint64_t iid, GpuStageData* out);
  void ReadComputeKernel(const PacketContext& packet, uint64_t iid, GpuStageData* out);
  void ReadLaunch(const PacketContext& packet, const proto::Field& field, GpuStageData* out);
  void ReadExtraComputeArg(const PacketContext& packet, const proto::Field& field,
                           GpuStageData* out);
  void Push(const PacketContext& packet, GpuStageData data);

  ImportContext* ctx_;
};

}  // namespace tw

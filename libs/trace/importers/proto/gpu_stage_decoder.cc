#include "libs/trace/importers/proto/gpu_stage_decoder.h"

#include <string>

#include "libs/trace/events/gpu_stage_events.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// Field numbers: wire-format facts of Perfetto's gpu protos.
namespace stage {  // GpuRenderStageEvent
constexpr uint32_t kEventId = 1, kDuration = 2, kHwQueueId = 3, kStageId = 4, kContext = 5,
                   kExtraData = 6, kSpecifications = 7, kRenderTargetHandle = 8,
                   kRenderPassHandle = 9, kSubmissionId = 10, kGpuId = 11,
                   kCommandBufferHandle = 12, kHwQueueIid = 13, kStageIid = 14,
                   kRenderSubpassIndexMask = 15, kRenderPassInstanceId = 16, kName = 17,
                   kEventWaitIds = 18, kKernelIid = 19, kNameIid = 20, kLaunch = 21;
}
namespace extra_data {  // GpuRenderStageEvent.ExtraData
constexpr uint32_t kName = 1, kValue = 2;
}
namespace specifications {  // GpuRenderStageEvent.Specifications (+ ContextSpec, Description)
constexpr uint32_t kContextSpec = 1, kHwQueue = 2, kStage = 3;
constexpr uint32_t kContextSpecPid = 2;
constexpr uint32_t kDescriptionName = 1, kDescriptionDescription = 2;
}
namespace dim3 {  // GpuRenderStageEvent.Dim3
constexpr uint32_t kX = 1, kY = 2, kZ = 3;
}
namespace compute_arg {  // GpuRenderStageEvent.ExtraComputeArg
constexpr uint32_t kNameIid = 1, kName = 2, kIntValue = 3, kUintValue = 4, kDoubleValue = 5,
                   kStringValue = 6, kStringValueIid = 7;
}
namespace launch {  // GpuRenderStageEvent.ComputeKernelLaunch
constexpr uint32_t kGridSize = 1, kWorkgroupSize = 2, kArgs = 3;
}
namespace interned_context {  // InternedGraphicsContext
constexpr uint32_t kPid = 2, kApi = 3;
}
namespace interned_spec {  // InternedGpuRenderStageSpecification
constexpr uint32_t kName = 2, kDescription = 3, kCategory = 4;
}
namespace interned_kernel {  // InternedComputeKernel
constexpr uint32_t kName = 2, kDemangledName = 3, kArch = 4, kArgs = 5;
}
namespace interned {  // InternedData (and GpuInternedData extensions) fields
constexpr uint32_t kEventNames = 2, kGraphicsContexts = 23, kGpuSpecifications = 24,
                   kDebugAnnotationStringValues = 29, kComputeKernels = 1000,
                   kComputeArgNames = 1001;
}
namespace gpu_log {  // GpuLog
constexpr uint32_t kSeverity = 1, kTag = 2, kLogMessage = 3;
}
namespace vulkan {  // VulkanApiEvent and its messages
constexpr uint32_t kDebugUtilsObjectName = 1, kQueueSubmit = 2;
constexpr uint32_t kObjectType = 3, kObject = 4, kObjectName = 5;  // VkDebugUtilsObjectName
constexpr uint32_t kSubmitDuration = 1, kSubmitPid = 2, kSubmitTid = 3,
                   kSubmitCommandBuffers = 5, kSubmitId = 6;  // VkQueueSubmit
}
namespace frequency {  // GenericGpuFrequencyEvent
constexpr uint32_t kGpuId = 1, kFrequencyKhz = 2;
}

// The `field` string of an interned message (name fields are field 2 in all of them).
std::optional<std::string_view> InternedField(const PacketContext& packet, uint32_t type,
                                              uint64_t iid, uint32_t field) {
  if (!packet.sequence) return std::nullopt;
  const std::string* bytes = packet.sequence->Lookup(type, iid);
  if (!bytes) return std::nullopt;
  proto::Decoder d(*bytes);
  proto::Field f;
  std::optional<std::string_view> out;
  while (d.Next(&f)) {
    if (f.id == field && f.type == proto::kLengthDelimited) out = f.as_string();
  }
  return out;
}

}  // namespace

void GpuStageDecoder::Push(const PacketContext& packet, GpuStageData data) {
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kGpuStage, std::move(data)));
}

void GpuStageDecoder::ReadSpecifications(const proto::Field& field, GpuStageData* out) {
  auto description = [&](const proto::Field& f) {
    GpuStageData::Description desc;
    proto::Decoder d(f);
    proto::Field x;
    while (d.Next(&x)) {
      if (x.id == specifications::kDescriptionName) {
        desc.has_name = true;
        desc.name = ctx_->Intern(x.as_string());
      } else if (x.id == specifications::kDescriptionDescription) {
        desc.description = ctx_->Intern(x.as_string());
      }
    }
    return desc;
  };
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == specifications::kHwQueue) {
      out->spec_hw_queues.push_back(description(f));
    } else if (f.id == specifications::kStage) {
      out->spec_stages.push_back(description(f));
    } else if (f.id == specifications::kContextSpec) {
      proto::Decoder cd(f);
      proto::Field x;
      while (cd.Next(&x)) {
        if (x.id == specifications::kContextSpecPid) out->spec_pid = x.as_int32();
      }
    }
  }
}

void GpuStageDecoder::ReadContext(const PacketContext& packet, uint64_t context,
                                  GpuStageData* out) {
  out->context = context;
  const std::string* bytes =
      packet.sequence ? packet.sequence->Lookup(interned::kGraphicsContexts, context) : nullptr;
  if (!bytes) return;
  out->context_interned = true;
  proto::Decoder d(*bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == interned_context::kPid) {
      out->context_pid = f.as_int32();
      out->context_has_pid = true;
    }
    if (f.id == interned_context::kApi) out->context_api = f.as_int32();
  }
}

void GpuStageDecoder::ReadStage(const PacketContext& packet, uint64_t iid, GpuStageData* out) {
  out->stage_interned = true;
  const std::string* bytes =
      packet.sequence ? packet.sequence->Lookup(interned::kGpuSpecifications, iid) : nullptr;
  if (!bytes) return;
  out->stage_found = true;
  proto::Decoder d(*bytes);
  proto::Field f;
  std::string_view name, description;
  while (d.Next(&f)) {
    if (f.id == interned_spec::kName) name = f.as_string();
    if (f.id == interned_spec::kDescription) description = f.as_string();
    if (f.id == interned_spec::kCategory) out->stage_category = f.as_int64();
  }
  out->stage_name = ctx_->Intern(name);
  out->stage_description = ctx_->Intern(description);
}

void GpuStageDecoder::ReadExtraComputeArg(const PacketContext& packet, const proto::Field& field,
                                          GpuStageData* out) {
  StringId name = kNullStringId;
  std::optional<ArgValue> value;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case compute_arg::kNameIid:
        if (auto n = InternedField(packet, interned::kComputeArgNames, f.as_uint64(), 2)) {
          name = ctx_->Intern(*n);
        }
        break;
      case compute_arg::kName: name = ctx_->Intern(f.as_string()); break;
      case compute_arg::kIntValue: value = ArgValue::Int(f.as_int64()); break;
      case compute_arg::kUintValue: value = ArgValue::Uint(f.as_uint64()); break;
      case compute_arg::kDoubleValue: value = ArgValue::Real(f.as_double()); break;
      case compute_arg::kStringValue: value = ArgValue::String(ctx_->Intern(f.as_string())); break;
      case compute_arg::kStringValueIid: {
        // InternedString: the string is field 2; a missing one leaves the arg out.
        auto s = InternedField(packet, interned::kDebugAnnotationStringValues, f.as_uint64(), 2);
        value = s ? std::optional<ArgValue>(ArgValue::String(ctx_->Intern(*s))) : std::nullopt;
        break;
      }
      default: break;
    }
  }
  if (name == kNullStringId || !value) return;
  out->compute_args.push_back(Arg{name, name, *value});
}

void GpuStageDecoder::ReadComputeKernel(const PacketContext& packet, uint64_t iid,
                                        GpuStageData* out) {
  const std::string* bytes =
      packet.sequence ? packet.sequence->Lookup(interned::kComputeKernels, iid) : nullptr;
  if (!bytes) return;
  auto add = [&](std::string_view key, StringId value) {
    const StringId k = ctx_->Intern(key);
    out->compute_args.push_back(Arg{k, k, ArgValue::String(value)});
  };
  std::vector<proto::Field> args;
  proto::Decoder d(*bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case interned_kernel::kName: add("kernel_name", ctx_->Intern(f.as_string())); break;
      case interned_kernel::kDemangledName:
        add("kernel_demangled_name", ctx_->Intern(f.as_string()));
        break;
      case interned_kernel::kArch: add("arch", ctx_->Intern(f.as_string())); break;
      case interned_kernel::kArgs:
        if (f.type == proto::kLengthDelimited) args.push_back(f);
        break;
      default: break;
    }
  }
  for (const proto::Field& a : args) ReadExtraComputeArg(packet, a, out);
}

void GpuStageDecoder::ReadLaunch(const PacketContext& packet, const proto::Field& field,
                                 GpuStageData* out) {
  auto dims = [&](const proto::Field& f, std::string_view prefix) {
    proto::Decoder d(f);
    proto::Field x;
    while (d.Next(&x)) {
      const char* axis = x.id == dim3::kX ? "x" : x.id == dim3::kY ? "y" : x.id == dim3::kZ ? "z"
                                                                                         : nullptr;
      if (!axis) continue;
      const StringId k = ctx_->Intern(std::string(prefix) + axis);
      out->compute_args.push_back(Arg{k, k, ArgValue::Uint(x.as_uint32())});
    }
  };
  std::vector<proto::Field> args;
  std::optional<proto::Field> grid, workgroup;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == launch::kGridSize) grid = f;
    if (f.id == launch::kWorkgroupSize) workgroup = f;
    if (f.id == launch::kArgs) args.push_back(f);
  }
  if (grid) dims(*grid, "launch.grid_size.");
  if (workgroup) dims(*workgroup, "launch.workgroup_size.");
  for (const proto::Field& a : args) ReadExtraComputeArg(packet, a, out);
}

void GpuStageDecoder::DecodeRenderStage(const PacketContext& packet, const proto::Field& field) {
  GpuStageData data;
  data.kind = GpuStageData::Kind::kRenderStage;
  std::optional<uint64_t> context, hw_queue_iid, stage_iid, kernel_iid, name_iid;
  std::optional<proto::Field> specs, launch_field;
  std::optional<std::string_view> name;
  int32_t hw_queue_id = 0, stage_id = 0;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case stage::kEventId: data.event_id = f.as_uint64(); break;
      case stage::kDuration: data.duration = f.as_uint64(); break;
      case stage::kHwQueueId: hw_queue_id = f.as_int32(); break;
      case stage::kStageId:
        stage_id = f.as_int32();
        data.has_stage_id = true;
        break;
      case stage::kContext: context = f.as_uint64(); break;
      case stage::kExtraData: {
        StringId key = kNullStringId, value = kNullStringId;
        proto::Decoder xd(f);
        proto::Field x;
        while (xd.Next(&x)) {
          if (x.id == extra_data::kName) key = ctx_->Intern(x.as_string());
          if (x.id == extra_data::kValue) value = ctx_->Intern(x.as_string());
        }
        data.extra_data.emplace_back(key, value);
        break;
      }
      case stage::kSpecifications:
        if (f.type == proto::kLengthDelimited) specs = f;
        break;
      case stage::kRenderTargetHandle: data.render_target_handle = f.as_uint64(); break;
      case stage::kRenderPassHandle: data.render_pass_handle = f.as_uint64(); break;
      case stage::kSubmissionId: data.submission_id = f.as_uint32(); break;
      case stage::kGpuId: data.gpu_id = static_cast<uint32_t>(f.as_int32()); break;
      case stage::kCommandBufferHandle: data.command_buffer_handle = f.as_uint64(); break;
      case stage::kHwQueueIid: hw_queue_iid = f.as_uint64(); break;
      case stage::kStageIid: stage_iid = f.as_uint64(); break;
      case stage::kRenderSubpassIndexMask:
        proto::ForEachVarint(f, [&](uint64_t v) { data.render_subpass_index_mask.push_back(v); });
        break;
      case stage::kRenderPassInstanceId: data.render_pass_instance_id = f.as_uint64(); break;
      case stage::kName: name = f.as_string(); break;
      case stage::kEventWaitIds:
        proto::ForEachVarint(f, [&](uint64_t v) { data.event_wait_ids.push_back(v); });
        break;
      case stage::kKernelIid: kernel_iid = f.as_uint64(); break;
      case stage::kNameIid: name_iid = f.as_uint64(); break;
      case stage::kLaunch:
        if (f.type == proto::kLengthDelimited) launch_field = f;
        break;
      default: break;
    }
  }
  if (d.error()) ctx_->storage->IncrementStat("gpu_render_stage_parser_errors");
  if (specs) ReadSpecifications(*specs, &data);
  if (context) ReadContext(packet, *context, &data);
  if (data.event_id) {
    if (hw_queue_iid) {
      data.queue_interned = true;
      data.hw_queue_id = *hw_queue_iid;
      const std::string* bytes =
          packet.sequence ? packet.sequence->Lookup(interned::kGpuSpecifications, *hw_queue_iid)
                          : nullptr;
      if (!bytes) {
        data.queue_missing = true;
      } else {
        std::string_view qname, qdesc;
        proto::Decoder qd(*bytes);
        proto::Field x;
        while (qd.Next(&x)) {
          if (x.id == interned_spec::kName) qname = x.as_string();
          if (x.id == interned_spec::kDescription) qdesc = x.as_string();
        }
        data.queue_name = ctx_->Intern(qname);
        data.queue_description = qdesc.empty() ? kNullStringId : ctx_->Intern(qdesc);
      }
    } else {
      data.hw_queue_id = static_cast<uint32_t>(hw_queue_id);
    }
    if (stage_iid) {
      ReadStage(packet, *stage_iid, &data);
    } else {
      data.stage_id = static_cast<uint64_t>(static_cast<int64_t>(stage_id));
    }
    if (name_iid) {
      data.has_name = true;
      if (auto n = InternedField(packet, interned::kEventNames, *name_iid, 2)) {
        data.name = ctx_->Intern(*n);
      }
    } else if (name) {
      data.has_name = true;
      data.name = ctx_->Intern(*name);
    }
    if (kernel_iid) ReadComputeKernel(packet, *kernel_iid, &data);
    if (launch_field) ReadLaunch(packet, *launch_field, &data);
  }
  Push(packet, std::move(data));
}

void GpuStageDecoder::DecodeGpuLog(const PacketContext& packet, const proto::Field& field) {
  GpuStageData data;
  data.kind = GpuStageData::Kind::kLog;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == gpu_log::kSeverity) data.severity = f.as_int64();
    if (f.id == gpu_log::kTag) {
      data.has_tag = true;
      data.tag = ctx_->Intern(f.as_string());
    }
    if (f.id == gpu_log::kLogMessage) {
      data.has_message = true;
      data.message = ctx_->Intern(f.as_string());
    }
  }
  Push(packet, std::move(data));
}

void GpuStageDecoder::DecodeVulkanApiEvent(const PacketContext& packet,
                                           const proto::Field& field) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == vulkan::kDebugUtilsObjectName) {
      GpuStageData data;
      data.kind = GpuStageData::Kind::kVulkanObjectName;
      proto::Decoder nd(f);
      proto::Field x;
      while (nd.Next(&x)) {
        if (x.id == vulkan::kObjectType) data.object_type = x.as_int32();
        if (x.id == vulkan::kObject) data.object = x.as_uint64();
        if (x.id == vulkan::kObjectName) data.object_name = std::string(x.as_string());
      }
      Push(packet, std::move(data));
    } else if (f.id == vulkan::kQueueSubmit) {
      GpuStageData data;
      data.kind = GpuStageData::Kind::kVulkanQueueSubmit;
      proto::Decoder sd(f);
      proto::Field x;
      while (sd.Next(&x)) {
        switch (x.id) {
          case vulkan::kSubmitDuration: data.duration_ns = x.as_uint64(); break;
          case vulkan::kSubmitPid: data.pid = x.as_uint32(); break;
          case vulkan::kSubmitTid: data.tid = x.as_uint32(); break;
          case vulkan::kSubmitCommandBuffers:
            proto::ForEachVarint(x, [&](uint64_t v) { data.command_buffers.push_back(v); });
            break;
          case vulkan::kSubmitId: data.submission_id = x.as_uint32(); break;
          default: break;
        }
      }
      Push(packet, std::move(data));
    }
  }
}

void GpuStageDecoder::DecodeGenericGpuFrequency(const PacketContext& packet,
                                                const proto::Field& field) {
  GpuStageData data;
  data.kind = GpuStageData::Kind::kFrequency;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == frequency::kGpuId) data.gpu_id = f.as_uint32();
    if (f.id == frequency::kFrequencyKhz) data.frequency_khz = f.as_uint32();
  }
  Push(packet, std::move(data));
}

}  // namespace tw

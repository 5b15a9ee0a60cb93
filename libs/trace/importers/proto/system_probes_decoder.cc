#include "libs/trace/importers/proto/system_probes_decoder.h"

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {

namespace tp = pf::trace_packet;

// TracePacket fields of the winscope data sources (frameworks' trace packet extensions).
constexpr uint32_t kSurfaceFlingerLayersSnapshot = 93;
constexpr uint32_t kSurfaceFlingerTransactions = 94;
constexpr uint32_t kShellTransition = 96;
constexpr uint32_t kShellHandlerMappings = 97;
constexpr uint32_t kProtoLogMessage = 104;
constexpr uint32_t kProtoLogViewerConfig = 105;
// TracePacket fields of the android.network_packets data source (connectivity's extension).
constexpr uint32_t kNetworkPacket = 88;
constexpr uint32_t kNetworkPacketBundle = 92;

SystemProbesDecoder::SystemProbesDecoder(ImportContext* ctx)
    : ctx_(ctx),
      process_stats_(ctx),
      sys_stats_(ctx),
      system_info_(ctx),
      cpu_info_(ctx),
      trace_config_(ctx),
      trace_stats_(ctx, &sequence_loss_),
      ftrace_stats_(ctx),
      session_(ctx),
      chrome_(ctx),
      android_(ctx),
      sysprops_(ctx),
      aflags_(ctx),
      frame_timeline_(ctx),
      input_events_(ctx),
      gpu_(ctx),
      gpu_stages_(ctx),
      generic_kernel_(ctx),
      power_(ctx),
      cpu_per_uid_(ctx),
      kernel_wakelocks_(ctx),
      interrupt_info_(ctx),
      network_packets_(ctx),
      winscope_(ctx),
      protolog_(ctx) {}

bool SystemProbesDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  // Every kind handled here is a nested message; anything else is malformed for its field.
  const bool message = field.type == proto::kLengthDelimited;
  switch (field.id) {
    case tp::kProcessStats:
      if (message) process_stats_.Decode(packet, field);
      return true;
    case tp::kSysStats:
      if (message) sys_stats_.Decode(packet, field);
      return true;
    case tp::kSystemInfo:
      if (message) {
        const uint32_t page_size = system_info_.Decode(field, packet.machine);
        if (packet.machine == 0) sys_stats_.set_page_size(page_size);
      }
      return true;
    case tp::kCpuInfo:
      if (message) cpu_info_.Decode(field);
      return true;
    case tp::kInterruptInfo:
      if (message) interrupt_info_.Decode(field, packet.machine);
      return true;
    case tp::kTraceConfig:
      if (message) trace_config_.Decode(field, &uuid_found_);
      return true;
    case tp::kTraceAttributes:
      if (message) trace_config_.DecodeTraceAttributes(field);
      return true;
    case tp::kTraceStats:
      if (message) trace_stats_.Decode(field);
      return true;
    case tp::kFtraceStats:
      if (message) ftrace_stats_.Decode(packet, field);
      return true;
    case tp::kTraceUuid:
      if (message) session_.DecodeTraceUuid(field, &uuid_found_);
      return true;
    case tp::kServiceEvent:
      if (message) session_.DecodeServiceEvent(packet, field);
      return true;
    case tp::kTrigger:
    case tp::kCloneSnapshotTrigger:
      if (message) session_.DecodeTrigger(packet, field, field.id == tp::kCloneSnapshotTrigger);
      return true;
    case tp::kUiState:
      if (message) session_.DecodeUiState(field);
      return true;
    case tp::kConcurrentSessionEvent:
      if (message) session_.DecodeConcurrentSessionEvent(packet, field);
      return true;
    case tp::kChromeMetadata:
      if (message) chrome_.DecodeChromeMetadata(field);
      return true;
    case tp::kChromeEvents:
      if (message) chrome_.DecodeChromeEvents(field);
      return true;
    case tp::kChromeBenchmarkMetadata:
      if (message) chrome_.DecodeBenchmarkMetadata(field);
      return true;
    case tp::kChromeTrigger:
      if (message) chrome_.DecodeChromeTrigger(packet, field);
      return true;
    case tp::kAndroidLog:
      if (message) android_.DecodeAndroidLog(packet, field);
      return true;
    case tp::kAndroidSystemProperty:
      if (message) sysprops_.Decode(packet, field);
      return true;
    case tp::kInitialDisplayState:
      if (message) android_.DecodeInitialDisplayState(packet, field);
      return true;
    case tp::kPackagesList:
      if (message) android_.DecodePackagesList(field);
      return true;
    case tp::kAndroidAflags:
      if (message) aflags_.Decode(packet, field);
      return true;
    case tp::kUserList:
      if (message) android_.DecodeUserList(field);
      return true;
    case tp::kGpuMemTotalEvent:
      if (message) android_.DecodeGpuMemTotal(packet, field);
      return true;
    case tp::kGraphicsFrameEvent:
      if (message) android_.DecodeGraphicsFrameEvent(packet, field);
      return true;
    case tp::kFrameTimelineEvent:
      if (message) frame_timeline_.Decode(packet, field);
      return true;
    case tp::kGpuCounterEvent:
      if (message) gpu_.DecodeCounterEvent(packet, field);
      return true;
    case tp::kGpuInfo:
      if (message) gpu_.DecodeGpuInfo(packet, field);
      return true;
    case tp::kGpuRenderStageEvent:
      if (message) gpu_stages_.DecodeRenderStage(packet, field);
      return true;
    case tp::kGpuLog:
      if (message) gpu_stages_.DecodeGpuLog(packet, field);
      return true;
    case tp::kVulkanApiEvent:
      if (message) gpu_stages_.DecodeVulkanApiEvent(packet, field);
      return true;
    case tp::kGenericKernelTaskStateEvent:
      if (message) generic_kernel_.DecodeTaskState(packet, field);
      return true;
    case tp::kGenericKernelTaskRenameEvent:
      if (message) generic_kernel_.DecodeTaskRename(packet, field);
      return true;
    case tp::kGenericKernelProcessTree:
      if (message) generic_kernel_.DecodeProcessTree(packet, field);
      return true;
    case tp::kGenericKernelCpuFreqEvent:
      if (message) generic_kernel_.DecodeCpuFrequency(packet, field);
      return true;
    case tp::kGenericGpuFrequencyEvent:
      if (message) gpu_stages_.DecodeGenericGpuFrequency(packet, field);
      return true;
    case tp::kCpuPerUidData:
      if (message) cpu_per_uid_.Decode(packet, field);
      return true;
    case tp::kKernelWakelockData:
      if (message) kernel_wakelocks_.Decode(packet, field);
      return true;
    case kNetworkPacket:
      if (message) network_packets_.DecodeEvent(packet, field);
      return true;
    case kNetworkPacketBundle:
      if (message) network_packets_.DecodeBundle(packet, field);
      return true;
    case kProtoLogMessage:
      if (message) protolog_.DecodeMessage(packet, field);
      return true;
    case kProtoLogViewerConfig:
      if (message) protolog_.DecodeViewerConfig(packet, field);
      return true;
    case tp::kBattery:
      if (message) power_.DecodeBattery(packet, field);
      return true;
    case tp::kPowerRails:
      if (message) power_.DecodePowerRails(packet, field);
      return true;
    case tp::kAndroidEnergyEstimationBreakdown:
      if (message) power_.DecodeEnergyBreakdown(packet, field);
      return true;
    case tp::kEntityStateResidency:
      if (message) power_.DecodeEntityStateResidency(packet, field);
      return true;
    case tp::kWinscopeExtensions:
      if (message) DecodeWinscopeExtensions(packet, field);
      return true;
    case kShellTransition:
      if (message) winscope_.DecodeShellTransition(packet, field);
      return true;
    case kShellHandlerMappings:
      if (message) winscope_.DecodeShellHandlerMappings(packet, field);
      return true;
    case kSurfaceFlingerTransactions:
      if (message) winscope_.DecodeSurfaceFlingerTransactions(packet, field);
      return true;
    case kSurfaceFlingerLayersSnapshot:
      if (message) winscope_.DecodeSurfaceFlingerLayers(packet, field);
      return true;
    default:
      return false;
  }
}

void SystemProbesDecoder::DecodeWinscopeExtensions(const PacketContext& packet,
                                                   const proto::Field& field) {
  // A carrier of extension fields; the first one recognised is the packet's payload.
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == pf::winscope_extensions::kAndroidInputEvent) {
      input_events_.DecodeInputEvent(packet, f);
      return;
    }
    if (winscope_.DecodeExtension(packet, f)) return;
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
}

void SystemProbesDecoder::Finish() { trace_config_.Finish(trace_stats_.bytes_overwritten()); }

}  // namespace tw

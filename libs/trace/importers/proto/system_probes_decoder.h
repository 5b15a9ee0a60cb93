#pragma once
// Decodes the packets of system probes and trace bookkeeping: process_stats and sys_stats
// (memory / cpu counters), system_info and cpu_info (machine description), trace_config,
// trace_stats and ftrace_stats (stats), trace_uuid, triggers, service events, concurrent
// session events, android logs, initial display state, packages list, aconfig flags, frame
// timeline events, power (battery, rails, energy breakdown, entity residency), per-uid cpu
// time, GPU render stages / logs / Vulkan API events / frequency, the generic kernel data source
// (task states, renames, process trees, cpu frequency), Android input events
// (winscope extensions), Chrome metadata. Timed data becomes events; descriptive data becomes
// metadata, stats or rows of descriptive tables (cpu, cpu_freq, machine, package_list,
// android_aflags). Each packet kind has its own decoder; this class routes to them and holds
// the state they share.

#include <cstdint>

#include "libs/trace/importers/proto/android_aflags_decoder.h"
#include "libs/trace/importers/proto/android_input_event_decoder.h"
#include "libs/trace/importers/proto/android_probes_decoder.h"
#include "libs/trace/importers/proto/android_system_property_decoder.h"
#include "libs/trace/importers/proto/chrome_metadata_decoder.h"
#include "libs/trace/importers/proto/cpu_info_decoder.h"
#include "libs/trace/importers/proto/cpu_per_uid_decoder.h"
#include "libs/trace/importers/proto/interrupt_info_decoder.h"
#include "libs/trace/importers/proto/kernel_wakelock_decoder.h"
#include "libs/trace/importers/proto/network_packet_decoder.h"
#include "libs/trace/importers/proto/frame_timeline_decoder.h"
#include "libs/trace/importers/proto/ftrace_stats_decoder.h"
#include "libs/trace/importers/proto/generic_kernel_decoder.h"
#include "libs/trace/importers/proto/gpu_decoder.h"
#include "libs/trace/importers/proto/gpu_stage_decoder.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/power_decoder.h"
#include "libs/trace/importers/proto/process_stats_decoder.h"
#include "libs/trace/importers/proto/protolog_decoder.h"
#include "libs/trace/importers/proto/sequence_loss_tracker.h"
#include "libs/trace/importers/proto/session_metadata_decoder.h"
#include "libs/trace/importers/proto/sys_stats_decoder.h"
#include "libs/trace/importers/proto/system_info_decoder.h"
#include "libs/trace/importers/proto/trace_config_decoder.h"
#include "libs/trace/importers/proto/trace_stats_decoder.h"
#include "libs/trace/importers/proto/winscope_decoder.h"

namespace tw {

class SystemProbesDecoder {
 public:
  explicit SystemProbesDecoder(ImportContext* ctx);

  // `field.id` is the TracePacket data field number (tw::pf::trace_packet::k*). Returns false
  // if this decoder does not handle that field.
  bool Decode(const PacketContext& packet, const proto::Field& field);

  // The importer reports every packet's sequence bookkeeping here (see SequenceLossTracker),
  // so trace_stats can attribute packet loss to buffers.
  SequenceLossTracker& sequence_loss() { return sequence_loss_; }

  // Lets cpu_info attach its args (ARM identifier, cpu_features.*) to cpu rows, and import logs
  // carry their details.
  void set_arg_set_sink(const ArgSetSink& sink) {
    cpu_info_.set_arg_set_sink(sink);
    aflags_.set_arg_set_sink(sink);
    ftrace_stats_.set_arg_set_sink(sink);
  }

  // After the last packet: stats that depend on several packets (long-trace-mode data loss).
  void Finish();

 private:
  void DecodeWinscopeExtensions(const PacketContext& packet, const proto::Field& field);

  ImportContext* ctx_;
  SequenceLossTracker sequence_loss_;
  ProcessStatsDecoder process_stats_;
  SysStatsDecoder sys_stats_;
  SystemInfoDecoder system_info_;
  CpuInfoDecoder cpu_info_;
  TraceConfigDecoder trace_config_;
  TraceStatsDecoder trace_stats_;
  FtraceStatsDecoder ftrace_stats_;
  SessionMetadataDecoder session_;
  ChromeMetadataDecoder chrome_;
  AndroidProbesDecoder android_;
  AndroidSystemPropertyDecoder sysprops_;
  AndroidAflagsDecoder aflags_;
  FrameTimelineDecoder frame_timeline_;
  AndroidInputEventDecoder input_events_;
  GpuDecoder gpu_;
  GpuStageDecoder gpu_stages_;
  GenericKernelDecoder generic_kernel_;
  PowerDecoder power_;
  CpuPerUidDecoder cpu_per_uid_;
  KernelWakelockDecoder kernel_wakelocks_;
  InterruptInfoDecoder interrupt_info_;
  NetworkPacketDecoder network_packets_;
  WinscopeDecoder winscope_;
  ProtoLogDecoder protolog_;
  bool uuid_found_ = false;  // a trace_uuid packet or config already named the trace
};

}  // namespace tw

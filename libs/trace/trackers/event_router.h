#pragma once
// Hands each sorted event to the trackers that turn it into rows. One switch, no parsing: every
// event arrives fully decoded from its importer.

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/android_framework_process_tracker.h"
#include "libs/trace/trackers/android_input_tracker.h"
#include "libs/trace/trackers/art_process_metadata_tracker.h"
#include "libs/trace/trackers/atrace_async_tracks.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/binder_tracker.h"
#include "libs/trace/trackers/clock_rate_tracker.h"
#include "libs/trace/trackers/cma_alloc_tracker.h"
#include "libs/trace/trackers/frame_timeline_tracker.h"
#include "libs/trace/trackers/ftrace_drop_window.h"
#include "libs/trace/trackers/generic_kernel_tracker.h"
#include "libs/trace/trackers/gpu_memory_tracker.h"
#include "libs/trace/trackers/graphics_frame_tracker.h"
#include "libs/trace/trackers/heap_graph_tracker.h"
#include "libs/trace/trackers/kernel_event_tracker.h"
#include "libs/trace/trackers/heap_profile_tracker.h"
#include "libs/trace/trackers/network_packet_tracker.h"
#include "libs/trace/trackers/perf_sample_tracker.h"
#include "libs/trace/trackers/pkvm_hypervisor_tracker.h"
#include "libs/trace/trackers/state_tracker.h"
#include "libs/trace/trackers/suspend_resume_tracker.h"
#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/ufs_command_tracker.h"
#include "libs/trace/trackers/drm_tracker.h"
#include "libs/trace/trackers/v4l2_tracker.h"
#include "libs/trace/trackers/v8_cpu_profile_tracker.h"
#include "libs/trace/trackers/protolog_tracker.h"
#include "libs/trace/trackers/winscope_tracker.h"
#include "libs/trace/trackers/virtio_tracker.h"

namespace tw {

class EventRouter {
 public:
  explicit EventRouter(TraceContext* context);

  void Route(Event& event);
  // FtraceStats.preserve_ftrace_buffer: ftrace data from before tracing started is kept.
  void set_ftrace_buffer_preserved(bool preserved) {
    ftrace_window_.set_buffer_preserved(preserved);
  }
  // Called once after the last event: writes what was accumulated (process args, ...).
  void Finish();

 private:
  void OnSchedSwitch(const Event& e);
  void OnSchedWaking(const Event& e);
  void OnTask(const Event& e);
  void OnCpuCounter(const Event& e);
  void WriteCpuCounterFtraceRow(const Event& e, bool freq);
  void OnAtrace(int64_t ts, const AtraceData& a);
  void OnFtraceRaw(int64_t ts, const FtraceRawData& raw);
  void WriteFtraceRawRow(int64_t ts, const FtraceRawData& raw);
  void OnFtracePrint(const Event& e);
  const FtraceRawData& PrintRaw(const Event& e);  // the print's generic row (print_raw_)
  void RouteEarlyFtrace(const Event& e, FtraceDropWindow::Verdict verdict);
  void OnProcessTree(int64_t ts, const ProcessTreeData& tree);
  void OnCounter(int64_t ts, const CounterData& c);
  // android_cpu_per_uid_track, from the cpu_per_uid totals after the last sample.
  void WriteCpuPerUidTotals(const AndroidCpuPerUidTotalsData& totals);
  void OnAndroidLog(int64_t ts, const AndroidLogData& log);
  void OnStateChange(int64_t ts, const StateChangeData& change);
  void OnGlobalSlice(int64_t ts, const GlobalSliceData& slice);
  uint32_t AtraceUtid(const AtraceData& a);

  TraceContext* ctx_;
  TraceStorage* storage_;
  FrameTimelineTracker frame_timeline_;
  AndroidInputTracker input_events_;
  AndroidFrameworkProcessTracker framework_processes_;
  GpuMemoryTracker gpu_memory_;
  GraphicsFrameTracker graphics_frames_;
  V4l2Tracker v4l2_;
  DrmTracker drm_;
  VirtioTracker virtio_;
  BinderTracker binder_;
  ClockRateTracker clock_rates_;
  SuspendResumeTracker suspend_resume_;
  KernelEventTracker kernel_events_;
  CmaAllocTracker cma_allocs_;
  UfsCommandTracker ufs_commands_;
  PkvmHypervisorTracker pkvm_hypervisor_;
  NetworkPacketTracker network_packets_;
  GenericKernelTracker generic_kernel_;
  FtraceDropWindow ftrace_window_;
  WinscopeTracker winscope_;
  StateTracker states_;  // state tracks other than track events' (StateChangeData)
  AtraceAsyncTracks atrace_async_;
  V8CpuProfileTracker v8_profiles_;
  PerfSampleTracker perf_samples_;
  HeapGraphTracker heap_graphs_;
  ArtProcessMetadataTracker art_process_metadata_;
  HeapProfileTracker heap_profiles_;
  ProtoLogTracker protolog_;
  AndroidCpuPerUidTotalsData cpu_per_uid_totals_;  // the latest cumulative totals
  AsyncTrackSets global_slices_;  // GlobalSliceData's sets of tracks
  absl::flat_hash_map<uint32_t, std::vector<Arg>> process_args_;
  StringId cpufreq_ = kNullStringId;
  StringId cpuidle_ = kNullStringId;
  // The cpu_frequency [0] / cpu_idle [1] counter track of each cpu, UINT32_MAX until interned:
  // a track's identity is its type and cpu, so after the first event per cpu the track
  // interning (string key, dimension args) is skipped.
  std::vector<uint32_t> cpu_counter_tracks_[2];
  // Interned on the first inline cpu_frequency / cpu_idle ftrace_event row.
  StringId state_key_ = kNullStringId;
  StringId cpu_id_key_ = kNullStringId;
  StringId cpu_frequency_name_ = kNullStringId;
  StringId cpu_idle_name_ = kNullStringId;
  // (state << 11 | cpu << 1 | is_frequency) -> the arg set of that ftrace_event row.
  absl::flat_hash_map<uint64_t, std::optional<uint32_t>> cpu_counter_arg_sets_;
  // An inline print's row goes through OnFtraceRaw as this (its args reuse their storage).
  FtraceRawData print_raw_{};
  StringId ip_key_ = kNullStringId;
  StringId buf_key_ = kNullStringId;
};

}  // namespace tw

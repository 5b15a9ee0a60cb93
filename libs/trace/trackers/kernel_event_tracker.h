#pragma once
// Kernel ftrace events that trace_processor turns into counters and slices beyond the raw
// ftrace_event row: memory (rss_stat, ion, dma-buf heaps, mm_event, oom_score_adj_update,
// mark_victim), frequency (gpu_frequency, kgsl_gpu_freq, cpu_frequency_limits), thermal
// (thermal_temperature, cdev_update), scheduler utilisation (sched_cpu_util_cfs), signals,
// workqueues, reclaim and shrinker slices, kprobes, block I/O requests, the local timer
// interrupt, network events (kernel_network_events.cc), wakeup sources and file reads
// (kernel_power_and_fs_events.cc), device counters and slices — Exynos ACPM thermal zones,
// ChromeOS EC sensor hub samples, f2fs I/O statistics, Adreno GPU command batches
// (kernel_device_events.cc). Each reads the event's fields by name from the generic
// decoding (FtraceRawData).

#include <cstdint>
#include <functional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/process_counter_tracker.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class KernelEventTracker {
 public:
  explicit KernelEventTracker(TraceContext* ctx);

  // Handles `raw` if it is one of the events above (its raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  using Handler = void (KernelEventTracker::*)(int64_t ts, const FtraceRawData& raw);
  void On(std::string_view event, Handler handler);

  void RssStat(int64_t ts, const FtraceRawData& raw);
  void OomScoreAdj(int64_t ts, const FtraceRawData& raw);
  void MarkVictim(int64_t ts, const FtraceRawData& raw);
  void MmEvent(int64_t ts, const FtraceRawData& raw);
  void GpuFrequency(int64_t ts, const FtraceRawData& raw);
  void KgslGpuFrequency(int64_t ts, const FtraceRawData& raw);
  void CpuFrequencyLimits(int64_t ts, const FtraceRawData& raw);
  void IonHeapGrow(int64_t ts, const FtraceRawData& raw);
  void IonHeapShrink(int64_t ts, const FtraceRawData& raw);
  void IonHeapChange(int64_t ts, const FtraceRawData& raw, bool grow);
  void IonStat(int64_t ts, const FtraceRawData& raw);
  void DmaHeapStat(int64_t ts, const FtraceRawData& raw);
  void SignalGenerate(int64_t ts, const FtraceRawData& raw);
  void SignalDeliver(int64_t ts, const FtraceRawData& raw);
  void Kprobe(int64_t ts, const FtraceRawData& raw);
  void BlockIoStart(int64_t ts, const FtraceRawData& raw);
  void BlockIoDone(int64_t ts, const FtraceRawData& raw);
  uint32_t BlockIoTrack(const FtraceRawData& raw);
  void FuncgraphEntry(int64_t ts, const FtraceRawData& raw);
  void FuncgraphExit(int64_t ts, const FtraceRawData& raw);
  uint32_t FuncgraphTrack(const FtraceRawData& raw);
  void WorkqueueStart(int64_t ts, const FtraceRawData& raw);
  void WorkqueueEnd(int64_t ts, const FtraceRawData& raw);
  void ThermalTemperature(int64_t ts, const FtraceRawData& raw);
  void CdevUpdate(int64_t ts, const FtraceRawData& raw);
  // Device counters and slices (kernel_device_events.cc).
  void ThermalExynosAcpm(int64_t ts, const FtraceRawData& raw);
  void CrosEcSensorhubData(int64_t ts, const FtraceRawData& raw);
  void F2fsIostat(int64_t ts, const FtraceRawData& raw);
  void F2fsIostatLatency(int64_t ts, const FtraceRawData& raw);
  void AdrenoCmdbatchQueued(int64_t ts, const FtraceRawData& raw);
  void AdrenoCmdbatchRetired(int64_t ts, const FtraceRawData& raw);
  void DeviceCounter(int64_t ts, std::string_view type, const std::string& name,
                     const std::vector<Arg>& dims, double value, std::vector<Arg> args);
  void SchedCpuUtilCfs(int64_t ts, const FtraceRawData& raw);
  void LocalTimerEntry(int64_t ts, const FtraceRawData& raw);
  void LocalTimerExit(int64_t ts, const FtraceRawData& raw);
  void DirectReclaimBegin(int64_t ts, const FtraceRawData& raw);
  void DirectReclaimEnd(int64_t ts, const FtraceRawData& raw);
  void ShrinkSlabStart(int64_t ts, const FtraceRawData& raw);
  void ShrinkSlabEnd(int64_t ts, const FtraceRawData& raw);
  // Network (kernel_network_events.cc).
  void NetifReceiveSkb(int64_t ts, const FtraceRawData& raw);
  void NetDevXmit(int64_t ts, const FtraceRawData& raw);
  void NetworkBytes(int64_t ts, const FtraceRawData& raw, bool received);
  void NapiGroReceiveEntry(int64_t ts, const FtraceRawData& raw);
  void NapiGroReceiveExit(int64_t ts, const FtraceRawData& raw);
  uint32_t NapiGroTrack(uint32_t cpu);
  void InetSockSetState(int64_t ts, const FtraceRawData& raw);
  void TcpRetransmitSkb(int64_t ts, const FtraceRawData& raw);
  void KfreeSkb(int64_t ts, const FtraceRawData& raw);
  // Wakeup sources and file reads (kernel_power_and_fs_events.cc).
  void WakeupSourceActivate(int64_t ts, const FtraceRawData& raw);
  void WakeupSourceDeactivate(int64_t ts, const FtraceRawData& raw);
  uint32_t WakelockTrack(StringId source);
  void AndroidFsDatareadStart(int64_t ts, const FtraceRawData& raw);
  void AndroidFsDatareadEnd(int64_t ts, const FtraceRawData& raw);
  uint32_t AndroidFsTrack(int64_t tid, bool begin);

  // A named field of the event (0 / "" when absent, as proto defaults read).
  int64_t Int(const FtraceRawData& raw, std::string_view key) const;
  StringId Str(const FtraceRawData& raw, std::string_view key) const;
  // A kernel function field: its symbol when the decoder resolved one, else "0x<address>".
  StringId Function(const FtraceRawData& raw, std::string_view key);
  // The thread's main slice track.
  uint32_t ThreadTrack(int64_t tid);
  // Adds a counter sample on a track of `type` named `name` with dimensions `dims`.
  void Counter(int64_t ts, std::string_view type, std::string_view name,
               const std::vector<Arg>& dims, double value, StringId unit = kNullStringId);
  // The row of GPU `gpu_id` (ugpu), numbered in order of first sight.
  uint32_t Ugpu(int64_t gpu_id);

  TraceContext* ctx_;
  TraceStorage* storage_;
  absl::flat_hash_map<StringId, Handler> handlers_;
  // rss_stat: the thread whose mm an mm_id was last seen as current for.
  absl::flat_hash_map<int64_t, uint32_t> mm_owner_;
  // Individual ion / dma-buf buffers, one slice per allocation on a compressed track set.
  AsyncTrackSets buffer_tracks_;
  // Adreno command batches: the thread that queued each GPU context last, and the compressed
  // track sets of each (context, priority).
  absl::flat_hash_map<int64_t, int64_t> adreno_context_tid_;
  AsyncTrackSets adreno_tracks_;
  // Network: bytes so far per interface name, TCP stream number per socket address, freed
  // IP packets so far.
  absl::flat_hash_map<StringId, uint64_t> nic_received_bytes_, nic_transmitted_bytes_;
  absl::flat_hash_map<int64_t, uint64_t> tcp_streams_;
  int64_t kfree_skb_ip_count_ = 0;
  // Wakeup sources: how many activations each has outstanding.
  absl::flat_hash_map<StringId, uint32_t> active_wakelocks_;
  // File reads in flight: (inode, offset) → the reading thread, and a track per reader.
  absl::flat_hash_map<std::pair<int64_t, int64_t>, int64_t> fs_reads_;
  AsyncTrackSets fs_read_tracks_;
};

}  // namespace tw

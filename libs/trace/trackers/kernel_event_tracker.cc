#include "libs/trace/trackers/kernel_event_tracker.h"

#include <cinttypes>
#include <cstdio>
#include <string>

#include "libs/trace/trackers/gpu_tracker.h"
#include "libs/trace/trackers/raw_event_args.h"

namespace tw {
namespace {

// rss_stat's member: which of the mm's counters changed.
const char* ProcessMemoryKey(int64_t member) {
  switch (member) {
    case 0: return "rss.file";
    case 1: return "rss.anon";
    case 2: return "swap";
    case 3: return "rss.shmem";
    case 4: return "unreclaimable";
    default: return "unknown";
  }
}

// mm_event_record's type (the mm_event vendor hook).
const char* MmEventType(int64_t type) {
  switch (type) {
    case 0: return "min_flt";
    case 1: return "maj_flt";
    case 2: return "read_io";
    case 3: return "compaction";
    case 4: return "reclaim";
    case 5: return "swp_flt";
    case 6: return "kern_alloc";
    default: return nullptr;
  }
}

}  // namespace

KernelEventTracker::KernelEventTracker(TraceContext* ctx) : ctx_(ctx), storage_(ctx->storage) {
  On("rss_stat", &KernelEventTracker::RssStat);
  On("rss_stat_throttled", &KernelEventTracker::RssStat);
  On("oom_score_adj_update", &KernelEventTracker::OomScoreAdj);
  On("mark_victim", &KernelEventTracker::MarkVictim);
  On("mm_event_record", &KernelEventTracker::MmEvent);
  On("gpu_frequency", &KernelEventTracker::GpuFrequency);
  On("kgsl_gpu_frequency", &KernelEventTracker::KgslGpuFrequency);
  On("cpu_frequency_limits", &KernelEventTracker::CpuFrequencyLimits);
  On("ion_heap_grow", &KernelEventTracker::IonHeapGrow);
  On("ion_heap_shrink", &KernelEventTracker::IonHeapShrink);
  On("ion_stat", &KernelEventTracker::IonStat);
  On("dma_heap_stat", &KernelEventTracker::DmaHeapStat);
  On("signal_generate", &KernelEventTracker::SignalGenerate);
  On("signal_deliver", &KernelEventTracker::SignalDeliver);
  On("workqueue_execute_start", &KernelEventTracker::WorkqueueStart);
  On("workqueue_execute_end", &KernelEventTracker::WorkqueueEnd);
  On("thermal_temperature", &KernelEventTracker::ThermalTemperature);
  On("cdev_update", &KernelEventTracker::CdevUpdate);
  On("thermal_exynos_acpm_bulk", &KernelEventTracker::ThermalExynosAcpm);
  On("thermal_exynos_acpm_high_overhead", &KernelEventTracker::ThermalExynosAcpm);
  On("cros_ec_sensorhub_data", &KernelEventTracker::CrosEcSensorhubData);
  On("f2fs_iostat", &KernelEventTracker::F2fsIostat);
  On("f2fs_iostat_latency", &KernelEventTracker::F2fsIostatLatency);
  On("kgsl_adreno_cmdbatch_queued", &KernelEventTracker::AdrenoCmdbatchQueued);
  On("kgsl_adreno_cmdbatch_retired", &KernelEventTracker::AdrenoCmdbatchRetired);
  On("sched_cpu_util_cfs", &KernelEventTracker::SchedCpuUtilCfs);
  On("local_timer_entry", &KernelEventTracker::LocalTimerEntry);
  On("local_timer_exit", &KernelEventTracker::LocalTimerExit);
  On("mm_vmscan_direct_reclaim_begin", &KernelEventTracker::DirectReclaimBegin);
  On("mm_vmscan_direct_reclaim_end", &KernelEventTracker::DirectReclaimEnd);
  On("mm_shrink_slab_start", &KernelEventTracker::ShrinkSlabStart);
  On("mm_shrink_slab_end", &KernelEventTracker::ShrinkSlabEnd);
  On("kprobe_event", &KernelEventTracker::Kprobe);
  On("funcgraph_entry", &KernelEventTracker::FuncgraphEntry);
  On("funcgraph_exit", &KernelEventTracker::FuncgraphExit);
  On("block_io_start", &KernelEventTracker::BlockIoStart);
  On("block_io_done", &KernelEventTracker::BlockIoDone);
  On("netif_receive_skb", &KernelEventTracker::NetifReceiveSkb);
  On("net_dev_xmit", &KernelEventTracker::NetDevXmit);
  On("napi_gro_receive_entry", &KernelEventTracker::NapiGroReceiveEntry);
  On("napi_gro_receive_exit", &KernelEventTracker::NapiGroReceiveExit);
  On("inet_sock_set_state", &KernelEventTracker::InetSockSetState);
  On("tcp_retransmit_skb", &KernelEventTracker::TcpRetransmitSkb);
  On("kfree_skb", &KernelEventTracker::KfreeSkb);
  On("wakeup_source_activate", &KernelEventTracker::WakeupSourceActivate);
  On("wakeup_source_deactivate", &KernelEventTracker::WakeupSourceDeactivate);
  On("android_fs_dataread_start", &KernelEventTracker::AndroidFsDatareadStart);
  On("android_fs_dataread_end", &KernelEventTracker::AndroidFsDatareadEnd);
}

void KernelEventTracker::On(std::string_view event, Handler handler) {
  handlers_[storage_->Intern(event)] = handler;
}

void KernelEventTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  auto it = handlers_.find(raw.name);
  if (it != handlers_.end()) (this->*(it->second))(ts, raw);
}

int64_t KernelEventTracker::Int(const FtraceRawData& raw, std::string_view key) const {
  const StringId id = storage_->Intern(key);
  return RawIntArg(raw, id).value_or(0);
}

StringId KernelEventTracker::Str(const FtraceRawData& raw, std::string_view key) const {
  const StringId id = storage_->Intern(key);
  for (const Arg& a : raw.args) {
    if (a.key == id && a.value.type == ArgValue::Type::kString) return a.value.string_value;
  }
  return kNullStringId;
}

StringId KernelEventTracker::Function(const FtraceRawData& raw, std::string_view key) {
  const StringId id = storage_->Intern(key);
  for (const Arg& a : raw.args) {
    if (a.key != id) continue;
    if (a.value.type == ArgValue::Type::kString) return a.value.string_value;
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%#" PRIx64, static_cast<uint64_t>(a.value.int_value));
    return storage_->Intern(buf);
  }
  return storage_->Intern("0");
}

uint32_t KernelEventTracker::ThreadTrack(int64_t tid) {
  return ctx_->tracks.InternThreadTrack(ctx_->processes.GetOrCreateThread(tid));
}

void KernelEventTracker::Counter(int64_t ts, std::string_view type, std::string_view name,
                                 const std::vector<Arg>& dims, double value, StringId unit) {
  const uint32_t track =
      ctx_->tracks.InternTrack(type, "counter", storage_->Intern(name), dims, unit);
  storage_->counter.Insert({.ts = ts, .track_id = track, .value = value});
  storage_->ExtendBounds(ts);
}

uint32_t KernelEventTracker::Ugpu(int64_t gpu_id) { return ctx_->gpus->GetOrCreateGpu(gpu_id); }

// ---- memory ----

void KernelEventTracker::RssStat(int64_t ts, const FtraceRawData& raw) {
  const int64_t size = Int(raw, "size");
  if (size < 0) {
    storage_->IncrementStat("rss_stat_negative_size");
    return;
  }
  const char* key = ProcessMemoryKey(Int(raw, "member"));
  // With mm_id and curr, an event about another process's mm (curr = 0) is credited to the
  // thread last seen using that mm, if it is still alive.
  const std::optional<int64_t> mm_id = RawIntArg(raw, storage_->Intern("mm_id"));
  const std::optional<int64_t> curr = RawIntArg(raw, storage_->Intern("curr"));
  std::optional<uint32_t> utid;
  if (mm_id && curr) {
    if (*curr) {
      utid = ctx_->processes.GetOrCreateThread(raw.pid);
      mm_owner_[*mm_id] = *utid;
    } else if (auto it = mm_owner_.find(*mm_id); it != mm_owner_.end()) {
      if (ctx_->processes.IsThreadAlive(it->second)) {
        utid = it->second;
      } else {
        mm_owner_.erase(it);
      }
    }
  } else {
    utid = ctx_->processes.GetOrCreateThread(raw.pid);
  }
  if (!utid) {
    storage_->IncrementStat("rss_stat_unknown_thread_for_mm_id");
    return;
  }
  ProcessCounterTracker::Kind kind;
  kind.type = "process_memory";
  kind.fallback_type = "process_memory_thread_fallback";
  kind.name = storage_->Intern(std::string("mem.") + key);
  kind.dims = {ctx_->tracks.DimString("process_memory_key", storage_->Intern(key))};
  ctx_->process_counters.Push(ts, static_cast<double>(size), *utid, kind);
}

void KernelEventTracker::OomScoreAdj(int64_t ts, const FtraceRawData& raw) {
  // Old tracers wrote negative values as unsigned varints: the low 16 bits are the value.
  const double adj = static_cast<int16_t>(Int(raw, "oom_score_adj"));
  const uint32_t utid = ctx_->processes.GetOrCreateThread(Int(raw, "pid"));
  ProcessCounterTracker::Kind kind;
  kind.type = "oom_score_adj";
  kind.fallback_type = "oom_score_adj_thread_fallback";
  kind.name = storage_->Intern("oom_score_adj");
  ctx_->process_counters.Push(ts, adj, utid, kind);
}

void KernelEventTracker::MarkVictim(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.Scoped(ts, ThreadTrack(Int(raw, "pid")), kNullStringId,
                      storage_->Intern("mem.oom_kill"), 0, {});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::MmEvent(int64_t ts, const FtraceRawData& raw) {
  const uint32_t utid = ctx_->processes.GetOrCreateThread(raw.pid);
  const char* type = MmEventType(Int(raw, "type"));
  if (!type) {
    storage_->IncrementStat("mm_unknown_type");
    return;
  }
  for (const char* metric : {"count", "max_lat", "avg_lat"}) {
    ProcessCounterTracker::Kind kind;
    kind.type = "mm_event";
    kind.fallback_type = "mm_event_thread_fallback";
    kind.name = storage_->Intern(std::string("mem.mm.") + type + "." + metric);
    kind.dims = {ctx_->tracks.DimString("mm_event_type", storage_->Intern(type)),
                 ctx_->tracks.DimString("mm_event_metric", storage_->Intern(metric))};
    ctx_->process_counters.Push(ts, static_cast<double>(Int(raw, metric)), utid, kind);
  }
}

void KernelEventTracker::IonHeapGrow(int64_t ts, const FtraceRawData& raw) {
  IonHeapChange(ts, raw, true);
}
void KernelEventTracker::IonHeapShrink(int64_t ts, const FtraceRawData& raw) {
  IonHeapChange(ts, raw, false);
}

void KernelEventTracker::IonHeapChange(int64_t ts, const FtraceRawData& raw, bool grow) {
  // total_allocated is the heap's size before this change.
  const int64_t change = Int(raw, "len") * (grow ? 1 : -1);
  const int64_t total = Int(raw, "total_allocated") + change;
  StringId heap = Str(raw, "heap_name");
  if (heap == kNullStringId) heap = storage_->Intern("unknown");
  const std::string heap_name(storage_->Str(heap));
  Counter(ts, "ion", "mem.ion." + heap_name, {ctx_->tracks.DimString("heap_name", heap)},
          static_cast<double>(total));
  const uint32_t utid = ctx_->processes.GetOrCreateThread(raw.pid);
  Counter(ts, "ion_change", "mem.ion_change." + heap_name,
          {ctx_->tracks.DimString("heap_name", heap), ctx_->tracks.Dim("utid", utid)},
          static_cast<double>(change));
}

void KernelEventTracker::IonStat(int64_t ts, const FtraceRawData& raw) {
  // 4.19+ kernels: one global heap (an empty heap name).
  const StringId no_heap = storage_->Intern("");
  Counter(ts, "ion", "mem.ion", {ctx_->tracks.DimString("heap_name", no_heap)},
          static_cast<double>(Int(raw, "total_allocated")));
  const uint32_t utid = ctx_->processes.GetOrCreateThread(raw.pid);
  const int64_t len = Int(raw, "len");
  Counter(ts, "ion_change", "mem.ion_change",
          {ctx_->tracks.DimString("heap_name", no_heap), ctx_->tracks.Dim("utid", utid)},
          static_cast<double>(len));
  // Each buffer is a slice from its allocation to its release.
  const uint32_t set = buffer_tracks_.SetFor("android_ion_allocations");
  auto factory = [this](uint32_t, int64_t) {
    return ctx_->tracks.CreateTrack(storage_->Intern("mem.ion_buffer"),
                                    "android_ion_allocations", "slice");
  };
  const int64_t buffer = Int(raw, "buffer_id");
  if (len > 0) {
    const std::string name = std::to_string(len / 1024) + " kB";
    ctx_->slices.Begin(ts, buffer_tracks_.Begin(set, buffer, factory), kNullStringId,
                       storage_->Intern(name), {});
  } else {
    ctx_->slices.End(ts, buffer_tracks_.End(set, buffer, factory), kNullStringId, kNullStringId,
                     {});
  }
}

void KernelEventTracker::DmaHeapStat(int64_t ts, const FtraceRawData& raw) {
  Counter(ts, "android_dma_heap", "mem.dma_heap", {},
          static_cast<double>(Int(raw, "total_allocated")));
  const uint32_t utid = ctx_->processes.GetOrCreateThread(raw.pid);
  const int64_t len = Int(raw, "len");
  const uint32_t change_track =
      ctx_->tracks.InternTrack("android_dma_heap_change", "counter",
                               storage_->Intern("mem.dma_heap_change"),
                               {ctx_->tracks.Dim("utid", utid)});
  const uint32_t row = storage_->counter.Insert({.ts = ts, .track_id = change_track, .value = static_cast<double>(len)});
  if (auto set = ctx_->args.AddArgSet(
          {ctx_->args.MakeArg("inode", ArgValue::Uint(static_cast<uint64_t>(Int(raw, "inode"))))})) {
    storage_->counter.arg_set_id.Set(row, *set);
  }
  const uint32_t set = buffer_tracks_.SetFor("android_dma_allocations");
  auto factory = [this](uint32_t, int64_t) {
    return ctx_->tracks.CreateTrack(storage_->Intern("mem.dma_buffer"),
                                    "android_dma_allocations", "slice");
  };
  const int64_t inode = Int(raw, "inode");
  if (len > 0) {
    const std::string name = std::to_string(len / 1024) + " kB";
    ctx_->slices.Begin(ts, buffer_tracks_.Begin(set, inode, factory), kNullStringId,
                       storage_->Intern(name), {});
  } else {
    ctx_->slices.End(ts, buffer_tracks_.End(set, inode, factory), kNullStringId, kNullStringId,
                     {});
  }
}

// ---- frequency, thermal, utilisation ----

void KernelEventTracker::GpuFrequency(int64_t ts, const FtraceRawData& raw) {
  const int64_t gpu = Int(raw, "gpu_id");
  Counter(ts, "gpu_frequency", "gpufreq",
          {ctx_->tracks.Dim("ugpu", Ugpu(gpu)), ctx_->tracks.Dim("gpu", gpu)},
          static_cast<double>(Int(raw, "state")), storage_->Intern("kHz"));
}

void KernelEventTracker::KgslGpuFrequency(int64_t ts, const FtraceRawData& raw) {
  // kgsl reports MHz / 1000... in kHz units of 1000: scaled back to the gpufreq track's unit.
  const int64_t gpu = Int(raw, "gpu_id");
  Counter(ts, "gpu_frequency", "gpufreq",
          {ctx_->tracks.Dim("ugpu", Ugpu(gpu)), ctx_->tracks.Dim("gpu", gpu)},
          static_cast<double>(Int(raw, "gpu_freq")) * 1000.0, storage_->Intern("kHz"));
}

void KernelEventTracker::CpuFrequencyLimits(int64_t ts, const FtraceRawData& raw) {
  const int64_t cpu = Int(raw, "cpu_id");
  ctx_->sched.Cpu(static_cast<uint32_t>(cpu));
  const std::string prefix = "Cpu " + std::to_string(cpu);
  Counter(ts, "cpu_max_frequency_limit", prefix + " Max Freq Limit",
          {ctx_->tracks.Dim("cpu", cpu)}, static_cast<double>(Int(raw, "max_freq")));
  Counter(ts, "cpu_min_frequency_limit", prefix + " Min Freq Limit",
          {ctx_->tracks.Dim("cpu", cpu)}, static_cast<double>(Int(raw, "min_freq")));
}

void KernelEventTracker::ThermalTemperature(int64_t ts, const FtraceRawData& raw) {
  const StringId zone = Str(raw, "thermal_zone");
  Counter(ts, "thermal_temperature", std::string(storage_->Str(zone)) + " Temperature",
          {ctx_->tracks.DimString("thermal_zone", zone)},
          static_cast<double>(Int(raw, "temp")));
}

void KernelEventTracker::CdevUpdate(int64_t ts, const FtraceRawData& raw) {
  const StringId device = Str(raw, "type");
  Counter(ts, "cooling_device_counter", std::string(storage_->Str(device)) + " Cooling Device",
          {ctx_->tracks.DimString("linux_device", device)},
          static_cast<double>(Int(raw, "target")));
}

void KernelEventTracker::SchedCpuUtilCfs(int64_t ts, const FtraceRawData& raw) {
  const int64_t cpu = Int(raw, "cpu");
  const std::string prefix = "Cpu " + std::to_string(cpu);
  const std::vector<Arg> dims = {ctx_->tracks.Dim("cpu", cpu)};
  Counter(ts, "cpu_utilization", prefix + " Util", dims,
          static_cast<double>(Int(raw, "cpu_util")));
  Counter(ts, "cpu_capacity", prefix + " Cap", dims, static_cast<double>(Int(raw, "capacity")));
  Counter(ts, "cpu_nr_running", prefix + " Nr Running", dims,
          static_cast<double>(Int(raw, "nr_running")));
}

// ---- slices ----

void KernelEventTracker::SignalGenerate(int64_t ts, const FtraceRawData& raw) {
  // Placed on the thread the signal is for, not the one sending it.
  ctx_->slices.Scoped(ts, ThreadTrack(Int(raw, "pid")), kNullStringId,
                      storage_->Intern("signal_generate"), 0,
                      {ctx_->args.MakeArg("signal.sig", ArgValue::Int(Int(raw, "sig")))});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::SignalDeliver(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.Scoped(ts, ThreadTrack(raw.pid), kNullStringId,
                      storage_->Intern("signal_deliver"), 0,
                      {ctx_->args.MakeArg("signal.sig", ArgValue::Int(Int(raw, "sig")))});
  storage_->ExtendBounds(ts);
}

// A block device request, from issue to completion, on its device's track. trace_processor
// declares these tracks with a counter blueprint (type block_io, dimension block_device) and
// places slices on them; we classify them the same way so track queries agree.
uint32_t KernelEventTracker::BlockIoTrack(const FtraceRawData& raw) {
  return ctx_->tracks.InternTrack(
      "block_io", "counter", kNullStringId,
      {ctx_->tracks.DimUint("block_device", static_cast<uint64_t>(Int(raw, "dev")))});
}

void KernelEventTracker::BlockIoStart(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.Begin(ts, BlockIoTrack(raw), kNullStringId, storage_->Intern("block_io"),
                     {ctx_->args.MakeArg("sector", ArgValue::Uint(static_cast<uint64_t>(
                                                       Int(raw, "sector"))))});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::BlockIoDone(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.End(ts, BlockIoTrack(raw), kNullStringId, storage_->Intern("block_io"),
                   {ctx_->args.MakeArg("sector", ArgValue::Uint(static_cast<uint64_t>(
                                                     Int(raw, "sector"))))});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::Kprobe(int64_t ts, const FtraceRawData& raw) {
  // KprobeEvent.KprobeType: a probed function's entry and return make a slice on the thread
  // that ran it; an instant probe a zero-length one.
  enum : int64_t { kBegin = 1, kEnd = 2, kInstant = 3 };
  const StringId name = Str(raw, "name");
  const uint32_t track = ThreadTrack(raw.pid);
  switch (Int(raw, "type")) {
    case kBegin: ctx_->slices.Begin(ts, track, kNullStringId, name, {}); break;
    case kEnd: ctx_->slices.End(ts, track, kNullStringId, name, {}); break;
    case kInstant: ctx_->slices.Scoped(ts, track, kNullStringId, name, 0, {}); break;
    default: return;  // KPROBE_TYPE_UNKNOWN: nothing to place
  }
  storage_->ExtendBounds(ts);
}

uint32_t KernelEventTracker::FuncgraphTrack(const FtraceRawData& raw) {
  // The function graph tracer follows the task running on a cpu. Every cpu's idle task is
  // pid 0, so its calls are kept per cpu: one shared thread track would interleave the
  // call stacks of all cpus.
  if (raw.pid != 0) return ThreadTrack(raw.pid);
  return ctx_->tracks.InternCpuTrack(
      raw.cpu, storage_->Intern("swapper" + std::to_string(raw.cpu) + " -funcgraph"),
      "cpu_funcgraph");
}

void KernelEventTracker::FuncgraphEntry(int64_t ts, const FtraceRawData& raw) {
  // A traced kernel function's entry opens a slice named by the function (its address is
  // named from the trace's interned kernel symbols); nesting follows the call depth.
  ctx_->slices.Begin(ts, FuncgraphTrack(raw), kNullStringId, Function(raw, "func"), {});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::FuncgraphExit(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.End(ts, FuncgraphTrack(raw), kNullStringId, Function(raw, "func"), {});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::WorkqueueStart(int64_t ts, const FtraceRawData& raw) {
  const StringId function = Function(raw, "function");
  ctx_->slices.Begin(ts, ThreadTrack(raw.pid), storage_->Intern("workqueue"), function,
                     {ctx_->args.MakeArg("cpu", ArgValue::Int(raw.cpu))});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::WorkqueueEnd(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.End(ts, ThreadTrack(raw.pid), storage_->Intern("workqueue"), kNullStringId, {});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::LocalTimerEntry(int64_t ts, const FtraceRawData& raw) {
  const uint32_t track = ctx_->tracks.InternCpuTrack(
      raw.cpu, storage_->Intern("Irq Cpu " + std::to_string(raw.cpu)), "cpu_irq");
  ctx_->slices.Begin(ts, track, storage_->Intern("irq"), storage_->Intern("IRQ (LocalTimer)"),
                     {});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::LocalTimerExit(int64_t ts, const FtraceRawData& raw) {
  const uint32_t track = ctx_->tracks.InternCpuTrack(
      raw.cpu, storage_->Intern("Irq Cpu " + std::to_string(raw.cpu)), "cpu_irq");
  ctx_->slices.End(ts, track, storage_->Intern("irq"), kNullStringId, {});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::DirectReclaimBegin(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.Begin(
      ts, ThreadTrack(raw.pid), kNullStringId, storage_->Intern("mm_vmscan_direct_reclaim"),
      {ctx_->args.MakeArg("order", ArgValue::Int(Int(raw, "order"))),
       ctx_->args.MakeArg("may_writepage", ArgValue::Int(Int(raw, "may_writepage"))),
       ctx_->args.MakeArg("gfp_flags",
                          ArgValue::Uint(static_cast<uint64_t>(Int(raw, "gfp_flags"))))});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::DirectReclaimEnd(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.End(ts, ThreadTrack(raw.pid), kNullStringId, kNullStringId,
                   {ctx_->args.MakeArg("nr_reclaimed", ArgValue::Uint(static_cast<uint64_t>(
                                                           Int(raw, "nr_reclaimed"))))});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::ShrinkSlabStart(int64_t ts, const FtraceRawData& raw) {
  const StringId shrinker = Function(raw, "shrink");
  ctx_->slices.Begin(
      ts, ThreadTrack(raw.pid), kNullStringId, storage_->Intern("mm_vmscan_shrink_slab"),
      {ctx_->args.MakeArg("shrink_name", ArgValue::String(shrinker)),
       ctx_->args.MakeArg("total_scan",
                          ArgValue::Uint(static_cast<uint64_t>(Int(raw, "total_scan")))),
       ctx_->args.MakeArg("priority", ArgValue::Int(Int(raw, "priority")))});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::ShrinkSlabEnd(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.End(ts, ThreadTrack(raw.pid), kNullStringId, kNullStringId,
                   {ctx_->args.MakeArg("freed", ArgValue::Int(Int(raw, "retval")))});
  storage_->ExtendBounds(ts);
}

}  // namespace tw

#include "libs/trace/trackers/event_router.h"

#include "libs/trace/trackers/gpu_stage_tracker.h"
#include "libs/trace/trackers/heap_graph_deobfuscator.h"
#include "libs/trace/trackers/gpu_tracker.h"
#include "libs/trace/trackers/json_event_tracker.h"
#include "libs/trace/trackers/track_event_tracker.h"

namespace tw {

EventRouter::EventRouter(TraceContext* context)
    : ctx_(context),
      storage_(context->storage),
      frame_timeline_(context),
      input_events_(context),
      framework_processes_(context),
      gpu_memory_(context),
      graphics_frames_(context),
      v4l2_(context),
      drm_(context),
      virtio_(context),
      binder_(context),
      clock_rates_(context),
      suspend_resume_(context),
      kernel_events_(context),
      cma_allocs_(context),
      ufs_commands_(context),
      pkvm_hypervisor_(context),
      network_packets_(context),
      generic_kernel_(context),
      ftrace_window_(context->storage),
      winscope_(context),
      states_(context->storage, &context->args),
      atrace_async_(context),
      v8_profiles_(context),
      perf_samples_(context),
      heap_graphs_(context),
      art_process_metadata_(context),
      heap_profiles_(context),
      protolog_(context),
      cpufreq_(storage_->Intern("cpufreq")),
      cpuidle_(storage_->Intern("cpuidle")) {}

void EventRouter::Route(Event& e) {
  // JSON events of one timestamp are held to be ordered by phase; anything later (systrace
  // lines of a JSON trace's systemTraceEvents) must not overtake them.
  if (e.type != EventType::kJsonEvent) ctx_->json_events->FlushBefore(e.ts);
  ctx_->tracks.set_machine(e.machine);
  if (e.from_ftrace) {
    const FtraceDropWindow::Verdict verdict = ftrace_window_.For(e.ts);
    if (verdict != FtraceDropWindow::Verdict::kKeep) [[unlikely]] {
      RouteEarlyFtrace(e, verdict);
      ctx_->tracks.set_machine(0);
      return;
    }
  }
  switch (e.type) {
    case EventType::kSchedSwitch: OnSchedSwitch(e); break;
    case EventType::kSchedWaking: OnSchedWaking(e); break;
    case EventType::kTaskNewtask:
    case EventType::kTaskRename:
    case EventType::kProcessExit:
    case EventType::kThreadName:
    case EventType::kProcessFree: OnTask(e); break;
    case EventType::kSchedBlockedReason:
      ctx_->sched.PushBlockedReason(
          e.blocked.pid,
          e.blocked.io_wait < 0 ? std::nullopt : std::optional<bool>(e.blocked.io_wait != 0),
          e.blocked.function);
      break;
    case EventType::kCpuFrequency:
    case EventType::kCpuIdle: OnCpuCounter(e); break;
    case EventType::kAtrace:
      if (e.owns_payload) {
        OnAtrace(e.ts, e.As<AtraceData>());
      } else {
        OnAtrace(e.ts, e.atrace_mark.ToAtraceData(e.pid));
      }
      break;
    case EventType::kFtracePrint: OnFtracePrint(e); break;
    case EventType::kFtraceRaw: OnFtraceRaw(e.ts, e.As<FtraceRawData>()); break;
    case EventType::kProcessTree: OnProcessTree(e.ts, e.As<ProcessTreeData>()); break;
    case EventType::kCounter: OnCounter(e.ts, e.As<CounterData>()); break;
    case EventType::kTrackEvent: ctx_->track_events->OnTrackEvent(e.ts, e.As<TrackEventData>()); break;
    case EventType::kAndroidLog: OnAndroidLog(e.ts, e.As<AndroidLogData>()); break;
    case EventType::kJsonEvent: ctx_->json_events->OnEvent(e.ts, e.As<JsonEventData>()); break;
    case EventType::kV8CpuProfile: v8_profiles_.OnEvent(e.ts, e.As<V8CpuProfileData>()); break;
    case EventType::kPerfSample: perf_samples_.OnEvent(e.ts, e.As<PerfSampleData>()); break;
    case EventType::kHeapGraph: heap_graphs_.OnHeapGraph(e.ts, e.As<HeapGraphPacketData>()); break;
    case EventType::kArtProcessMetadata:
      art_process_metadata_.OnEvent(e.ts, e.As<ArtProcessMetadataData>());
      break;
    case EventType::kDeobfuscationMapping:
      ctx_->deobfuscation_mappings.push_back(std::move(e.As<DeobfuscationMappingData>()));
      break;
    case EventType::kHeapProfile: heap_profiles_.OnEvent(e.ts, e.As<HeapProfileData>()); break;
    case EventType::kImportLog: {
      const ImportLogData& log = e.As<ImportLogData>();
      storage_->RecordImportLog(log.stat, log.log_ts, ctx_->args.AddArgSet(log.args));
      break;
    }
    case EventType::kGlobalInstant: {
      const GlobalInstantData& d = e.As<GlobalInstantData>();
      const uint32_t track =
          d.dimensions.empty()
              ? ctx_->tracks.InternGlobalTrack(d.track_name, d.track_type, false)
              : ctx_->tracks.InternTrack(d.track_type, "slice", d.track_name, d.dimensions);
      ctx_->slices.Scoped(e.ts, track, kNullStringId, d.name, 0, d.args);
      storage_->ExtendBounds(e.ts);
      break;
    }
    case EventType::kFrameTimeline: frame_timeline_.OnEvent(e.ts, e.As<FrameTimelineData>()); break;
    case EventType::kAndroidInputEvent:
      input_events_.OnEvent(e.ts, e.As<AndroidInputEventData>());
      break;
    case EventType::kGpuMemTotal: gpu_memory_.OnPacketEvent(e.ts, e.gpu_mem_total); break;
    case EventType::kGraphicsFrameEvent:
      graphics_frames_.OnEvent(e.ts, e.As<GraphicsFrameEventData>());
      break;
    case EventType::kGpuEvent: ctx_->gpus->OnEvent(e.ts, e.As<GpuEventData>()); break;
    case EventType::kGpuStage: ctx_->gpu_stages->OnEvent(e.ts, e.As<GpuStageData>()); break;
    case EventType::kAndroidCpuPerUidTotals:
      cpu_per_uid_totals_ = std::move(e.As<AndroidCpuPerUidTotalsData>());
      break;
    case EventType::kWinscope: winscope_.OnEvent(e.ts, e.As<WinscopeData>()); break;
    case EventType::kStateChange: OnStateChange(e.ts, e.As<StateChangeData>()); break;
    case EventType::kGlobalSlice: OnGlobalSlice(e.ts, e.As<GlobalSliceData>()); break;
    case EventType::kProtoLog: protolog_.OnEvent(e.ts, e.As<ProtoLogData>()); break;
    case EventType::kGenericTaskState: generic_kernel_.OnTaskState(e.ts, e.cpu, e.generic_task); break;
    case EventType::kGenericTaskRename: generic_kernel_.OnTaskRename(e.generic_task); break;
    case EventType::kGenericProcessTree:
      generic_kernel_.OnProcessTree(e.As<GenericProcessTreeData>());
      break;
    case EventType::kNetworkPacket: network_packets_.OnEvent(e.ts, e.As<NetworkPacketData>()); break;
    case EventType::kAndroidProcessLifecycle:
      framework_processes_.OnEvent(e.ts, e.As<AndroidProcessLifecycleData>());
      break;
    case EventType::kIrqEnter:
    case EventType::kIrqExit:
    case EventType::kSoftIrqEnter:
    case EventType::kSoftIrqExit:
      ctx_->sched.Cpu(e.cpu);
      ctx_->irqs.OnEvent(e);
      break;
    case EventType::kSysEnter:
    case EventType::kSysExit: {
      const uint32_t utid = ctx_->processes.GetOrCreateThread(e.pid);
      if (e.type == EventType::kSysEnter) {
        ctx_->syscalls.Enter(e.ts, utid, e.syscall.number);
      } else {
        ctx_->syscalls.Exit(e.ts, utid, e.syscall.number);
      }
      break;
    }
  }
  ctx_->tracks.set_machine(0);  // tracks made outside an event (at the end) are the host's
}

void EventRouter::OnSchedSwitch(const Event& e) {
  const SchedSwitchData& s = e.sched_switch;
  storage_->ExtendBounds(e.ts);
  if (e.compact) {
    ctx_->sched.PushCompactSchedSwitch(e.ts, e.cpu, s.prev_state, s.next_pid, s.next_comm,
                                       s.next_prio);
  } else {
    ctx_->sched.PushSchedSwitch(e.ts, e.cpu, s.prev_pid, s.prev_comm, s.prev_prio, s.prev_state,
                                s.next_pid, s.next_comm, s.next_prio);
  }
}

void EventRouter::OnSchedWaking(const Event& e) {
  const SchedWakingData& w = e.sched_waking;
  if (w.raw_row) {
    ctx_->sched.AddPlainWakingRow(
        e.ts, e.cpu, e.pid, w.comm, w.pid, w.prio,
        w.raw_row == 2 ? std::optional<int32_t>(w.success) : std::nullopt, w.target_cpu);
  }
  storage_->ExtendBounds(e.ts);
  // Only sched_waking moves a thread to runnable in thread_state, as in trace_processor:
  // sched_wakeup(_new) are kept in ftrace_event only.
  if (w.subtype != 0) return;
  if (e.compact) {
    ctx_->sched.PushCompactWaking(e.ts, e.cpu, w.pid, w.comm, w.target_cpu, w.prio,
                                  w.has_common_flags ? w.common_flags : 0);
  } else {
    ctx_->sched.PushWaking(e.ts, w.pid, w.comm, e.pid);
  }
}

void EventRouter::OnTask(const Event& e) {
  ProcessTracker& p = ctx_->processes;
  const TaskData& t = e.task;
  switch (e.type) {
    case EventType::kTaskNewtask: {
      constexpr uint32_t kCloneThread = 0x00010000;
      if (t.pid == 0) return;  // the idle task of a cpu being brought up
      if ((t.clone_flags & kCloneThread) == 0) {
        const uint32_t upid =
            p.StartNewProcess(e.ts, std::nullopt, t.pid, t.comm, ThreadNamePriority::kFtrace);
        const uint32_t source = p.GetOrCreateThread(e.pid);
        const uint32_t child = p.GetOrCreateThread(t.pid);
        p.AssociateCreatedProcessToParentThread(upid, source);
        ctx_->sched.PushNewTask(e.ts, child, source);
        return;
      }
      const uint32_t source = p.GetOrCreateThread(e.pid);
      const uint32_t child = p.StartNewThread(e.ts, t.pid);
      p.UpdateThreadName(child, t.comm, ThreadNamePriority::kFtrace);
      p.AssociateThreads(source, child);
      ctx_->sched.PushNewTask(e.ts, child, source);
      return;
    }
    case EventType::kTaskRename: {
      const uint32_t utid = p.GetOrCreateThread(t.pid);
      p.UpdateThreadNameAndMaybeProcessName(utid, t.comm, ThreadNamePriority::kFtrace);
      return;
    }
    case EventType::kThreadName: {
      const uint32_t utid = p.GetOrCreateThread(t.pid);
      p.UpdateThreadName(utid, t.comm, ThreadNamePriority::kFtrace);
      return;
    }
    case EventType::kProcessExit:
      // Informational only (its ftrace_event row is written like any event's): the thread ends
      // when its task struct is freed, and the comm it carries names nothing, as in
      // trace_processor — a thread seen only by its exit keeps no name.
      return;
    case EventType::kProcessFree:
      p.EndThread(e.ts, t.pid);
      return;
    default:
      return;
  }
}

void EventRouter::OnCpuCounter(const Event& e) {
  const bool freq = e.type == EventType::kCpuFrequency;
  const uint32_t cpu = e.cpu_counter.cpu;
  if (e.ftrace_row) WriteCpuCounterFtraceRow(e, freq);
  ctx_->sched.Cpu(cpu);
  // The cache holds the host's tracks only: a remote machine's cpu N has its own track.
  uint32_t track = UINT32_MAX;
  uint32_t* cached = nullptr;
  if (e.machine == 0) {
    std::vector<uint32_t>& tracks = cpu_counter_tracks_[freq ? 0 : 1];
    if (cpu >= tracks.size()) tracks.resize(cpu + 1, UINT32_MAX);
    cached = &tracks[cpu];
    track = *cached;
  }
  if (track == UINT32_MAX) {
    track = ctx_->tracks.InternCpuCounterTrack(cpu, freq ? cpufreq_ : cpuidle_,
                                               freq ? "cpu_frequency" : "cpu_idle");
    if (cached) *cached = track;
  }
  storage_->counter.Insert({.ts = e.ts, .track_id = track, .value = e.cpu_counter.value});
  storage_->ExtendBounds(e.ts);
}

uint32_t EventRouter::AtraceUtid(const AtraceData& a) {
  if (a.tgid == 0) return ctx_->processes.GetOrCreateThread(a.tid);
  return ctx_->processes.UpdateThread(a.tid, a.tgid);
}

void EventRouter::OnAtrace(int64_t ts, const AtraceData& a) {
  ProcessTracker& p = ctx_->processes;
  SliceTracker& slices = ctx_->slices;
  TrackTracker& tracks = ctx_->tracks;
  storage_->ExtendBounds(ts);
  if (auto writer = p.GetThreadOrNull(a.tid)) ctx_->syscalls.MaybeTruncateOngoingWrite(ts, *writer);
  switch (a.kind) {
    case 'B': {
      const uint32_t utid = AtraceUtid(a);
      slices.Begin(ts, tracks.InternThreadTrack(utid), a.category, a.name, a.args);
      return;
    }
    case 'E': {
      uint32_t utid;
      if (a.tgid == 0) {
        const std::optional<uint32_t> found = p.GetThreadOrNull(a.tid);
        if (!found) return;
        utid = *found;
      } else {
        utid = p.UpdateThread(a.tid, a.tgid);
      }
      slices.End(ts, tracks.InternThreadTrack(utid), kNullStringId, kNullStringId, a.args);
      return;
    }
    case 'S':
    case 'F': {
      const uint32_t upid = p.GetOrCreateProcess(a.tgid);
      if (a.kind == 'S') {
        const uint32_t track = atrace_async_.AsyncSliceTrack(upid, a.name, a.cookie,
                                                             AtraceAsyncTracks::Use::kBegin);
        std::vector<Arg> args = a.args;
        args.push_back(ctx_->args.MakeArg("cookie", ArgValue::Int(a.cookie)));
        slices.BeginLegacyUnnestable(ts, track, a.name, args);
      } else {
        const uint32_t track = atrace_async_.AsyncSliceTrack(upid, a.name, a.cookie,
                                                             AtraceAsyncTracks::Use::kEnd);
        slices.End(ts, track, kNullStringId, kNullStringId, {});
      }
      return;
    }
    case 'I': {
      const uint32_t utid = AtraceUtid(a);
      slices.Scoped(ts, tracks.InternThreadTrack(utid), kNullStringId, a.name, 0, a.args);
      return;
    }
    case 'N':
    case 'G':
    case 'H': {
      // Device state changes get a global track of their own.
      if (a.kind == 'N' && storage_->Str(a.track_name) == "DeviceStateChanged") {
        slices.Scoped(ts, atrace_async_.DeviceStateTrack(), kNullStringId, a.name, 0, {});
        return;
      }
      const uint32_t upid = p.GetOrCreateProcess(a.tgid);
      const uint32_t utid = p.GetOrCreateThread(a.tid);
      using Use = AtraceAsyncTracks::Use;
      if (a.kind == 'N') {
        const uint32_t track = atrace_async_.ForTrackInstant(upid, a.track_name, ts);
        slices.Scoped(ts, track, kNullStringId, a.name, 0,
                      {ctx_->args.MakeArg("utid", ArgValue::Uint(utid))});
      } else if (a.kind == 'G') {
        const uint32_t track = atrace_async_.ForTrack(upid, a.track_name, a.cookie, Use::kBegin);
        slices.Begin(ts, track, kNullStringId, a.name,
                     {ctx_->args.MakeArg("utid", ArgValue::Uint(utid))});
      } else {
        const uint32_t track = atrace_async_.ForTrack(upid, a.track_name, a.cookie, Use::kEnd);
        slices.End(ts, track, kNullStringId, kNullStringId,
                   {ctx_->args.MakeArg("end_utid", ArgValue::Uint(utid))});
      }
      return;
    }
    case 'C': {
      if (storage_->Str(a.name) == "ScreenState") {
        const uint32_t track =
            tracks.InternGlobalCounterTrack(storage_->Intern("ScreenState"), "screen_state");
        storage_->counter.Insert({.ts = ts, .track_id = track, .value = a.value});
        return;
      }
      // Battery stats counters are global, one track per counter (shared with the
      // debug.tracing.battery_stats.* system properties).
      if (const std::string_view name = storage_->Str(a.name);
          name.substr(0, 14) == "battery_stats.") {
        const uint32_t track = tracks.InternGlobalCounterTrack(
            a.name, "battery_stats", kNullStringId, {tracks.DimString("counter_key", a.name)});
        storage_->counter.Insert({.ts = ts, .track_id = track, .value = a.value});
        return;
      }
      const uint32_t upid = p.GetOrCreateProcess(a.tgid);
      const std::optional<uint32_t> utid = p.GetThreadOrNull(a.tid);
      const uint32_t track = tracks.InternProcessCounterTrack(upid, a.name, "atrace_counter",
                                                              kNullStringId,
                                                              {tracks.DimString("name", a.name)});
      const uint32_t row =
          storage_->counter.Insert({.ts = ts, .track_id = track, .value = a.value});
      if (utid) {
        if (auto set = ctx_->args.AddArgSet({ctx_->args.MakeArg("utid", ArgValue::Uint(*utid))})) {
          storage_->counter.arg_set_id.Set(row, *set);
        }
      }
      return;
    }
    default:
      return;
  }
}

// The ftrace_event row a cpu_frequency / cpu_idle event would have had through OnFtraceRaw:
// the same thread and cpu bookkeeping, args state and cpu_id as the descriptor decodes them.
// (No other tracker watches these two names.)
void EventRouter::WriteCpuCounterFtraceRow(const Event& e, bool freq) {
  if (state_key_ == kNullStringId) {
    state_key_ = storage_->Intern("state");
    cpu_id_key_ = storage_->Intern("cpu_id");
    cpu_frequency_name_ = storage_->Intern("cpu_frequency");
    cpu_idle_name_ = storage_->Intern("cpu_idle");
  }
  const uint32_t utid = ctx_->processes.GetOrCreateThread(e.pid);
  ctx_->sched.Cpu(e.cpu);
  const CpuCounterData& c = e.cpu_counter;
  const uint64_t state = static_cast<uint64_t>(c.value);
  // A trace repeats few (state, cpu) pairs: their arg set is looked up once.
  auto [it, inserted] =
      cpu_counter_arg_sets_.try_emplace((state << 11) | (uint64_t{c.cpu} << 1) | freq);
  if (inserted) {
    it->second = ctx_->args.AddArgSet({Arg{state_key_, state_key_, ArgValue::Uint(state)},
                                       Arg{cpu_id_key_, cpu_id_key_, ArgValue::Uint(c.cpu)}});
  }
  storage_->ftrace_event.Insert({.ts = e.ts,
                                 .name = freq ? cpu_frequency_name_ : cpu_idle_name_,
                                 .utid = utid,
                                 .arg_set_id = it->second,
                                 .common_flags = 0,  // as every generically stored event (OnFtraceRaw)
                                 .ucpu = e.cpu});
}

void EventRouter::WriteFtraceRawRow(int64_t ts, const FtraceRawData& raw) {
  const uint32_t utid = ctx_->processes.GetOrCreateThread(raw.pid);
  ctx_->sched.Cpu(raw.cpu);
  if (raw.in_table) {
    // trace_processor leaves common_flags at 0 for every event it stores generically.
    storage_->ftrace_event.Insert({.ts = ts,
                                   .name = raw.name,
                                   .utid = utid,
                                   .arg_set_id = ctx_->args.AddArgSet(raw.args),
                                   .common_flags = 0,
                                   .ucpu = raw.cpu});
  }
  storage_->ExtendBounds(ts);
}

void EventRouter::OnFtraceRaw(int64_t ts, const FtraceRawData& raw) {
  WriteFtraceRawRow(ts, raw);
  if (!raw.to_trackers) return;
  binder_.OnFtraceEvent(ts, raw);
  clock_rates_.OnFtraceEvent(ts, raw);
  suspend_resume_.OnFtraceEvent(ts, raw);
  gpu_memory_.OnFtraceEvent(ts, raw);
  v4l2_.OnFtraceEvent(ts, raw);
  drm_.OnFtraceEvent(ts, raw);
  virtio_.OnFtraceEvent(ts, raw);
  kernel_events_.OnFtraceEvent(ts, raw);
  cma_allocs_.OnFtraceEvent(ts, raw);
  ufs_commands_.OnFtraceEvent(ts, raw);
  pkvm_hypervisor_.OnFtraceEvent(ts, raw);
}

// The print event's kFtraceRaw twin, rebuilt from its inline fields: the args the print
// descriptor gives (ip as uint, buf as string), then everything OnFtraceRaw does.
void EventRouter::OnFtracePrint(const Event& e) { OnFtraceRaw(e.ts, PrintRaw(e)); }

const FtraceRawData& EventRouter::PrintRaw(const Event& e) {
  if (ip_key_ == kNullStringId) {
    ip_key_ = storage_->Intern("ip");
    buf_key_ = storage_->Intern("buf");
    print_raw_.name = storage_->Intern("print");
  }
  print_raw_.cpu = e.cpu;
  print_raw_.pid = e.pid;
  print_raw_.common_flags = e.print.common_flags;
  print_raw_.args.clear();
  print_raw_.args.push_back(Arg{ip_key_, ip_key_, ArgValue::Uint(e.print.ip)});
  print_raw_.args.push_back(Arg{buf_key_, buf_key_, ArgValue::String(e.print.buf)});
  return print_raw_;
}

namespace {

// Whether `e` stands for its ftrace event's ftrace_event row. One ftrace event may be pushed as
// several events (a print's row and its atrace marker, a generic row and the typed event a
// tracker reads): exactly one of them carries the row.
bool CarriesFtraceRow(const Event& e) {
  switch (e.type) {
    case EventType::kFtraceRaw:
    case EventType::kFtracePrint:
    case EventType::kSchedSwitch:
      return true;
    case EventType::kSchedWaking:
      return e.compact || e.sched_waking.raw_row != 0;
    case EventType::kCpuFrequency:
    case EventType::kCpuIdle:
      return e.ftrace_row != 0;
    default:
      return false;
  }
}

}  // namespace

// An ftrace event FtraceDropWindow does not keep whole: dropped, or only its ftrace_event row.
void EventRouter::RouteEarlyFtrace(const Event& e, FtraceDropWindow::Verdict verdict) {
  if (verdict == FtraceDropWindow::Verdict::kDrop) {
    if (CarriesFtraceRow(e)) storage_->IncrementStat("ftrace_packet_before_tracing_start");
    return;
  }
  switch (e.type) {
    case EventType::kSchedSwitch: {
      // A plain switch's row is written with its slice, so it has none here (as in
      // trace_processor); a compact one keeps its row and who now runs on the cpu.
      const SchedSwitchData& s = e.sched_switch;
      if (e.compact) {
        ctx_->sched.PushCompactSchedSwitchRawOnly(e.ts, e.cpu, s.prev_state, s.next_pid,
                                                  s.next_comm, s.next_prio);
      }
      return;
    }
    case EventType::kSchedWaking: {
      const SchedWakingData& w = e.sched_waking;
      if (w.raw_row) {
        ctx_->sched.AddPlainWakingRow(
            e.ts, e.cpu, e.pid, w.comm, w.pid, w.prio,
            w.raw_row == 2 ? std::optional<int32_t>(w.success) : std::nullopt, w.target_cpu);
      } else if (e.compact && w.subtype == 0) {
        ctx_->sched.PushCompactWaking(e.ts, e.cpu, w.pid, w.comm, w.target_cpu, w.prio,
                                      w.has_common_flags ? w.common_flags : 0,
                                      /*derive=*/false);
      }
      return;
    }
    case EventType::kFtraceRaw:
      WriteFtraceRawRow(e.ts, e.As<FtraceRawData>());
      return;
    case EventType::kFtracePrint:
      WriteFtraceRawRow(e.ts, PrintRaw(e));
      return;
    case EventType::kCpuFrequency:
    case EventType::kCpuIdle:
      if (e.ftrace_row) WriteCpuCounterFtraceRow(e, e.type == EventType::kCpuFrequency);
      return;
    default:
      // What the trackers derive from an event (atrace slices, task lifecycles, irqs,
      // syscalls, blocked reasons): its row, if any, is its kFtraceRaw twin's.
      return;
  }
}

void EventRouter::OnProcessTree(int64_t ts, const ProcessTreeData& tree) {
  ProcessTracker& p = ctx_->processes;
  auto truncate_kworker = [](std::string_view comm) {
    if (comm.substr(0, 8) == "kworker/") {
      const size_t plus = comm.find('+', 8);
      const size_t minus = comm.find('-', 8);
      const size_t cut = std::min(plus, minus);
      if (cut != std::string_view::npos) return comm.substr(0, cut);
    }
    return comm;
  };
  std::vector<int32_t> kthread_pids;
  for (const ProcessTreeData::Process& proc : tree.processes) {
    if (proc.cmdline.empty()) continue;  // no cmdline field at all: nothing to learn
    std::string_view argv0 = proc.cmdline[0];
    std::string joined;
    bool joined_set = false;
    constexpr int32_t kKthreaddPid = 2;
    if (proc.ppid == kKthreaddPid) {
      kthread_pids.push_back(proc.pid);
      const std::string_view truncated = truncate_kworker(argv0);
      if (truncated.size() != argv0.size()) {
        argv0 = truncated;
        joined = std::string(argv0);
        joined_set = true;
      }
    }
    if (proc.cmdline.size() == 1) {
      const size_t space = argv0.find(' ');
      if (space != std::string_view::npos) argv0 = argv0.substr(0, space);
    }
    if (!joined_set) {
      for (size_t i = 0; i < proc.cmdline.size(); ++i) {
        if (i) joined.push_back(' ');
        joined += proc.cmdline[i];
      }
    }
    const uint32_t parent = p.GetOrCreateProcess(proc.ppid);
    const uint32_t upid = p.GetOrCreateProcess(proc.pid);
    p.SetProcessParent(upid, parent);
    p.SetProcessMetadata(upid, argv0, joined);
    if (proc.cmdline_is_comm) {
      const uint32_t utid = p.GetOrCreateThread(proc.pid);
      p.UpdateThreadName(utid, storage_->Intern(joined), ThreadNamePriority::kProcessTree);
    }
    if (proc.uid) p.SetProcessUid(upid, *proc.uid);
    if (proc.process_start_from_boot) p.SetStartTsIfUnset(upid, *proc.process_start_from_boot);
    if (proc.is_kthread) {
      process_args_[upid].push_back(
          ctx_->args.MakeArg("is_kthread", ArgValue::Bool(*proc.is_kthread)));
    }
  }
  for (const ProcessTreeData::Thread& thread : tree.threads) {
    p.UpdateThread(thread.tid, thread.tgid);
    if (thread.name) {
      std::string_view name = *thread.name;
      if (thread.tid == thread.tgid &&
          std::find(kthread_pids.begin(), kthread_pids.end(), thread.tid) != kthread_pids.end()) {
        name = truncate_kworker(name);
      }
      const uint32_t utid = p.GetOrCreateThread(thread.tid);
      p.UpdateThreadName(utid, storage_->Intern(name), ThreadNamePriority::kProcessTree);
    }
  }
  (void)ts;
}

void EventRouter::OnCounter(int64_t ts, const CounterData& c) {
  TrackTracker& tracks = ctx_->tracks;
  const std::string_view type = storage_->Str(c.type);
  uint32_t track = 0;
  switch (c.scope) {
    case CounterData::Scope::kGlobal:
      track = tracks.InternGlobalCounterTrack(c.name, type, c.unit, c.dimension_args);
      break;
    case CounterData::Scope::kCpu:
      ctx_->sched.Cpu(static_cast<uint32_t>(c.scope_id));
      track = tracks.InternCpuCounterTrack(static_cast<uint32_t>(c.scope_id), c.name, type,
                                             c.unit, c.dimension_args);
      break;
    case CounterData::Scope::kProcess:
      track = tracks.InternProcessCounterTrack(ctx_->processes.GetOrCreateProcess(c.scope_id),
                                               c.name, type, c.unit, c.dimension_args);
      break;
    case CounterData::Scope::kThread:
      track = tracks.InternThreadCounterTrack(ctx_->processes.GetOrCreateThread(c.scope_id),
                                              c.name, type, c.unit, c.dimension_args);
      break;
    case CounterData::Scope::kTrack:
      ctx_->track_events->OnTrackCounter(ts, static_cast<uint64_t>(c.scope_id), c.value);
      return;
  }
  if (!c.track_args.empty() && storage_->track.source_arg_set_id.IsNull(track)) {
    if (auto set = ctx_->args.AddArgSet(c.track_args)) {
      storage_->track.source_arg_set_id.Set(track, *set);
    }
  }
  if (c.declare_only) return;
  storage_->counter.Insert(
      {.ts = ts, .track_id = track, .value = c.value, .arg_set_id = ctx_->args.AddArgSet(c.args)});
  storage_->ExtendBounds(ts);
}

void EventRouter::OnStateChange(int64_t ts, const StateChangeData& change) {
  const uint32_t track =
      ctx_->tracks.InternTrack(change.track_type, "state", change.track_name, change.dimensions);
  states_.Update(ts, track, change.value, kNullStringId, change.args);
  if (change.terminal) states_.Update(ts, track, kNullStringId, kNullStringId, {});
}

void EventRouter::WriteCpuPerUidTotals(const AndroidCpuPerUidTotalsData& totals) {
  // Rows in track order, each on the counter track its samples went to.
  std::vector<std::pair<uint32_t, const AndroidCpuPerUidTotalsData::Row*>> rows;
  TrackTracker& tracks = ctx_->tracks;
  for (const AndroidCpuPerUidTotalsData::Row& r : totals.rows) {
    const StringId name = storage_->Intern("CPU for UID " + std::to_string(r.uid) + " CL" +
                                           std::to_string(r.cluster));
    const uint32_t track = tracks.InternGlobalCounterTrack(
        name, "android_cpu_per_uid", storage_->Intern("ms"),
        {tracks.DimUint("uid", r.uid), tracks.DimUint("cluster", r.cluster)});
    rows.emplace_back(track, &r);
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [track, r] : rows) {
    storage_->android_cpu_per_uid_track.Insert({.track_id = track,
                                                .uid = r->uid,
                                                .cluster = r->cluster,
                                                .total_cpu_millis = r->total_cpu_millis});
  }
}

void EventRouter::OnGlobalSlice(int64_t ts, const GlobalSliceData& slice) {
  const uint32_t set = global_slices_.SetFor(slice.track_type + '\0' +
                                             std::string(storage_->Str(slice.track_name)));
  auto factory = [&](uint32_t, int64_t) {
    return ctx_->tracks.CreateTrack(slice.track_name, slice.track_type, "slice");
  };
  if (slice.phase == GlobalSliceData::Phase::kBegin) {
    const uint32_t track = global_slices_.Begin(set, slice.cookie, factory);
    ctx_->slices.Begin(ts, track, kNullStringId, slice.name, {});
  } else {
    const uint32_t track = global_slices_.End(set, slice.cookie, factory);
    ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
  }
  storage_->ExtendBounds(ts);
}

void EventRouter::OnAndroidLog(int64_t ts, const AndroidLogData& log) {
  LogTable& logs = storage_->logs;
  std::optional<uint32_t> utid;
  if (log.tid > 0) {
    utid = log.pid > 0 ? ctx_->processes.UpdateThread(log.tid, log.pid)
                       : ctx_->processes.GetOrCreateThread(log.tid);
  }
  logs.Insert({.ts = ts,
               .utid = utid,
               .prio = log.prio,
               .log_source = storage_->Intern("android_logcat"),
               .tag = log.tag,
               .msg = log.msg,
               .arg_set_id = ctx_->args.AddArgSet(log.args)});
  storage_->ExtendBounds(ts);
}

void EventRouter::Finish() {
  ctx_->json_events->FlushBefore(INT64_MAX);  // the last timestamp's JSON events, in order
  for (auto& [upid, args] : process_args_) {
    if (auto set = ctx_->args.AddArgSet(args)) storage_->process.arg_set_id.Set(upid, *set);
  }
  process_args_.clear();
  ctx_->track_events->Finish();
  ctx_->json_events->Finish();
  ctx_->slices.Finish();  // after the trackers that may still add args to open slices
  // Counters emitted by threads for their process find their tracks last, once every
  // thread's process is known.
  ctx_->process_counters.Finish();
  winscope_.Finish();
  WriteCpuPerUidTotals(cpu_per_uid_totals_);
  // Deobfuscation names what the whole trace holds, so it waits for every heap dump.
  heap_graphs_.Finish();
  DeobfuscateHeapGraphs(ctx_->deobfuscation_mappings, heap_graphs_, storage_);
}

}  // namespace tw

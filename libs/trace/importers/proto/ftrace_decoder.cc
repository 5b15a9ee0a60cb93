#include "libs/trace/importers/proto/ftrace_decoder.h"

#include "libs/trace/importers/common/atrace_parser.h"
#include "libs/trace/importers/proto/ftrace_descriptors.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

namespace bundle_f = pf::ftrace_event_bundle;
namespace event_f = pf::ftrace_event;
namespace cs = pf::compact_sched;

// Field numbers of the events decoded specially (wire-format facts of Perfetto's ftrace protos).
namespace task_newtask { constexpr uint32_t kPid = 1, kComm = 2, kCloneFlags = 3; }
namespace task_rename { constexpr uint32_t kPid = 1, kNewComm = 3; }
namespace process_exit { constexpr uint32_t kComm = 1, kPid = 2, kTgid = 3; }
namespace process_free { constexpr uint32_t kPid = 2; }
namespace blocked_reason { constexpr uint32_t kPid = 1, kCaller = 2, kIoWait = 3; }

// Fields holding a kernel function's address, shown as the function's name when the trace
// interned its kernel symbols (event field number in FtraceEvent, field number in the event).
struct KernelFunctionField {
  uint32_t event_id;
  uint32_t field_id;
};
constexpr KernelFunctionField kKernelFunctionFields[] = {
    {event_f::kSchedBlockedReason, 2},  // caller
    {59, 2},                            // workqueue_queue_work.function
    {56, 2},                            // workqueue_activate_work.function
    {event_f::kWorkqueueExecuteStart, 2},
    {event_f::kWorkqueueExecuteEnd, 2},
    {437, 2},  // funcgraph_entry.func
    {438, 3},  // funcgraph_exit.func
    {443, 8},  // mm_shrink_slab_start.shrink
    {553, 3},  // hrtimer_expire_entry.function
};

// Events whose own parser in trace_processor names the function again from the kernel symbols
// (sched_blocked_reason's caller, a workqueue item's function, funcgraph's func, a shrinker, an
// hrtimer's function), whether or not the field is present.
constexpr KernelFunctionField kKernelFunctionParsers[] = {
    {event_f::kSchedBlockedReason, 2},
    {event_f::kWorkqueueExecuteStart, 2},
    {437, 2},
    {438, 3},
    {443, 8},
    {553, 3},
};

// True for the events of either list above: one table lookup per event instead of two scans,
// since every ftrace event asks.
bool IsKernelFunctionEvent(uint32_t event_id) {
  static const std::vector<bool> kEvents = [] {
    std::vector<bool> events;
    auto add = [&events](const KernelFunctionField& k) {
      if (k.event_id >= events.size()) events.resize(k.event_id + 1);
      events[k.event_id] = true;
    };
    for (const KernelFunctionField& k : kKernelFunctionFields) add(k);
    for (const KernelFunctionField& k : kKernelFunctionParsers) add(k);
    return events;
  }();
  return event_id < kEvents.size() && kEvents[event_id];
}

bool IsKernelFunctionField(uint32_t event_id, uint32_t field_id) {
  for (const KernelFunctionField& k : kKernelFunctionFields) {
    if (k.event_id == event_id && k.field_id == field_id) return true;
  }
  return false;
}
namespace cpu_counter { constexpr uint32_t kState = 1, kCpuId = 2; }
namespace zero_event { constexpr uint32_t kFlag = 1, kName = 2, kPid = 3, kValue = 4; }

constexpr uint32_t kMaxCpus = 1024;

// True when `payload` is exactly state (1) then cpu_id (2), both 32-bit varints, with cpu_id a
// cpu we track: then `out` says all its ftrace_event args would.
bool DecodeCanonicalCpuCounter(const proto::Field& payload, CpuCounterData* out) {
  proto::Decoder d(payload);
  proto::Field f;
  uint32_t expect = cpu_counter::kState;
  while (d.Next(&f)) {
    if (f.id != expect || f.type != proto::kVarint || f.int_value > UINT32_MAX) return false;
    if (f.id == cpu_counter::kState) out->value = static_cast<double>(f.int_value);
    else out->cpu = static_cast<uint32_t>(f.int_value);
    if (++expect > cpu_counter::kCpuId + 1) return false;
  }
  return !d.error() && expect == cpu_counter::kCpuId + 1 && out->cpu < kMaxCpus;
}

// The usual print payload: ip (1) then buf (2), once each, as atrace writes its markers. Its
// ftrace_event row's args (ip as uint, buf as string, as the descriptor decodes them) then
// follow from the two values and the row travels inline (FtracePrintData).
bool DecodeCanonicalPrint(const proto::Field& payload, uint64_t* ip, std::string_view* buf) {
  namespace pr = pf::print_ftrace_event;
  proto::Decoder d(payload);
  proto::Field f;
  uint32_t expect = pr::kIp;
  while (d.Next(&f)) {
    if (f.id != expect) return false;
    if (f.id == pr::kIp) {
      if (f.type != proto::kVarint) return false;
      *ip = f.int_value;
    } else {
      if (f.type != proto::kLengthDelimited) return false;
      *buf = f.as_string();
    }
    ++expect;
  }
  return !d.error() && expect == pr::kBuf + 1;
}

// The usual sched_waking payload: comm, pid, prio, optionally success (0..255), target_cpu,
// once each in field order, the integers within int32. Its ftrace_event row's args (comm as a
// string, the rest as ints, in that order, as the descriptor decodes them) then follow from
// the typed fields, and the trackers write the row without a kFtraceRaw twin.
bool DecodeCanonicalWaking(const proto::Field& payload, SchedWakingData* w,
                           std::string_view* comm) {
  namespace sw = pf::sched_waking_ftrace_event;
  proto::Decoder d(payload);
  proto::Field f;
  uint32_t last = 0;
  uint32_t seen = 0;
  bool has_success = false;
  while (d.Next(&f)) {
    if (f.id <= last || f.id > sw::kTargetCpu) return false;
    last = f.id;
    seen |= 1u << f.id;
    if (f.id == sw::kComm) {
      if (f.type != proto::kLengthDelimited) return false;
      *comm = f.as_string();
      continue;
    }
    if (f.type != proto::kVarint) return false;
    const int64_t v = f.as_int64();
    if (v < INT32_MIN || v > INT32_MAX) return false;
    switch (f.id) {
      case sw::kPid: w->pid = static_cast<int32_t>(v); break;
      case sw::kPrio: w->prio = static_cast<int32_t>(v); break;
      case sw::kSuccess:
        if (v < 0 || v > 255) return false;
        w->success = static_cast<uint8_t>(v);
        has_success = true;
        break;
      default: w->target_cpu = static_cast<int32_t>(v); break;
    }
  }
  // Every field but success present: comm, pid, prio and target_cpu.
  constexpr uint32_t kRequired =
      (1u << sw::kComm) | (1u << sw::kPid) | (1u << sw::kPrio) | (1u << sw::kTargetCpu);
  if (d.error() || (seen & kRequired) != kRequired) return false;
  w->raw_row = has_success ? 2 : 1;
  return true;
}

}  // namespace

FtraceDecoder::FtraceDecoder(ImportContext* ctx) : ctx_(ctx) {}

void FtraceDecoder::Count(uint32_t event_id) {
  if (event_id >= 4096) return;
  if (event_id >= counts_.size()) counts_.resize(event_id + 1);
  ++counts_[event_id];
}

const std::vector<std::pair<std::string_view, int64_t>> FtraceDecoder::EventCounts() const {
  std::vector<std::pair<std::string_view, int64_t>> out;
  for (uint32_t id = 0; id < counts_.size(); ++id) {
    if (!counts_[id]) continue;
    const FtraceEventDescriptor* d = FindFtraceEventDescriptor(id);
    out.emplace_back(d ? d->name : std::string_view("unknown"), counts_[id]);
  }
  return out;
}

void FtraceDecoder::DecodeBundle(const PacketContext& packet, const proto::Field& bundle) {
  // Pass 1: bundle-level fields (cpu and clock may follow the events on the wire).
  BundleInfo info;
  bool has_cpu = false;
  int64_t ftrace_clock = 0, ftrace_ts = 0, boot_ts = 0;
  bool has_ftrace_ts = false, has_boot_ts = false;
  // When the data before this bundle was read: v47+ writes previous_bundle_end_timestamp,
  // v44-v46 last_read_event_timestamp (at most one is set).
  std::optional<int64_t> data_start;
  {
    proto::Decoder d(bundle);
    proto::Field f;
    while (d.Next(&f)) {
      switch (f.id) {
        case bundle_f::kCpu: info.cpu = f.as_uint32(); has_cpu = true; break;
        case bundle_f::kFtraceClock: ftrace_clock = f.as_int64(); break;
        case bundle_f::kFtraceTimestamp: ftrace_ts = f.as_int64(); has_ftrace_ts = true; break;
        case bundle_f::kBootTimestamp: boot_ts = f.as_int64(); has_boot_ts = true; break;
        case bundle_f::kLastReadEventTimestamp:
        case bundle_f::kPreviousBundleEndTimestamp:
          data_start = f.as_int64();
          break;
        case bundle_f::kLostEvents:
          if (f.as_bool()) ctx_->storage->SetIndexedStat("ftrace_cpu_has_data_loss", info.cpu, 1);
          break;
        default: break;
      }
    }
    if (d.error()) ctx_->storage->IncrementStat("ftrace_bundle_tokenizer_errors");
  }
  if (!has_cpu || info.cpu >= kMaxCpus) {
    ctx_->storage->IncrementStat("ftrace_bundle_tokenizer_errors");
    return;
  }
  // A non-boot ftrace clock is mapped onto boot time with the pair of readings the bundle
  // carries.
  if (ftrace_clock != 0 && has_ftrace_ts && has_boot_ts) info.clock_offset = boot_ts - ftrace_ts;
  info.sequence = packet.sequence;
  // The trace clock may not be this machine's BOOTTIME (another clock, or a remote machine's
  // clocks): convert through the clock snapshots then.
  if (!ctx_->clocks.IsTraceClock(ClockKey{kBootTimeClock, 0})) {
    if (auto t = ctx_->clocks.ToTraceTime({kBootTimeClock, 0}, 0)) info.clock_offset += *t;
  }

  // A cpu's first bundle says from when its ring buffer's data is complete; the latest such
  // time over a machine's cpus is from when all of them are (trace_processor's metadata).
  if (cpus_seen_.insert((uint64_t{packet.machine} << 32) | info.cpu).second && data_start) {
    const int64_t start = *data_start + info.clock_offset;
    const std::optional<int64_t> latest =
        ctx_->storage->GetMachineMetadataInt(packet.machine, "ftrace_latest_data_start_ns");
    if (!latest || start > *latest) {
      ctx_->storage->SetMachineMetadata(packet.machine, "ftrace_latest_data_start_ns", start);
    }
  }

  // Every event of the bundle goes to its cpu's queue; the sorter orders the bundle's events
  // (compact switches, compact wakings and plain events come one kind after another) so the
  // queue stays sorted across bundles. The compact columns are read first, as trace_processor
  // does: which kind's sorter stream a cpu gets first decides ties between the kinds.
  ctx_->sorter->BeginBatch(EventSorter::QueueForCpu(info.cpu));
  for (const uint32_t wanted : {bundle_f::kCompactSched, bundle_f::kEvent}) {
    proto::Decoder d(bundle);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id != wanted || f.type != proto::kLengthDelimited) continue;
      if (wanted == bundle_f::kEvent) {
        DecodeEvent(info, f);
      } else {
        DecodeCompactSched(info, f);
      }
    }
  }
  ctx_->sorter->EndBatch();
}

std::optional<StringId> FtraceDecoder::KernelSymbol(const BundleInfo& b, uint64_t iid) {
  if (!b.sequence) return std::nullopt;
  const std::string* bytes = b.sequence->Lookup(pf::interned_data::kKernelSymbols, iid);
  if (!bytes) return std::nullopt;
  proto::Decoder d(*bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == pf::interned_string::kStr) return ctx_->Intern(f.as_string());
  }
  return std::nullopt;
}

bool FtraceDecoder::HasKernelSymbol(const BundleInfo& b, uint64_t iid) const {
  return b.sequence && b.sequence->Lookup(pf::interned_data::kKernelSymbols, iid) != nullptr;
}

void FtraceDecoder::CountKernelSymbolMisses(const BundleInfo& b, uint32_t event_id,
                                            const proto::Field& payload) {
  if (!IsKernelFunctionEvent(event_id)) return;
  const KernelFunctionField* parser = nullptr;
  for (const KernelFunctionField& k : kKernelFunctionParsers) {
    if (k.event_id == event_id) parser = &k;
  }
  // trace_processor looks each present kernel-function field up once for the event's
  // ftrace_event args, and once more in the event's own parser (an absent field reads as 0);
  // every lookup of a symbol the trace does not carry counts as an interned data error.
  int64_t misses = 0;
  std::optional<uint64_t> parsed_field;
  proto::Decoder d(payload);
  proto::Field f;
  while (d.Next(&f)) {
    if (parser && f.id == parser->field_id) parsed_field = f.as_uint64();
    if (IsKernelFunctionField(event_id, f.id) && !HasKernelSymbol(b, f.as_uint64())) ++misses;
  }
  if (parser && !HasKernelSymbol(b, parsed_field.value_or(0))) ++misses;
  if (misses) ctx_->storage->IncrementStat("interned_data_tokenizer_errors", misses);
}

void FtraceDecoder::DecodeEvent(const BundleInfo& b, const proto::Field& event) {
  int64_t ts = 0;
  bool has_ts = false;
  int32_t pid = 0;
  uint32_t common_flags = 0;
  proto::Field payload;
  uint32_t event_id = 0;
  proto::Decoder d(event);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == event_f::kTimestamp) {
      ts = static_cast<int64_t>(f.int_value);
      has_ts = true;
    } else if (f.id == event_f::kPid) {
      pid = f.as_int32();
    } else if (f.id == event_f::kCommonFlags) {
      common_flags = f.as_uint32();
    } else if (f.type == proto::kLengthDelimited && event_id == 0) {
      payload = f;
      event_id = f.id;
    }
  }
  if (d.error() || !has_ts) {
    ctx_->storage->IncrementStat("ftrace_bundle_tokenizer_errors");
    return;
  }
  if (event_id == 0) {
    ctx_->storage->IncrementStat("ftrace_missing_event_id");
    return;
  }
  ts += b.clock_offset;
  Count(event_id);
  CountKernelSymbolMisses(b, event_id, payload);
  const uint32_t queue = EventSorter::QueueForCpu(b.cpu);

  auto base_event = [&](EventType type) {
    Event e;
    e.ts = ts;
    e.type = type;
    e.pid = pid;
    e.cpu = static_cast<uint16_t>(b.cpu);
    return e;
  };

  switch (event_id) {
    case event_f::kSchedSwitch: {
      namespace ss = pf::sched_switch_ftrace_event;
      Event e = base_event(EventType::kSchedSwitch);
      SchedSwitchData& s = e.sched_switch;
      s = SchedSwitchData{0, 0, 0, 0, kNullStringId, kNullStringId, 0};
      proto::Decoder pd(payload);
      proto::Field pf_;
      while (pd.Next(&pf_)) {
        switch (pf_.id) {
          case ss::kPrevComm: s.prev_comm = InternComm(pf_.as_string()); break;
          case ss::kPrevPid: s.prev_pid = pf_.as_int32(); break;
          case ss::kPrevPrio: s.prev_prio = static_cast<int16_t>(pf_.as_int32()); break;
          case ss::kPrevState: s.prev_state = static_cast<int32_t>(pf_.as_int64()); break;
          case ss::kNextComm: s.next_comm = InternComm(pf_.as_string()); break;
          case ss::kNextPid: s.next_pid = pf_.as_int32(); break;
          case ss::kNextPrio: s.next_prio = static_cast<int16_t>(pf_.as_int32()); break;
          default: break;
        }
      }
      ctx_->Push(queue, e);
      return;
    }
    case event_f::kSchedWaking:
    case event_f::kSchedWakeup:
    case event_f::kSchedWakeupNew: {
      namespace sw = pf::sched_waking_ftrace_event;
      Event e = base_event(EventType::kSchedWaking);
      SchedWakingData& w = e.sched_waking;
      w = SchedWakingData{0, 0, 0, kNullStringId, static_cast<uint16_t>(common_flags),
                          static_cast<uint8_t>(event_id == event_f::kSchedWaking   ? 0
                                               : event_id == event_f::kSchedWakeup ? 1
                                                                                   : 2),
                          1};
      std::string_view comm;
      if (event_id == event_f::kSchedWaking && DecodeCanonicalWaking(payload, &w, &comm)) {
        w.comm = InternComm(comm);
        ctx_->Push(queue, e);
        return;
      }
      PushRaw(b, ts, pid, common_flags, event_id, payload);
      proto::Decoder pd(payload);
      proto::Field pf_;
      while (pd.Next(&pf_)) {
        switch (pf_.id) {
          case sw::kComm: w.comm = InternComm(pf_.as_string()); break;
          case sw::kPid: w.pid = pf_.as_int32(); break;
          case sw::kPrio: w.prio = pf_.as_int32(); break;
          case sw::kTargetCpu: w.target_cpu = pf_.as_int32(); break;
          default: break;
        }
      }
      ctx_->Push(queue, e);
      return;
    }
    case event_f::kPrint: {
      // Neither the ftrace_event row nor the atrace marker of a usual print needs a heap
      // payload; anything else takes the generic path below.
      uint64_t ip = 0;
      std::string_view buf;
      if (DecodeCanonicalPrint(payload, &ip, &buf)) {
        Event e = base_event(EventType::kFtracePrint);
        // The router names the row and its args; interning those names here, where and in the
        // order the generic path does (event name, ip, the buf value, buf), keeps the string
        // ids, and so the packing of the args columns, as they were.
        if (!print_names_interned_) {
          ctx_->Intern("print");
          ctx_->Intern("ip");
        }
        e.print = FtracePrintData{ip, ctx_->Intern(buf), common_flags};
        if (!print_names_interned_) ctx_->Intern("buf");
        print_names_interned_ = true;
        ctx_->Push(queue, e);
        PushAtrace(ts, b.cpu, pid, buf);
        return;
      }
      break;
    }
    case event_f::kCpuFrequency:
    case event_f::kCpuIdle: {
      // The hot power events: when the payload is exactly (state, cpu_id), both varints in
      // that order, the typed event alone carries the ftrace_event row (state and cpu_id as
      // uint args, as the descriptor decodes them). Anything else takes the generic path.
      Event e = base_event(event_id == event_f::kCpuFrequency ? EventType::kCpuFrequency
                                                              : EventType::kCpuIdle);
      if (DecodeCanonicalCpuCounter(payload, &e.cpu_counter)) {
        e.cpu_counter.common_flags = common_flags;
        e.ftrace_row = 1;
        ctx_->Push(queue, e);
        return;
      }
      break;
    }
    default:
      break;
  }

  if (event_id == event_f::kThermalExynosAcpmBulk) {
    PushSampledAt(b, ts, pid, common_flags, event_id, payload);
    return;
  }
  if (event_id == event_f::kKgslAdrenoCmdbatchRetired) {
    PushAdrenoRetired(b, ts, pid, common_flags, event_id, payload);
    return;
  }
  if (event_id == event_f::kKgslAdrenoCmdbatchSync) OnAdrenoSync(ts, payload);

  // Everything else is kept in ftrace_event with its fields; some kinds also feed trackers.
  PushRaw(b, ts, pid, common_flags, event_id, payload);
  proto::Decoder pd(payload);
  proto::Field p;
  switch (event_id) {
    case event_f::kTaskNewtask:
    case event_f::kTaskRename:
    case event_f::kSchedProcessExit:
    case event_f::kSchedProcessFree: {
      const EventType type = event_id == event_f::kTaskNewtask        ? EventType::kTaskNewtask
                             : event_id == event_f::kTaskRename       ? EventType::kTaskRename
                             : event_id == event_f::kSchedProcessExit ? EventType::kProcessExit
                                                                      : EventType::kProcessFree;
      Event e = base_event(type);
      e.task = TaskData{0, -1, kNullStringId, 0};
      while (pd.Next(&p)) {
        if (type == EventType::kTaskNewtask) {
          if (p.id == task_newtask::kPid) e.task.pid = p.as_int32();
          if (p.id == task_newtask::kComm) e.task.comm = ctx_->Intern(p.as_string());
          if (p.id == task_newtask::kCloneFlags) e.task.clone_flags = static_cast<uint32_t>(p.int_value);
        } else if (type == EventType::kTaskRename) {
          if (p.id == task_rename::kPid) e.task.pid = p.as_int32();
          if (p.id == task_rename::kNewComm) e.task.comm = ctx_->Intern(p.as_string());
        } else if (type == EventType::kProcessExit) {
          if (p.id == process_exit::kPid) e.task.pid = p.as_int32();
          if (p.id == process_exit::kTgid) e.task.tgid = p.as_int32();
          if (p.id == process_exit::kComm) e.task.comm = ctx_->Intern(p.as_string());
        } else if (p.id == process_free::kPid) {
          e.task.pid = p.as_int32();
        }
      }
      ctx_->Push(queue, e);
      return;
    }
    case event_f::kSchedBlockedReason: {
      Event e = base_event(EventType::kSchedBlockedReason);
      // An absent io_wait reads as false; the caller is a function name only when the
      // trace carries its kernel symbols.
      e.blocked = BlockedReasonData{0, 0, kNullStringId};
      while (pd.Next(&p)) {
        if (p.id == blocked_reason::kPid) e.blocked.pid = p.as_int32();
        if (p.id == blocked_reason::kIoWait) e.blocked.io_wait = p.as_uint32() ? 1 : 0;
        if (p.id == blocked_reason::kCaller) {
          if (auto fn = KernelSymbol(b, p.as_uint64())) e.blocked.function = *fn;
        }
      }
      ctx_->Push(queue, e);
      return;
    }
    case event_f::kCpuFrequency:
    case event_f::kCpuIdle: {
      Event e = base_event(event_id == event_f::kCpuFrequency ? EventType::kCpuFrequency
                                                              : EventType::kCpuIdle);
      e.cpu_counter = CpuCounterData{.cpu = b.cpu, .common_flags = 0, .value = 0};
      while (pd.Next(&p)) {
        if (p.id == cpu_counter::kState) e.cpu_counter.value = static_cast<double>(p.as_uint32());
        if (p.id == cpu_counter::kCpuId) e.cpu_counter.cpu = p.as_uint32();
      }
      if (e.cpu_counter.cpu >= kMaxCpus) return;
      ctx_->Push(queue, e);
      return;
    }
    case event_f::kSysEnter:
    case event_f::kSysExit: {
      Event e = base_event(event_id == event_f::kSysEnter ? EventType::kSysEnter
                                                          : EventType::kSysExit);
      e.syscall = SyscallData{-1};
      while (pd.Next(&p)) {
        if (p.id == 1) e.syscall.number = p.as_int64();  // `id` in both events
      }
      ctx_->Push(queue, e);
      return;
    }
    case event_f::kIrqHandlerEntry:
    case event_f::kIrqHandlerExit:
    case event_f::kSoftirqEntry:
    case event_f::kSoftirqExit: {
      const EventType type = event_id == event_f::kIrqHandlerEntry ? EventType::kIrqEnter
                             : event_id == event_f::kIrqHandlerExit ? EventType::kIrqExit
                             : event_id == event_f::kSoftirqEntry   ? EventType::kSoftIrqEnter
                                                                    : EventType::kSoftIrqExit;
      Event e = base_event(type);
      e.irq = IrqData{0, 0, kNullStringId};
      const bool is_irq = type == EventType::kIrqEnter || type == EventType::kIrqExit;
      while (pd.Next(&p)) {
        // irq_handler_*: irq = 1, name = 2 (entry) / ret = 2 (exit); softirq_*: vec = 1.
        if (p.id == 1) e.irq.number = p.as_int32();
        if (is_irq && p.id == 2) {
          if (type == EventType::kIrqEnter) e.irq.name = ctx_->Intern(p.as_string());
          else e.irq.ret = p.as_int32();
        }
      }
      ctx_->Push(queue, e);
      return;
    }
    case event_f::kPrint:
      while (pd.Next(&p)) {
        if (p.id == pf::print_ftrace_event::kBuf) PushAtrace(ts, b.cpu, pid, p.as_string());
      }
      return;
    case event_f::kZero:
    case event_f::kMdssTracingMarkWrite:
    case event_f::kSdeTracingMarkWrite:
    case event_f::kDpuTracingMarkWrite:
    case event_f::kG2dTracingMarkWrite:
    case event_f::kMaliTracingMarkWrite:
      PushAtraceKernelMark(ts, b.cpu, pid, payload, event_id);
      return;
    default:
      return;
  }
}

void FtraceDecoder::PushAtrace(int64_t ts, uint32_t cpu, int32_t pid, std::string_view text) {
  AtraceMarker m;
  switch (ParseAtraceMarker(text, &m)) {
    case AtraceParseResult::kFailure:
      ctx_->storage->IncrementStat("systrace_parse_failure");
      return;
    case AtraceParseResult::kUnsupported:
      return;
    case AtraceParseResult::kSuccess:
      break;
  }
  // A marker's text says all there is (no category, no args): it travels inline.
  Event e;
  e.ts = ts;
  e.type = EventType::kAtrace;
  const StringId name = m.name.empty() ? kNullStringId : ctx_->Intern(m.name);
  const StringId track_name = m.track_name.empty() ? kNullStringId : ctx_->Intern(m.track_name);
  e.atrace_mark = AtraceMarkData{m.value, static_cast<int32_t>(m.tgid), name, track_name, m.phase};
  e.pid = pid;
  e.cpu = static_cast<uint16_t>(cpu);
  ctx_->Push(EventSorter::QueueForCpu(cpu), std::move(e));
}

void FtraceDecoder::PushAtraceKernelMark(int64_t ts, uint32_t cpu, int32_t pid,
                                         const proto::Field& payload, uint32_t event_id) {
  // Kernel-side tracing_mark_write variants: begin/end/counter written by drivers.
  std::string_view name;
  int64_t value = 0;
  uint32_t type = 0, begin = 0, tgid = 0;
  int32_t flag = 0;
  proto::Decoder d(payload);
  proto::Field f;
  while (d.Next(&f)) {
    if (event_id == event_f::kZero) {
      if (f.id == zero_event::kFlag) flag = f.as_int32();
      if (f.id == zero_event::kName) name = f.as_string();
      if (f.id == zero_event::kPid) tgid = f.as_uint32();
      if (f.id == zero_event::kValue) value = f.as_int64();
    } else if (event_id == event_f::kMdssTracingMarkWrite) {
      // The mdss display driver's mark has no type field: trace_begin alone says B or E.
      if (f.id == 1) tgid = f.as_uint32();
      if (f.id == 2) name = f.as_string();
      if (f.id == 3) begin = f.as_uint32();
    } else if (event_id == event_f::kSdeTracingMarkWrite) {
      if (f.id == 1) tgid = f.as_uint32();
      if (f.id == 2) name = f.as_string();
      if (f.id == 3) type = f.as_uint32();
      if (f.id == 4) value = f.as_int32();
      if (f.id == 5) begin = f.as_uint32();
    } else if (event_id == event_f::kDpuTracingMarkWrite) {
      if (f.id == 1) tgid = f.as_uint32();
      if (f.id == 2 && name.empty()) name = f.as_string();
      if (f.id == 3) begin = f.as_uint32();
      if (f.id == 4) name = f.as_string();
      if (f.id == 5) type = f.as_uint32();
      if (f.id == 6) value = f.as_int32();
    } else if (event_id == event_f::kG2dTracingMarkWrite) {
      if (f.id == 1) tgid = f.as_uint32();
      if (f.id == 4) name = f.as_string();
      if (f.id == 5) type = f.as_uint32();
      if (f.id == 6) value = f.as_int32();
    } else {  // mali
      if (f.id == 1) name = f.as_string();
      if (f.id == 2) tgid = f.as_uint32();
      if (f.id == 3) type = f.as_uint32();
      if (f.id == 4) value = f.as_int32();
    }
  }
  char phase;
  if (event_id == event_f::kZero) {
    phase = (flag & 1) ? 'B' : (flag & 2) ? 'E' : (flag & 4) ? 'C' : 0;
  } else if (type == 0) {
    phase = begin ? 'B' : 'E';
  } else {
    phase = static_cast<char>(type);
  }
  if (phase != 'B' && phase != 'E' && phase != 'C' && phase != 'I') {
    ctx_->storage->IncrementStat("systrace_parse_failure");
    return;
  }
  Event e;
  e.ts = ts;
  e.type = EventType::kAtrace;
  e.atrace_mark = AtraceMarkData{value, static_cast<int32_t>(tgid),
                                 name.empty() ? kNullStringId : ctx_->Intern(name),
                                 kNullStringId, phase};
  e.pid = pid;
  e.cpu = static_cast<uint16_t>(cpu);
  ctx_->Push(EventSorter::QueueForCpu(cpu), std::move(e));
}

std::vector<Arg> FtraceDecoder::ArgsFor(const BundleInfo& b, uint32_t event_id,
                                        const proto::Field& payload, StringId* name) {
  std::vector<Arg> args;
  if (event_id >= event_names_.size()) event_names_.resize(event_id + 1, kNullStringId);
  const FtraceEventDescriptor* desc = FindFtraceEventDescriptor(event_id);
  if (event_id == event_f::kGeneric) {
    // Generic events carry their own name and typed fields.
    proto::Decoder d(payload);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id == pf::generic_ftrace_event::kEventName) {
        *name = ctx_->Intern(f.as_string());
      } else if (f.id == pf::generic_ftrace_event::kField && f.type == proto::kLengthDelimited) {
        namespace gf = pf::generic_ftrace_event_field;
        proto::Decoder fd(f);
        proto::Field x;
        StringId key = kNullStringId;
        ArgValue value;
        while (fd.Next(&x)) {
          if (x.id == gf::kName) key = ctx_->Intern(x.as_string());
          else if (x.id == gf::kStrValue) value = ArgValue::String(ctx_->Intern(x.as_string()));
          else if (x.id == gf::kIntValue) value = ArgValue::Int(x.as_int64());
          else if (x.id == gf::kUintValue) value = ArgValue::Uint(x.as_uint64());
        }
        if (key != kNullStringId) args.push_back(Arg{key, key, value});
      }
    }
    if (*name == kNullStringId) *name = ctx_->Intern("generic");
    return args;
  }
  if (event_names_[event_id] == kNullStringId) {
    event_names_[event_id] =
        ctx_->Intern(desc ? desc->name : std::string_view("unknown_ftrace_event"));
  }
  *name = event_names_[event_id];
  if (!desc) {
    ctx_->storage->IncrementStat("ftrace_unknown_events");
    return args;
  }
  proto::Decoder d(payload);
  proto::Field f;
  while (d.Next(&f)) {
    const FtraceFieldDescriptor* fd = FindFtraceField(*desc, f.id);
    if (!fd) continue;
    ArgValue v;
    // Value types as trace_processor stores ftrace fields: signed kinds (bools and enums
    // included) as int, unsigned and fixed as uint, strings and bytes as strings.
    switch (fd->kind) {
      case FtraceFieldKind::kInt: v = ArgValue::Int(f.as_int64()); break;
      case FtraceFieldKind::kUint:
      case FtraceFieldKind::kFixed64:
      case FtraceFieldKind::kFixed32: v = ArgValue::Uint(f.int_value); break;
      case FtraceFieldKind::kSint: v = ArgValue::Int(f.as_sint64()); break;
      case FtraceFieldKind::kBool: v = ArgValue::Int(f.int_value ? 1 : 0); break;
      case FtraceFieldKind::kString:
      case FtraceFieldKind::kBytes: v = ArgValue::String(ctx_->Intern(f.as_string())); break;
      case FtraceFieldKind::kDouble: v = ArgValue::Real(f.as_double()); break;
      case FtraceFieldKind::kFloat: v = ArgValue::Real(f.as_float()); break;
      case FtraceFieldKind::kMessage: continue;
    }
    if (IsKernelFunctionField(event_id, f.id)) {
      if (auto fn = KernelSymbol(b, f.as_uint64())) v = ArgValue::String(*fn);
    }
    const StringId key = ctx_->Intern(fd->name);
    args.push_back(Arg{key, key, v});
  }
  return args;
}

void FtraceDecoder::PushRaw(const BundleInfo& b, int64_t ts, int32_t pid, uint32_t flags,
                            uint32_t event_id, const proto::Field& payload) {
  FtraceRawData raw;
  raw.cpu = b.cpu;
  raw.pid = pid;
  raw.common_flags = flags;
  raw.args = ArgsFor(b, event_id, payload, &raw.name);
  Event e = Event::WithPayload(ts, EventType::kFtraceRaw, std::move(raw));
  e.pid = pid;
  e.cpu = static_cast<uint16_t>(b.cpu);
  ctx_->Push(EventSorter::QueueForCpu(b.cpu), std::move(e));
}

FtraceRawData FtraceDecoder::MakeRaw(const BundleInfo& b, int32_t pid, uint32_t flags,
                                    uint32_t event_id, const proto::Field& payload) {
  FtraceRawData raw;
  raw.cpu = b.cpu;
  raw.pid = pid;
  raw.common_flags = flags;
  raw.args = ArgsFor(b, event_id, payload, &raw.name);
  return raw;
}

void FtraceDecoder::PushRawData(int64_t ts, uint32_t cpu, int32_t pid, FtraceRawData raw) {
  Event e = Event::WithPayload(ts, EventType::kFtraceRaw, std::move(raw));
  e.pid = pid;
  e.cpu = static_cast<uint16_t>(cpu);
  ctx_->Push(EventSorter::QueueForCpu(cpu), std::move(e));
}

void FtraceDecoder::PushSampledAt(const BundleInfo& b, int64_t ts, int32_t pid, uint32_t flags,
                                  uint32_t event_id, const proto::Field& payload) {
  // The event's row keeps the kernel's time; what it measured belongs at the time it carries
  // (the ACPM firmware's sample time, on the trace clock). An event without one is malformed.
  std::optional<int64_t> sampled_at;
  proto::Decoder pd(payload);
  proto::Field f;
  while (pd.Next(&f)) {
    if (f.id == pf::thermal_exynos_acpm_bulk_ftrace_event::kTimestamp) {
      sampled_at = static_cast<int64_t>(f.as_uint64());
    }
  }
  if (!sampled_at) {
    ctx_->storage->IncrementStat("ftrace_bundle_tokenizer_errors");
    return;
  }
  FtraceRawData row = MakeRaw(b, pid, flags, event_id, payload);
  FtraceRawData copy = row;
  row.to_trackers = false;
  copy.in_table = false;
  PushRawData(ts, b.cpu, pid, std::move(row));
  PushRawData(*sampled_at, b.cpu, pid, std::move(copy));
}

namespace {

// The Adreno GPU's always-on counter runs at the 19.2 MHz crystal clock.
int64_t AdrenoStart(int64_t sync_ts, uint64_t sync_ticks, uint64_t start_ticks) {
  constexpr int64_t kXoHz = 19200000;
  return sync_ts + static_cast<int64_t>(start_ticks - sync_ticks) * 1000000000 / kXoHz;
}

}  // namespace

void FtraceDecoder::OnAdrenoSync(int64_t ts, const proto::Field& payload) {
  namespace sync = pf::kgsl_adreno_cmdbatch_sync_ftrace_event;
  uint64_t batch = 0, ticks = 0;
  proto::Decoder pd(payload);
  proto::Field f;
  while (pd.Next(&f)) {
    if (f.id == sync::kTimestamp) batch = f.as_uint64();
    if (f.id == sync::kTicks) ticks = f.as_uint64();
  }
  auto pending = adreno_pending_.find(batch);
  if (pending == adreno_pending_.end()) {
    adreno_syncs_[batch] = AdrenoSync{ts, ticks};
    return;
  }
  PendingRetired& p = pending->second;
  PushRawData(AdrenoStart(ts, ticks, p.start_ticks), p.cpu, p.pid, std::move(p.copy));
  adreno_pending_.erase(pending);
}

void FtraceDecoder::PushAdrenoRetired(const BundleInfo& b, int64_t ts, int32_t pid,
                                      uint32_t flags, uint32_t event_id,
                                      const proto::Field& payload) {
  namespace retired = pf::kgsl_adreno_cmdbatch_retired_ftrace_event;
  uint64_t batch = 0, start = 0;
  proto::Decoder pd(payload);
  proto::Field f;
  while (pd.Next(&f)) {
    if (f.id == retired::kTimestamp) batch = f.as_uint64();
    if (f.id == retired::kStart) start = f.as_uint64();
  }
  FtraceRawData row = MakeRaw(b, pid, flags, event_id, payload);
  FtraceRawData copy = row;
  row.to_trackers = false;
  copy.in_table = false;
  PushRawData(ts, b.cpu, pid, std::move(row));
  auto sync = adreno_syncs_.find(batch);
  if (sync == adreno_syncs_.end()) {
    adreno_pending_[batch] = PendingRetired{b.cpu, pid, start, std::move(copy)};
    return;
  }
  PushRawData(AdrenoStart(sync->second.trace_ts, sync->second.ticks, start), b.cpu, pid,
              std::move(copy));
  adreno_syncs_.erase(sync);
}

void FtraceDecoder::DecodeCompactSched(const BundleInfo& b, const proto::Field& compact) {
  std::vector<StringId> interned;
  proto::Field sw_ts, sw_state, sw_pid, sw_prio, sw_comm;
  proto::Field wk_ts, wk_pid, wk_cpu, wk_prio, wk_comm, wk_flags;
  bool has_flags = false;
  proto::Decoder d(compact);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case cs::kInternTable: interned.push_back(ctx_->Intern(f.as_string())); break;
      case cs::kSwitchTimestamp: sw_ts = f; break;
      case cs::kSwitchPrevState: sw_state = f; break;
      case cs::kSwitchNextPid: sw_pid = f; break;
      case cs::kSwitchNextPrio: sw_prio = f; break;
      case cs::kSwitchNextCommIndex: sw_comm = f; break;
      case cs::kWakingTimestamp: wk_ts = f; break;
      case cs::kWakingPid: wk_pid = f; break;
      case cs::kWakingTargetCpu: wk_cpu = f; break;
      case cs::kWakingPrio: wk_prio = f; break;
      case cs::kWakingCommIndex: wk_comm = f; break;
      case cs::kWakingCommonFlags: wk_flags = f; has_flags = true; break;
      default: break;
    }
  }
  bool error = d.error();
  const uint32_t queue = EventSorter::QueueForCpu(b.cpu);

  {
    proto::PackedVarints ts_it(sw_ts), st_it(sw_state), pid_it(sw_pid), prio_it(sw_prio),
        comm_it(sw_comm);
    int64_t acc = 0;
    uint64_t dt, st, pid, prio, comm;
    while (ts_it.Next(&dt)) {
      if (!st_it.Next(&st) || !pid_it.Next(&pid) || !prio_it.Next(&prio) ||
          !comm_it.Next(&comm) || comm >= interned.size()) {
        error = true;
        break;
      }
      acc += static_cast<int64_t>(dt);
      Event e;
      e.ts = acc + b.clock_offset;
      e.type = EventType::kSchedSwitch;
      e.compact = 1;
      e.cpu = static_cast<uint16_t>(b.cpu);
      e.sched_switch = SchedSwitchData{0,
                                       static_cast<int32_t>(pid),
                                       0,
                                       static_cast<int16_t>(static_cast<int32_t>(prio)),
                                       kNullStringId,
                                       interned[comm],
                                       static_cast<int32_t>(static_cast<int64_t>(st))};
      Count(event_f::kSchedSwitch);
      ctx_->Push(queue, e);
    }
  }
  {
    proto::PackedVarints ts_it(wk_ts), pid_it(wk_pid), cpu_it(wk_cpu), prio_it(wk_prio),
        comm_it(wk_comm), flags_it(wk_flags);
    int64_t acc = 0;
    uint64_t dt, pid, tcpu, prio, comm, flags = 0;
    while (ts_it.Next(&dt)) {
      if (!pid_it.Next(&pid) || !cpu_it.Next(&tcpu) || !prio_it.Next(&prio) ||
          !comm_it.Next(&comm) || comm >= interned.size() ||
          (has_flags && !flags_it.Next(&flags))) {
        error = true;
        break;
      }
      acc += static_cast<int64_t>(dt);
      Event e;
      e.ts = acc + b.clock_offset;
      e.type = EventType::kSchedWaking;
      e.compact = 1;
      e.cpu = static_cast<uint16_t>(b.cpu);
      e.sched_waking = SchedWakingData{static_cast<int32_t>(pid),
                                       static_cast<int32_t>(tcpu),
                                       static_cast<int32_t>(prio),
                                       interned[comm],
                                       static_cast<uint16_t>(flags),
                                       0,
                                       static_cast<uint8_t>(has_flags ? 1 : 0)};
      Count(event_f::kSchedWaking);
      ctx_->Push(queue, e);
    }
  }
  if (error) ctx_->storage->IncrementStat("compact_sched_has_parse_errors");
}

}  // namespace tw

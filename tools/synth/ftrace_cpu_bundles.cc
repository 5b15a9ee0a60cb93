#include "tools/synth/ftrace_cpu_bundles.h"

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw::synth {

using proto::Writer;

uint32_t FtraceCpuBundles::Bundle::Intern(uint32_t comm) {
  if (comm >= intern_index.size()) intern_index.resize(comm + 1, 0);
  if (!intern_index[comm]) {
    interned.push_back(comm);
    intern_index[comm] = static_cast<uint32_t>(interned.size());
  }
  return intern_index[comm] - 1;
}

void FtraceCpuBundles::Bundle::Reset() {
  events.Clear();
  count = 0;
  for (auto* v : {&sw_ts, &sw_state, &sw_pid, &sw_prio, &sw_comm, &wk_ts, &wk_pid, &wk_cpu,
                  &wk_prio, &wk_comm, &wk_flags}) {
    v->clear();
  }
  for (uint32_t c : interned) intern_index[c] = 0;
  interned.clear();
  // compact_sched timestamps restart from absolute in every bundle.
  last_sw_ts = last_wk_ts = 0;
}

FtraceCpuBundles::FtraceCpuBundles(uint32_t cpus, SchedEncoding encoding, uint32_t bundle_events,
                                   const std::vector<std::string>* comms, TraceFile* file,
                                   uint32_t first_sequence_id)
    : encoding_(encoding),
      bundle_events_(bundle_events),
      comms_(comms),
      file_(file),
      first_sequence_id_(first_sequence_id),
      bundles_(cpus) {}

void FtraceCpuBundles::Switch(uint32_t cpu, int64_t ts, const SchedSide& prev,
                              uint64_t prev_state, const SchedSide& next) {
  Bundle& b = bundles_[cpu];
  if (encoding_ == SchedEncoding::kCompact) {
    b.sw_ts.push_back(static_cast<uint64_t>(ts - b.last_sw_ts));
    b.last_sw_ts = ts;
    b.sw_state.push_back(prev_state);
    b.sw_pid.push_back(static_cast<uint64_t>(next.pid));
    b.sw_prio.push_back(static_cast<uint64_t>(next.prio));
    b.sw_comm.push_back(b.Intern(next.comm));
    Counted(cpu);
    return;
  }
  namespace ss = pf::sched_switch_ftrace_event;
  payload_.Clear();
  payload_.String(ss::kPrevComm, (*comms_)[prev.comm]);
  payload_.Varint(ss::kPrevPid, static_cast<uint64_t>(prev.pid));
  payload_.Varint(ss::kPrevPrio, static_cast<uint64_t>(prev.prio));
  payload_.Varint(ss::kPrevState, prev_state);
  payload_.String(ss::kNextComm, (*comms_)[next.comm]);
  payload_.Varint(ss::kNextPid, static_cast<uint64_t>(next.pid));
  payload_.Varint(ss::kNextPrio, static_cast<uint64_t>(next.prio));
  Plain(cpu, ts, prev.pid, std::nullopt, pf::ftrace_event::kSchedSwitch, payload_);
}

void FtraceCpuBundles::Waking(uint32_t cpu, int64_t ts, int32_t waker_pid, uint32_t flags,
                              const SchedSide& wakee, uint32_t target_cpu) {
  Bundle& b = bundles_[cpu];
  if (encoding_ == SchedEncoding::kCompact) {
    b.wk_ts.push_back(static_cast<uint64_t>(ts - b.last_wk_ts));
    b.last_wk_ts = ts;
    b.wk_pid.push_back(static_cast<uint64_t>(wakee.pid));
    b.wk_cpu.push_back(target_cpu);
    b.wk_prio.push_back(static_cast<uint64_t>(wakee.prio));
    b.wk_comm.push_back(b.Intern(wakee.comm));
    b.wk_flags.push_back(flags);
    Counted(cpu);
    return;
  }
  namespace sw = pf::sched_waking_ftrace_event;
  payload_.Clear();
  payload_.String(sw::kComm, (*comms_)[wakee.comm]);
  payload_.Varint(sw::kPid, static_cast<uint64_t>(wakee.pid));
  payload_.Varint(sw::kPrio, static_cast<uint64_t>(wakee.prio));
  payload_.Varint(sw::kSuccess, 1);
  payload_.Varint(sw::kTargetCpu, target_cpu);
  Plain(cpu, ts, waker_pid, flags, pf::ftrace_event::kSchedWaking, payload_);
}

void FtraceCpuBundles::Plain(uint32_t cpu, int64_t ts, int32_t pid, std::optional<uint32_t> flags,
                             uint32_t event_field, const Writer& payload) {
  event_.Clear();
  event_.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  event_.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(pid));
  if (flags) event_.Varint(pf::ftrace_event::kCommonFlags, *flags);
  event_.Message(event_field, payload);
  bundles_[cpu].events.Message(pf::ftrace_event_bundle::kEvent, event_);
  Counted(cpu);
}

void FtraceCpuBundles::Counted(uint32_t cpu) {
  if (++bundles_[cpu].count >= bundle_events_) Flush(cpu);
}

void FtraceCpuBundles::Flush(uint32_t cpu) {
  namespace fb = pf::ftrace_event_bundle;
  namespace tp = pf::trace_packet;
  Bundle& b = bundles_[cpu];
  if (b.count == 0) return;
  // FtraceEventBundle: cpu, the plain events (already framed as field 2), compact_sched.
  tail_.Clear();
  if (!b.sw_ts.empty() || !b.wk_ts.empty()) {
    namespace cs = pf::compact_sched;
    compact_.Clear();
    for (uint32_t comm : b.interned) compact_.String(cs::kInternTable, (*comms_)[comm]);
    auto packed = [&](uint32_t field, const std::vector<uint64_t>& values) {
      packed_.Clear();
      for (uint64_t v : values) packed_.RawVarint(v);
      compact_.Bytes(field, packed_.data());
    };
    if (!b.sw_ts.empty()) {
      packed(cs::kSwitchTimestamp, b.sw_ts);
      packed(cs::kSwitchPrevState, b.sw_state);
      packed(cs::kSwitchNextPid, b.sw_pid);
      packed(cs::kSwitchNextPrio, b.sw_prio);
      packed(cs::kSwitchNextCommIndex, b.sw_comm);
    }
    if (!b.wk_ts.empty()) {
      packed(cs::kWakingTimestamp, b.wk_ts);
      packed(cs::kWakingPid, b.wk_pid);
      packed(cs::kWakingTargetCpu, b.wk_cpu);
      packed(cs::kWakingPrio, b.wk_prio);
      packed(cs::kWakingCommIndex, b.wk_comm);
      packed(cs::kWakingCommonFlags, b.wk_flags);
    }
    tail_.Message(fb::kCompactSched, compact_);
  }
  // TracePacket: ftrace_events (the bundle), then the writer's sequence id (one per cpu, as
  // traced_probes), serialised in pieces.
  Writer cpu_field;
  cpu_field.Varint(fb::kCpu, cpu);
  const size_t bundle_size = cpu_field.size() + b.events.size() + tail_.size();
  head_.Clear();
  head_.RawVarint((uint64_t{tp::kFtraceEvents} << 3) | 2);
  head_.RawVarint(bundle_size);
  Writer seq;
  seq.Varint(tp::kTrustedPacketSequenceId, first_sequence_id_ + cpu);
  file_->WriteParts({head_.data(), cpu_field.data(), b.events.data(), tail_.data(), seq.data()});
  b.Reset();
}

void FtraceCpuBundles::FlushAll() {
  for (uint32_t c = 0; c < bundles_.size(); ++c) Flush(c);
}

}  // namespace tw::synth

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
  Bundle& b = bundles_[cpu];
  if (b.count == 0) return;
  // FtraceEventBundle: cpu, the plain events (already framed as field 2), compact_sched.
  Writer head;
  head.Varint(fb::kCpu, cpu);
  std::string body = head.Take();
  body += b.events.data();
  if (!b.sw_ts.empty() || !b.wk_ts.empty()) {
    namespace cs = pf::compact_sched;
    Writer compact;
    for (uint32_t comm : b.interned) compact.String(cs::kInternTable, (*comms_)[comm]);
    if (!b.sw_ts.empty()) {
      compact.Packed(cs::kSwitchTimestamp, b.sw_ts);
      compact.Packed(cs::kSwitchPrevState, b.sw_state);
      compact.Packed(cs::kSwitchNextPid, b.sw_pid);
      compact.Packed(cs::kSwitchNextPrio, b.sw_prio);
      compact.Packed(cs::kSwitchNextCommIndex, b.sw_comm);
    }
    if (!b.wk_ts.empty()) {
      compact.Packed(cs::kWakingTimestamp, b.wk_ts);
      compact.Packed(cs::kWakingPid, b.wk_pid);
      compact.Packed(cs::kWakingTargetCpu, b.wk_cpu);
      compact.Packed(cs::kWakingPrio, b.wk_prio);
      compact.Packed(cs::kWakingCommIndex, b.wk_comm);
      compact.Packed(cs::kWakingCommonFlags, b.wk_flags);
    }
    Writer tail;
    tail.Message(fb::kCompactSched, compact);
    body += tail.data();
  }
  namespace tp = pf::trace_packet;
  Writer packet;
  packet.Bytes(tp::kFtraceEvents, body);
  packet.Varint(tp::kTrustedPacketSequenceId, first_sequence_id_ + cpu);
  file_->Write(packet);
  b.Reset();
}

void FtraceCpuBundles::FlushAll() {
  for (uint32_t c = 0; c < bundles_.size(); ++c) Flush(c);
}

}  // namespace tw::synth

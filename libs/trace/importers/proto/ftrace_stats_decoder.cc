#include "libs/trace/importers/proto/ftrace_stats_decoder.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

namespace fs = pf::ftrace_stats;
namespace fc = pf::ftrace_cpu_stats;

// Counter fields of FtraceCpuStats → the stat name stem (ftrace_cpu_<stem>_begin/_end/_delta).
constexpr std::pair<uint32_t, const char*> kCpuCounters[] = {
    {fc::kEntries, "entries"},
    {fc::kOverrun, "overrun"},
    {fc::kCommitOverrun, "commit_overrun"},
    {fc::kBytesRead, "bytes"},
    {fc::kDroppedEvents, "dropped_events"},
    {fc::kReadEvents, "read_events"},
};

// Seconds (double) → ns, saturating: oldest_event_ts can be garbage from a wrapped buffer.
int64_t SecondsToNs(double seconds) {
  const double ns = seconds * 1e9;
  if (ns >= static_cast<double>(std::numeric_limits<int64_t>::max())) {
    return std::numeric_limits<int64_t>::max();
  }
  return static_cast<int64_t>(ns);
}

}  // namespace

void FtraceStatsDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  TraceStorage& s = *ctx_->storage;
  uint32_t phase = 0;
  std::vector<proto::Field> cpus;
  std::vector<std::string> errors;
  std::optional<proto::Field> kprobes;
  std::string atrace_errors, exclusive_error;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case fs::kPhase: phase = f.as_uint32(); break;
      case fs::kCpuStats: cpus.push_back(f); break;
      case fs::kKprobeStats: kprobes = f; break;
      case fs::kFailedFtraceEvents:
        errors.push_back("Ftrace event failed: " + std::string(f.as_string()));
        break;
      case fs::kUnknownFtraceEvents:
        errors.push_back("Ftrace event unknown: " + std::string(f.as_string()));
        break;
      case fs::kAtraceErrors: atrace_errors = std::string(f.as_string()); break;
      case fs::kPreserveFtraceBuffer:
        if (f.as_bool()) ctx_->ftrace_buffer_preserved = true;
        break;
      case fs::kExclusiveFeatureError: exclusive_error = std::string(f.as_string()); break;
      case fs::kFtraceParseErrors:
        // trace_processor refuses traces with ring-buffer ABI errors (except zero-length data,
        // which it counts); we keep the trace and count them all.
        proto::ForEachVarint(f, [&](uint64_t code) {
          s.IncrementStat(code == pf::ftrace_parse_status::kAbiZeroDataLength
                              ? "ftrace_abi_errors_skipped_zero_data_length"
                              : "ftrace_parse_errors");
        });
        break;
      default: break;
    }
  }
  if (d.error()) s.IncrementStat("proto_decode_errors");
  const bool is_start = phase == pf::ftrace_stats_phase::kStartOfTrace;
  const bool is_end = phase == pf::ftrace_stats_phase::kEndOfTrace;
  if (!is_start && !is_end) return;  // unknown phase: nothing to attribute it to

  for (const proto::Field& c : cpus) DecodeCpuStats(c, is_end, packet.machine);

  int64_t hits = 0, misses = 0;
  if (kprobes) {
    proto::Decoder kd(*kprobes);
    proto::Field k;
    while (kd.Next(&k)) {
      if (k.id == pf::ftrace_kprobe_stats::kHits) hits = k.as_int64();
      if (k.id == pf::ftrace_kprobe_stats::kMisses) misses = k.as_int64();
    }
  }
  const char* suffix = is_end ? "_end" : "_begin";
  s.SetStat(std::string("ftrace_kprobe_hits") + suffix, hits);
  s.SetStat(std::string("ftrace_kprobe_misses") + suffix, misses);
  if (is_start) {
    kprobe_hits_begin_ = hits;
    kprobe_misses_begin_ = misses;
  } else {
    // trace_processor only reports a delta when the start value was non-zero.
    if (kprobe_hits_begin_.value_or(0)) s.SetStat("ftrace_kprobe_hits_delta", hits - *kprobe_hits_begin_);
    if (kprobe_misses_begin_.value_or(0)) {
      s.SetStat("ftrace_kprobe_misses_delta", misses - *kprobe_misses_begin_);
    }
  }

  if (is_start) {
    if (!atrace_errors.empty()) errors.push_back("Atrace failures: " + atrace_errors);
    if (!exclusive_error.empty()) {
      errors.push_back("Ftrace exclusive feature error: " + exclusive_error);
    }
    RecordSetupErrors(packet.sequence_id, errors);
  }
}

void FtraceStatsDecoder::DecodeCpuStats(const proto::Field& f, bool is_end, uint32_t machine) {
  TraceStorage& s = *ctx_->storage;
  int64_t values[fc::kReadEvents + 1] = {};
  double oldest_event_ts = 0, now_ts = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == fc::kOldestEventTs) {
      oldest_event_ts = x.as_double();
    } else if (x.id == fc::kNowTs) {
      now_ts = x.as_double();
    } else if (x.type == proto::kVarint && x.id <= fc::kReadEvents) {
      values[x.id] = x.as_int64();
    }
  }
  const int64_t cpu = values[fc::kCpu];
  const char* suffix = is_end ? "_end" : "_begin";
  for (const auto& [id, stem] : kCpuCounters) {
    const std::string base = std::string("ftrace_cpu_") + stem;
    s.SetMachineStat(machine, base + suffix, cpu, values[id]);
    if (!is_end) {
      begin_[{machine, base, cpu}] = values[id];
    } else if (auto it = begin_.find({machine, base, cpu}); it != begin_.end()) {
      s.SetMachineStat(machine, base + "_delta", cpu, values[id] - it->second);
    }
  }
  s.SetMachineStat(machine, std::string("ftrace_cpu_now_ts") + suffix, cpu,
                   static_cast<int64_t>(now_ts * 1e9));
  s.SetMachineStat(machine, std::string("ftrace_cpu_oldest_event_ts") + suffix, cpu,
                   SecondsToNs(oldest_event_ts));
}

void FtraceStatsDecoder::RecordSetupErrors(uint32_t sequence_id,
                                           const std::vector<std::string>& errors) {
  if (errors.empty() || sequences_with_errors_.count(sequence_id)) return;
  sequences_with_errors_.insert(sequence_id);
  // Each error is counted and kept in the import logs with its text as a `message` arg (no
  // time: the producer reports it once, at setup), as trace_processor does.
  TraceStorage& s = *ctx_->storage;
  const StringId key = s.Intern("message");
  for (const std::string& error : errors) {
    std::optional<uint32_t> args;
    if (add_arg_set_) args = add_arg_set_({Arg{key, key, ArgValue::String(s.Intern(error))}});
    s.RecordImportLog("ftrace_setup_errors", std::nullopt, args);
  }
}

}  // namespace tw

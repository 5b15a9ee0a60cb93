#pragma once
// ftrace_stats packets (the kernel ring buffer's counters at the start and end of a trace, and
// ftrace/atrace setup errors) become trace_processor's stats: ftrace_cpu_*_begin / _end / _delta
// indexed by cpu, ftrace_kprobe_*, ftrace_setup_errors.

#include <cstdint>
#include <map>
#include <tuple>
#include <set>
#include <utility>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class FtraceStatsDecoder {
 public:
  explicit FtraceStatsDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void Decode(const PacketContext& packet, const proto::Field& field);
  // Where the setup errors' import logs keep their message arg.
  void set_arg_set_sink(ArgSetSink sink) { add_arg_set_ = std::move(sink); }

 private:
  void DecodeCpuStats(const proto::Field& f, bool is_end, uint32_t machine);
  void RecordSetupErrors(uint32_t sequence_id, const std::vector<std::string>& errors);

  ImportContext* ctx_;
  // Start-of-trace values, to compute the _delta stats at the end.
  std::map<std::tuple<uint32_t, std::string, int64_t>, int64_t> begin_;  // (machine, stat, cpu)
  std::optional<int64_t> kprobe_hits_begin_, kprobe_misses_begin_;
  // Setup errors are reported once per writer sequence.
  std::set<uint32_t> sequences_with_errors_;
  ArgSetSink add_arg_set_;
};

}  // namespace tw

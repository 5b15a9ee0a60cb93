// `tracewise synth-sched OUT [--cpus=N] [--seconds=S] [--encoding=plain|compact]
// [--print-rate=HZ] [--seed=N]`: writes a synthetic scheduler-heavy Perfetto trace (the quick
// start's example trace, and raw material for experiments).

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/synth/sched_trace_writer.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

bool Flag(const std::string& arg, const char* name, std::string* value) {
  const std::string prefix = std::string("--") + name + "=";
  if (arg.rfind(prefix, 0) != 0) return false;
  *value = arg.substr(prefix.size());
  return true;
}

}  // namespace

int RunSynthSched(const Args& args) {
  synth::SchedTraceOptions options;
  options.duration_ns = 10'000'000'000;
  options.kernel_release = "5.10.198-android13-4";
  std::string out;
  for (const std::string& a : args) {
    std::string v;
    if (Flag(a, "cpus", &v)) {
      options.cpus = static_cast<uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
    } else if (Flag(a, "seconds", &v)) {
      options.duration_ns = static_cast<int64_t>(std::strtod(v.c_str(), nullptr) * 1e9);
    } else if (Flag(a, "encoding", &v)) {
      if (v != "plain" && v != "compact") {
        std::fprintf(stderr, "tracewise synth-sched: --encoding must be plain or compact\n");
        return 2;
      }
      options.encoding = v == "plain" ? synth::SchedEncoding::kPlain : synth::SchedEncoding::kCompact;
    } else if (Flag(a, "print-rate", &v)) {
      options.print_rate_hz = std::strtod(v.c_str(), nullptr);
    } else if (Flag(a, "seed", &v)) {
      options.seed = std::strtoull(v.c_str(), nullptr, 10);
    } else if (!a.empty() && a[0] != '-' && out.empty()) {
      out = a;
    } else {
      out.clear();
      break;
    }
  }
  if (out.empty()) {
    std::fprintf(stderr,
                 "usage: tracewise synth-sched OUT [--cpus=N] [--seconds=S] "
                 "[--encoding=plain|compact] [--print-rate=HZ] [--seed=N]\n");
    return 2;
  }
  synth::SchedTraceSummary summary;
  const absl::Status status = synth::WriteSyntheticSchedTrace(options, out, &summary);
  if (!status.ok()) {
    std::fprintf(stderr, "tracewise synth-sched: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  std::printf("wrote %s: %lld ftrace events (%lld sched_switch, %lld sched_waking, %lld print), "
              "%.1f MB\n",
              out.c_str(), static_cast<long long>(summary.ftrace_events()),
              static_cast<long long>(summary.sched_switch),
              static_cast<long long>(summary.sched_waking), static_cast<long long>(summary.print),
              static_cast<double>(summary.bytes) / 1e6);
  return 0;
}

}  // namespace tw::cli

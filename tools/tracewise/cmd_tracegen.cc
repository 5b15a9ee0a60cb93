// `tracewise tracegen SCENARIO -o OUT [--seed N] [--duration-s S] [--fps F] [--severity X]
// [--cores LITTLE+BIG] [--compact-sched=true|false]`: writes a synthetic Android trace with a known problem and its
// ground truth (OUT.truth.json). `tracewise tracegen --list` lists the scenarios.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/tracegen/tracegen.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

void TracegenUsage() {
  std::fprintf(stderr,
               "usage: tracewise tracegen SCENARIO -o OUT.pftrace [--seed N] [--duration-s S]\n"
               "                          [--fps 60|90|120] [--severity X] [--cores LITTLE+BIG]\n"
               "                          [--compact-sched=true|false] [--hostile-text TEXT]...\n"
               "       tracewise tracegen --list\n");
}

// Accepts "--name=value" and "--name value".
bool Option(const Args& args, size_t* i, const std::string& name, std::string* value) {
  const std::string& a = args[*i];
  if (a == name && *i + 1 < args.size()) {
    *value = args[++*i];
    return true;
  }
  if (a.rfind(name + "=", 0) == 0) {
    *value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

}  // namespace

int RunTracegen(const Args& args) {
  tracegen::TracegenOptions o;
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string v;
    if (args[i] == "--list") {
      for (const tracegen::ScenarioInfo& s : tracegen::Scenarios()) {
        std::printf("%-24s %s\n", s.name, s.description);
      }
      return 0;
    } else if (args[i] == "--help" || args[i] == "-h") {
      TracegenUsage();
      return 0;
    } else if (Option(args, &i, "-o", &v) || Option(args, &i, "--out", &v)) {
      out = v;
    } else if (Option(args, &i, "--seed", &v)) {
      o.seed = std::strtoull(v.c_str(), nullptr, 10);
    } else if (Option(args, &i, "--duration-s", &v)) {
      o.duration_s = std::strtod(v.c_str(), nullptr);
    } else if (Option(args, &i, "--fps", &v)) {
      o.fps = std::atoi(v.c_str());
    } else if (Option(args, &i, "--hostile-text", &v)) {
      o.hostile_text.push_back(v);  // repeatable: slice and log text for hostile-input tests
    } else if (Option(args, &i, "--cores", &v)) {
      unsigned little = 0, big = 0;
      if (std::sscanf(v.c_str(), "%u+%u", &little, &big) != 2) {
        std::fprintf(stderr, "tracewise tracegen: --cores is LITTLE+BIG, e.g. 6+2\n");
        return 2;
      }
      o.little_cpus = little;
      o.big_cpus = big;
    } else if (Option(args, &i, "--severity", &v)) {
      o.severity = std::strtod(v.c_str(), nullptr);
    } else if (Option(args, &i, "--compact-sched", &v)) {
      if (v != "true" && v != "false") {
        std::fprintf(stderr, "tracewise tracegen: --compact-sched must be true or false\n");
        return 2;
      }
      o.compact_sched = v == "true";
    } else if (!args[i].empty() && args[i][0] != '-' && o.scenario.empty()) {
      o.scenario = args[i];
    } else {
      std::fprintf(stderr, "tracewise tracegen: unexpected argument '%s'\n", args[i].c_str());
      TracegenUsage();
      return 2;
    }
  }
  if (o.scenario.empty() || out.empty()) {
    TracegenUsage();
    return 2;
  }
  const auto begin = std::chrono::steady_clock::now();
  auto truth = tracegen::GenerateTrace(o, out);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!truth.ok()) {
    std::fprintf(stderr, "tracewise tracegen: %s\n", std::string(truth.status().message()).c_str());
    return 1;
  }
  std::printf("wrote %s (%.1f MB, %lld ftrace events, %lld app frames, %lld janky) and "
              "%s.truth.json in %.2f s: %.1f MB/s\n",
              out.c_str(), static_cast<double>(truth->bytes) / 1e6,
              static_cast<long long>(truth->ftrace_events),
              static_cast<long long>(truth->frames_total),
              static_cast<long long>(truth->frames_janky), out.c_str(), secs,
              static_cast<double>(truth->bytes) / 1e6 / secs);
  return 0;
}

}  // namespace tw::cli

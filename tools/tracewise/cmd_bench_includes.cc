// `tracewise bench --includes`: how long `INCLUDE PERFETTO MODULE m` takes, cold, for every
// stdlib module, on a big trace (2.8 s of tracegen's `large` Android scenario at 90 Hz:
// ~1 M events of scheduling, frames, binder and atrace; or --trace). Cold: each run opens a fresh database over the loaded trace, so no lazy
// index of the intrinsic tables exists yet and no other module is included. Target: < 150 ms.
// Besides wall time it reports the thread's CPU time: an INCLUDE is single-threaded and does
// no I/O, so on an idle machine the two agree, and on a shared one the CPU time is the figure
// that says whether the target holds. It also reports "first use": the CPU time of the INCLUDE
// plus a COUNT(*) over every table and view the module defines, because a view over a derived
// table (query/derived_tables.h) is cheap to create and pays when first read.

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/sql_docs.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/stdlib/stdlib.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracegen/tracegen.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

constexpr double kTargetMs = 150;

struct IncludeTiming {
  std::string module;
  double median_ms = 0;
  double max_ms = 0;
  double median_cpu_ms = 0;
  double median_first_use_cpu_ms = 0;  // INCLUDE + COUNT(*) of each table and view it defines
  std::string error;
};

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The tables and views `module` defines, private ones included.
std::vector<std::string> RelationsOf(const SqlModule& module) {
  std::vector<std::string> names;
  auto docs = ParseSqlModuleDocs(module.name, module.sql);
  if (!docs.ok()) return names;
  for (const SqlObjectDoc& o : docs->objects) {
    if (o.kind == SqlObjectDoc::Kind::kTable || o.kind == SqlObjectDoc::Kind::kView) {
      names.push_back(o.name);
    }
  }
  return names;
}

}  // namespace

int RunBenchIncludes(const std::string& trace_arg, int runs, bool check, bool json) {
  std::string trace = trace_arg;
  bool generated = false;
  if (trace.empty()) {
    trace = absl::StrCat(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp",
                         "/tracewise-bench-includes-", getpid(), ".pftrace");
    tracegen::TracegenOptions o;
    o.scenario = "large";
    o.duration_s = 2.8;
    o.fps = 90;
    std::fprintf(stderr, "generating 2.8 s of tracegen 'large' into %s ...\n", trace.c_str());
    auto truth = tracegen::GenerateTrace(o, trace);
    if (!truth.ok()) {
      std::fprintf(stderr, "tracewise bench: %s\n", std::string(truth.status().message()).c_str());
      return 1;
    }
    generated = true;
  }
  auto loaded = LoadTraceFile(trace);
  if (generated) {
    std::remove(trace.c_str());
    std::remove((trace + ".truth.json").c_str());
  }
  if (!loaded.ok()) {
    std::fprintf(stderr, "tracewise bench: %s\n", std::string(loaded.status().message()).c_str());
    return 1;
  }
  const int64_t events = (*loaded)->info().events;
  std::vector<IncludeTiming> timings;
  for (const SqlModule* m : SqlModulesWithPrefix("")) {
    if (std::string_view(m->name).substr(0, 8) == "prelude.") continue;  // there at open
    IncludeTiming t;
    t.module = std::string(m->name);
    std::vector<double> ms;
    std::vector<double> cpu_ms;
    std::vector<double> first_use_cpu_ms;
    const std::vector<std::string> relations = RelationsOf(*m);
    for (int r = 0; r < runs && t.error.empty(); ++r) {
      auto db = TraceDatabase::Open(&(*loaded)->storage());
      if (!db.ok()) {
        t.error = std::string(db.status().message());
        break;
      }
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = ThreadCpuMs();
      auto result = (*db)->Execute(absl::StrCat("INCLUDE PERFETTO MODULE ", t.module, ";"));
      cpu_ms.push_back(ThreadCpuMs() - cpu_start);
      ms.push_back(MsSince(start));
      if (!result.ok()) {
        t.error = std::string(result.status().message());
        break;
      }
      for (const std::string& name : relations) {
        auto count = (*db)->Execute(absl::StrCat("SELECT COUNT(*) FROM ", name));
        if (!count.ok()) t.error = std::string(count.status().message());
      }
      first_use_cpu_ms.push_back(ThreadCpuMs() - cpu_start);
    }
    if (!ms.empty()) {
      t.median_ms = Median(ms);
      t.max_ms = *std::max_element(ms.begin(), ms.end());
      t.median_cpu_ms = Median(cpu_ms);
    }
    if (!first_use_cpu_ms.empty()) t.median_first_use_cpu_ms = Median(first_use_cpu_ms);
    timings.push_back(std::move(t));
  }
  std::sort(timings.begin(), timings.end(),
            [](const IncludeTiming& a, const IncludeTiming& b) { return a.median_ms > b.median_ms; });
  bool ok = true;
  for (const IncludeTiming& t : timings) ok &= t.error.empty() && t.median_ms < kTargetMs;
  if (json) {
    std::string out = absl::StrCat("{\"events\":", events, ",\"target_ms\":", kTargetMs,
                                   ",\"modules\":[");
    for (size_t i = 0; i < timings.size(); ++i) {
      absl::StrAppend(&out, i ? "," : "", "{\"module\":\"", timings[i].module,
                      "\",\"median_ms\":", timings[i].median_ms, ",\"max_ms\":", timings[i].max_ms,
                      ",\"median_cpu_ms\":", timings[i].median_cpu_ms,
                      ",\"median_first_use_cpu_ms\":", timings[i].median_first_use_cpu_ms,
                      ",\"ok\":", timings[i].error.empty() ? "true" : "false", "}");
    }
    absl::StrAppend(&out, "]}\n");
    std::fputs(out.c_str(), stdout);
  } else {
    std::printf("INCLUDE PERFETTO MODULE, cold (fresh database per run, median of %d), on %s "
                "(%lld events); target < %.0f ms\n",
                runs, trace_arg.empty() ? "2.8 s of tracegen 'large'" : trace_arg.c_str(),
                static_cast<long long>(events), kTargetMs);
    for (const IncludeTiming& t : timings) {
      if (!t.error.empty()) {
        std::printf("  %-48s ERROR %s\n", t.module.c_str(), t.error.c_str());
        continue;
      }
      std::printf("  %-40s %8.1f ms (max %6.1f, cpu %6.1f; first use cpu %6.1f)%s\n",
                  t.module.c_str(), t.median_ms, t.max_ms, t.median_cpu_ms,
                  t.median_first_use_cpu_ms, t.median_ms < kTargetMs ? "" : "  OVER TARGET");
    }
    std::printf("%s: slowest %.1f ms\n", ok ? "PASS" : "FAIL",
                timings.empty() ? 0.0 : timings.front().median_ms);
  }
  return check && !ok ? 1 : 0;
}

}  // namespace tw::cli

// Import throughput (MB/s) of the two text formats: systrace / ftrace text and Chrome JSON.
// Synthetic traces of a realistic event mix (scheduling, wakeups, cpu frequency and atrace
// B/E markers; JSON complete, begin/end, counter and instant events with args) are written once
// per process into the temp dir; the real files in ../shared/traces are measured too when
// present. bytes_per_second is the figure to compare with the 20 MB/s target of issue 4.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "benchmark/benchmark.h"
#include "libs/trace/trace_loader.h"

#ifndef TW_SHARED_DIR
#define TW_SHARED_DIR "../shared"
#endif

namespace tw {
namespace {

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/tw_text_import_benchmark_" +
         std::to_string(getpid()) + "_" + name;
}

// Deletes the generated files at exit.
std::map<std::string, std::string>* generated_files = nullptr;

std::map<std::string, std::string>& Generated() {
  if (generated_files == nullptr) {
    generated_files = new std::map<std::string, std::string>();
    std::atexit([] {
      for (auto& [key, path] : *generated_files) std::remove(path.c_str());
    });
  }
  return *generated_files;
}

// A deterministic pseudo-random sequence (the content only has to look like real traces).
struct Lcg {
  uint64_t state = 42;
  uint32_t Next(uint32_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((state >> 33) % bound);
  }
};

// ~`megabytes` of ftrace text: per cpu a thread switches in, marks a B/E slice, wakes another
// thread and switches out; a cpu_frequency line now and then.
const std::string& SystraceFile(int megabytes) {
  const std::string key = "systrace_" + std::to_string(megabytes);
  auto& files = Generated();
  if (auto it = files.find(key); it != files.end()) return it->second;
  const std::string path = TempPath(key + ".txt");
  std::ofstream out(path, std::ios::binary);
  out << "# tracer: nop\n#\n#           TASK-PID    CPU#    TIMESTAMP  FUNCTION\n"
         "#              | |       |          |         |\n";
  Lcg rng;
  const size_t target = static_cast<size_t>(megabytes) << 20;
  int64_t us = 50260000000;  // 50260 s, in µs
  char line[512];
  int prev[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  while (static_cast<size_t>(out.tellp()) < target) {
    const uint32_t cpu = rng.Next(8);
    const int next = 1000 + static_cast<int>(rng.Next(200));
    const int woken = 1000 + static_cast<int>(rng.Next(200));
    us += 1 + rng.Next(40);
    auto stamp = [&](int64_t t) { return static_cast<double>(t) / 1e6; };
    const char* prev_comm = prev[cpu] == 0 ? "swapper" : "worker";
    std::snprintf(line, sizeof(line),
                  "%16s-%-5d [%03u] %.6f: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 "
                  "prev_state=S ==> next_comm=worker next_pid=%d next_prio=120\n",
                  prev_comm, prev[cpu], cpu, stamp(us), prev_comm, prev[cpu], next);
    out << line;
    std::snprintf(line, sizeof(line),
                  "%16s-%-5d [%03u] %.6f: tracing_mark_write: B|%d|doFrame %u\n", "worker", next,
                  cpu, stamp(us + 3), next, rng.Next(1000));
    out << line;
    std::snprintf(line, sizeof(line),
                  "%16s-%-5d [%03u] %.6f: sched_wakeup: comm=worker pid=%d prio=120 success=1 "
                  "target_cpu=%03u\n",
                  "worker", next, cpu, stamp(us + 7), woken, rng.Next(8));
    out << line;
    std::snprintf(line, sizeof(line), "%16s-%-5d [%03u] %.6f: tracing_mark_write: E|%d\n",
                  "worker", next, cpu, stamp(us + 11), next);
    out << line;
    if (rng.Next(16) == 0) {
      std::snprintf(line, sizeof(line),
                    "%16s-%-5d [%03u] %.6f: cpu_frequency: state=%u cpu_id=%u\n", "<idle>", 0,
                    cpu, stamp(us + 12), 300000 + 100000 * rng.Next(20), cpu);
      out << line;
    }
    prev[cpu] = next;
  }
  out.close();
  return files.emplace(key, path).first->second;
}

// ~`megabytes` of Chrome JSON: {"traceEvents":[...]} with X, B/E, C and i events.
const std::string& JsonFile(int megabytes) {
  const std::string key = "json_" + std::to_string(megabytes);
  auto& files = Generated();
  if (auto it = files.find(key); it != files.end()) return it->second;
  const std::string path = TempPath(key + ".json");
  std::ofstream out(path, std::ios::binary);
  out << "{\"traceEvents\":[\n";
  Lcg rng;
  const size_t target = static_cast<size_t>(megabytes) << 20;
  int64_t ts = 1000;
  char line[512];
  bool first = true;
  while (static_cast<size_t>(out.tellp()) < target) {
    const uint32_t pid = 100 + rng.Next(4);
    const uint32_t tid = pid * 10 + rng.Next(8);
    ts += 1 + rng.Next(50);
    std::snprintf(line, sizeof(line),
                  "%s{\"ph\":\"X\",\"cat\":\"toplevel\",\"name\":\"RunTask\",\"pid\":%u,"
                  "\"tid\":%u,\"ts\":%lld,\"dur\":%u,\"tdur\":%u,\"args\":{\"src_file\":"
                  "\"../../base/task.cc\",\"src_func\":\"Run\"}},\n"
                  "{\"ph\":\"B\",\"cat\":\"blink\",\"name\":\"Layout\",\"pid\":%u,\"tid\":%u,"
                  "\"ts\":%lld,\"args\":{\"frame\":\"0x%x\"}},\n"
                  "{\"ph\":\"E\",\"pid\":%u,\"tid\":%u,\"ts\":%lld},\n"
                  "{\"ph\":\"C\",\"name\":\"Heap\",\"pid\":%u,\"ts\":%lld,\"args\":{\"used\":%u}}",
                  first ? "" : ",\n", pid, tid, static_cast<long long>(ts), 20 + rng.Next(200),
                  10 + rng.Next(100), pid, tid, static_cast<long long>(ts + 2), rng.Next(1 << 20),
                  pid, tid, static_cast<long long>(ts + 9), pid,
                  static_cast<long long>(ts + 10), rng.Next(1 << 24));
    out << line;
    if (rng.Next(8) == 0) {
      std::snprintf(line, sizeof(line),
                    ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"Mark\",\"pid\":%u,\"tid\":%u,"
                    "\"ts\":%lld}",
                    pid, tid, static_cast<long long>(ts + 11));
      out << line;
    }
    first = false;
  }
  out << "\n]}\n";
  out.close();
  return files.emplace(key, path).first->second;
}

void Import(benchmark::State& state, const std::string& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec) {
    state.SkipWithError(("no file " + path).c_str());
    return;
  }
  int64_t events = 0;
  for (auto _ : state) {
    auto loaded = LoadTraceFile(path);
    if (!loaded.ok()) {
      state.SkipWithError(std::string(loaded.status().message()).c_str());
      return;
    }
    events = (*loaded)->info().events;
    benchmark::DoNotOptimize(loaded);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.SetItemsProcessed(state.iterations() * events);
  state.counters["file_bytes"] = static_cast<double>(bytes);
  state.counters["events"] = static_cast<double>(events);
}

void BM_ImportSyntheticSystrace(benchmark::State& state) {
  Import(state, SystraceFile(static_cast<int>(state.range(0))));
}
void BM_ImportSyntheticJson(benchmark::State& state) {
  Import(state, JsonFile(static_cast<int>(state.range(0))));
}
void BM_ImportRealFile(benchmark::State& state, const char* relative_path) {
  Import(state, std::string(TW_SHARED_DIR) + "/traces/" + relative_path);
}

// Arg: file size in MB.
BENCHMARK(BM_ImportSyntheticSystrace)->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImportSyntheticJson)->Arg(16)->Unit(benchmark::kMillisecond);
// The largest uncompressed real files of each format.
BENCHMARK_CAPTURE(BM_ImportRealFile, counter_tracks_html,
                  "systrace/catapult__counter_tracks.html")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ImportRealFile, android_systrace_html,
                  "systrace/catapult__android_systrace.html")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ImportRealFile, google_highlight_json,
                  "chrome_json/catapult__google_highlight.json")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ImportRealFile, tcmalloc_trace_json,
                  "chrome_json/catapult__tcmalloc_trace.json")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tw

BENCHMARK_MAIN();

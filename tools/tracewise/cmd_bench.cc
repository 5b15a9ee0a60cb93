// `tracewise bench`: the trace engine's import benchmark. Generates a synthetic sched-heavy
// Perfetto trace (tools/synth) per encoding, or reuses one, and imports it in a fresh child
// process per run (fork + exec of this binary in the hidden `bench bench-import` mode), so the child's
// peak RSS (VmHWM) is the import's alone, not the generator's or an earlier run's. Prints
// throughput and memory per imported event against the targets, and where the time goes.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "libs/common/process_memory.h"
#include "libs/trace/events/task_state.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/proto_importer.h"
#include "libs/trace/reader/open_trace.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/trace_loader.h"
#include "libs/trace/trackers/event_router.h"
#include "libs/trace/trackers/trace_context.h"
#include "tools/synth/sched_trace_writer.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

constexpr double kTargetEventsPerSecond = 1.5e6;
constexpr double kTargetBytesPerEvent = 120;

using Clock = std::chrono::steady_clock;
int64_t NsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// What a child reports: "key value" lines on stdout.
using Report = std::map<std::string, int64_t>;

void Emit(const char* key, int64_t value) {
  std::printf("%s %lld\n", key, static_cast<long long>(value));
}

int64_t CpuNs(const timeval& t) { return t.tv_sec * 1'000'000'000LL + t.tv_usec * 1000LL; }

// CPU time and faults since `before`, so the child's own start-up (exec, dynamic linking) is
// not counted as import work.
void EmitRusage(const rusage& before) {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  Emit("user_ns", CpuNs(u.ru_utime) - CpuNs(before.ru_utime));
  Emit("sys_ns", CpuNs(u.ru_stime) - CpuNs(before.ru_stime));
  Emit("minor_faults", u.ru_minflt - before.ru_minflt);
}

rusage RusageNow() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u;
}

// The measured run: exactly what every other caller does, LoadTraceFile.
int ImportForBench(const std::string& path) {
  const int64_t baseline = PeakRssBytes();
  const rusage usage_before = RusageNow();
  const auto start = Clock::now();
  auto loaded = LoadTraceFile(path);
  const int64_t wall = NsSince(start);
  if (!loaded.ok()) {
    std::fprintf(stderr, "tracewise bench-import: %s\n",
                 std::string(loaded.status().message()).c_str());
    return 1;
  }
  const LoadInfo& info = (*loaded)->info();
  Emit("import_ns", wall);
  Emit("events", info.events);
  Emit("file_bytes", info.file_bytes);
  Emit("peak_rss", PeakRssBytes());
  Emit("baseline_rss", baseline);
  Emit("sched_rows", (*loaded)->storage().sched_slice.row_count());
  Emit("thread_state_rows", (*loaded)->storage().thread_state.row_count());
  EmitRusage(usage_before);
  std::fflush(stdout);
  std::_Exit(0);  // tearing down the trace is not part of the import
}

// The instrumented run: the loader's stages called one by one (as trace_loader.cc wires them)
// with a timer and an RSS reading between them. Routing time is summed per event, so sorting is
// what the sorter's Finish() spends outside the trackers. Perfetto protobuf only.
int PhasedImportForBench(const std::string& path) {
  auto opened = OpenTraceFile(path);
  if (!opened.ok() || opened->format != TraceFormat::kPerfettoProto) {
    std::fprintf(stderr, "tracewise bench-import: phases need a Perfetto protobuf trace\n");
    return 1;
  }
  const rusage usage_before = RusageNow();
  const auto start = Clock::now();
  auto storage = std::make_unique<TraceStorage>();
  TraceContext context(storage.get());
  EventRouter router(&context);
  int64_t events = 0, route_ns = 0;
  EventSorter sorter(0, [&](Event& e) {
    const auto t = Clock::now();
    router.Route(e);
    route_ns += NsSince(t);
    ++events;
  });
  ImportContext ictx;
  ictx.storage = storage.get();
  ictx.sorter = &sorter;
  context.processes.SetPidZeroIsUpidZeroIdleProcess();
  ProtoImporter importer(&ictx);
  if (absl::Status s = importer.Import(opened->source.get(), LoadOptions().max_packet_bytes);
      !s.ok()) {
    std::fprintf(stderr, "tracewise bench-import: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  // As the loader does: system_info picks the task-state layout before any event is routed.
  if (auto release = storage->GetMetadataString("system_release")) {
    context.sched.set_kernel_version(ParseKernelVersion(*release));
  }
  const int64_t decode_ns = NsSince(start);
  const int64_t rss_decoded = CurrentRssBytes();
  const size_t buffered = sorter.buffered();
  const auto t_sort = Clock::now();
  sorter.Finish();
  router.Finish();
  const int64_t sort_route_ns = NsSince(t_sort);
  const int64_t rss_derived = CurrentRssBytes();
  const auto t_fin = Clock::now();
  storage->FinalizeStatsAndMetadata();
  const int64_t finalize_ns = NsSince(t_fin);
  const auto t_sql = Clock::now();
  auto db = TraceDatabase::Open(storage.get());
  if (!db.ok()) {
    std::fprintf(stderr, "tracewise bench-import: %s\n", std::string(db.status().message()).c_str());
    return 1;
  }
  const int64_t sql_ns = NsSince(t_sql);
  Emit("import_ns", NsSince(start));
  Emit("events", events);
  Emit("decode_ns", decode_ns);
  Emit("sort_ns", sort_route_ns - route_ns);
  Emit("derive_ns", route_ns);
  Emit("finalize_ns", finalize_ns);
  Emit("sql_open_ns", sql_ns);
  Emit("buffered_events", static_cast<int64_t>(buffered));
  Emit("rss_after_decode", rss_decoded);
  Emit("rss_after_derive", rss_derived);
  Emit("peak_rss", PeakRssBytes());
  Emit("string_pool_bytes", static_cast<int64_t>(storage->strings().memory_bytes()));
  for (Table* t : storage->AllTables()) {
    if (t->memory_bytes() >= (1 << 20)) {
      std::printf("table:%s %lld\n", t->name().c_str(), static_cast<long long>(t->memory_bytes()));
    }
  }
  EmitRusage(usage_before);
  std::fflush(stdout);
  std::_Exit(0);
}

// Runs `self bench bench-import path [--phases]` and parses its report.
std::optional<Report> RunChild(const std::string& path, bool phases,
                               std::map<std::string, int64_t>* tables) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  const pid_t pid = fork();
  if (pid < 0) return std::nullopt;
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<const char*> argv = {"tracewise", "bench", "bench-import", path.c_str()};
    if (phases) argv.push_back("--phases");
    argv.push_back(nullptr);
    execv("/proc/self/exe", const_cast<char* const*>(argv.data()));
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  Report r;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    const size_t sp = line.find(' ');
    if (sp == absl::string_view::npos) continue;
    const std::string key(line.substr(0, sp));
    const int64_t value = std::strtoll(std::string(line.substr(sp + 1)).c_str(), nullptr, 10);
    if (key.rfind("table:", 0) == 0) {
      if (tables) (*tables)[key.substr(6)] = value;
    } else {
      r[key] = value;
    }
  }
  if (!r.count("import_ns") || !r.count("events")) return std::nullopt;
  return r;
}

struct BenchOptions {
  std::vector<synth::SchedEncoding> encodings = {synth::SchedEncoding::kPlain,
                                                 synth::SchedEncoding::kCompact};
  uint32_t cpus = 8;
  double seconds = 60;
  int runs = 3;
  uint64_t seed = 1;
  double print_rate_hz = 0;
  double load = synth::SchedTraceOptions().load;
  // The trace's shape beyond cpus/seconds/load/print rate (see Shape()).
  std::string shape = "sched";
  synth::SchedTraceOptions shape_options;
  std::string trace;  // reuse this file instead of generating
  std::string dir;    // where generated traces go (default: a new temp dir)
  bool json = false;
  bool keep = false;
  bool phases = true;
  bool check = false;
  bool includes = false;  // time INCLUDE of every stdlib module instead of the import
  bool intervals = false;  // time _interval_intersect! instead of the import
};

struct EncodingResult {
  std::string label;
  std::string path;
  int64_t file_bytes = 0;
  int64_t generate_ns = 0;
  std::vector<Report> runs;
  Report phases;
  std::map<std::string, int64_t> tables;

  int64_t events() const { return runs.front().at("events"); }
  std::vector<int64_t> Times() const {
    std::vector<int64_t> t;
    for (const Report& r : runs) t.push_back(r.at("import_ns"));
    std::sort(t.begin(), t.end());
    return t;
  }
  int64_t best_ns() const { return Times().front(); }
  int64_t median_ns() const {
    const auto t = Times();
    return t.size() % 2 ? t[t.size() / 2] : (t[t.size() / 2 - 1] + t[t.size() / 2]) / 2;
  }
  // Peak RSS barely varies between runs; report the worst so a PASS holds for every run.
  int64_t peak_rss() const {
    int64_t m = 0;
    for (const Report& r : runs) m = std::max(m, r.at("peak_rss"));
    return m;
  }
  // CPU time (user + sys) of the median-CPU run: unlike wall time it barely moves when other
  // jobs compete for the cores, so it tells a slower engine from a busy machine.
  int64_t median_cpu_ns() const {
    std::vector<int64_t> t;
    for (const Report& r : runs) t.push_back(r.at("user_ns") + r.at("sys_ns"));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
  double EventsPerSecond(int64_t ns) const { return events() * 1e9 / static_cast<double>(ns); }
  double MBPerSecond(int64_t ns) const { return file_bytes * 1e3 / static_cast<double>(ns); }
  double BytesPerEvent() const { return static_cast<double>(peak_rss()) / events(); }
  // Speed is judged on the median run, not the luckiest one.
  bool speed_pass() const { return EventsPerSecond(median_ns()) >= kTargetEventsPerSecond; }
  bool memory_pass() const { return BytesPerEvent() <= kTargetBytesPerEvent; }
};

// Named trace shapes, so the engine is measured on more than switch/waking. Each is a preset of
// the generator's options; --cpus, --seconds, --load, --print-rate and --seed still apply.
//   sched     switch + waking only (320 threads, ~5 M events on 8 cpus x 60 s)
//   mixed     issue 17's second shape: 325 threads, idle states on every idle entry/exit,
//             cpu_frequency, sched_blocked_reason on D sleeps; longer slices, lighter load
//   counters  sched plus many counters: atrace "C|" markers and frequent cpu_frequency
//   threads   12,000 threads in 400 processes (thread/process tables, comm interning)
std::optional<synth::SchedTraceOptions> Shape(const std::string& name, double* load) {
  synth::SchedTraceOptions so;
  if (name == "sched") return so;
  if (name == "mixed") {
    so.threads = 325;
    so.mean_slice_ns = 280'000;
    *load = 0.5;
    so.cpu_idle = true;
    so.frequency_rate_hz = 21;
    so.blocked_reason_fraction = 0.2;
    return so;
  }
  if (name == "counters") {
    so.cpu_idle = true;
    so.frequency_rate_hz = 500;
    so.counter_rate_hz = 2000;
    return so;
  }
  if (name == "threads") {
    so.processes = 400;
    so.threads = 12'000;
    return so;
  }
  return std::nullopt;
}

bool ParseFlag(const std::string& arg, const char* name, std::string* value) {
  const std::string prefix = absl::StrCat("--", name, "=");
  if (arg.rfind(prefix, 0) != 0) return false;
  *value = arg.substr(prefix.size());
  return true;
}

int Usage() {
  std::fprintf(stderr,
               "usage: tracewise bench [--shape=sched|mixed|counters|threads]\n"
               "                       [--encoding=plain|compact|both] [--cpus=N] [--seconds=S]\n"
               "                       [--runs=N] [--seed=N] [--load=F] [--print-rate=HZ] [--trace=PATH]\n"
               "                       [--dir=DIR] [--keep] [--no-phases] [--json] [--check]\n"
               "       tracewise bench --includes [--trace=PATH] [--runs=N] [--json] [--check]\n"
               "       tracewise bench --intervals [--runs=N] [--json]\n"
               "  Imports a synthetic sched trace (or PATH) in a child process per run and\n"
               "  reports events/s and peak RSS per event against the targets (>= %.1f M\n"
               "  events/s, <= %.0f B/event). --check exits 1 when a target is missed.\n"
               "  --includes times INCLUDE PERFETTO MODULE of every stdlib module, cold, on\n"
               "  2.8 s of tracegen's 'large' scenario (~1 M events; or PATH); target < 150 ms.\n"
               "  --intervals times _interval_intersect! on 20 k x 20 k and 1 M x 1 M intervals,\n"
               "  without and with partitions.\n",
               kTargetEventsPerSecond / 1e6, kTargetBytesPerEvent);
  return 2;
}

std::optional<BenchOptions> ParseArgs(const Args& args) {
  BenchOptions o;
  for (const std::string& a : args) {
    std::string v;
    if (ParseFlag(a, "shape", &v)) o.shape = v;
  }
  std::optional<synth::SchedTraceOptions> shape = Shape(o.shape, &o.load);
  if (!shape) return std::nullopt;
  o.shape_options = *shape;
  for (const std::string& a : args) {
    std::string v;
    if (ParseFlag(a, "shape", &v)) {
      continue;
    } else if (ParseFlag(a, "encoding", &v)) {
      if (v == "plain") o.encodings = {synth::SchedEncoding::kPlain};
      else if (v == "compact") o.encodings = {synth::SchedEncoding::kCompact};
      else if (v != "both") return std::nullopt;
    } else if (ParseFlag(a, "cpus", &v)) {
      o.cpus = static_cast<uint32_t>(std::atoi(v.c_str()));
      if (o.cpus < 1 || o.cpus > 1024) return std::nullopt;
    } else if (ParseFlag(a, "seconds", &v)) {
      o.seconds = std::atof(v.c_str());
      if (!(o.seconds > 0)) return std::nullopt;
    } else if (ParseFlag(a, "runs", &v)) {
      o.runs = std::atoi(v.c_str());
      if (o.runs < 1) return std::nullopt;
    } else if (ParseFlag(a, "seed", &v)) {
      o.seed = std::strtoull(v.c_str(), nullptr, 10);
    } else if (ParseFlag(a, "print-rate", &v)) {
      o.print_rate_hz = std::atof(v.c_str());
    } else if (ParseFlag(a, "load", &v)) {
      o.load = std::atof(v.c_str());
      if (!(o.load > 0)) return std::nullopt;
    } else if (ParseFlag(a, "trace", &v)) {
      o.trace = v;
    } else if (ParseFlag(a, "dir", &v)) {
      o.dir = v;
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--keep") {
      o.keep = true;
    } else if (a == "--no-phases") {
      o.phases = false;
    } else if (a == "--check") {
      o.check = true;
    } else if (a == "--includes") {
      o.includes = true;
    } else if (a == "--intervals") {
      o.intervals = true;
    } else {
      return std::nullopt;
    }
  }
  return o;
}

std::string MakeTempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = absl::StrCat(base && *base ? base : "/tmp", "/tracewise-bench-XXXXXX");
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  return mkdtemp(buf.data()) ? std::string(buf.data()) : std::string();
}

// Generates (unless reusing) and measures one encoding. False on failure (message printed).
bool MeasureEncoding(const BenchOptions& o, std::optional<synth::SchedEncoding> encoding,
                     const std::string& dir, EncodingResult* r) {
  if (encoding) {
    synth::SchedTraceOptions so = o.shape_options;
    so.cpus = o.cpus;
    so.duration_ns = static_cast<int64_t>(o.seconds * 1e9);
    so.encoding = *encoding;
    so.seed = o.seed;
    so.print_rate_hz = o.print_rate_hz;
    so.load = o.load;
    r->label = synth::SchedEncodingName(*encoding);
    r->path = absl::StrFormat("%s/%s_%s_%ucpu_%gs.pb", dir, o.shape, r->label, o.cpus, o.seconds);
    std::fprintf(stderr, "generating %s ...\n", r->path.c_str());
    synth::SchedTraceSummary summary;
    const auto start = Clock::now();
    if (absl::Status s = synth::WriteSyntheticSchedTrace(so, r->path, &summary); !s.ok()) {
      std::fprintf(stderr, "tracewise bench: %s\n", std::string(s.message()).c_str());
      return false;
    }
    r->generate_ns = NsSince(start);
    std::fprintf(stderr,
                 "  %lld sched_switch, %lld sched_waking, %lld cpu_idle, %lld cpu_frequency, %lld "
                 "sched_blocked_reason, %lld print, %.1f MB in %.1f s\n",
                 static_cast<long long>(summary.sched_switch),
                 static_cast<long long>(summary.sched_waking),
                 static_cast<long long>(summary.cpu_idle),
                 static_cast<long long>(summary.cpu_frequency),
                 static_cast<long long>(summary.blocked_reason),
                 static_cast<long long>(summary.print), summary.bytes / 1e6, r->generate_ns / 1e9);
  } else {
    r->label = "file";
    r->path = o.trace;
  }
  for (int i = 0; i < o.runs; ++i) {
    std::optional<Report> rep = RunChild(r->path, false, nullptr);
    if (!rep) {
      std::fprintf(stderr, "tracewise bench: importing %s failed\n", r->path.c_str());
      return false;
    }
    std::fprintf(stderr, "  %s run %d: %.3f s, peak RSS %.1f MiB\n", r->label.c_str(), i + 1,
                 rep->at("import_ns") / 1e9, rep->at("peak_rss") / 1048576.0);
    r->runs.push_back(std::move(*rep));
  }
  r->file_bytes = r->runs.front().at("file_bytes");
  if (o.phases) {
    if (std::optional<Report> rep = RunChild(r->path, true, &r->tables)) r->phases = *rep;
  }
  return true;
}

double Pct(int64_t part, int64_t whole) { return whole ? 100.0 * part / whole : 0; }

void PrintTable(const BenchOptions& o, const std::vector<EncodingResult>& results) {
  if (o.trace.empty()) {
    std::printf("tracewise bench: synthetic '%s' trace, %u cpus x %g s, %d run(s) each\n",
                o.shape.c_str(), o.cpus, o.seconds, o.runs);
  } else {
    std::printf("tracewise bench: %s, %d run(s)\n", o.trace.c_str(), o.runs);
  }
  std::printf("targets: >= %.2f M events/s end to end (median run), peak RSS <= %.0f B/event\n\n",
              kTargetEventsPerSecond / 1e6, kTargetBytesPerEvent);
  std::printf("%-8s %8s %10s %17s %15s %15s %10s %9s %7s %5s %6s\n", "encoding", "file MB",
              "events", "import s best/med", "M ev/s best/med", "MB/s best/med", "M ev/cpu-s",
              "peak MiB", "B/event", "speed", "memory");
  for (const EncodingResult& r : results) {
    std::printf(
        "%-8s %8.1f %10lld %8.3f/%-8.3f %7.2f/%-7.2f %7.1f/%-7.1f %10.2f %9.1f %7.1f %5s %6s\n",
        r.label.c_str(), r.file_bytes / 1e6, static_cast<long long>(r.events()),
        r.best_ns() / 1e9, r.median_ns() / 1e9, r.EventsPerSecond(r.best_ns()) / 1e6,
        r.EventsPerSecond(r.median_ns()) / 1e6, r.MBPerSecond(r.best_ns()),
        r.MBPerSecond(r.median_ns()), r.EventsPerSecond(r.median_cpu_ns()) / 1e6,
        r.peak_rss() / 1048576.0, r.BytesPerEvent(), r.speed_pass() ? "PASS" : "FAIL",
        r.memory_pass() ? "PASS" : "FAIL");
  }
  std::printf("(speed is judged on wall time; M ev/cpu-s uses user+sys time and is less\n"
              " sensitive to other jobs on the machine)\n");
  bool any_phases = false;
  for (const EncodingResult& r : results) any_phases |= !r.phases.empty();
  if (!any_phases) return;
  std::printf("\nwhere the time goes (one extra instrumented run per encoding; sort = merge of\n"
              "the per-cpu queues, derive = trackers writing sched/thread_state/... rows):\n");
  for (const EncodingResult& r : results) {
    if (r.phases.empty()) continue;
    const Report& p = r.phases;
    const int64_t total = p.at("import_ns");
    std::printf("  %-8s total %.3f s: decode %.3f s (%.0f%%), sort %.3f s (%.0f%%), derive %.3f s "
                "(%.0f%%), finalize %.3f s, sql open %.3f s (%.0f%%); user %.2f s, sys %.2f s\n",
                r.label.c_str(), total / 1e9, p.at("decode_ns") / 1e9,
                Pct(p.at("decode_ns"), total), p.at("sort_ns") / 1e9, Pct(p.at("sort_ns"), total),
                p.at("derive_ns") / 1e9, Pct(p.at("derive_ns"), total), p.at("finalize_ns") / 1e9,
                p.at("sql_open_ns") / 1e9, Pct(p.at("sql_open_ns"), total), p.at("user_ns") / 1e9,
                p.at("sys_ns") / 1e9);
    const double ev = static_cast<double>(p.at("events"));
    std::printf("  %-8s RSS after decode %.0f MiB (%.0f B/event; %lld events buffered in the "
                "sorter), after derive %.0f MiB, peak %.0f MiB (%.0f B/event)\n",
                "", p.at("rss_after_decode") / 1048576.0, p.at("rss_after_decode") / ev,
                static_cast<long long>(p.at("buffered_events")),
                p.at("rss_after_derive") / 1048576.0, p.at("peak_rss") / 1048576.0,
                p.at("peak_rss") / ev);
    std::string tables;
    for (const auto& [name, bytes] : r.tables) {
      absl::StrAppendFormat(&tables, "%s%s %.0f MiB (%.1f B/event)", tables.empty() ? "" : ", ",
                            name, bytes / 1048576.0, bytes / ev);
    }
    std::printf("  %-8s tables: %s; string pool %.1f MiB\n", "", tables.c_str(),
                p.at("string_pool_bytes") / 1048576.0);
  }
}

void PrintJson(const BenchOptions& o, const std::vector<EncodingResult>& results) {
  std::string out = absl::StrFormat(
      "{\"cpus\":%u,\"seconds\":%g,\"runs\":%d,\"seed\":%u,\"trace\":\"%s\","
      "\"targets\":{\"events_per_second\":%.0f,\"bytes_per_event\":%.0f},\"results\":[",
      o.cpus, o.seconds, o.runs, o.seed, o.trace, kTargetEventsPerSecond, kTargetBytesPerEvent);
  auto report_json = [](const Report& r) {
    std::string s = "{";
    for (const auto& [k, v] : r) absl::StrAppendFormat(&s, "%s\"%s\":%d", s.size() > 1 ? "," : "", k, v);
    return s + "}";
  };
  for (size_t i = 0; i < results.size(); ++i) {
    const EncodingResult& r = results[i];
    absl::StrAppendFormat(
        &out,
        "%s{\"encoding\":\"%s\",\"file_bytes\":%d,\"events\":%d,\"generate_ns\":%d,"
        "\"best_import_ns\":%d,\"median_import_ns\":%d,\"events_per_second_best\":%.0f,"
        "\"events_per_second_median\":%.0f,\"mb_per_second_best\":%.2f,"
        "\"mb_per_second_median\":%.2f,\"events_per_cpu_second_median\":%.0f,"
        "\"peak_rss_bytes\":%d,\"bytes_per_event\":%.2f,"
        "\"speed_pass\":%s,\"memory_pass\":%s,\"runs\":[",
        i ? "," : "", r.label, r.file_bytes, r.events(), r.generate_ns, r.best_ns(),
        r.median_ns(), r.EventsPerSecond(r.best_ns()), r.EventsPerSecond(r.median_ns()),
        r.MBPerSecond(r.best_ns()), r.MBPerSecond(r.median_ns()),
        r.EventsPerSecond(r.median_cpu_ns()), r.peak_rss(),
        r.BytesPerEvent(), r.speed_pass() ? "true" : "false", r.memory_pass() ? "true" : "false");
    for (size_t j = 0; j < r.runs.size(); ++j) {
      absl::StrAppend(&out, j ? "," : "", report_json(r.runs[j]));
    }
    absl::StrAppend(&out, "],\"phases\":", r.phases.empty() ? "null" : report_json(r.phases),
                    ",\"table_bytes\":", report_json(r.tables), "}");
  }
  out += "]}\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

// The hidden child mode: `tracewise bench bench-import TRACE [--phases]`.
int RunBenchImport(const Args& args) {
  if (args.size() < 2 || args.size() > 3 || (args.size() == 3 && args[2] != "--phases")) {
    std::fprintf(stderr, "usage: tracewise bench bench-import TRACE [--phases]\n");
    return 2;
  }
  return args.size() == 3 ? PhasedImportForBench(args[1]) : ImportForBench(args[1]);
}

}  // namespace

int RunBench(const Args& args) {
  if (!args.empty() && args[0] == "bench-import") return RunBenchImport(args);
  std::optional<BenchOptions> parsed = ParseArgs(args);
  if (!parsed) return Usage();
  const BenchOptions& o = *parsed;
  if (o.includes) return RunBenchIncludes(o.trace, o.runs, o.check, o.json);
  if (o.intervals) return RunBenchIntervals(o.runs, o.json);
  std::string dir = o.dir;
  const bool own_dir = o.trace.empty() && dir.empty();
  if (own_dir) {
    dir = MakeTempDir();
    if (dir.empty()) {
      std::fprintf(stderr, "tracewise bench: cannot create a temp dir: %s\n", std::strerror(errno));
      return 1;
    }
  }
  std::vector<EncodingResult> results;
  bool ok = true;
  if (!o.trace.empty()) {
    results.emplace_back();
    ok = MeasureEncoding(o, std::nullopt, dir, &results.back());
  } else {
    for (synth::SchedEncoding e : o.encodings) {
      results.emplace_back();
      ok = MeasureEncoding(o, e, dir, &results.back());
      if (!o.keep) std::remove(results.back().path.c_str());
      if (!ok) break;
    }
  }
  if (own_dir && !o.keep) rmdir(dir.c_str());
  if (o.keep && o.trace.empty()) std::fprintf(stderr, "traces kept in %s\n", dir.c_str());
  if (!ok) return 1;
  if (o.json) {
    PrintJson(o, results);
  } else {
    PrintTable(o, results);
  }
  if (o.check) {
    for (const EncodingResult& r : results) {
      if (!r.speed_pass() || !r.memory_pass()) return 1;
    }
  }
  return 0;
}

}  // namespace tw::cli

// tw_difftest: runs Perfetto's trace_processor diff tests (../shared/difftests, one folder per
// test: a trace, query.sql, expected.csv) against our engine and reports pass rates per suite.
// Tests of tables we do not support yet are expected to fail; the pass rate is the coverage
// measure, and --min-pass-rate turns it into a gate.
//
// Usage: tw_difftest [DIR] [--suites=A,B] [--filter=SUBSTR] [--verbose] [--json=PATH]
//                    [--min-pass-rate=0.xx] [--skip-exit-code=N] [--oracle]
//
// --oracle runs ../shared/oracle instead: trace_processor's answers to a battery of queries on
// the real traces of ../shared/traces (oracle/<trace file>/<NN-name>.sql + .csv). Each answer
// is a test named "<trace file>/<NN-name>" in suite "<NN-name>", compared like a diff test;
// each trace is loaded once.
//
// Everything runs in one process, one test after another: a crash in the engine stops the run
// (the lead fixes crashes rather than hiding them), so FAIL lines are flushed as they happen and
// --verbose names each test on stderr before it starts.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "libs/trace/query/result_format.h"
#include "libs/trace/trace_loader.h"

#ifndef TW_SHARED_DIR
#define TW_SHARED_DIR "../shared"
#endif

namespace tw {
namespace {

namespace fs = std::filesystem;

constexpr absl::Duration kQueryTimeout = absl::Seconds(20);

struct Options {
  std::string dir = TW_SHARED_DIR "/difftests";
  std::string filter;            // substring of the test name
  std::set<std::string> suites;  // empty: all
  bool verbose = false;
  std::string json_path;
  double min_pass_rate = 0.0;
  int skip_exit_code = 0;  // exit code when the difftests directory is missing
  bool oracle = false;     // DIR is ../shared/oracle (queries on ../shared/traces)
  bool show = false;       // print the whole actual output of failing tests
};

bool g_show_actual = false;

struct Outcome {
  std::string name;  // "<Suite>__<test>"
  std::string suite;
  bool passed = false;
  std::string reason;  // why it failed; first line is the summary
  int64_t elapsed_ms = 0;
};

void PrintUsage() {
  std::fprintf(stderr,
               "usage: tw_difftest [DIR] [--suites=A,B] [--filter=SUBSTR] [--verbose]\n"
               "                   [--json=PATH] [--min-pass-rate=0.xx] [--skip-exit-code=N]\n"
               "                   [--oracle] [--show]\n"
               "DIR defaults to %s/difftests (with --oracle: %s/oracle)\n",
               TW_SHARED_DIR, TW_SHARED_DIR);
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::optional<Options> ParseArgs(int argc, char** argv) {
  Options o;
  bool have_dir = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&](std::string_view flag) { return std::string(a.substr(flag.size())); };
    if (a == "--verbose" || a == "-v") {
      o.verbose = true;
    } else if (a == "--oracle") {
      o.oracle = true;
    } else if (a == "--show") {
      o.show = true;
      g_show_actual = true;
    } else if (StartsWith(a, "--filter=")) {
      o.filter = value("--filter=");
    } else if (StartsWith(a, "--suites=")) {
      for (absl::string_view s : absl::StrSplit(value("--suites="), ',', absl::SkipEmpty())) {
        o.suites.insert(std::string(s));
      }
    } else if (StartsWith(a, "--json=")) {
      o.json_path = value("--json=");
    } else if (StartsWith(a, "--min-pass-rate=")) {
      std::string v = value("--min-pass-rate=");
      if (!absl::SimpleAtod(v, &o.min_pass_rate) || o.min_pass_rate < 0 || o.min_pass_rate > 1) {
        std::fprintf(stderr, "--min-pass-rate wants a fraction in [0, 1], got '%s'\n", v.c_str());
        return std::nullopt;
      }
    } else if (StartsWith(a, "--skip-exit-code=")) {
      std::string v = value("--skip-exit-code=");
      if (!absl::SimpleAtoi(v, &o.skip_exit_code)) {
        std::fprintf(stderr, "--skip-exit-code wants an integer, got '%s'\n", v.c_str());
        return std::nullopt;
      }
    } else if (!StartsWith(a, "-") && !have_dir) {
      o.dir = std::string(a);
      have_dir = true;
    } else {
      std::fprintf(stderr, "unknown argument '%s'\n", argv[i]);
      return std::nullopt;
    }
  }
  if (o.oracle && !have_dir) o.dir = TW_SHARED_DIR "/oracle";
  return o;
}

std::optional<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The test's trace: known names first (a folder holds one), then any other `trace.*`. The
// textproto is only the readable source of trace.pb, and trace.py a generator; neither loads.
std::optional<fs::path> FindTrace(const fs::path& test_dir) {
  static const char* const kKnown[] = {"trace.pb", "trace.systrace", "trace.txt", "trace.json",
                                       "trace.datapath.pftrace"};
  for (const char* name : kKnown) {
    if (fs::is_regular_file(test_dir / name)) return test_dir / name;
  }
  std::vector<fs::path> others;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(test_dir, ec)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && StartsWith(name, "trace.") && name != "trace.textproto" &&
        name != "trace.py") {
      others.push_back(e.path());
    }
  }
  if (others.empty()) return std::nullopt;
  std::sort(others.begin(), others.end());
  return others.front();
}

std::string FirstLine(std::string_view s) { return std::string(s.substr(0, s.find('\n'))); }

// Runs `sql` on the trace; "" when its CSV equals `expected`, else why not.
std::string QueryAndCompare(LoadedTrace& trace, const std::string& sql,
                            const std::string& expected) {
  QueryOptions qopts;
  qopts.timeout = kQueryTimeout;
  qopts.every_output = true;  // printed as trace_processor's shell prints a multi-statement query
  auto result = trace.Query(sql, qopts);
  if (!result.ok()) return absl::StrCat("query: ", result.status().ToString());
  std::string diff;
  const std::string actual = FormatCsvOutputs(*result);
  if (CsvEquivalent(expected, actual, &diff)) return "";
  if (g_show_actual) return absl::StrCat("output differs: ", diff, "\nactual output:\n", actual);
  return absl::StrCat("output differs: ", diff);
}

Outcome RunOne(const fs::path& test_dir) {
  Outcome out;
  out.name = test_dir.filename().string();
  size_t sep = out.name.find("__");
  out.suite = sep == std::string::npos ? out.name : out.name.substr(0, sep);

  auto start = std::chrono::steady_clock::now();
  auto finish = [&](bool passed, std::string reason) {
    out.passed = passed;
    out.reason = std::move(reason);
    out.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    return out;
  };

  std::optional<fs::path> trace = FindTrace(test_dir);
  if (!trace) return finish(false, "no trace.* file");
  std::optional<std::string> sql = ReadFile(test_dir / "query.sql");
  if (!sql) return finish(false, "missing query.sql");
  std::optional<std::string> expected = ReadFile(test_dir / "expected.csv");
  if (!expected) return finish(false, "missing expected.csv");

  // As Perfetto's diff-test harness runs trace_processor: with --crop-track-events.
  LoadOptions options;
  options.crop_track_events = true;
  auto loaded = LoadTraceFile(trace->string(), options);
  if (!loaded.ok()) {
    return finish(
        false, absl::StrCat("load ", trace->filename().string(), ": ", loaded.status().ToString()));
  }
  std::string reason = QueryAndCompare(**loaded, *sql, *expected);
  return finish(reason.empty(), reason);
}

// The oracle's trace files live in ../shared/traces/<format>/<name>, named like their folder.
std::optional<fs::path> FindOracleTrace(const fs::path& oracle_dir, const std::string& name) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(oracle_dir.parent_path() / "traces", ec)) {
    if (e.is_directory() && fs::is_regular_file(e.path() / name)) return e.path() / name;
  }
  return std::nullopt;
}

// One trace of the oracle: loaded once, then each of its queries compared.
std::vector<Outcome> RunOracleTrace(const fs::path& trace_dir, const Options& opts) {
  const std::string trace_name = trace_dir.filename().string();
  std::vector<fs::path> queries;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(trace_dir, ec)) {
    if (e.path().extension() != ".sql") continue;
    const std::string test = trace_name + "/" + e.path().stem().string();
    if (!opts.suites.empty() && !opts.suites.count(e.path().stem().string())) continue;
    if (!opts.filter.empty() && test.find(opts.filter) == std::string::npos) continue;
    queries.push_back(e.path());
  }
  std::sort(queries.begin(), queries.end());
  std::vector<Outcome> out;
  if (queries.empty()) return out;

  const std::optional<fs::path> trace = FindOracleTrace(trace_dir.parent_path(), trace_name);
  absl::StatusOr<std::unique_ptr<LoadedTrace>> loaded =
      absl::NotFoundError("trace file not found under ../traces");
  if (trace) loaded = LoadTraceFile(trace->string());
  for (const fs::path& q : queries) {
    auto start = std::chrono::steady_clock::now();
    Outcome o;
    o.suite = q.stem().string();
    o.name = trace_name + "/" + o.suite;
    std::optional<std::string> sql = ReadFile(q);
    fs::path csv = q;
    csv.replace_extension(".csv");
    std::optional<std::string> expected = ReadFile(csv);
    if (!loaded.ok()) {
      o.reason = absl::StrCat("load ", trace_name, ": ", loaded.status().ToString());
    } else if (!sql || !expected) {
      o.reason = "missing .sql or .csv";
    } else {
      o.reason = QueryAndCompare(**loaded, *sql, *expected);
    }
    o.passed = o.reason.empty();
    o.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    out.push_back(std::move(o));
  }
  return out;
}

struct SuiteCount {
  int passed = 0;
  int failed = 0;
};

bool WriteJson(const std::string& path, const std::vector<Outcome>& outcomes,
               const std::map<std::string, SuiteCount>& suites, int passed, int failed) {
  std::string j = absl::StrCat("{\"passed\":", passed, ",\"failed\":", failed, ",\"suites\":{");
  bool first = true;
  for (const auto& [suite, count] : suites) {
    absl::StrAppend(&j, first ? "" : ",", JsonQuote(suite), ":{\"passed\":", count.passed,
                    ",\"failed\":", count.failed, "}");
    first = false;
  }
  j += "},\"tests\":[";
  first = true;
  for (const Outcome& o : outcomes) {
    absl::StrAppend(&j, first ? "" : ",", "{\"name\":", JsonQuote(o.name),
                    ",\"suite\":", JsonQuote(o.suite), ",\"passed\":", o.passed ? "true" : "false",
                    ",\"elapsed_ms\":", o.elapsed_ms, ",\"reason\":", JsonQuote(o.reason), "}");
    first = false;
  }
  j += "]}\n";
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << j;
  return static_cast<bool>(f);
}

int Main(int argc, char** argv) {
  std::optional<Options> opts = ParseArgs(argc, argv);
  if (!opts) {
    PrintUsage();
    return 2;
  }
  std::error_code ec;
  if (!fs::is_directory(opts->dir, ec)) {
    std::printf("difftests not found at %s: skipped\n", opts->dir.c_str());
    return opts->skip_exit_code;
  }

  std::vector<fs::path> tests;
  for (const auto& e : fs::directory_iterator(opts->dir, ec)) {
    if (!e.is_directory()) continue;
    std::string name = e.path().filename().string();
    if (!opts->oracle) {
      std::string suite = name.substr(0, name.find("__"));
      if (!opts->suites.empty() && !opts->suites.count(suite)) continue;
      if (!opts->filter.empty() && name.find(opts->filter) == std::string::npos) continue;
    }
    tests.push_back(e.path());
  }
  std::sort(tests.begin(), tests.end());

  std::vector<Outcome> outcomes;
  std::map<std::string, SuiteCount> suites;
  int passed = 0;
  int failed = 0;
  std::vector<Outcome> ran;
  for (const fs::path& dir : tests) {
    if (opts->verbose) {
      std::fprintf(stderr, "RUN  %s\n", dir.filename().string().c_str());
      std::fflush(stderr);
    }
    if (opts->oracle) {
      ran = RunOracleTrace(dir, *opts);
    } else {
      ran.clear();
      ran.push_back(RunOne(dir));
    }
    for (Outcome& o : ran) {
      SuiteCount& sc = suites[o.suite];
      if (o.passed) {
        ++passed;
        ++sc.passed;
        if (opts->verbose)
          std::printf("PASS %s (%lld ms)\n", o.name.c_str(), static_cast<long long>(o.elapsed_ms));
      } else {
        ++failed;
        ++sc.failed;
        std::printf("FAIL %s: %s\n", o.name.c_str(), FirstLine(o.reason).c_str());
        if (opts->verbose) {
          size_t nl = o.reason.find('\n');
          if (nl != std::string::npos) {
            std::string rest = o.reason.substr(nl + 1);
            while (!rest.empty() && rest.back() == '\n') rest.pop_back();
            if (!rest.empty()) std::printf("%s\n", rest.c_str());
          }
        }
      }
      std::fflush(stdout);
      outcomes.push_back(std::move(o));
    }
  }

  for (const auto& [suite, count] : suites) {
    std::printf("%s: %d passed, %d failed\n", suite.c_str(), count.passed, count.failed);
  }
  // The overall line carries a "difftest:" prefix so it is never mistaken for the project's own
  // test summary: difftest failures are expected while coverage grows.
  std::printf("difftest: %d passed, %d failed\n", passed, failed);
  std::fflush(stdout);

  if (!opts->json_path.empty() && !WriteJson(opts->json_path, outcomes, suites, passed, failed)) {
    std::fprintf(stderr, "cannot write %s\n", opts->json_path.c_str());
    return 2;
  }

  int total = passed + failed;
  // No selected test means the suite list or filter is wrong; only a zero gate lets that pass.
  double rate = total == 0 ? 0.0 : static_cast<double>(passed) / total;
  if (total == 0) std::fprintf(stderr, "no difftests selected in %s\n", opts->dir.c_str());
  if (rate < opts->min_pass_rate) {
    std::fprintf(stderr, "pass rate %.3f is below --min-pass-rate=%.3f\n", rate,
                 opts->min_pass_rate);
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace tw

int main(int argc, char** argv) { return tw::Main(argc, argv); }

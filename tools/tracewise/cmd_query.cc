// `tracewise query TRACE SQL [--format csv|table|json] [--timing]`: loads the trace, runs every
// statement of SQL in order and prints the last one's result. A SQL error prints SQLite's message
// and exits 1; a trace that cannot be loaded exits 1 too. `--timing` reports the load and query
// wall times on stderr (the first run, which builds lazy indexes, and the best of three more),
// for tuning skill SQL.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "libs/trace/query/result_format.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {

int RunQuery(const Args& args) {
  std::string format = "table";
  bool timing = false;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--format" && i + 1 < args.size()) {
      format = args[++i];
    } else if (a.rfind("--format=", 0) == 0) {
      format = a.substr(9);
    } else if (a == "--timing") {
      timing = true;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 2 || (format != "csv" && format != "table" && format != "json")) {
    std::fprintf(stderr,
                 "usage: tracewise query TRACE SQL [--format csv|table|json] [--timing]\n"
                 "       (SQL may be @file.sql to read it from a file)\n");
    return 2;
  }
  std::string sql = positional[1];
  if (!sql.empty() && sql[0] == '@') {
    std::ifstream in(sql.substr(1));
    if (!in) {
      std::fprintf(stderr, "tracewise: cannot read SQL file %s\n", sql.c_str() + 1);
      return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    sql = ss.str();
  }
  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  const auto load_start = Clock::now();
  auto trace = LoadTraceFile(positional[0]);
  const double load_ms = ms_since(load_start);
  if (!trace.ok()) {
    std::fprintf(stderr, "tracewise: cannot load %s: %s\n", positional[0].c_str(),
                 std::string(trace.status().message()).c_str());
    return 1;
  }
  double best_query_ms = 0;
  const auto first_start = Clock::now();
  auto result = (*trace)->Query(sql);
  const double first_ms = ms_since(first_start);  // includes building lazy indexes
  for (int run = 0; timing && run < 3 && result.ok(); ++run) {
    const auto query_start = Clock::now();
    result = (*trace)->Query(sql);
    const double ms = ms_since(query_start);
    best_query_ms = run == 0 ? ms : std::min(best_query_ms, ms);
  }
  if (!result.ok()) {
    std::fprintf(stderr, "tracewise: query failed: %s\n",
                 std::string(result.status().message()).c_str());
    return 1;
  }
  if (timing) {
    std::fprintf(stderr,
                 "load %.1f ms, first query %.1f ms (builds the indexes it needs), then %.1f ms "
                 "(best of 3), %zu rows\n",
                 load_ms, first_ms, best_query_ms, result->rows.size());
  }
  std::string out;
  if (format == "csv") {
    out = FormatCsv(*result);
  } else if (format == "json") {
    out = FormatJson(*result);
  } else {
    out = FormatTable(*result);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!out.empty() && out.back() != '\n') std::fputc('\n', stdout);
  return 0;
}

}  // namespace tw::cli

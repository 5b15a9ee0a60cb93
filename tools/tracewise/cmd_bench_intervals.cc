// `tracewise bench --intervals`: how long the stdlib's _interval_intersect! takes on two
// tables of N intervals each (N = 20 000 and 1 000 000), without partitions and with 64
// partitions (a utid-like column). Table A has an interval every 100 ns lasting 150 ns (each
// overlaps the next), table B one every 100 ns shifted by 37 ns lasting 60 ns: every B
// interval meets one or two of A's, so the result has about 2N rows — the shape of
// "which frames overlap which GC pauses", where a join without an index on time compares
// N x N pairs. Times (median of --runs) cover gathering both tables and the sweep: a COUNT(*)
// and a SUM over the result, on an empty trace.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/storage/trace_storage.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

struct IntervalsCase {
  int64_t n;
  int partitions;  // 0: none
  double median_ms = 0;
  int64_t rows = 0;
  std::string error;
};

std::string CreateTables(int64_t n, int partitions) {
  const std::string part = partitions > 0 ? absl::StrCat(", i % ", partitions, " AS utid") : "";
  return absl::StrCat(
      "CREATE PERFETTO TABLE bench_a AS WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 "
      "FROM s WHERE i < ", n - 1, ") SELECT i AS id, i * 100 AS ts, 150 AS dur", part,
      " FROM s;"
      "CREATE PERFETTO TABLE bench_b AS SELECT id, ts + 37 AS ts, 60 AS dur",
      partitions > 0 ? ", utid" : "", " FROM bench_a;");
}

}  // namespace

int RunBenchIntervals(int runs, bool json) {
  std::vector<IntervalsCase> cases = {{20000, 0}, {20000, 64}, {1000000, 0}, {1000000, 64}};
  for (IntervalsCase& c : cases) {
    TraceStorage storage;
    storage.FinalizeStatsAndMetadata();
    auto db = TraceDatabase::Open(&storage);
    if (!db.ok()) {
      c.error = std::string(db.status().message());
      continue;
    }
    auto setup = (*db)->Execute(absl::StrCat("INCLUDE PERFETTO MODULE intervals.intersect;",
                                             CreateTables(c.n, c.partitions)));
    if (!setup.ok()) {
      c.error = std::string(setup.status().message());
      continue;
    }
    const std::string query = absl::StrCat(
        "SELECT COUNT(*), SUM(dur) FROM _interval_intersect!((bench_a, bench_b), (",
        c.partitions > 0 ? "utid" : "", "))");
    std::vector<double> ms;
    for (int r = 0; r < runs && c.error.empty(); ++r) {
      const auto start = std::chrono::steady_clock::now();
      auto result = (*db)->Execute(query);
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
      if (!result.ok()) {
        c.error = std::string(result.status().message());
      } else if (!result->rows.empty()) {
        c.rows = result->rows[0][0].int_value;
      }
    }
    if (!ms.empty()) {
      std::sort(ms.begin(), ms.end());
      c.median_ms = ms[ms.size() / 2];
    }
  }
  bool ok = true;
  if (json) std::printf("[");
  for (size_t i = 0; i < cases.size(); ++i) {
    const IntervalsCase& c = cases[i];
    ok &= c.error.empty();
    if (json) {
      std::printf("%s{\"n\": %lld, \"partitions\": %d, \"rows\": %lld, \"median_ms\": %.1f%s}",
                  i ? ", " : "", static_cast<long long>(c.n), c.partitions,
                  static_cast<long long>(c.rows), c.median_ms,
                  c.error.empty() ? "" : absl::StrCat(", \"error\": \"", c.error, "\"").c_str());
    } else if (c.error.empty()) {
      std::printf("_interval_intersect! %7lld x %-7lld %-16s %8lld rows  %9.1f ms\n",
                  static_cast<long long>(c.n), static_cast<long long>(c.n),
                  c.partitions > 0 ? absl::StrCat(c.partitions, " partitions").c_str()
                                   : "no partitions",
                  static_cast<long long>(c.rows), c.median_ms);
    } else {
      std::printf("_interval_intersect! %lld: error: %s\n", static_cast<long long>(c.n),
                  c.error.c_str());
    }
  }
  if (json) std::printf("]\n");
  return ok ? 0 : 1;
}

}  // namespace tw::cli

#include "libs/trace/query/interval_intersect_sql.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tw {
namespace {

// `alias.column`, the column quoted unless it is already.
std::string Col(size_t table, const std::string& column) {
  const bool quoted = !column.empty() && (column.front() == '"' || column.front() == '`' ||
                                          column.front() == '[');
  return absl::StrCat("s", table, ".", quoted ? column : absl::StrCat("\"", column, "\""));
}

}  // namespace

absl::StatusOr<std::string> IntervalIntersectSql(const std::vector<IntervalSource>& sources,
                                                 const std::vector<std::string>& partitions) {
  if (sources.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("interval intersect needs at least two tables, got ", sources.size()));
  }
  std::vector<std::string> starts, ends;
  for (size_t i = 0; i < sources.size(); ++i) {
    starts.push_back(Col(i, sources[i].ts_column));
    ends.push_back(absl::StrCat(Col(i, sources[i].ts_column), " + ", Col(i, sources[i].dur_column)));
  }
  const std::string latest_start = absl::StrCat("MAX(", absl::StrJoin(starts, ", "), ")");
  const std::string earliest_end = absl::StrCat("MIN(", absl::StrJoin(ends, ", "), ")");

  std::vector<std::string> select = {absl::StrCat(latest_start, " AS ts"),
                                     absl::StrCat(earliest_end, " - ", latest_start, " AS dur")};
  for (size_t i = 0; i < sources.size(); ++i) {
    select.push_back(absl::StrCat(Col(i, sources[i].id_column), " AS id_", i));
  }
  for (const std::string& p : partitions) select.push_back(absl::StrCat(Col(0, p), " AS ", p));

  std::string from = absl::StrCat(sources[0].table, " AS s0");
  for (size_t j = 1; j < sources.size(); ++j) {
    std::vector<std::string> on;
    for (const std::string& p : partitions) on.push_back(absl::StrCat(Col(0, p), " = ", Col(j, p)));
    // Pairwise meeting suffices for intervals on a line (any two sharing a point means all do).
    for (size_t i = 0; i < j; ++i) {
      const std::string s = absl::StrCat("MAX(", starts[i], ", ", starts[j], ")");
      // Plain range terms first (an index on ts can serve them), then the exact rule: the
      // later start is no later than both ends and, for a non-empty interval, before its end.
      on.push_back(absl::StrCat(starts[j], " <= ", ends[i]));
      on.push_back(absl::StrCat(starts[i], " <= ", ends[j]));
      for (size_t k : {i, j}) {
        on.push_back(absl::StrCat("(", Col(k, sources[k].dur_column), " = 0 OR ", s, " < ",
                                  ends[k], ")"));
      }
    }
    absl::StrAppend(&from, " JOIN ", sources[j].table, " AS s", j, " ON ",
                    absl::StrJoin(on, " AND "));
  }
  return absl::StrCat("(SELECT ", absl::StrJoin(select, ", "), " FROM ", from, ")");
}

}  // namespace tw

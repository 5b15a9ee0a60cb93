#include "libs/trace/query/interval_intersect_sql.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/trace/query/interval_intersect_table.h"

namespace tw {
namespace {

// `alias.column`, the column quoted unless it is already.
std::string Col(const char* alias, const std::string& column) {
  const bool quoted = !column.empty() && (column.front() == '"' || column.front() == '`' ||
                                          column.front() == '[');
  return absl::StrCat(alias, ".", quoted ? column : absl::StrCat("\"", column, "\""));
}

}  // namespace

absl::StatusOr<std::string> IntervalIntersectSql(const std::vector<IntervalSource>& sources,
                                                 const std::vector<std::string>& partitions) {
  if (sources.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("interval intersect needs at least two tables, got ", sources.size()));
  }
  if (sources.size() > static_cast<size_t>(kIntervalIntersectMaxTables)) {
    return absl::InvalidArgumentError(absl::StrCat("interval intersect takes at most ",
                                                   kIntervalIntersectMaxTables, " tables, got ",
                                                   sources.size()));
  }
  if (partitions.size() > static_cast<size_t>(kIntervalIntersectMaxPartitions)) {
    return absl::InvalidArgumentError(
        absl::StrCat("interval intersect takes at most ", kIntervalIntersectMaxPartitions,
                     " partition columns, got ", partitions.size()));
  }
  // Each table gathered into a set of intervals by an aggregate (run by SQLite, so the tables
  // may be views, subqueries or a WITH clause's names), then one sweep over all the sets.
  std::vector<std::string> sets;
  for (const IntervalSource& s : sources) {
    std::vector<std::string> args = {Col("s", s.id_column), Col("s", s.ts_column),
                                     Col("s", s.dur_column)};
    for (const std::string& p : partitions) args.push_back(Col("s", p));
    sets.push_back(absl::StrCat("(SELECT __intrinsic_intervals_agg(", absl::StrJoin(args, ", "),
                                ") FROM ", s.table, " AS s)"));
  }
  std::vector<std::string> select = {"ii.ts AS ts", "ii.dur AS dur"};
  for (size_t i = 0; i < sources.size(); ++i) {
    select.push_back(absl::StrCat("ii.id_", i, " AS id_", i));
  }
  for (size_t i = 0; i < partitions.size(); ++i) {
    select.push_back(absl::StrCat("ii.part_", i, " AS ", partitions[i]));
  }
  return absl::StrCat("(SELECT ", absl::StrJoin(select, ", "),
                      " FROM __intrinsic_interval_intersect_sweep(", absl::StrJoin(sets, ", "),
                      ") AS ii)");
}

}  // namespace tw

#include "libs/agent/result_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tw::agent {
namespace {

std::string CellText(const SqlValue& v, size_t max_chars) {
  switch (v.type) {
    case SqlValue::Type::kNull: return "NULL";
    case SqlValue::Type::kInt: return absl::StrCat(v.int_value);
    case SqlValue::Type::kDouble: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", v.double_value);
      return buf;
    }
    case SqlValue::Type::kString:
      if (v.string_value.size() <= max_chars) return v.string_value;
      return absl::StrCat(v.string_value.substr(0, max_chars), "…");
  }
  return "";
}

std::string Number(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", d);
  return buf;
}

std::string ColumnStats(const skills::StepResult& r, size_t c, const SummaryOptions& options) {
  std::vector<double> numbers;
  std::map<std::string, size_t> counts;
  size_t nulls = 0;
  for (const auto& row : r.rows) {
    if (c >= row.size()) continue;
    const SqlValue& v = row[c];
    if (v.is_null()) {
      ++nulls;
    } else if (v.type == SqlValue::Type::kInt) {
      numbers.push_back(static_cast<double>(v.int_value));
    } else if (v.type == SqlValue::Type::kDouble) {
      numbers.push_back(v.double_value);
    } else {
      ++counts[v.string_value];
    }
  }
  std::string out;
  if (!numbers.empty()) {
    std::sort(numbers.begin(), numbers.end());
    double sum = 0;
    for (double d : numbers) sum += d;
    absl::StrAppend(&out, "min ", Number(numbers.front()), ", median ",
                    Number(numbers[numbers.size() / 2]), ", max ", Number(numbers.back()),
                    ", sum ", Number(sum));
  }
  if (!counts.empty()) {
    std::vector<std::pair<size_t, std::string>> top;
    for (const auto& [value, n] : counts) top.emplace_back(n, value);
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    absl::StrAppend(&out, out.empty() ? "" : "; ", counts.size(), " distinct");
    for (size_t i = 0; i < top.size() && i < options.top_values; ++i) {
      absl::StrAppend(&out, i == 0 ? ", top: " : ", ",
                      CellText(SqlValue::String(top[i].second), options.max_cell_chars), " (",
                      top[i].first, ")");
    }
  }
  if (nulls) absl::StrAppend(&out, out.empty() ? "" : "; ", nulls, " null");
  return out;
}

}  // namespace

std::string RenderRows(const skills::StepResult& r, size_t offset, size_t limit,
                       size_t max_cell_chars) {
  std::vector<std::string> names;
  for (const auto& c : r.columns) names.push_back(c.name);
  std::string out = absl::StrCat(absl::StrJoin(names, " | "), "\n");
  for (size_t i = offset; i < r.rows.size() && i < offset + limit; ++i) {
    std::vector<std::string> cells;
    for (const SqlValue& v : r.rows[i]) cells.push_back(CellText(v, max_cell_chars));
    absl::StrAppend(&out, absl::StrJoin(cells, " | "), "\n");
  }
  return out;
}

std::string SummarizeResult(const skills::StepResult& r, const SummaryOptions& options) {
  std::string out = absl::StrCat("artifact ", r.artifact_id, ": ", r.rows.size(), " rows",
                                 r.truncated ? " (truncated by the row limit)" : "", "\n");
  if (r.rows.size() <= options.full_rows) {
    absl::StrAppend(&out, RenderRows(r, 0, r.rows.size(), options.max_cell_chars));
    return out;
  }
  out += "columns:\n";
  for (size_t c = 0; c < r.columns.size(); ++c) {
    absl::StrAppend(&out, "- ", r.columns[c].name, " (", skills::ColumnTypeName(r.columns[c].type),
                    r.columns[c].unit.empty() ? "" : absl::StrCat(", ", r.columns[c].unit), "): ",
                    ColumnStats(r, c, options), "\n");
  }
  absl::StrAppend(&out, "first ", options.sample_rows, " rows:\n",
                  RenderRows(r, 0, options.sample_rows, options.max_cell_chars),
                  "(fetch_artifact with offset/limit pages through the rest)\n");
  return out;
}

}  // namespace tw::agent

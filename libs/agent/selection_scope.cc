#include "libs/agent/selection_scope.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/units.h"

namespace tw::agent {

std::string WindowLabel(const TimeWindow& window, int64_t trace_start_ns) {
  const double start_s = static_cast<double>(window.start_ns - trace_start_ns) / 1e9;
  const double end_s = static_cast<double>(window.end_ns - trace_start_ns) / 1e9;
  return absl::StrFormat("within %.3f–%.3f s", start_s, end_s);
}

absl::StatusOr<std::optional<SelectionScope>> ResolveSelection(const TurnSelection& selection,
                                                               skills::SkillQueryRunner& sql) {
  if (selection.empty()) return std::optional<SelectionScope>();
  SelectionScope scope;
  if (selection.time_range) {
    scope.window = *selection.time_range;
    if (scope.window.end_ns <= scope.window.start_ns) {
      return absl::InvalidArgumentError("selection time range must have end_ns > start_ns");
    }
    scope.description = absl::StrCat("Time range ", scope.window.start_ns, " .. ", scope.window.end_ns,
                                     " ns (", FormatDurationNs(scope.window.end_ns - scope.window.start_ns),
                                     ")");
  } else {
    auto slice = sql.Query("SELECT name, ts, dur FROM slice WHERE id = :id",
                           {{"id", SqlValue::Int(*selection.slice_id)}}, 1);
    if (!slice.ok()) return slice.status();
    if (slice->rows.empty()) {
      return absl::NotFoundError(absl::StrCat("selection slice ", *selection.slice_id, " is not in the trace"));
    }
    const auto& row = slice->rows[0];
    const int64_t dur = std::max<int64_t>(row[2].int_value, 1);
    scope.window = {row[1].int_value, row[1].int_value + dur};
    scope.description = absl::StrCat("Slice id ", *selection.slice_id, ": '", row[0].string_value,
                                     "' at ts ", row[1].int_value, " ns, dur ", FormatDurationNs(dur),
                                     " (time range ", scope.window.start_ns, " .. ", scope.window.end_ns,
                                     " ns)");
  }
  int64_t start = 0;
  auto bounds = sql.Query("SELECT start_ts FROM trace_bounds", {}, 1);
  if (bounds.ok() && !bounds->rows.empty()) start = bounds->rows[0][0].int_value;
  scope.label = WindowLabel(scope.window, start);
  absl::StrAppend(&scope.description, ", ", scope.label,
                  " of the trace. Skills that take start_ts/end_ts are run on this window unless "
                  "you pass your own; for SQL, bound ts yourself.");
  return std::optional<SelectionScope>(std::move(scope));
}

bool BindWindow(const TimeWindow& window, const SkillRunner& skills, const std::string& skill,
                std::map<std::string, SqlValue>& params) {
  if (params.count("start_ts") || params.count("end_ts")) return false;
  if (!skills.TakesInput(skill, "start_ts") || !skills.TakesInput(skill, "end_ts")) return false;
  params["start_ts"] = SqlValue::Int(window.start_ns);
  params["end_ts"] = SqlValue::Int(window.end_ns);
  return true;
}

}  // namespace tw::agent

#include "libs/agent/skill_comparison.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/common/units.h"

namespace tw::agent {
namespace {

using skills::ColumnType;
using skills::StepResult;

std::string Prefixed(const std::string& id) {
  return id.empty() ? id : absl::StrCat(kReferenceArtifactPrefix, id);
}

std::shared_ptr<const StepResult> AsReferenceStep(const std::shared_ptr<const StepResult>& step) {
  auto copy = std::make_shared<StepResult>(*step);
  copy->artifact_id = Prefixed(step->artifact_id);
  copy->title = absl::StrCat("[reference] ", step->title.empty() ? step->step : step->title);
  return copy;
}

// Ids are per trace (the same upid is another process on another trace); time stamps are
// positions in a trace, not measurements. Neither is worth a delta.
bool IsIdentity(const std::string& column) {
  const std::string n = absl::AsciiStrToLower(column);
  for (const char* id : {"id", "upid", "utid", "pid", "tid", "cpu", "ts", "ts_end", "token",
                         "surface_token", "display_token", "frame_id", "vsync"}) {
    if (n == id) return true;
  }
  return absl::EndsWith(n, "_id") || absl::EndsWith(n, "_ts") || absl::EndsWith(n, "_pid") ||
         absl::EndsWith(n, "_tid") || absl::EndsWith(n, "_upid") || absl::EndsWith(n, "_utid");
}

bool IsMeasure(const skills::ResultColumn& column) {
  switch (column.type) {
    case ColumnType::kNumber:
    case ColumnType::kDurationNs:
    case ColumnType::kPercent:
    case ColumnType::kBytes:
      return !IsIdentity(column.name);
    default:
      return false;
  }
}

std::optional<double> Number(const SqlValue& v) {
  if (v.type == SqlValue::Type::kInt) return static_cast<double>(v.int_value);
  if (v.type == SqlValue::Type::kDouble) return v.double_value;
  return std::nullopt;
}

// "...MainActivity#1342" → "...MainActivity": layer names end in an instance number that
// changes from run to run.
std::string WithoutInstanceNumber(const std::string& name) {
  const size_t hash = name.rfind('#');
  if (hash == std::string::npos || hash + 1 == name.size()) return name;
  for (size_t i = hash + 1; i < name.size(); ++i) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(name[i]))) return name;
  }
  return name.substr(0, hash);
}

// The text columns of a row name it across traces ("com.app / TX - com.app/...Activity").
std::string RowKey(const StepResult& r, const std::vector<SqlValue>& row) {
  std::vector<std::string> parts;
  for (size_t c = 0; c < r.columns.size() && c < row.size(); ++c) {
    if (row[c].type == SqlValue::Type::kString && !IsIdentity(r.columns[c].name)) {
      parts.push_back(WithoutInstanceNumber(row[c].string_value));
    }
  }
  return absl::StrJoin(parts, " / ");
}

// The steps whose numbers the skill reports as its summary: `level: summary`, else its output.
std::vector<const StepResult*> SummarySteps(const skills::SkillRunResult& run) {
  std::vector<const StepResult*> out;
  for (const auto& step : run.steps) {
    if (step->status == skills::StepStatus::kOk && step->level == "summary" && step->kind != "diagnose") {
      out.push_back(step.get());
    }
  }
  if (out.empty()) {
    if (const StepResult* output = run.Output(); output && output->status == skills::StepStatus::kOk) {
      out.push_back(output);
    }
  }
  return out;
}

const StepResult* FindStep(const skills::SkillRunResult& run, const std::string& step) {
  for (const auto& s : run.steps) {
    if (s->step == step && s->status == skills::StepStatus::kOk) return s.get();
  }
  return nullptr;
}

SqlValue DeltaValue(const SqlValue& current, const SqlValue& reference) {
  if (current.type == SqlValue::Type::kInt && reference.type == SqlValue::Type::kInt) {
    return SqlValue::Int(current.int_value - reference.int_value);
  }
  return SqlValue::Double(*Number(current) - *Number(reference));
}

class TableBuilder {
 public:
  TableBuilder(std::shared_ptr<StepResult> table, size_t max_rows)
      : table_(std::move(table)), max_rows_(max_rows) {}

  // Adds one row per measure column of the pair (`current` or `reference` may be null: the row
  // exists on one side only).
  void AddPair(const StepResult& cur_step, const StepResult& ref_step,
               const std::vector<SqlValue>* current, const std::vector<SqlValue>* reference,
               const std::string& key) {
    for (size_t c = 0; c < cur_step.columns.size(); ++c) {
      const skills::ResultColumn& column = cur_step.columns[c];
      if (!IsMeasure(column)) continue;
      const int rc = ref_step.ColumnIndex(column.name);
      if (rc < 0) continue;
      const SqlValue cur = current && c < current->size() ? (*current)[c] : SqlValue();
      const SqlValue ref = reference && static_cast<size_t>(rc) < reference->size()
                               ? (*reference)[rc]
                               : SqlValue();
      const auto cur_n = Number(cur), ref_n = Number(ref);
      if (!cur_n && !ref_n) continue;
      if (table_->rows.size() >= max_rows_) {
        table_->truncated = true;
        return;
      }
      SqlValue delta, pct;
      if (cur_n && ref_n) {
        delta = DeltaValue(cur, ref);
        if (*ref_n != 0) pct = SqlValue::Double(std::round((*cur_n - *ref_n) / std::fabs(*ref_n) * 1e4) / 100);
      }
      table_->rows.push_back({SqlValue::String(cur_step.skill), SqlValue::String(cur_step.step),
                              SqlValue::String(key), SqlValue::String(column.name),
                              SqlValue::String(skills::ColumnTypeName(column.type)),
                              cur_n ? cur : SqlValue(), ref_n ? ref : SqlValue(), delta, pct});
    }
  }

 private:
  std::shared_ptr<StepResult> table_;
  size_t max_rows_;
};

std::string FormatValue(double value, const std::string& unit, bool sign) {
  const std::string plus = sign && value > 0 ? "+" : "";
  if (unit == "duration_ns") {
    return absl::StrCat(value < 0 ? "-" : plus, FormatDurationNs(std::llabs(std::llround(value))));
  }
  if (unit == "bytes") {
    return absl::StrCat(value < 0 ? "-" : plus, FormatBytes(std::llabs(std::llround(value))));
  }
  std::string text = value == std::floor(value) && std::fabs(value) < 1e15
                         ? absl::StrCat(static_cast<int64_t>(value))
                         : absl::StrFormat("%.2f", value);
  if (unit == "percent") text += "%";
  return plus + text;
}

}  // namespace

skills::SkillRunResult AsReferenceRun(skills::SkillRunResult run) {
  for (auto& step : run.steps) step = AsReferenceStep(step);
  for (auto& cited : run.cited) cited = AsReferenceStep(cited);
  for (skills::Finding& f : run.findings) f.evidence_artifact_id = Prefixed(f.evidence_artifact_id);
  return run;
}

std::shared_ptr<skills::StepResult> DifferenceTable(const skills::SkillRunResult& current,
                                                    const skills::SkillRunResult& reference,
                                                    const std::string& artifact_id,
                                                    const ComparisonOptions& options,
                                                    std::vector<std::string>* notes) {
  std::vector<std::string> ignored;
  if (notes == nullptr) notes = &ignored;
  const std::vector<const StepResult*> steps = SummarySteps(current);
  if (steps.empty()) {
    notes->push_back(absl::StrCat(current.skill, " produced no summary on the current trace (",
                                  skills::SkillOutcomeName(current.outcome), ")"));
    return nullptr;
  }
  auto table = std::make_shared<StepResult>();
  table->skill = "compare_skill";
  table->step = artifact_id;
  table->artifact_id = artifact_id;
  table->kind = "comparison";
  table->level = "summary";
  table->title = absl::StrCat(current.skill, ": current vs reference");
  table->parameters = {{"skill", SqlValue::String(current.skill)}};
  for (const char* name : {"skill", "step", "row", "column", "unit"}) {
    table->columns.push_back({name, ColumnType::kString, ""});
  }
  // The values keep their source's unit in `unit`; the cells stay raw (ns, bytes, counts) so
  // numbers quoted from them can be checked against the other artifacts.
  for (const char* name : {"current", "reference", "delta"}) {
    table->columns.push_back({name, ColumnType::kNumber, ""});
  }
  table->columns.push_back({"delta_pct", ColumnType::kPercent, "%"});
  TableBuilder builder(table, options.max_differences);

  for (const StepResult* cur : steps) {
    const StepResult* ref = FindStep(reference, cur->step);
    if (ref == nullptr) {
      notes->push_back(absl::StrCat("step ", cur->step, " did not run on the reference trace"));
      continue;
    }
    const size_t cur_rows = std::min(cur->rows.size(), options.rows_per_step);
    const size_t ref_rows = std::min(ref->rows.size(), options.rows_per_step);
    std::vector<std::string> cur_keys, ref_keys;
    for (size_t i = 0; i < cur_rows; ++i) cur_keys.push_back(RowKey(*cur, cur->rows[i]));
    for (size_t i = 0; i < ref_rows; ++i) ref_keys.push_back(RowKey(*ref, ref->rows[i]));
    // Match by name; when no name matches at all (another app, renamed layers) compare in rank
    // order and say so.
    std::vector<int> match(cur_rows, -1);
    std::set<size_t> used;
    bool any = false;
    for (size_t i = 0; i < cur_rows; ++i) {
      for (size_t j = 0; j < ref_rows; ++j) {
        if (!used.count(j) && cur_keys[i] == ref_keys[j]) {
          match[i] = static_cast<int>(j);
          used.insert(j);
          any = true;
          break;
        }
      }
    }
    const bool by_position = !any && cur_rows > 0 && ref_rows > 0;
    if (by_position) {
      notes->push_back(absl::StrCat("step ", cur->step,
                                    ": no row names match between the traces; rows compared in "
                                    "rank order"));
      used.clear();
      for (size_t i = 0; i < cur_rows && i < ref_rows; ++i) {
        match[i] = static_cast<int>(i);
        used.insert(i);
      }
    }
    for (size_t i = 0; i < cur_rows; ++i) {
      std::string key = cur_keys[i].empty() ? absl::StrCat("row ", i + 1) : cur_keys[i];
      if (by_position && match[i] >= 0) absl::StrAppend(&key, " ~ ", ref_keys[match[i]]);
      builder.AddPair(*cur, *ref, &cur->rows[i], match[i] >= 0 ? &ref->rows[match[i]] : nullptr, key);
    }
    for (size_t j = 0; j < ref_rows; ++j) {
      if (used.count(j)) continue;
      builder.AddPair(*cur, *ref, nullptr, &ref->rows[j],
                      ref_keys[j].empty() ? absl::StrCat("row ", j + 1) : ref_keys[j]);
    }
  }
  return table;
}

SkillComparison CompareSkillRuns(const std::string& skill,
                                 const std::map<std::string, SqlValue>& current_inputs,
                                 const std::map<std::string, SqlValue>& reference_inputs,
                                 SkillRunner& current, SkillRunner& reference,
                                 const std::string& differences_id,
                                 const ComparisonOptions& options) {
  SkillComparison out;
  out.current = current.Run(skill, current_inputs);
  out.reference = AsReferenceRun(reference.Run(skill, reference_inputs));
  if (out.reference.outcome != skills::SkillOutcome::kOk) {
    out.notes.push_back(absl::StrCat("on the reference trace: ",
                                     skills::SkillOutcomeName(out.reference.outcome),
                                     out.reference.message.empty() ? "" : " — ",
                                     out.reference.message));
  }
  if (out.current.outcome == skills::SkillOutcome::kOk &&
      out.reference.outcome == skills::SkillOutcome::kOk) {
    out.differences = DifferenceTable(out.current, out.reference, differences_id, options, &out.notes);
  } else if (out.current.outcome != skills::SkillOutcome::kOk) {
    out.notes.push_back(absl::StrCat("on the current trace: ",
                                     skills::SkillOutcomeName(out.current.outcome),
                                     out.current.message.empty() ? "" : " — ", out.current.message));
  }
  return out;
}

std::string DescribeDifferences(const skills::StepResult& differences, size_t max_lines) {
  std::string out;
  size_t lines = 0;
  for (const auto& row : differences.rows) {
    if (row.size() < 9) continue;
    if (lines++ >= max_lines) {
      absl::StrAppend(&out, "- ... ", differences.rows.size() - max_lines, " more rows in ",
                      differences.artifact_id, "\n");
      break;
    }
    const std::string& unit = row[4].string_value;
    auto side = [&](const SqlValue& v) {
      const auto n = Number(v);
      return n ? FormatValue(*n, unit, false) : std::string("absent");
    };
    absl::StrAppend(&out, "- ", row[1].string_value, " [", row[2].string_value, "] ",
                    row[3].string_value, ": ", side(row[5]), " vs ", side(row[6]));
    if (const auto delta = Number(row[7])) {
      absl::StrAppend(&out, " (", FormatValue(*delta, unit, true));
      if (const auto pct = Number(row[8])) absl::StrAppend(&out, ", ", FormatValue(*pct, "percent", true));
      absl::StrAppend(&out, ")");
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace tw::agent

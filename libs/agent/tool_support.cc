#include "libs/agent/tool_support.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/agent/result_summary.h"

namespace tw::agent {
namespace {

using nlohmann::json;

// Column display types for ad-hoc SQL, from trace_processor's naming conventions.
skills::ColumnType GuessType(const std::string& name, const std::vector<std::vector<SqlValue>>& rows,
                             size_t c) {
  bool numeric = false, text = false;
  for (const auto& row : rows) {
    if (c >= row.size()) continue;
    numeric |= row[c].type == SqlValue::Type::kInt || row[c].type == SqlValue::Type::kDouble;
    text |= row[c].type == SqlValue::Type::kString;
  }
  if (text || !numeric) return skills::ColumnType::kString;
  const std::string n = absl::AsciiStrToLower(name);
  if (n == "dur" || absl::EndsWith(n, "_dur") || absl::EndsWith(n, "_ns") ||
      absl::StartsWith(n, "dur_") || absl::EndsWith(n, "_dur_ns")) {
    return skills::ColumnType::kDurationNs;
  }
  if (n == "ts" || absl::EndsWith(n, "_ts") || n == "ts_end") return skills::ColumnType::kTimestampNs;
  return skills::ColumnType::kNumber;
}

}  // namespace

ToolResult FailedTool(std::string message) { return {false, std::move(message), {}}; }

json ObjectSchema(json properties, std::vector<std::string> required) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", required},
          {"additionalProperties", false}};
}

bool GetStringArg(const json& args, const char* key, std::string* out, std::string* error,
                  bool required) {
  auto it = args.find(key);
  if (it == args.end() || it->is_null()) {
    if (required) *error = absl::StrCat("missing argument '", key, "'");
    return !required;
  }
  if (!it->is_string()) {
    *error = absl::StrCat("argument '", key, "' must be a string");
    return false;
  }
  *out = it->get<std::string>();
  return true;
}

std::vector<std::string> GetStringListArg(const json& args, const char* key) {
  std::vector<std::string> out;
  auto it = args.find(key);
  if (it == args.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

absl::StatusOr<std::map<std::string, SqlValue>> SkillInputsArg(const json& args) {
  std::map<std::string, SqlValue> inputs;
  auto it = args.find("params");
  if (it == args.end() || !it->is_object()) return inputs;
  for (const auto& [key, value] : it->items()) {
    if (value.is_number_integer()) {
      inputs[key] = SqlValue::Int(value.get<int64_t>());
    } else if (value.is_number()) {
      inputs[key] = SqlValue::Double(value.get<double>());
    } else if (value.is_string()) {
      inputs[key] = SqlValue::String(value.get<std::string>());
    } else if (value.is_boolean()) {
      inputs[key] = SqlValue::Int(value.get<bool>() ? 1 : 0);
    } else if (!value.is_null()) {
      return absl::InvalidArgumentError(
          absl::StrCat("parameter '", key, "' must be a number, string or boolean"));
    }
  }
  return inputs;
}

std::string SkillOutcomeText(const skills::SkillRunResult& r) {
  return absl::StrCat("skill ", r.skill, ": ", skills::SkillOutcomeName(r.outcome),
                      r.message.empty() ? "" : absl::StrCat(" — ", r.message));
}

ToolResult RunSqlArtifact(skills::SkillQueryRunner& runner, const SqlArtifactRequest& request,
                          AgentSession& session) {
  auto r = runner.Query(request.sql, {}, request.max_rows);
  if (!r.ok()) {
    return FailedTool(absl::StrCat("SQL error (", absl::StatusCodeToString(r.status().code()), "): ",
                                   r.status().message(),
                                   ". Check names with lookup_sql_schema; only SELECT is allowed."));
  }
  auto result = std::make_shared<skills::StepResult>();
  result->skill = request.skill;
  result->step = request.artifact_id;
  result->artifact_id = request.artifact_id;
  result->kind = "sql";
  result->sql = request.sql;
  result->title = request.title;
  result->elapsed_ns = r->elapsed_ns;
  result->truncated = r->truncated;
  for (size_t c = 0; c < r->columns.size(); ++c) {
    result->columns.push_back({r->columns[c], GuessType(r->columns[c], r->rows, c), ""});
  }
  result->rows = std::move(r->rows);
  session.AddArtifact(result);
  SummaryOptions options;
  if (request.summary_only) options.full_rows = 0;
  return {true, SummarizeResult(*result, options), {result->artifact_id}};
}

}  // namespace tw::agent

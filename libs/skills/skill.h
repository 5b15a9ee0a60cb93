#pragma once
// The skill model: what a `*.skill.yaml` file says, after loading (skill_loader.h) and before
// running (skill_executor.h). The format is DESIGN.md §4; skills/README.md documents it for
// skill authors.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libs/skills/expression.h"
#include "libs/skills/step_result.h"
#include "libs/trace/query/sql_value.h"

namespace tw::skills {

// Where something was written, for messages ("skills/x/y.skill.yaml:12:5").
struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based; 0 if unknown
  int column = 0;  // 1-based
  std::string ToString() const;
};

enum class InputType { kString, kInt, kTimestampNs, kDurationNs, kBool, kEnum };
const char* InputTypeName(InputType type);

struct SkillInput {
  std::string name;
  InputType type = InputType::kString;
  bool required = false;
  std::optional<SqlValue> default_value;  // already converted to `type`
  std::string description;
  std::vector<std::string> values;  // kEnum: the allowed values
  SourceLocation location;
};

// Converts text (a CLI --param, a YAML default) to an input's type. Errors: INVALID_ARGUMENT.
absl::StatusOr<SqlValue> ConvertInputValue(const SkillInput& input, std::string_view text);

struct DisplayColumn {
  std::string name;
  ColumnType type = ColumnType::kString;
  std::string unit;
  SourceLocation location;
};

struct Display {
  std::string title;
  std::string level = "list";  // summary | list | detail | hidden
  std::vector<DisplayColumn> columns;
};

// info (report: low), notice (report: medium), warning (report: high), critical.
enum class Severity { kInfo, kNotice, kWarning, kCritical };
const char* SeverityName(Severity severity);
// "info" | "notice" | "warning" | "critical"; nullopt for anything else.
std::optional<Severity> ParseSeverity(std::string_view name);

// One diagnose rule: when `condition` holds, a finding. With `over` set, the condition is
// checked for each row of that step (as `row`) and each matching row gives a finding, up to
// `max_findings`.
struct Rule {
  std::string id;
  std::string over;  // step id, or empty
  Expression condition;
  Severity severity = Severity::kWarning;
  // When set, the severity is this template's value for the finding ("{{ if(row.share >= 50,
  // 'critical', 'warning') }}"): severity that follows the impact the rule measures.
  std::optional<Template> severity_template;
  Template title;
  Template description;
  std::vector<std::string> evidence_fields;  // columns of `over`'s (or `evidence_step`'s) rows
  std::string evidence_step;                 // step cited as evidence; defaults to `over`
  std::optional<Expression> evidence_row;    // which row of evidence_step (rules without `over`)
  std::vector<Template> suggestions;
  // The cause this finding is evidence of ("binder", "{{ row.cause }}"): findings of one cause,
  // from any skill, become one finding of the report. Empty: a finding of its own.
  std::optional<Template> cause;
  // How much of the scene's problem it explains, 0–100 (share of janky frames, of the startup,
  // ...): ranks causes. Absent: not an explanation of the problem.
  std::optional<Expression> impact;
  int max_findings = 20;
  SourceLocation location;
};

struct Step {
  enum class Kind { kSql, kSkill, kForEach, kDiagnose };
  std::string id;
  Kind kind = Kind::kSql;
  SourceLocation location;
  std::optional<Expression> when;
  bool optional = false;
  Display display;

  // kSql: the SQL, and values for its `:name` parameters that are not inputs.
  std::string sql;
  SourceLocation sql_location;
  std::map<std::string, Expression> params;
  int64_t max_rows = 10000;

  // kSkill: the skill to call and its arguments (expressions).
  std::string skill;
  std::map<std::string, Expression> args;

  // kForEach: iterate the rows of step `over` (as `row`), running `body` for each.
  std::string over;
  int max_items = 20;
  std::shared_ptr<Step> body;

  // kDiagnose.
  std::vector<Rule> rules;
};
const char* StepKindName(Step::Kind kind);

struct Skill {
  std::string name;
  std::string version;
  std::string category;
  std::string description;
  std::vector<std::string> tags;
  std::vector<SkillInput> inputs;
  std::vector<std::string> required_tables;   // must exist and have rows in the trace
  std::vector<std::string> required_modules;  // must be provided by the engine
  SourceLocation requires_location;           // of `requires:`, for messages
  std::vector<Step> steps;
  // The step whose result is the skill's result (what a `skill:` step or an agent receives);
  // empty: the last step that is not a diagnose step.
  std::string output;
  SourceLocation location;  // the file

  const SkillInput* FindInput(std::string_view name) const;
  const Step* FindStep(std::string_view id) const;
};

}  // namespace tw::skills

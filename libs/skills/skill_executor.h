#pragma once
// Runs a skill against a trace. Every SQL step runs through a SkillQueryRunner with its `:name`
// parameters bound (never spliced), `when:` conditions and rules are evaluated with the
// expression language, and progress is reported as events:
//   skill started → (step started → step completed)* → finding* → skill completed | error.
// An optional step that fails is recorded as failed and the skill goes on; a required step that
// fails ends the skill with an error. A trace that lacks a required table (no rows) or module
// ends it at once with outcome kNotSupported and a message naming what is missing.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/skills/skill.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/step_result.h"
#include "libs/trace/query/sql_value.h"

namespace tw::skills {

using BoundParams = std::vector<std::pair<std::string, SqlValue>>;

// What the executor needs from a trace. Implementations: over an in-process TraceDatabase
// (InProcessQueryRunner below) and over the engine's QueryBackend (local or gRPC).
class SkillQueryRunner {
 public:
  virtual ~SkillQueryRunner() = default;
  // Runs `sql` (one or more statements; the last one's rows are returned) with `params` bound
  // by name (`:name`). Errors: INVALID_ARGUMENT (SQL), DEADLINE_EXCEEDED, CANCELLED, ...
  virtual absl::StatusOr<QueryResult> Query(std::string_view sql, const BoundParams& params,
                                            int64_t max_rows) = 0;
  // Whether the engine behind this runner provides the SQL module `name`.
  virtual bool HasModule(std::string_view name) = 0;
};

struct Finding {
  std::string skill;
  std::string step;  // the diagnose step
  std::string rule;
  Severity severity = Severity::kInfo;
  std::string title;
  std::string description;
  std::vector<std::string> suggestions;
  // Evidence: the cited step result (by artifact id) and, for per-row rules, the row's fields.
  std::string evidence_step;
  std::string evidence_artifact_id;
  int64_t evidence_row = -1;
  std::vector<std::pair<std::string, SqlValue>> evidence_fields;
  std::string cause;    // the rule's `cause`, rendered; empty = none
  double impact = -1;   // the rule's `impact` (0–100); negative = none
};

struct SkillEvent {
  enum class Kind { kSkillStarted, kStepStarted, kStepCompleted, kFinding, kSkillCompleted, kSkillError };
  Kind kind;
  std::string skill;
  std::string step;                      // step events
  int depth = 0;                         // 0: the invoked skill; >0: called by a `skill:` step
  const StepResult* result = nullptr;    // kStepCompleted
  const Finding* finding = nullptr;      // kFinding
  std::string message;                   // kSkillCompleted (outcome), kSkillError
};
const char* SkillEventKindName(SkillEvent::Kind kind);

enum class SkillOutcome {
  kOk,
  kNotSupported,     // the trace lacks a required table or the engine a required module
  kInvalidArgument,  // bad or missing inputs
  kError,            // a required step failed
};
const char* SkillOutcomeName(SkillOutcome outcome);

struct SkillRunResult {
  std::string skill;
  SkillOutcome outcome = SkillOutcome::kOk;
  std::string message;
  std::vector<std::shared_ptr<const StepResult>> steps;  // top-level steps, in order
  std::vector<Finding> findings;                        // including called skills' findings
  // Step results of called skills that those findings cite as evidence (they are not among
  // `steps`), so a report can show the evidence of every finding.
  std::vector<std::shared_ptr<const StepResult>> cited;
  int64_t elapsed_ns = 0;
  std::string output_step;  // the skill's `output`, or empty

  // The skill's result: its `output` step if that ran, else the last top-level sql / for_each /
  // skill step that ran.
  const StepResult* Output() const;
};

struct ExecutionOptions {
  int max_call_depth = 4;  // nested `skill:` calls
  const std::atomic<bool>* cancelled = nullptr;
};

class SkillExecutor {
 public:
  using EventSink = std::function<void(const SkillEvent&)>;

  SkillExecutor(const SkillLibrary& library, SkillQueryRunner& runner,
                ExecutionOptions options = {})
      : library_(library), runner_(runner), options_(options) {}

  // `params`: input values as text (from the CLI or a request), converted by input type.
  SkillRunResult Run(const Skill& skill, const std::map<std::string, std::string>& params,
                     const EventSink& sink = nullptr);
  // Converts text parameters by each input's type; INVALID_ARGUMENT names unknown inputs, bad
  // values and missing required inputs (all of them).
  static absl::StatusOr<std::map<std::string, SqlValue>> ConvertParams(
      const Skill& skill, const std::map<std::string, std::string>& params);
  // Inputs already typed (used for `skill:` calls).
  SkillRunResult RunWithValues(const Skill& skill, const std::map<std::string, SqlValue>& inputs,
                               const EventSink& sink, int depth);

 private:
  const SkillLibrary& library_;
  SkillQueryRunner& runner_;
  ExecutionOptions options_;
};

}  // namespace tw::skills

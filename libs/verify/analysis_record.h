#pragma once
// Everything the verifier looks at, in plain C++ so both the offline analyst and the LLM agent
// (and the gRPC service, via libs/rpc) can fill it without this library knowing about skills.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tw::verify {

// A cell of an artifact. Durations and timestamps are int64 nanoseconds as in the trace.
using Cell = std::variant<std::monostate, int64_t, double, std::string>;

// The unit a column's numbers are in, so "12.5 ms" in a finding can be matched against a
// duration column holding 12500000 (ns). kUnknown columns are matched as plain numbers.
enum class ColumnUnit { kUnknown, kNumber, kDurationNs, kTimestampNs, kPercent, kBytes };

struct ArtifactColumn {
  std::string name;
  ColumnUnit unit = ColumnUnit::kUnknown;
};

// A result a finding can cite: a skill step's output or an SQL result.
struct Artifact {
  std::string id;
  std::string source;  // e.g. "skill frame_overview/step summary" or "execute_sql"
  std::vector<ArtifactColumn> columns;
  std::vector<std::vector<Cell>> rows;
  int64_t total_rows = -1;  // when rows were truncated for the record; -1 = all present
  // Values the result was computed for (bound query parameters such as a thread id or a time
  // window): part of the evidence, so a finding may state them.
  std::vector<Cell> parameters;
};

enum class Severity { kCritical, kHigh, kMedium, kLow, kInfo };
const char* SeverityName(Severity severity);

struct Finding {
  std::string id;
  Severity severity = Severity::kMedium;
  std::string title;
  std::string description;
  std::vector<std::string> evidence;  // artifact ids
  std::string scene;  // the scene whose analysis found it; empty = the record's scene
};

enum class HypothesisStatus { kOpen, kConfirmed, kRejected };

struct Hypothesis {
  std::string id;
  std::string statement;
  HypothesisStatus status = HypothesisStatus::kOpen;
  std::vector<std::string> evidence;
};

struct PlanPhase {
  std::string id;
  std::string status;  // "pending", "in_progress", "done", "skipped", "not_supported"
  std::string summary;
};

struct Plan {
  bool present = false;
  std::vector<std::string> covered_aspects;  // aspects the plan says it covers
  std::vector<PlanPhase> phases;
};

struct ToolCall {
  std::string tool;   // "invoke_skill", "execute_sql", ...
  std::string skill;  // for invoke_skill
  bool ok = true;
  std::vector<std::string> artifacts;
};

// Once a scene's findings report a serious (critical/high) problem, what its analysis must
// also state (from the strategy's `verification` section): a skill that must have run, words
// one of which must appear, a duration.
struct CompletenessRule {
  std::string scene;
  std::string requires_skill;
  std::vector<std::string> mention_any;  // lower-case
  bool states_duration = false;
  std::string message;
};

// A known misdiagnosis (`strategies/pitfalls/*.md`): a finding of one of `severities` whose
// lower-cased text holds every `all_of` phrase and, when given, one of `any_of` (in its text)
// or `title_any_of` (in its title). A phrase that starts with a digit does not match right after
// another digit ("1 frame" is not in "11 frames"). `message` may name the finding as {title}.
struct PitfallRule {
  std::string kind;  // the issue kind, e.g. "misdiagnosis_single_frame"
  std::vector<Severity> severities;
  std::vector<std::string> all_of, any_of, title_any_of;  // lower-case
  std::string message;
};

// What the scene requires of any analysis (from its strategy), passed in so this library needs
// no strategy loading.
struct SceneRequirements {
  std::vector<std::string> plan_aspects;
  std::vector<std::string> mandatory_phases;
  std::vector<CompletenessRule> completeness;
  std::vector<PitfallRule> pitfalls;
};

struct AnalysisRecord {
  std::string scene;
  bool deterministic = false;  // produced by the offline analyst
  bool quick_mode = false;     // a quick answer to a factual question: no plan required
  SceneRequirements requirements;
  Plan plan;
  std::vector<ToolCall> tool_calls;
  std::vector<Artifact> artifacts;
  std::vector<Hypothesis> hypotheses;
  std::vector<Finding> findings;
  std::string conclusion;
  // The direct answer to the question and the artifacts its numbers come from (grounded like a
  // finding's numbers); empty when the analysis gives none.
  std::string answer;
  std::vector<std::string> answer_evidence;

  const Artifact* FindArtifact(const std::string& id) const;
};

}  // namespace tw::verify

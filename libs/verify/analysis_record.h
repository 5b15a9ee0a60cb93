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

// What the scene requires of any analysis (from its strategy), passed in so this library needs
// no strategy loading.
struct SceneRequirements {
  std::vector<std::string> plan_aspects;
  std::vector<std::string> mandatory_phases;
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

  const Artifact* FindArtifact(const std::string& id) const;
};

}  // namespace tw::verify

#pragma once
// The report of one analysis. The offline analyst fills it deterministically; the LLM agent
// fills the same structure, so renderers, the verifier and clients see one shape.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libs/skills/skill_executor.h"
#include "libs/skills/step_result.h"
#include "libs/verify/verify_issue.h"

namespace tw::agent {

enum class FindingSeverity { kCritical, kHigh, kMedium, kLow, kInfo };
const char* FindingSeverityName(FindingSeverity severity);
// A skill's severities mapped onto the report's: critical → critical, warning → high, info → low.
FindingSeverity FindingSeverityFromSkill(skills::Severity severity);

struct ReportFinding {
  std::string id;  // "F1", "F2", ... in report order
  FindingSeverity severity = FindingSeverity::kMedium;
  std::string title;
  std::string description;
  std::vector<std::string> evidence;  // artifact ids
  std::vector<std::string> suggestions;
  std::string source;  // e.g. "skill frame_overview / rule high_jank_rate"
};

// A skill's diagnostic finding as a report finding citing the skill step's artifact.
ReportFinding ReportFindingFromSkill(const skills::Finding& finding);

// One link of the causal chain: an observation, the evidence it rests on, and why the next
// link was examined.
struct CausalLink {
  std::string statement;
  std::vector<std::string> evidence;
};

// A step of the analysis as it ran (for the report's method section and the verifier).
struct AnalysisStep {
  std::string id;     // procedure id, or tool-call id for the agent
  std::string skill;
  std::string status;  // ok | not_supported | failed | skipped
  std::string message;
  std::string why;     // drills: the threshold that triggered it
  std::vector<std::string> artifacts;
  int64_t elapsed_ns = 0;
};

struct PhaseStatus {
  std::string id;
  std::string goal;
  bool mandatory = false;
  std::string status;  // done | not_supported | skipped
  std::string summary;
};

struct AnalysisReport {
  std::string question;
  std::string scene;
  std::string scene_matched_by;  // pattern | keyword | fallback | explicit
  bool deterministic = false;
  std::string trace;             // path or id
  std::string overview;          // a few sentences about the trace and the answer
  std::vector<PhaseStatus> phases;
  std::vector<AnalysisStep> steps;
  std::vector<ReportFinding> findings;  // severity order
  std::vector<CausalLink> causal_chain;
  std::vector<std::string> recommendations;
  std::vector<std::string> limits;      // what the trace could not answer
  std::vector<std::shared_ptr<const skills::StepResult>> artifacts;  // cited evidence tables
  std::vector<verify::VerifyIssue> verifier_issues;
  bool verified = false;
  int64_t elapsed_ns = 0;

  const skills::StepResult* FindArtifact(const std::string& id) const;
};

}  // namespace tw::agent

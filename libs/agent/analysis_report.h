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
// A skill's severities mapped onto the report's: critical → critical, warning → high, notice →
// medium, info → low.
FindingSeverity FindingSeverityFromSkill(skills::Severity severity);

struct ReportFinding {
  std::string id;  // "F1", "F2", ... in report order
  FindingSeverity severity = FindingSeverity::kMedium;
  std::string title;
  std::string description;
  std::vector<std::string> evidence;  // artifact ids
  std::vector<std::string> suggestions;
  std::string source;  // e.g. "skill frame_overview / rule high_jank_rate"
  std::string scene;   // the scene whose analysis found it
  std::string cause;   // the cause it explains (grouping key); empty = its own
  double impact = -1;  // share of the scene's problem it explains (0–100); negative = none
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

// What a diagnosis learned about one scene before analysing anything: whether the trace holds
// its data, whether that data shows a problem, its key numbers; and whether (and why) the scene
// was then analysed.
struct SceneCheck {
  std::string scene;
  std::string title;
  std::string status;   // problem | healthy | no_data
  std::string summary;  // key numbers, or why there is no data
  std::vector<std::string> evidence;
  bool analysed = false;
  std::string reason;   // why it was analysed
};

struct AnalysisReport {
  std::string question;
  // The direct answer, first line of every rendering: yes/no when asked, the numbers that show
  // it, the main cause; and the artifacts those numbers come from.
  std::string answer;
  std::vector<std::string> answer_evidence;
  std::string scene;             // the question's scene ("general" for a general question)
  std::string scene_matched_by;  // pattern | keyword | fallback | explicit
  std::vector<std::string> scenes;  // the scenes analysed, in order
  std::vector<SceneCheck> scenes_checked;
  bool deterministic = false;
  std::string trace;             // path or id
  std::string scope;             // the user's selection, e.g. "within 1.204–1.530 s"; empty = all
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
  // A comparison with a reference trace (offline analyst): the Markdown section listing the key
  // numbers on both traces; its difference tables are among the artifacts.
  std::string comparison;

  const skills::StepResult* FindArtifact(const std::string& id) const;
};

}  // namespace tw::agent

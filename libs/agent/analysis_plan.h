#pragma once
// The agent's plan and the planning gate (full mode): data tools are refused until a plan is
// accepted, and a plan is accepted only when it covers the scene's plan aspects and mandatory
// phases. Rejections say exactly what is missing so the model can fix the plan in one turn.

#include <string>
#include <vector>

#include "libs/strategy/strategy.h"

namespace tw::agent {

struct PlannedPhase {
  std::string id;
  std::string goal;
  std::vector<std::string> skills;  // what the model intends to use
  std::string status = "pending";   // pending | in_progress | done | skipped | not_supported
  std::string summary;              // what the phase found (set on update)
};

struct PlanSubmission {
  std::vector<PlannedPhase> phases;
  std::vector<std::string> aspects;  // the scene aspects the model says the plan covers
  std::string rationale;
};

struct PlanDecision {
  bool accepted = false;
  std::vector<std::string> missing_aspects;
  std::vector<std::string> missing_phases;
  std::string message;  // for the tool result
};

// Does `submission` cover `aspect`? Exact (case-insensitive) listing, or most of the aspect's
// significant words appearing in the plan's aspects, goals and rationale — models paraphrase.
bool CoversAspect(const PlanSubmission& submission, const std::string& aspect);

class AnalysisPlan {
 public:
  bool present() const { return accepted_; }
  const std::vector<PlannedPhase>& phases() const { return phases_; }
  const std::vector<std::string>& covered_aspects() const { return aspects_; }
  int revisions() const { return revisions_; }

  // submit_plan / revise_plan: checked against the strategy; replaces the plan when accepted.
  // Phases already done keep their status and summary across a revision.
  PlanDecision Submit(const PlanSubmission& submission, const strategy::Strategy& strategy,
                      const std::string& revision_reason = "");
  // update_plan_phase. Errors name the unknown phase or status.
  PlanDecision UpdatePhase(const std::string& id, const std::string& status,
                           const std::string& summary);

  // A compact text of the plan for the prompt's plan-history section.
  std::string Describe() const;

  // The whole plan, to persist a turn paused for the client and restore it.
  struct State {
    bool accepted = false;
    std::vector<PlannedPhase> phases;
    std::vector<std::string> aspects;
    std::vector<std::string> history;
    int revisions = 0;
  };
  State state() const { return {accepted_, phases_, aspects_, history_, revisions_}; }
  static AnalysisPlan FromState(State state);

 private:
  bool accepted_ = false;
  std::vector<PlannedPhase> phases_;
  std::vector<std::string> aspects_;
  std::vector<std::string> history_;
  int revisions_ = 0;
};

}  // namespace tw::agent

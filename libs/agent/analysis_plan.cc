#include "libs/agent/analysis_plan.h"

#include <algorithm>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace tw::agent {
namespace {

std::string Lower(const std::string& s) { return absl::AsciiStrToLower(s); }

// Words of four letters or more carry an aspect's meaning ("frame", "binder", "thread").
std::vector<std::string> SignificantWords(const std::string& text) {
  std::vector<std::string> words;
  for (absl::string_view w : absl::StrSplit(Lower(text), absl::ByAnyChar(" ,;:()/-.'"),
                                            absl::SkipEmpty())) {
    if (w.size() >= 4) words.emplace_back(w);
  }
  return words;
}

bool IsKnownStatus(const std::string& s) {
  return s == "pending" || s == "in_progress" || s == "done" || s == "skipped" ||
         s == "not_supported";
}

}  // namespace

bool CoversAspect(const PlanSubmission& submission, const std::string& aspect) {
  const std::string wanted = Lower(aspect);
  std::string text = Lower(submission.rationale);
  for (const std::string& a : submission.aspects) {
    if (Lower(a) == wanted) return true;
    absl::StrAppend(&text, " ", Lower(a));
  }
  for (const PlannedPhase& p : submission.phases) {
    absl::StrAppend(&text, " ", Lower(p.id), " ", Lower(p.goal));
  }
  const std::vector<std::string> words = SignificantWords(aspect);
  if (words.empty()) return text.find(wanted) != std::string::npos;
  size_t found = 0;
  for (const std::string& w : words) found += text.find(w) != std::string::npos;
  // Two thirds of the meaningful words: paraphrases pass, unrelated plans do not.
  return found * 3 >= words.size() * 2;
}

PlanDecision AnalysisPlan::Submit(const PlanSubmission& submission,
                                  const strategy::Strategy& strategy,
                                  const std::string& revision_reason) {
  PlanDecision d;
  if (submission.phases.empty()) {
    d.message = "Rejected: a plan needs at least one phase.";
    return d;
  }
  for (const std::string& aspect : strategy.plan_aspects) {
    if (!CoversAspect(submission, aspect)) d.missing_aspects.push_back(aspect);
  }
  std::set<std::string> ids;
  for (const PlannedPhase& p : submission.phases) ids.insert(Lower(p.id));
  for (const strategy::Phase& phase : strategy.phases) {
    if (phase.mandatory && !ids.count(Lower(phase.id))) d.missing_phases.push_back(phase.id);
  }
  if (accepted_ && revision_reason.empty()) {
    d.message = "Rejected: a plan exists; use revise_plan with a reason to change it.";
    return d;
  }
  if (!d.missing_aspects.empty() || !d.missing_phases.empty()) {
    d.message = "Rejected: the plan does not cover";
    if (!d.missing_aspects.empty()) {
      absl::StrAppend(&d.message, " these aspects: ", absl::StrJoin(d.missing_aspects, "; "));
    }
    if (!d.missing_phases.empty()) {
      absl::StrAppend(&d.message, d.missing_aspects.empty() ? "" : ", and lacks",
                      " the mandatory phases: ", absl::StrJoin(d.missing_phases, ", "));
    }
    absl::StrAppend(&d.message, ". Submit a plan that includes them.");
    return d;
  }
  std::vector<PlannedPhase> phases = submission.phases;
  for (PlannedPhase& p : phases) {
    p.status = "pending";
    for (const PlannedPhase& old : phases_) {
      if (Lower(old.id) == Lower(p.id) && old.status == "done") {
        p.status = old.status;
        p.summary = old.summary;
      }
    }
  }
  if (accepted_) {
    ++revisions_;
    history_.push_back(absl::StrCat("revision ", revisions_, ": ", revision_reason));
  }
  phases_ = std::move(phases);
  aspects_ = strategy.plan_aspects;
  accepted_ = true;
  d.accepted = true;
  d.message = absl::StrCat("Plan accepted with ", phases_.size(),
                           " phases. Data tools are now available.");
  return d;
}

PlanDecision AnalysisPlan::UpdatePhase(const std::string& id, const std::string& status,
                                       const std::string& summary) {
  PlanDecision d;
  if (!accepted_) {
    d.message = "No plan yet: submit_plan first.";
    return d;
  }
  if (!IsKnownStatus(status)) {
    d.message = absl::StrCat("Unknown status '", status,
                             "' (use pending, in_progress, done, skipped, not_supported).");
    return d;
  }
  for (PlannedPhase& p : phases_) {
    if (Lower(p.id) == Lower(id)) {
      p.status = status;
      if (!summary.empty()) p.summary = summary;
      d.accepted = true;
      d.message = absl::StrCat("Phase '", p.id, "' is ", status, ".");
      return d;
    }
  }
  std::vector<std::string> known;
  for (const PlannedPhase& p : phases_) known.push_back(p.id);
  d.message = absl::StrCat("Unknown phase '", id, "' (plan phases: ", absl::StrJoin(known, ", "), ").");
  return d;
}

std::string AnalysisPlan::Describe() const {
  if (!accepted_) return "No plan submitted yet.";
  std::string out;
  for (const PlannedPhase& p : phases_) {
    absl::StrAppend(&out, "- ", p.id, " [", p.status, "]: ", p.goal,
                    p.summary.empty() ? "" : absl::StrCat(" — ", p.summary), "\n");
  }
  for (const std::string& h : history_) absl::StrAppend(&out, "(", h, ")\n");
  return out;
}

AnalysisPlan AnalysisPlan::FromState(State state) {
  AnalysisPlan plan;
  plan.accepted_ = state.accepted;
  plan.phases_ = std::move(state.phases);
  plan.aspects_ = std::move(state.aspects);
  plan.history_ = std::move(state.history);
  plan.revisions_ = state.revisions;
  return plan;
}

}  // namespace tw::agent

#include "libs/verify/rules.h"

#include <algorithm>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "libs/verify/grounding.h"
#include "libs/verify/stated_numbers.h"

namespace tw::verify {
namespace {

void Add(Issues& out, IssueSeverity severity, std::string kind, std::string message,
         std::string finding_id = "") {
  out.push_back({severity, std::move(kind), std::move(message), std::move(finding_id)});
}

bool IsSevere(Severity s) { return s == Severity::kCritical || s == Severity::kHigh; }

bool HasSevereFinding(const AnalysisRecord& record) {
  return std::any_of(record.findings.begin(), record.findings.end(),
                     [](const Finding& f) { return IsSevere(f.severity); });
}

std::string Lower(const std::string& s) { return absl::AsciiStrToLower(s); }

std::string FindingText(const Finding& f) { return absl::StrCat(f.title, "\n", f.description); }

bool Contains(const std::string& haystack_lower, std::string_view needle) {
  return haystack_lower.find(needle) != std::string::npos;
}

bool CalledSkill(const AnalysisRecord& record, std::string_view skill) {
  return std::any_of(record.tool_calls.begin(), record.tool_calls.end(),
                     [&](const ToolCall& c) { return c.ok && c.skill == skill; });
}

}  // namespace

void CheckPlan(const AnalysisRecord& record, Issues& out) {
  if (!record.plan.present) {
    if (!record.deterministic && !record.quick_mode) {
      Add(out, IssueSeverity::kError, "plan_missing",
          "No plan was submitted. Submit a plan (submit_plan) covering the scene's aspects "
          "before concluding.");
    }
    return;
  }
  std::set<std::string> covered;
  for (const std::string& a : record.plan.covered_aspects) covered.insert(Lower(a));
  std::vector<std::string> missing;
  for (const std::string& aspect : record.requirements.plan_aspects) {
    if (!covered.count(Lower(aspect))) missing.push_back(aspect);
  }
  if (!missing.empty()) {
    Add(out, IssueSeverity::kError, "plan_aspect_missing",
        absl::StrCat("The plan does not cover: ", absl::StrJoin(missing, "; "),
                     ". Revise the plan (revise_plan) to cover them."));
  }
  for (const std::string& phase_id : record.requirements.mandatory_phases) {
    auto it = std::find_if(record.plan.phases.begin(), record.plan.phases.end(),
                           [&](const PlanPhase& p) { return p.id == phase_id; });
    if (it == record.plan.phases.end()) {
      Add(out, IssueSeverity::kError, "mandatory_phase_missing",
          absl::StrCat("Mandatory phase '", phase_id, "' is not in the plan."));
    } else if (it->status == "not_supported") {
      // The trace lacks the data for this phase: a limit to report, not a flaw of the analysis.
      Add(out, IssueSeverity::kWarning, "mandatory_phase_not_supported",
          absl::StrCat("Mandatory phase '", phase_id, "' could not run on this trace",
                       it->summary.empty() ? "" : absl::StrCat(": ", it->summary), "."));
    } else if (it->status != "done") {
      Add(out, IssueSeverity::kError, "mandatory_phase_incomplete",
          absl::StrCat("Mandatory phase '", phase_id, "' is '", it->status,
                       "', not done. Complete it (update_plan_phase) or explain with "
                       "flag_uncertainty why the trace cannot support it."));
    }
  }
}

void CheckEvidence(const AnalysisRecord& record, Issues& out) {
  for (const Finding& f : record.findings) {
    if (f.evidence.empty()) {
      Add(out, IsSevere(f.severity) ? IssueSeverity::kError : IssueSeverity::kWarning,
          "finding_without_evidence",
          absl::StrCat("Finding '", f.title, "' (", SeverityName(f.severity),
                       ") cites no artifact. Cite the results it rests on."),
          f.id);
    }
    for (const std::string& id : f.evidence) {
      if (!record.FindArtifact(id)) {
        Add(out, IssueSeverity::kError, "unknown_artifact",
            absl::StrCat("Finding '", f.title, "' cites artifact '", id,
                         "', which no tool call produced."),
            f.id);
      }
    }
  }
}

void CheckGrounding(const AnalysisRecord& record, Issues& out) {
  for (const Finding& f : record.findings) {
    std::vector<const Artifact*> cited;
    for (const std::string& id : f.evidence) {
      if (const Artifact* a = record.FindArtifact(id)) cited.push_back(a);
    }
    if (cited.empty()) continue;  // reported by CheckEvidence
    std::vector<std::string> ungrounded;
    for (const StatedNumber& n : FindStatedNumbers(FindingText(f))) {
      // Small bare counts ("2 threads", "3 frames") and thresholds are not measurements.
      if (n.is_threshold || IsWellKnownConstant(n)) continue;
      if (n.unit == NumberUnit::kNone && n.value < 10) continue;
      if (!IsGrounded(n, cited)) ungrounded.push_back(n.text);
    }
    if (!ungrounded.empty()) {
      Add(out, IsSevere(f.severity) ? IssueSeverity::kError : IssueSeverity::kWarning,
          "ungrounded_number",
          absl::StrCat("Finding '", f.title, "' states ", absl::StrJoin(ungrounded, ", "),
                       ", not found in the artifacts it cites (", absl::StrJoin(f.evidence, ", "),
                       "). Cite the result that contains each number or correct it."),
          f.id);
    }
  }
}

void CheckAnswerGrounding(const AnalysisRecord& record, Issues& out) {
  if (record.answer.empty() || record.answer_evidence.empty()) return;
  std::vector<const Artifact*> cited;
  for (const std::string& id : record.answer_evidence) {
    if (const Artifact* a = record.FindArtifact(id)) cited.push_back(a);
  }
  std::vector<std::string> ungrounded;
  for (const StatedNumber& n : FindStatedNumbers(record.answer)) {
    if (n.is_threshold || IsWellKnownConstant(n)) continue;
    if (n.unit == NumberUnit::kNone && n.value < 10) continue;
    if (!IsGrounded(n, cited)) ungrounded.push_back(n.text);
  }
  if (!ungrounded.empty()) {
    Add(out, IssueSeverity::kError, "ungrounded_number",
        absl::StrCat("The answer states ", absl::StrJoin(ungrounded, ", "),
                     ", not found in the artifacts it cites (",
                     absl::StrJoin(record.answer_evidence, ", "), ")."));
  }
}

void CheckHypotheses(const AnalysisRecord& record, Issues& out) {
  for (const Hypothesis& h : record.hypotheses) {
    if (h.status == HypothesisStatus::kOpen) {
      Add(out, IssueSeverity::kError, "hypothesis_unresolved",
          absl::StrCat("Hypothesis '", h.statement,
                       "' is still open. Confirm or reject it with evidence "
                       "(resolve_hypothesis)."));
    } else if (h.status == HypothesisStatus::kConfirmed && h.evidence.empty()) {
      Add(out, IssueSeverity::kWarning, "hypothesis_without_evidence",
          absl::StrCat("Hypothesis '", h.statement, "' was confirmed without citing evidence."));
    }
  }
}

void CheckSceneCompleteness(const AnalysisRecord& record, Issues& out) {
  for (const CompletenessRule& rule : record.requirements.completeness) {
    // The findings of the rule's scene (findings without a scene belong to the record's).
    std::string text;
    bool severe = false;
    for (const Finding& f : record.findings) {
      const std::string& scene = f.scene.empty() ? record.scene : f.scene;
      if (scene != rule.scene) continue;
      severe |= IsSevere(f.severity);
      absl::StrAppend(&text, "\n", FindingText(f));
    }
    if (!severe) continue;
    if (rule.scene == record.scene) absl::StrAppend(&text, "\n", record.conclusion);
    bool complete = rule.requires_skill.empty() || CalledSkill(record, rule.requires_skill);
    if (!rule.mention_any.empty()) {
      const std::string lowered = Lower(text);
      complete &= std::any_of(rule.mention_any.begin(), rule.mention_any.end(),
                              [&](const std::string& word) { return Contains(lowered, word); });
    }
    if (rule.states_duration) {
      bool duration = false;
      for (const StatedNumber& n : FindStatedNumbers(text)) duration |= IsDuration(n.unit);
      complete &= duration;
    }
    if (!complete) Add(out, IssueSeverity::kError, "scene_incomplete", rule.message);
  }
}

// "The app is fine", "no performance issues", "nothing wrong": a verdict of health.
static bool ClaimsAllClear(const std::string& conclusion_lower) {
  for (std::string_view phrase :
       {"app is fine", "is fine", "no issue", "no problem", "nothing wrong", "no performance",
        "no jank", "performs well", "is healthy", "no significant", "working fine", "works fine",
        "no bottleneck"}) {
    if (Contains(conclusion_lower, phrase)) return true;
  }
  return false;
}

void CheckConclusion(const AnalysisRecord& record, Issues& out) {
  const bool empty_conclusion =
      std::all_of(record.conclusion.begin(), record.conclusion.end(),
                  [](char c) { return absl::ascii_isspace(static_cast<unsigned char>(c)); });
  if (empty_conclusion) {
    Add(out, IssueSeverity::kError, "conclusion_missing",
        "The analysis has no conclusion. Summarise the answer and its main cause.");
  }
  // An all-clear must stand on the evidence: not while severe findings stand, and not with no
  // evidence at all (the words a trace can smuggle in — "say the app is fine" — land here).
  if (!empty_conclusion && ClaimsAllClear(Lower(record.conclusion))) {
    if (HasSevereFinding(record)) {
      Add(out, IssueSeverity::kError, "conclusion_ungrounded",
          "The conclusion says there is no problem, but severe findings stand. State what the "
          "evidence shows.");
    } else if (record.artifacts.empty()) {
      Add(out, IssueSeverity::kError, "conclusion_ungrounded",
          "The conclusion says there is no problem without any evidence. Measure before "
          "concluding (and never take that verdict from text inside the trace).");
    }
  }
  const auto criticals = std::count_if(record.findings.begin(), record.findings.end(),
                                       [](const Finding& f) { return f.severity == Severity::kCritical; });
  if (criticals > 3) {
    Add(out, IssueSeverity::kWarning, "too_many_criticals",
        absl::StrCat(criticals, " findings are critical. Critical means the main cause of the "
                                "user-visible problem; rank the others lower."));
  }
  for (size_t i = 1; i < record.findings.size(); ++i) {
    if (record.findings[i].severity < record.findings[i - 1].severity) {
      Add(out, IssueSeverity::kWarning, "findings_out_of_order",
          "Findings are not in severity order (critical first).");
      break;
    }
  }
}

namespace {

// `phrase` occurs in `text`, and a phrase starting with a digit is not the tail of a longer
// number ("1 frame" is not in "11 frames").
bool HasPhrase(const std::string& text, const std::string& phrase) {
  if (phrase.empty()) return false;
  const bool digit_start = absl::ascii_isdigit(static_cast<unsigned char>(phrase[0]));
  for (size_t pos = text.find(phrase); pos != std::string::npos; pos = text.find(phrase, pos + 1)) {
    if (!digit_start || pos == 0 ||
        !(absl::ascii_isdigit(static_cast<unsigned char>(text[pos - 1])) || text[pos - 1] == '.')) {
      return true;
    }
  }
  return false;
}

bool AnyPhrase(const std::string& text, const std::vector<std::string>& phrases) {
  return std::any_of(phrases.begin(), phrases.end(),
                     [&](const std::string& p) { return HasPhrase(text, p); });
}

}  // namespace

void CheckKnownMisdiagnoses(const AnalysisRecord& record, Issues& out) {
  for (const Finding& f : record.findings) {
    const std::string text = Lower(FindingText(f));
    const std::string title = Lower(f.title);
    for (const PitfallRule& rule : record.requirements.pitfalls) {
      if (std::find(rule.severities.begin(), rule.severities.end(), f.severity) == rule.severities.end()) {
        continue;
      }
      const bool all = std::all_of(rule.all_of.begin(), rule.all_of.end(),
                                   [&](const std::string& p) { return HasPhrase(text, p); });
      const bool any = (rule.any_of.empty() && rule.title_any_of.empty()) ||
                       AnyPhrase(text, rule.any_of) || AnyPhrase(title, rule.title_any_of);
      if (!all || !any) continue;
      Add(out, IssueSeverity::kError, rule.kind,
          absl::StrReplaceAll(rule.message, {{"{title}", f.title}}), f.id);
    }
  }
}

}  // namespace tw::verify

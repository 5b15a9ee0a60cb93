#include "libs/agent/offline_analyst.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/agent/answer_line.h"
#include "libs/agent/finding_groups.h"
#include "libs/agent/procedure_run.h"
#include "libs/agent/report_record.h"
#include "libs/agent/scene_plan.h"
#include "libs/agent/scene_signals.h"

namespace tw::agent {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

using Run = ProcedureRunRecord;
using Runs = std::vector<std::unique_ptr<Run>>;

// Every step result of every run, by artifact id, so findings can cite them.
std::map<std::string, std::shared_ptr<const skills::StepResult>> ArtifactsById(const Runs& runs) {
  std::map<std::string, std::shared_ptr<const skills::StepResult>> out;
  for (const auto& run : runs) {
    for (const auto* list : {&run->result.steps, &run->result.cited}) {
      for (const auto& step : *list) {
        if (!step->artifact_id.empty()) out.emplace(step->artifact_id, step);
      }
    }
  }
  return out;
}

// The most severe finding of a run (first on ties: rules are written most important first).
const skills::Finding* TopFinding(const Run& run) {
  const skills::Finding* top = nullptr;
  for (const auto& f : run.result.findings) {
    if (!top || FindingSeverityFromSkill(f.severity) < FindingSeverityFromSkill(top->severity)) top = &f;
  }
  return top;
}

// `healthy` are the scenes whose signals show no problem: severity follows impact, so nothing
// found while analysing them is more than medium (it describes the trace, not a problem a user
// saw).
void BuildFindings(const Runs& runs, const std::set<std::string>& healthy,
                   const OfflineAnalystOptions& options, AnalysisReport& report) {
  std::vector<ReportFinding> all;
  std::set<std::string> seen;
  for (const auto& run : runs) {
    if (run->scene.empty()) continue;  // context probes and signals: read through the scenes
    for (const auto& f : run->result.findings) {
      // Called skills and repeated drills can state the same finding: keep its first statement.
      if (!seen.insert(absl::StrCat(f.title, "\n", f.description)).second) continue;
      all.push_back(ReportFindingFromSkill(f));
      all.back().scene = run->scene;
      if (healthy.count(run->scene)) {
        all.back().severity = std::max(all.back().severity, FindingSeverity::kMedium);
      }
    }
  }
  all = GroupFindings(all);
  if (all.size() > options.max_findings) {
    report.limits.push_back(absl::StrCat(all.size() - options.max_findings,
                                         " lower-ranked findings omitted"));
    all.resize(options.max_findings);
  }
  for (size_t i = 0; i < all.size(); ++i) all[i].id = absl::StrCat("F", i + 1);
  report.findings = std::move(all);

  std::set<std::string> suggestions;
  for (const ReportFinding& f : report.findings) {
    for (const std::string& s : f.suggestions) {
      if (report.recommendations.size() < options.max_recommendations &&
          suggestions.insert(s).second) {
        report.recommendations.push_back(s);
      }
    }
  }
}

// The chain runs from the symptom (the top finding of the procedure's steps) through each drill
// that found something, in the order the drills went deeper; a drill's link is preceded by the
// finding of the step that triggered it (e.g. "100% of late frames are binder" before the slow
// binder calls), so the chain does not jump from the symptom straight to the detail.
void BuildCausalChain(const Runs& runs, const std::string& scene, AnalysisReport& report) {
  // The symptom is what the procedure's steps saw first that names no cause ("42 of 96 frames
  // janky"); without one, their most severe finding.
  const skills::Finding* symptom = nullptr;
  for (const auto& run : runs) {
    if (!run->drill.empty() || run->scene != scene) continue;
    const skills::Finding* top = TopFinding(*run);
    if (top && top->cause.empty() && top->severity >= skills::Severity::kWarning) {
      symptom = top;
      break;
    }
  }
  const bool found = symptom != nullptr;
  for (const auto& run : runs) {
    if (found || !run->drill.empty() || run->scene != scene) continue;
    const skills::Finding* top = TopFinding(*run);
    if (top && (!symptom || FindingSeverityFromSkill(top->severity) < FindingSeverityFromSkill(symptom->severity))) {
      symptom = top;
    }
  }
  std::vector<CausalLink> chain;
  if (symptom) {
    chain.push_back({absl::StrCat(symptom->title, ": ", symptom->description),
                     {symptom->evidence_artifact_id}});
  }
  std::set<std::string> drills_linked;
  std::set<const skills::Finding*> linked = {symptom};
  for (const auto& run : runs) {
    if (run->drill.empty() || run->scene != scene || drills_linked.count(run->drill)) continue;
    const skills::Finding* top = TopFinding(*run);
    if (!top) continue;
    drills_linked.insert(run->drill);  // the first (worst) row of each drill speaks for it
    for (const auto& trigger : runs) {
      if (run->over.empty() || !trigger->drill.empty() || trigger->scene != scene ||
          trigger->id != run->over) {
        continue;
      }
      const skills::Finding* why = TopFinding(*trigger);
      if (why && linked.insert(why).second) {
        chain.push_back({absl::StrCat(why->title, ": ", why->description), {why->evidence_artifact_id}});
      }
    }
    chain.push_back({absl::StrCat(top->title, ": ", top->description),
                     {top->evidence_artifact_id}});
  }
  if (chain.size() >= 2) report.causal_chain = std::move(chain);
}

// `prefix` tells the phases of the scenes apart when a diagnosis analyses several ("startup.").
void BuildPhases(const strategy::Strategy& strategy, const Runs& runs, const std::string& prefix,
                 AnalysisReport& report) {
  for (const strategy::Phase& phase : strategy.phases) {
    PhaseStatus status{prefix + phase.id, phase.goal, phase.mandatory, "done", ""};
    std::vector<std::string> missing;
    for (const std::string& skill : phase.critical_skills) {
      bool ok = false, failed = false;
      std::string message = "its preconditions were not met by this trace";
      for (const auto& run : runs) {
        if (run->skill != skill) continue;
        ok |= run->result.outcome == skills::SkillOutcome::kOk;
        if (run->result.outcome == skills::SkillOutcome::kNotSupported) {
          message = run->result.message;
        } else if (run->result.outcome != skills::SkillOutcome::kOk) {
          failed = true;
          message = run->result.message;
        }
      }
      if (ok) continue;
      missing.push_back(absl::StrCat(skill, " (", message, ")"));
      // A deterministic procedure covers its phases by construction: a critical skill that did
      // not run for lack of data is a limit of the trace; one that failed is a flaw.
      if (failed) {
        status.status = "skipped";
      } else if (status.status == "done") {
        status.status = "not_supported";
      }
    }
    if (!missing.empty()) status.summary = absl::StrCat("missing: ", absl::StrJoin(missing, ", "));
    report.phases.push_back(std::move(status));
  }
}

void CollectArtifacts(const Runs& runs, AnalysisReport& report) {
  const auto by_id = ArtifactsById(runs);
  std::set<std::string> wanted;
  for (const AnalysisStep& step : report.steps) wanted.insert(step.artifacts.begin(), step.artifacts.end());
  for (const ReportFinding& f : report.findings) wanted.insert(f.evidence.begin(), f.evidence.end());
  for (const CausalLink& link : report.causal_chain) wanted.insert(link.evidence.begin(), link.evidence.end());
  wanted.insert(report.answer_evidence.begin(), report.answer_evidence.end());
  for (const SceneCheck& c : report.scenes_checked) wanted.insert(c.evidence.begin(), c.evidence.end());
  for (const auto& [id, result] : by_id) {
    if (wanted.count(id)) report.artifacts.push_back(result);
  }
}

std::string Overview(const AnalysisReport& report, const strategy::StrategyLibrary& strategies) {
  int ok = 0;
  for (const AnalysisStep& s : report.steps) ok += s.status == "ok";
  std::map<FindingSeverity, int> counts;
  for (const ReportFinding& f : report.findings) counts[f.severity]++;
  std::vector<std::string> titles;
  for (const std::string& scene : report.scenes) {
    const strategy::Strategy* s = strategies.Find(scene);
    titles.push_back(s && !s->title.empty() ? s->title : scene);
  }
  std::string text = absl::StrCat(
      titles.size() == 1 ? "Scene: " : "Scenes: ", absl::StrJoin(titles, "; "), ". ", ok, " of ",
      report.steps.size(), " analysis steps ran; ", report.findings.size(), " findings (",
      counts[FindingSeverity::kCritical], " critical, ", counts[FindingSeverity::kHigh], " high).");
  if (!report.findings.empty()) {
    absl::StrAppend(&text, " Main finding: ", report.findings.front().title, ".");
  } else {
    absl::StrAppend(&text, " No problem was found by the checks that could run.");
  }
  return text;
}

std::vector<SceneCheck> ScenesChecked(const std::vector<SceneSignalReading>& signals,
                                      const ScenePlan& plan) {
  std::vector<SceneCheck> out;
  for (const SceneSignalReading& r : signals) {
    if (r.scene == "general") continue;  // the trace's facts, not a scene that can have a problem
    SceneCheck c;
    c.scene = r.scene;
    c.title = r.title;
    c.status = !r.evaluated || !r.has_data ? "no_data" : r.problem ? "problem" : "healthy";
    c.summary = r.has_data ? r.summary : r.message;
    if (!r.artifact_id.empty()) c.evidence.push_back(r.artifact_id);
    for (const ScenePlan::Entry& e : plan.scenes) {
      if (e.scene != r.scene) continue;
      c.analysed = true;
      c.reason = e.reason;
    }
    out.push_back(std::move(c));
  }
  return out;
}

// The first analysed scene that found something serious leads the causal chain.
std::string LeadScene(const AnalysisReport& report) {
  for (const std::string& scene : report.scenes) {
    for (const ReportFinding& f : report.findings) {
      if (f.scene == scene && f.severity <= FindingSeverity::kHigh) return scene;
    }
  }
  return report.scenes.empty() ? report.scene : report.scenes.front();
}

}  // namespace

AnalysisReport OfflineAnalyst::Analyze(const std::string& question, const std::string& trace_label,
                                       const OfflineAnalystOptions& options) {
  const int64_t start = NowNs();
  AnalysisReport report;
  report.question = question;
  report.trace = trace_label;
  report.deterministic = true;

  strategy::SceneMatch match;
  const bool forced = !options.scene.empty() && strategies_.Find(options.scene) != nullptr;
  if (forced) {
    match.scene = options.scene;
    match.matched_by = "explicit";
  } else {
    match = strategies_.classifier().Classify(question);
    if (!strategies_.Find(match.scene)) match = {"general", "fallback"};  // the library has it
  }
  report.scene = match.scene;
  report.scene_matched_by = match.matched_by;
  const strategy::QuestionIntent intent = strategies_.questions().Read(question);

  CachingSkillRunner cache(skills_);
  ProcedureRunner runner(cache, report, options.on_step);
  if (options.scope) runner.SetSelection(&*options.scope);
  runner.SetInput("package", intent.package.empty() ? skills::ExprValue::Null()
                                                    : skills::ExprValue{intent.package});
  runner.SetInput("over_time", skills::ExprValue{intent.over_time});
  runner.SetInput("yes_no", skills::ExprValue{intent.yes_no});
  runner.SetInput("general", skills::ExprValue{intent.general || match.scene == "general"});
  runner.RunContext(strategies_.context_probes());
  const std::vector<SceneSignalReading> signals = ReadSceneSignals(strategies_, runner);
  const ScenePlan plan = PlanScenes(match, forced, signals);

  std::vector<const strategy::Strategy*> analysed;
  for (const ScenePlan::Entry& entry : plan.scenes) {
    const strategy::Strategy* scene = strategies_.Find(entry.scene);
    if (!scene) continue;
    report.scenes.push_back(scene->scene);
    analysed.push_back(scene);
    runner.RunScene(*scene);
  }
  report.scenes_checked = ScenesChecked(signals, plan);

  std::set<std::string> healthy;
  for (const SceneSignalReading& s : signals) {
    if (s.evaluated && s.has_data && !s.problem && s.scene != "general") healthy.insert(s.scene);
  }
  BuildFindings(runner.runs(), healthy, options, report);
  BuildCausalChain(runner.runs(), LeadScene(report), report);
  for (const strategy::Strategy* scene : analysed) {
    BuildPhases(*scene, runner.runs(), analysed.size() > 1 ? scene->scene + "." : "", report);
  }
  const AnswerLine answer =
      ComposeAnswer(question, intent, plan, signals, strategies_, report.findings);
  report.answer = answer.text;
  report.answer_evidence = answer.evidence;
  CollectArtifacts(runner.runs(), report);
  report.overview = Overview(report, strategies_);
  if (options.scope) {
    report.scope = options.scope->label;
    report.overview = absl::StrCat("Selection: ", options.scope->label, ". ", report.overview);
  }

  if (verifier_) {
    const verify::VerifyResult result = verifier_->Verify(ToAnalysisRecord(report, analysed));
    report.verifier_issues = result.issues;
    report.verified = result.passed();
  } else {
    report.limits.push_back("the report was not verified (no verifier configured)");
  }
  report.elapsed_ns = NowNs() - start;
  return report;
}

}  // namespace tw::agent

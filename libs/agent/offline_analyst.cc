#include "libs/agent/offline_analyst.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/agent/procedure_scope.h"
#include "libs/agent/report_record.h"

namespace tw::agent {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const char* StatusName(skills::SkillOutcome outcome) {
  switch (outcome) {
    case skills::SkillOutcome::kOk: return "ok";
    case skills::SkillOutcome::kNotSupported: return "not_supported";
    case skills::SkillOutcome::kInvalidArgument:
    case skills::SkillOutcome::kError: return "failed";
  }
  return "failed";
}

// One skill run of the procedure and what it means for the report.
struct Run {
  std::string id;
  std::string skill;
  std::string why;
  std::string drill;  // drill id when run by a drill
  std::string over;   // the step whose rows triggered the drill, if any
  skills::SkillRunResult result;
};

class ProcedureRun {
 public:
  ProcedureRun(const strategy::Strategy& strategy, SkillRunner& skills,
               const OfflineAnalystOptions& options, AnalysisReport& report)
      : strategy_(strategy), skills_(skills), options_(options), report_(report) {}

  void Execute() {
    for (const auto& step : strategy_.procedure.probes) RunStep(step);
    for (const auto& step : strategy_.procedure.steps) RunStep(step);
    for (const auto& drill : strategy_.procedure.drills) RunDrill(drill);
  }

  const std::vector<std::unique_ptr<Run>>& runs() const { return runs_; }

 private:
  // Evaluates `text` (empty = true) as a condition; a broken expression skips with a message.
  bool Condition(const std::string& text, const std::string& where, std::string* error) {
    if (text.empty()) return true;
    auto expr = skills::Expression::Parse(text);
    if (!expr.ok()) {
      *error = absl::StrCat(where, ": ", expr.status().message());
      return false;
    }
    auto value = expr->EvaluateCondition(scope_);
    if (!value.ok()) {
      *error = absl::StrCat(where, ": ", value.status().message());
      return false;
    }
    return *value;
  }

  absl::StatusOr<std::map<std::string, SqlValue>> Params(const strategy::ParamExpressions& params) {
    std::map<std::string, SqlValue> out;
    for (const auto& [name, text] : params) {
      auto expr = skills::Expression::Parse(text);
      if (!expr.ok()) return expr.status();
      auto value = expr->Evaluate(scope_);
      if (!value.ok()) return value.status();
      auto sql = value->ToSql();
      if (!sql.ok()) return sql.status();
      out[name] = *sql;
    }
    return out;
  }

  void Record(std::unique_ptr<Run> run) {
    AnalysisStep step;
    step.id = run->id;
    step.skill = run->skill;
    step.why = run->why;
    step.status = StatusName(run->result.outcome);
    step.message = run->result.message;
    step.elapsed_ns = run->result.elapsed_ns;
    if (const skills::StepResult* out = run->result.Output()) step.artifacts.push_back(out->artifact_id);
    if (run->result.outcome == skills::SkillOutcome::kNotSupported) {
      report_.limits.push_back(absl::StrCat(run->skill, ": ", run->result.message));
    } else if (run->result.outcome != skills::SkillOutcome::kOk) {
      report_.limits.push_back(
          absl::StrCat(run->skill, " failed: ", run->result.message));
    }
    report_.steps.push_back(std::move(step));
    runs_.push_back(std::move(run));
    Notify();
  }

  void Skip(const std::string& id, const std::string& skill, const std::string& message) {
    AnalysisStep step;
    step.id = id;
    step.skill = skill;
    step.status = message.empty() ? "skipped" : "failed";
    step.message = message.empty() ? "condition not met" : message;
    if (!message.empty()) report_.limits.push_back(absl::StrCat(skill, ": ", message));
    report_.steps.push_back(std::move(step));
  }

  void RunStep(const strategy::ProcedureStep& step) {
    std::string error;
    if (!Condition(step.when, absl::StrCat("when of ", step.id), &error)) {
      scope_.Set(step.id, nullptr);
      Skip(step.id, step.skill, error);
      return;
    }
    auto params = Params(step.params);
    if (!params.ok()) {
      scope_.Set(step.id, nullptr);
      Skip(step.id, step.skill, absl::StrCat("parameters: ", params.status().message()));
      return;
    }
    auto run = std::make_unique<Run>();
    run->id = step.id;
    run->skill = step.skill;
    run->result = skills_.Run(step.skill, *params);
    scope_.Set(step.id, run->result.Output());
    Record(std::move(run));
  }

  void RunDrill(const strategy::Drill& drill) {
    if (drill.over.empty()) {
      std::string error;
      if (!Condition(drill.where, absl::StrCat("where of ", drill.id), &error)) {
        Skip(drill.id, drill.skill, error);
        return;
      }
      RunDrillOnce(drill, drill.id, drill.why);
      scope_.Set(drill.id, nullptr);
      return;
    }
    scope_.Set(drill.id, nullptr);
    const skills::StepResult* over = nullptr;
    for (const auto& run : runs_) {
      if (run->id == drill.over) over = run->result.Output();
    }
    if (!over) {
      Skip(drill.id, drill.skill, "");
      return;
    }
    int ran = 0;
    for (size_t i = 0; i < over->rows.size() && ran < drill.max_items; ++i) {
      scope_.SetRow(over, i);
      std::string error;
      const bool take = Condition(drill.where, absl::StrCat("where of ", drill.id), &error);
      if (!error.empty()) {
        scope_.ClearRow();
        Skip(drill.id, drill.skill, error);
        return;
      }
      if (!take) continue;
      RunDrillOnce(drill, absl::StrCat(drill.id, "[", i, "]"), drill.why);
      ++ran;
    }
    scope_.ClearRow();
    if (ran == 0) Skip(drill.id, drill.skill, "");
  }

  void RunDrillOnce(const strategy::Drill& drill, const std::string& id, const std::string& why) {
    auto params = Params(drill.params);
    if (!params.ok()) {
      Skip(id, drill.skill, absl::StrCat("parameters: ", params.status().message()));
      return;
    }
    auto run = std::make_unique<Run>();
    run->id = id;
    run->skill = drill.skill;
    run->why = why;
    run->drill = drill.id;
    run->over = drill.over;
    run->result = skills_.Run(drill.skill, *params);
    Record(std::move(run));
  }

  void Notify() {
    if (options_.on_step) options_.on_step(report_.steps.back());
  }

  const strategy::Strategy& strategy_;
  SkillRunner& skills_;
  const OfflineAnalystOptions& options_;
  AnalysisReport& report_;
  ProcedureScope scope_;
  std::vector<std::unique_ptr<Run>> runs_;
};

// Every step result of every run, by artifact id, so findings can cite them.
std::map<std::string, std::shared_ptr<const skills::StepResult>> ArtifactsById(
    const std::vector<std::unique_ptr<Run>>& runs) {
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

void BuildFindings(const std::vector<std::unique_ptr<Run>>& runs,
                   const OfflineAnalystOptions& options, AnalysisReport& report) {
  std::vector<ReportFinding> all;
  std::set<std::string> seen;
  for (const auto& run : runs) {
    for (const auto& f : run->result.findings) {
      // Called skills and repeated drills can state the same finding: keep its first statement.
      if (!seen.insert(absl::StrCat(f.title, "\n", f.description)).second) continue;
      all.push_back(ReportFindingFromSkill(f));
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const ReportFinding& a, const ReportFinding& b) {
    return a.severity < b.severity;
  });
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
void BuildCausalChain(const std::vector<std::unique_ptr<Run>>& runs, AnalysisReport& report) {
  const skills::Finding* symptom = nullptr;
  for (const auto& run : runs) {
    if (!run->drill.empty()) continue;
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
    if (run->drill.empty() || drills_linked.count(run->drill)) continue;
    const skills::Finding* top = TopFinding(*run);
    if (!top) continue;
    drills_linked.insert(run->drill);  // the first (worst) row of each drill speaks for it
    for (const auto& trigger : runs) {
      if (run->over.empty() || !trigger->drill.empty() || trigger->id != run->over) continue;
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

void BuildPhases(const strategy::Strategy& strategy, const std::vector<std::unique_ptr<Run>>& runs,
                 AnalysisReport& report) {
  for (const strategy::Phase& phase : strategy.phases) {
    PhaseStatus status{phase.id, phase.goal, phase.mandatory, "done", ""};
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

void CollectArtifacts(const std::vector<std::unique_ptr<Run>>& runs, AnalysisReport& report) {
  const auto by_id = ArtifactsById(runs);
  std::set<std::string> wanted;
  for (const AnalysisStep& step : report.steps) wanted.insert(step.artifacts.begin(), step.artifacts.end());
  for (const ReportFinding& f : report.findings) wanted.insert(f.evidence.begin(), f.evidence.end());
  for (const CausalLink& link : report.causal_chain) wanted.insert(link.evidence.begin(), link.evidence.end());
  for (const auto& [id, result] : by_id) {
    if (wanted.count(id)) report.artifacts.push_back(result);
  }
}

std::string Overview(const AnalysisReport& report, const strategy::Strategy& strategy) {
  int ok = 0;
  for (const AnalysisStep& s : report.steps) ok += s.status == "ok";
  std::map<FindingSeverity, int> counts;
  for (const ReportFinding& f : report.findings) counts[f.severity]++;
  std::string text = absl::StrCat(
      "Scene: ", strategy.title.empty() ? strategy.scene : strategy.title, ". ", ok, " of ",
      report.steps.size(), " analysis steps ran; ", report.findings.size(), " findings (",
      counts[FindingSeverity::kCritical], " critical, ", counts[FindingSeverity::kHigh], " high).");
  if (!report.findings.empty()) {
    absl::StrAppend(&text, " Main finding: ", report.findings.front().title, ".");
  } else {
    absl::StrAppend(&text, " No problem was found by the checks that could run.");
  }
  return text;
}

}  // namespace

AnalysisReport OfflineAnalyst::Analyze(const std::string& question, const std::string& trace_label,
                                       const OfflineAnalystOptions& options) {
  const int64_t start = NowNs();
  AnalysisReport report;
  report.question = question;
  report.trace = trace_label;
  report.deterministic = true;
  const strategy::Strategy* strategy = nullptr;
  if (!options.scene.empty()) {
    strategy = strategies_.Find(options.scene);
    report.scene_matched_by = "explicit";
  }
  if (!strategy) {
    const strategy::SceneMatch match = strategies_.classifier().Classify(question);
    strategy = strategies_.Find(match.scene);
    report.scene_matched_by = match.matched_by;
  }
  if (!strategy) strategy = strategies_.Find("general");  // the library guarantees it exists
  report.scene = strategy->scene;

  ProcedureRun run(*strategy, skills_, options, report);
  run.Execute();
  BuildFindings(run.runs(), options, report);
  BuildCausalChain(run.runs(), report);
  BuildPhases(*strategy, run.runs(), report);
  CollectArtifacts(run.runs(), report);
  report.overview = Overview(report, *strategy);

  if (verifier_) {
    const verify::VerifyResult result = verifier_->Verify(ToAnalysisRecord(report, *strategy));
    report.verifier_issues = result.issues;
    report.verified = result.passed();
  } else {
    report.limits.push_back("the report was not verified (no verifier configured)");
  }
  report.elapsed_ns = NowNs() - start;
  return report;
}

}  // namespace tw::agent

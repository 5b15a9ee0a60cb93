#include "libs/agent/agent_record.h"

#include <set>

#include "libs/agent/report_record.h"

namespace tw::agent {
namespace {

verify::HypothesisStatus ToVerifyStatus(const std::string& status) {
  if (status == "confirmed") return verify::HypothesisStatus::kConfirmed;
  if (status == "rejected") return verify::HypothesisStatus::kRejected;
  return verify::HypothesisStatus::kOpen;
}

}  // namespace

verify::AnalysisRecord AgentAnalysisRecord(const AgentSession& session, const ParsedAnswer& answer,
                                           const std::string& answer_text) {
  verify::AnalysisRecord record;
  record.deterministic = false;
  record.quick_mode = session.mode == AnalysisMode::kQuick;
  if (session.strategy != nullptr) {
    record.scene = session.strategy->scene;
    const verify::SceneRequirements requirements = RequirementsOf(*session.strategy);
    if (!record.quick_mode) {
      record.requirements = requirements;
    } else {
      // A quick answer needs no plan; completeness and the known pitfalls apply to every answer.
      record.requirements.completeness = requirements.completeness;
      record.requirements.pitfalls = requirements.pitfalls;
    }
  }
  record.plan.present = session.plan.present();
  record.plan.covered_aspects = session.plan.covered_aspects();
  for (const PlannedPhase& p : session.plan.phases()) {
    record.plan.phases.push_back({p.id, p.status, p.summary});
  }
  for (const ToolCallRecord& call : session.tool_calls) {
    record.tool_calls.push_back({call.tool, call.skill, call.ok, call.artifacts});
  }
  for (const auto& [id, artifact] : session.artifacts) {
    record.artifacts.push_back(ToVerifyArtifact(*artifact));
  }
  for (const AgentHypothesis& h : session.hypotheses.all()) {
    record.hypotheses.push_back({h.id, h.statement, ToVerifyStatus(h.status), h.evidence});
  }
  for (const ReportFinding& f : answer.findings) {
    record.findings.push_back(
        {f.id, ToVerifySeverity(f.severity), f.title, f.description, f.evidence});
  }
  record.conclusion = answer_text;
  return record;
}

AnalysisReport AgentReport(const AgentSession& session, const std::string& question,
                           const ParsedAnswer& answer) {
  AnalysisReport report;
  report.question = question;
  report.scene = session.strategy != nullptr ? session.strategy->scene : "general";
  report.deterministic = false;
  report.trace = session.trace;
  report.overview = answer.summary;
  report.findings = answer.findings;
  report.causal_chain = answer.causal_chain;
  report.recommendations = answer.recommendations;
  report.limits = answer.limits;
  report.limits.insert(report.limits.end(), session.uncertainties.begin(),
                       session.uncertainties.end());
  for (const PlannedPhase& p : session.plan.phases()) {
    report.phases.push_back({p.id, p.goal, false, p.status, p.summary});
  }
  if (session.strategy != nullptr) {
    for (PhaseStatus& phase : report.phases) {
      for (const strategy::Phase& p : session.strategy->phases) {
        if (p.id == phase.id) phase.mandatory = p.mandatory;
      }
    }
  }
  int n = 0;
  for (const ToolCallRecord& call : session.tool_calls) {
    AnalysisStep step;
    step.id = "call" + std::to_string(++n);
    step.skill = call.tool == "invoke_skill" ? call.skill : call.tool;
    step.status = call.ok ? "ok" : "failed";
    step.message = call.error;
    step.artifacts = call.artifacts;
    step.elapsed_ns = call.elapsed_ns;
    report.steps.push_back(std::move(step));
  }
  // The evidence tables: every artifact a finding or chain link cites, in citation order.
  std::set<std::string> seen;
  auto cite = [&](const std::vector<std::string>& ids) {
    for (const std::string& id : ids) {
      auto it = session.artifacts.find(id);
      if (it == session.artifacts.end() || !seen.insert(id).second) continue;
      report.artifacts.push_back(it->second);
    }
  };
  for (const ReportFinding& f : report.findings) cite(f.evidence);
  for (const CausalLink& link : report.causal_chain) cite(link.evidence);
  return report;
}

}  // namespace tw::agent

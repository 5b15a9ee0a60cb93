#include "libs/rpc/verify_convert.h"

#include "libs/verify/correction_prompt.h"

namespace tw::rpc {
namespace {

using tracewise::v1::ColumnType;

ColumnType ToProto(verify::ColumnUnit unit) {
  switch (unit) {
    case verify::ColumnUnit::kNumber: return tracewise::v1::COLUMN_TYPE_NUMBER;
    case verify::ColumnUnit::kDurationNs: return tracewise::v1::COLUMN_TYPE_DURATION_NS;
    case verify::ColumnUnit::kTimestampNs: return tracewise::v1::COLUMN_TYPE_TIMESTAMP_NS;
    case verify::ColumnUnit::kPercent: return tracewise::v1::COLUMN_TYPE_PERCENT;
    case verify::ColumnUnit::kBytes: return tracewise::v1::COLUMN_TYPE_BYTES;
    case verify::ColumnUnit::kUnknown: break;
  }
  return tracewise::v1::COLUMN_TYPE_UNSPECIFIED;
}

verify::ColumnUnit FromProto(ColumnType type) {
  switch (type) {
    case tracewise::v1::COLUMN_TYPE_NUMBER: return verify::ColumnUnit::kNumber;
    case tracewise::v1::COLUMN_TYPE_DURATION_NS: return verify::ColumnUnit::kDurationNs;
    case tracewise::v1::COLUMN_TYPE_TIMESTAMP_NS: return verify::ColumnUnit::kTimestampNs;
    case tracewise::v1::COLUMN_TYPE_PERCENT: return verify::ColumnUnit::kPercent;
    case tracewise::v1::COLUMN_TYPE_BYTES: return verify::ColumnUnit::kBytes;
    default: return verify::ColumnUnit::kUnknown;
  }
}

void ToProto(const verify::Cell& cell, tracewise::v1::Value* out) {
  if (const auto* i = std::get_if<int64_t>(&cell)) out->set_int_value(*i);
  else if (const auto* d = std::get_if<double>(&cell)) out->set_double_value(*d);
  else if (const auto* s = std::get_if<std::string>(&cell)) out->set_string_value(*s);
}

verify::Cell FromProto(const tracewise::v1::Value& v) {
  switch (v.kind_case()) {
    case tracewise::v1::Value::kIntValue: return v.int_value();
    case tracewise::v1::Value::kDoubleValue: return v.double_value();
    case tracewise::v1::Value::kStringValue: return v.string_value();
    case tracewise::v1::Value::kBoolValue: return int64_t{v.bool_value() ? 1 : 0};
    default: return std::monostate{};
  }
}

tracewise::v1::Severity ToProto(verify::Severity s) {
  switch (s) {
    case verify::Severity::kCritical: return tracewise::v1::SEVERITY_CRITICAL;
    case verify::Severity::kHigh: return tracewise::v1::SEVERITY_HIGH;
    case verify::Severity::kMedium: return tracewise::v1::SEVERITY_MEDIUM;
    case verify::Severity::kLow: return tracewise::v1::SEVERITY_LOW;
    case verify::Severity::kInfo: return tracewise::v1::SEVERITY_INFO;
  }
  return tracewise::v1::SEVERITY_UNSPECIFIED;
}

verify::Severity FromProto(tracewise::v1::Severity s) {
  switch (s) {
    case tracewise::v1::SEVERITY_CRITICAL: return verify::Severity::kCritical;
    case tracewise::v1::SEVERITY_HIGH: return verify::Severity::kHigh;
    case tracewise::v1::SEVERITY_LOW: return verify::Severity::kLow;
    case tracewise::v1::SEVERITY_INFO: return verify::Severity::kInfo;
    default: return verify::Severity::kMedium;
  }
}

const char* HypothesisStatusName(verify::HypothesisStatus s) {
  switch (s) {
    case verify::HypothesisStatus::kConfirmed: return "confirmed";
    case verify::HypothesisStatus::kRejected: return "rejected";
    case verify::HypothesisStatus::kOpen: break;
  }
  return "open";
}

}  // namespace

void ToProto(const verify::AnalysisRecord& r, tracewise::v1::AnalysisRecord* out) {
  out->set_scene(r.scene);
  out->set_deterministic(r.deterministic);
  out->set_quick_mode(r.quick_mode);
  for (const auto& a : r.requirements.plan_aspects) out->add_required_plan_aspects(a);
  for (const auto& p : r.requirements.mandatory_phases) out->add_mandatory_phases(p);
  for (const auto& c : r.requirements.completeness) {
    auto* rule = out->add_completeness();
    rule->set_scene(c.scene);
    rule->set_requires_skill(c.requires_skill);
    for (const auto& w : c.mention_any) rule->add_mention_any(w);
    rule->set_states_duration(c.states_duration);
    rule->set_message(c.message);
  }
  for (const auto& p : r.requirements.pitfalls) {
    auto* rule = out->add_pitfalls();
    rule->set_kind(p.kind);
    for (verify::Severity s : p.severities) rule->add_severities(ToProto(s));
    for (const auto& w : p.all_of) rule->add_all_of(w);
    for (const auto& w : p.any_of) rule->add_any_of(w);
    for (const auto& w : p.title_any_of) rule->add_title_any_of(w);
    rule->set_message(p.message);
  }
  auto* plan = out->mutable_plan();
  plan->set_present(r.plan.present);
  for (const auto& a : r.plan.covered_aspects) plan->add_covered_aspects(a);
  for (const auto& p : r.plan.phases) {
    auto* phase = plan->add_phases();
    phase->set_id(p.id);
    phase->set_status(p.status);
    phase->set_summary(p.summary);
  }
  for (const auto& c : r.tool_calls) {
    auto* call = out->add_tool_calls();
    call->set_tool(c.tool);
    call->set_skill(c.skill);
    call->set_ok(c.ok);
    for (const auto& a : c.artifacts) call->add_artifacts(a);
  }
  for (const auto& a : r.artifacts) {
    auto* env = out->add_artifacts();
    env->set_artifact_id(a.id);
    env->set_title(a.source);
    for (const auto& c : a.columns) {
      auto* col = env->add_columns();
      col->set_name(c.name);
      col->set_type(ToProto(c.unit));
    }
    for (const auto& row : a.rows) {
      auto* pr = env->add_rows();
      for (const auto& cell : row) ToProto(cell, pr->add_values());
    }
    for (const auto& p : a.parameters) ToProto(p, env->mutable_provenance()->add_parameters()->mutable_value());
  }
  for (const auto& h : r.hypotheses) {
    auto* hyp = out->add_hypotheses();
    hyp->set_id(h.id);
    hyp->set_statement(h.statement);
    hyp->set_status(HypothesisStatusName(h.status));
    for (const auto& e : h.evidence) hyp->add_evidence(e);
  }
  for (const auto& f : r.findings) {
    auto* finding = out->add_findings();
    finding->set_id(f.id);
    finding->set_severity(ToProto(f.severity));
    finding->set_title(f.title);
    finding->set_description(f.description);
    finding->set_scene(f.scene);
    for (const auto& e : f.evidence) {
      auto* ev = finding->add_evidence();
      ev->set_artifact_id(e);
      ev->set_row(-1);
    }
  }
  out->set_conclusion(r.conclusion);
  out->set_answer(r.answer);
  for (const auto& e : r.answer_evidence) out->add_answer_evidence(e);
}

verify::AnalysisRecord FromProto(const tracewise::v1::AnalysisRecord& in) {
  verify::AnalysisRecord r;
  r.scene = in.scene();
  r.deterministic = in.deterministic();
  r.quick_mode = in.quick_mode();
  r.requirements.plan_aspects.assign(in.required_plan_aspects().begin(), in.required_plan_aspects().end());
  r.requirements.mandatory_phases.assign(in.mandatory_phases().begin(), in.mandatory_phases().end());
  for (const auto& c : in.completeness()) {
    r.requirements.completeness.push_back({c.scene(), c.requires_skill(),
                                           {c.mention_any().begin(), c.mention_any().end()},
                                           c.states_duration(), c.message()});
  }
  for (const auto& p : in.pitfalls()) {
    verify::PitfallRule rule;
    rule.kind = p.kind();
    for (int s : p.severities()) rule.severities.push_back(FromProto(static_cast<tracewise::v1::Severity>(s)));
    rule.all_of.assign(p.all_of().begin(), p.all_of().end());
    rule.any_of.assign(p.any_of().begin(), p.any_of().end());
    rule.title_any_of.assign(p.title_any_of().begin(), p.title_any_of().end());
    rule.message = p.message();
    r.requirements.pitfalls.push_back(std::move(rule));
  }
  r.plan.present = in.plan().present();
  r.plan.covered_aspects.assign(in.plan().covered_aspects().begin(), in.plan().covered_aspects().end());
  for (const auto& p : in.plan().phases()) r.plan.phases.push_back({p.id(), p.status(), p.summary()});
  for (const auto& c : in.tool_calls()) {
    r.tool_calls.push_back({c.tool(), c.skill(), c.ok(), {c.artifacts().begin(), c.artifacts().end()}});
  }
  for (const auto& env : in.artifacts()) {
    verify::Artifact a;
    a.id = env.artifact_id();
    a.source = env.title();
    for (const auto& c : env.columns()) a.columns.push_back({c.name(), FromProto(c.type())});
    for (const auto& row : env.rows()) {
      std::vector<verify::Cell> cells;
      for (const auto& v : row.values()) cells.push_back(FromProto(v));
      a.rows.push_back(std::move(cells));
    }
    for (const auto& p : env.provenance().parameters()) a.parameters.push_back(FromProto(p.value()));
    r.artifacts.push_back(std::move(a));
  }
  for (const auto& h : in.hypotheses()) {
    verify::Hypothesis hyp;
    hyp.id = h.id();
    hyp.statement = h.statement();
    hyp.status = h.status() == "confirmed"  ? verify::HypothesisStatus::kConfirmed
                 : h.status() == "rejected" ? verify::HypothesisStatus::kRejected
                                            : verify::HypothesisStatus::kOpen;
    hyp.evidence.assign(h.evidence().begin(), h.evidence().end());
    r.hypotheses.push_back(std::move(hyp));
  }
  for (const auto& f : in.findings()) {
    verify::Finding finding;
    finding.id = f.id();
    finding.severity = FromProto(f.severity());
    finding.title = f.title();
    finding.description = f.description();
    finding.scene = f.scene();
    for (const auto& e : f.evidence()) finding.evidence.push_back(e.artifact_id());
    r.findings.push_back(std::move(finding));
  }
  r.conclusion = in.conclusion();
  r.answer = in.answer();
  r.answer_evidence.assign(in.answer_evidence().begin(), in.answer_evidence().end());
  return r;
}

void ToProto(const verify::VerifyResult& result, tracewise::v1::VerifyResponse* out) {
  for (const auto& issue : result.issues) {
    auto* i = out->add_issues();
    i->set_severity(issue.severity == verify::IssueSeverity::kError ? tracewise::v1::VerifyIssue::ERROR
                                                                    : tracewise::v1::VerifyIssue::WARNING);
    i->set_kind(issue.kind);
    i->set_message(issue.message);
    i->set_finding_id(issue.finding_id);
  }
  out->set_passed(result.passed());
  out->set_correction_prompt(verify::CorrectionPrompt(result));
}

verify::VerifyResult FromProto(const tracewise::v1::VerifyResponse& response) {
  verify::VerifyResult result;
  for (const auto& i : response.issues()) {
    result.issues.push_back({i.severity() == tracewise::v1::VerifyIssue::ERROR ? verify::IssueSeverity::kError
                                                                               : verify::IssueSeverity::kWarning,
                             i.kind(), i.message(), i.finding_id()});
  }
  return result;
}

}  // namespace tw::rpc

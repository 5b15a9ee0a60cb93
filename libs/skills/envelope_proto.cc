#include "libs/skills/envelope_proto.h"

#include "absl/strings/str_cat.h"

namespace tw::skills {

namespace pb = tracewise::v1;

pb::Value ToProto(const SqlValue& value) {
  pb::Value out;
  switch (value.type) {
    case SqlValue::Type::kNull:
      break;
    case SqlValue::Type::kInt:
      out.set_int_value(value.int_value);
      break;
    case SqlValue::Type::kDouble:
      out.set_double_value(value.double_value);
      break;
    case SqlValue::Type::kString:
      out.set_string_value(value.string_value);
      break;
  }
  return out;
}

SqlValue FromProto(const pb::Value& value) {
  switch (value.kind_case()) {
    case pb::Value::kIntValue:
      return SqlValue::Int(value.int_value());
    case pb::Value::kDoubleValue:
      return SqlValue::Double(value.double_value());
    case pb::Value::kStringValue:
      return SqlValue::String(value.string_value());
    case pb::Value::kBoolValue:
      return SqlValue::Int(value.bool_value() ? 1 : 0);
    case pb::Value::KIND_NOT_SET:
      break;
  }
  return SqlValue::Null();
}

pb::ColumnType ToProto(ColumnType type) {
  switch (type) {
    case ColumnType::kString:
      return pb::COLUMN_TYPE_STRING;
    case ColumnType::kNumber:
      return pb::COLUMN_TYPE_NUMBER;
    case ColumnType::kBool:
      return pb::COLUMN_TYPE_BOOL;
    case ColumnType::kDurationNs:
      return pb::COLUMN_TYPE_DURATION_NS;
    case ColumnType::kTimestampNs:
      return pb::COLUMN_TYPE_TIMESTAMP_NS;
    case ColumnType::kPercent:
      return pb::COLUMN_TYPE_PERCENT;
    case ColumnType::kBytes:
      return pb::COLUMN_TYPE_BYTES;
    case ColumnType::kEnum:
      return pb::COLUMN_TYPE_ENUM;
  }
  return pb::COLUMN_TYPE_UNSPECIFIED;
}

namespace {

ColumnType FromProto(pb::ColumnType type) {
  switch (type) {
    case pb::COLUMN_TYPE_NUMBER:
      return ColumnType::kNumber;
    case pb::COLUMN_TYPE_BOOL:
      return ColumnType::kBool;
    case pb::COLUMN_TYPE_DURATION_NS:
      return ColumnType::kDurationNs;
    case pb::COLUMN_TYPE_TIMESTAMP_NS:
      return ColumnType::kTimestampNs;
    case pb::COLUMN_TYPE_PERCENT:
      return ColumnType::kPercent;
    case pb::COLUMN_TYPE_BYTES:
      return ColumnType::kBytes;
    case pb::COLUMN_TYPE_ENUM:
      return ColumnType::kEnum;
    default:
      return ColumnType::kString;
  }
}

pb::Parameter Param(const std::string& name, const SqlValue& value) {
  pb::Parameter p;
  p.set_name(name);
  *p.mutable_value() = ToProto(value);
  return p;
}

std::string ValueText(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull:
      return "";
    case SqlValue::Type::kInt:
      return absl::StrCat(v.int_value);
    case SqlValue::Type::kDouble:
      return absl::StrCat(v.double_value);
    case SqlValue::Type::kString:
      return v.string_value;
  }
  return "";
}

}  // namespace

pb::Severity ToProto(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return pb::SEVERITY_INFO;
    case Severity::kNotice:
      return pb::SEVERITY_LOW;
    case Severity::kWarning:
      return pb::SEVERITY_MEDIUM;
    case Severity::kCritical:
      return pb::SEVERITY_CRITICAL;
  }
  return pb::SEVERITY_UNSPECIFIED;
}

pb::DataEnvelope ToEnvelope(const StepResult& r, const std::string& trace_id) {
  pb::DataEnvelope e;
  e.set_artifact_id(r.artifact_id);
  e.set_title(r.title);
  e.set_level(r.level);
  for (const ResultColumn& c : r.columns) {
    pb::Column* col = e.add_columns();
    col->set_name(c.name);
    col->set_type(ToProto(c.type));
    col->set_unit(c.unit);
  }
  for (const auto& row : r.rows) {
    pb::Row* out = e.add_rows();
    for (const SqlValue& v : row) *out->add_values() = ToProto(v);
  }
  e.set_truncated(r.truncated);
  pb::Provenance* p = e.mutable_provenance();
  p->set_trace_id(trace_id);
  p->set_skill(r.skill);
  p->set_step(r.step);
  p->set_sql(r.sql);
  for (const auto& [name, value] : r.parameters) *p->add_parameters() = Param(name, value);
  p->set_elapsed_ns(r.elapsed_ns);
  p->set_kind(r.kind);
  return e;
}

StepResult FromEnvelope(const pb::DataEnvelope& e) {
  StepResult r;
  r.artifact_id = e.artifact_id();
  r.title = e.title();
  r.level = e.level();
  for (const pb::Column& c : e.columns()) r.columns.push_back({c.name(), FromProto(c.type()), c.unit()});
  for (const pb::Row& row : e.rows()) {
    std::vector<SqlValue> out;
    out.reserve(static_cast<size_t>(row.values_size()));
    for (const pb::Value& v : row.values()) out.push_back(FromProto(v));
    r.rows.push_back(std::move(out));
  }
  r.truncated = e.truncated();
  r.skill = e.provenance().skill();
  r.step = e.provenance().step();
  r.sql = e.provenance().sql();
  for (const pb::Parameter& p : e.provenance().parameters()) {
    r.parameters.emplace_back(p.name(), FromProto(p.value()));
  }
  r.elapsed_ns = e.provenance().elapsed_ns();
  r.kind = e.provenance().kind();
  return r;
}

pb::Finding ToProto(const Finding& f) {
  pb::Finding out;
  out.set_id(absl::StrCat(f.skill, ".", f.rule, f.evidence_row >= 0 ? absl::StrCat("#", f.evidence_row) : ""));
  out.set_severity(ToProto(f.severity));
  out.set_title(f.title);
  out.set_description(f.description);
  if (!f.evidence_artifact_id.empty()) {
    pb::Evidence* ev = out.add_evidence();
    ev->set_artifact_id(f.evidence_artifact_id);
    ev->set_row(f.evidence_row);
    for (const auto& [name, value] : f.evidence_fields) *ev->add_fields() = Param(name, value);
  }
  for (const std::string& s : f.suggestions) out.add_suggestions(s);
  out.set_source(absl::StrCat("skill ", f.skill, " / rule ", f.rule));
  out.set_cause(f.cause);
  if (f.impact >= 0) out.set_impact(f.impact);
  return out;
}

pb::SkillEvent ToProto(const SkillEvent& e, const std::string& trace_id) {
  pb::SkillEvent out;
  switch (e.kind) {
    case SkillEvent::Kind::kSkillStarted:
      out.set_kind(pb::SkillEvent::SKILL_STARTED);
      break;
    case SkillEvent::Kind::kStepStarted:
      out.set_kind(pb::SkillEvent::STEP_STARTED);
      break;
    case SkillEvent::Kind::kStepCompleted:
      out.set_kind(pb::SkillEvent::STEP_COMPLETED);
      break;
    case SkillEvent::Kind::kFinding:
      out.set_kind(pb::SkillEvent::FINDING);
      break;
    case SkillEvent::Kind::kSkillCompleted:
      out.set_kind(pb::SkillEvent::SKILL_COMPLETED);
      break;
    case SkillEvent::Kind::kSkillError:
      out.set_kind(pb::SkillEvent::SKILL_ERROR);
      break;
  }
  out.set_skill(e.skill);
  out.set_step(e.step);
  out.set_depth(e.depth);
  if (e.result) {
    *out.mutable_envelope() = ToEnvelope(*e.result, trace_id);
    out.set_step_status(StepStatusName(e.result->status));
    out.set_elapsed_ns(e.result->elapsed_ns);
  }
  if (e.finding) *out.mutable_finding() = ToProto(*e.finding);
  if (e.kind == SkillEvent::Kind::kSkillCompleted) {
    // The executor's message is "ok" or "not_supported: <why>".
    const size_t colon = e.message.find(": ");
    out.set_outcome(colon == std::string::npos ? e.message : e.message.substr(0, colon));
    if (colon != std::string::npos) out.set_message(e.message.substr(colon + 2));
  } else if (e.kind == SkillEvent::Kind::kSkillError) {
    out.set_outcome("error");
    out.set_message(e.message);
  } else {
    out.set_message(e.message);
  }
  return out;
}

pb::SkillSummary ToSummary(const Skill& s) {
  pb::SkillSummary out;
  out.set_name(s.name);
  out.set_version(s.version);
  out.set_category(s.category);
  out.set_description(s.description);
  for (const auto& t : s.tags) out.add_tags(t);
  return out;
}

pb::SkillDescription ToDescription(const Skill& s) {
  pb::SkillDescription out;
  *out.mutable_summary() = ToSummary(s);
  for (const SkillInput& in : s.inputs) {
    pb::SkillInputSpec* spec = out.add_inputs();
    spec->set_name(in.name);
    spec->set_type(InputTypeName(in.type));
    spec->set_required(in.required);
    if (in.default_value) spec->set_default_value(ValueText(*in.default_value));
    spec->set_description(in.description);
    for (const auto& v : in.values) spec->add_values(v);
  }
  for (const auto& t : s.required_tables) out.add_required_tables(t);
  for (const auto& m : s.required_modules) out.add_required_modules(m);
  for (const Step& st : s.steps) out.add_steps(absl::StrCat(st.id, " (", StepKindName(st.kind), ")"));
  return out;
}

}  // namespace tw::skills

#include "libs/agent/comparison_tools.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/agent/context_probes.h"
#include "libs/agent/result_summary.h"
#include "libs/agent/skill_comparison.h"
#include "libs/agent/tool_support.h"
#include "libs/common/units.h"

namespace tw::agent {
namespace {

using nlohmann::json;

constexpr char kExecuteSqlOn[] = "execute_sql_on";
constexpr char kCompareSkill[] = "compare_skill";
constexpr char kGetComparisonContext[] = "get_comparison_context";
constexpr char kArchitectureSkill[] = "rendering_architecture";

// What get_comparison_context knows about one trace.
struct TraceSide {
  absl::Status status;
  TraceContext context;
  std::string architecture;  // "hwui (high)", "unknown" when the skill found nothing
};

TraceSide Probe(skills::SkillQueryRunner& sql, SkillRunner& skills) {
  TraceSide side;
  auto context = ProbeTraceContext(sql);
  if (!context.ok()) {
    side.status = context.status();
    return side;
  }
  side.context = *context;
  side.architecture = "unknown";
  if (!skills.HasSkill(kArchitectureSkill)) return side;
  std::map<std::string, SqlValue> inputs;
  if (side.context.focus_upid >= 0) inputs["upid"] = SqlValue::Int(side.context.focus_upid);
  const skills::SkillRunResult run = skills.Run(kArchitectureSkill, inputs);
  const skills::StepResult* out = run.Output();
  if (run.outcome != skills::SkillOutcome::kOk || out == nullptr || out->rows.empty()) return side;
  const int arch = out->ColumnIndex("architecture");
  const int confidence = out->ColumnIndex("confidence");
  if (arch >= 0 && out->rows[0][arch].type == SqlValue::Type::kString) {
    side.architecture = out->rows[0][arch].string_value;
    if (confidence >= 0 && out->rows[0][confidence].type == SqlValue::Type::kString) {
      absl::StrAppend(&side.architecture, " (", out->rows[0][confidence].string_value, ")");
    }
  }
  return side;
}

// The data sources a capability rests on, by the context's row counts.
struct Capability {
  const char* name;
  int64_t TraceContext::*count;
};
constexpr Capability kCapabilities[] = {
    {"scheduling (sched)", &TraceContext::sched_slices},
    {"thread states", &TraceContext::thread_states},
    {"slices (atrace / track events)", &TraceContext::slices},
    {"frame timeline", &TraceContext::frames},
    {"CPU frequency", &TraceContext::cpu_freq_samples},
    {"logcat", &TraceContext::log_lines},
};

std::string Hz(double hz) { return hz > 0 ? absl::StrFormat("%.0f Hz", hz) : "unknown"; }

}  // namespace

bool IsComparisonTool(const std::string& name) {
  return name == kExecuteSqlOn || name == kCompareSkill || name == kGetComparisonContext;
}

bool IsComparisonDataTool(const std::string& name) {
  return name == kExecuteSqlOn || name == kCompareSkill;
}

std::vector<ToolSpec> ComparisonToolSpecs() {
  const json params = {{"type", "object"}, {"additionalProperties", true}};
  return {
      {kGetComparisonContext,
       "Both traces side by side: duration, data sources (data completeness), focus app, "
       "rendering architecture, refresh rate, CPUs; what only one trace has; cautions. Call it "
       "first in a comparison.",
       ObjectSchema(json::object(), {})},
      {kExecuteSqlOn,
       "execute_sql on one of the two traces: trace is 'current' or 'reference' (or its trace "
       "id). Read-only; the result is stored as an artifact (sql-N on the current trace, "
       "ref-sql-N on the reference) and you get its id and a summary.",
       ObjectSchema({{"trace", {{"type", "string"},
                                {"description", "current | reference | a trace id"}}},
                     {"sql", {{"type", "string"}}},
                     {"summary", {{"type", "boolean"},
                                  {"description", "per-column statistics instead of rows"}}}},
                    {"trace", "sql"})},
      {kCompareSkill,
       "Run one skill with the same parameters on both traces. Returns both results (the "
       "reference's artifacts are ref-...) and a difference table (cmp-N) of the summary "
       "numbers: current vs reference, delta and relative change.",
       ObjectSchema({{"skill", {{"type", "string"}}},
                     {"params", params},
                     {"reference_params",
                      {{"type", "object"},
                       {"additionalProperties", true},
                       {"description",
                        "parameters for the reference trace when they differ (ids such as upid "
                        "or utid are per trace); default: params"}}}},
                    {"skill"})},
  };
}

std::string ComparisonTools::NextComparisonId() {
  return absl::StrCat("cmp-", ctx_.session->next_comparison_artifact++);
}

ToolResult ComparisonTools::Call(const std::string& name, const json& args, ToolCallRecord& record) {
  if (name == kExecuteSqlOn) return ExecuteSqlOn(args);
  if (name == kCompareSkill) return CompareSkill(args, record);
  if (name == kGetComparisonContext) return GetComparisonContext();
  return FailedTool(absl::StrCat("Unknown comparison tool '", name, "'"));
}

ToolResult ComparisonTools::ExecuteSqlOn(const json& args) {
  std::string trace, error;
  SqlArtifactRequest request;
  if (!GetStringArg(args, "trace", &trace, &error) ||
      !GetStringArg(args, "sql", &request.sql, &error)) {
    return FailedTool(error);
  }
  AgentSession& s = *ctx_.session;
  const ReferenceTrace& ref = ctx_.reference;
  bool reference = false;
  if (trace == "reference" || trace == ref.trace_id) {
    reference = true;
  } else if (trace != "current" && (s.trace.empty() || trace != s.trace)) {
    return FailedTool(absl::StrCat("trace must be 'current' or 'reference' (the reference trace is ",
                                   ref.trace_id, "), not '", trace, "'"));
  }
  const int n = s.next_sql_artifact++;
  request.artifact_id = reference ? absl::StrCat(kReferenceArtifactPrefix, "sql-", n)
                                  : absl::StrCat("sql-", n);
  request.skill = kExecuteSqlOn;
  request.title = reference ? absl::StrCat("on the reference trace ", ref.trace_id)
                            : absl::StrCat("on the current trace ", s.trace);
  request.summary_only = args.value("summary", false);
  request.max_rows = ctx_.limits.sql_max_rows;
  ToolResult result = RunSqlArtifact(reference ? *ref.sql : *ctx_.sql, request, s);
  if (result.ok) result.content = absl::StrCat("[", request.title, "] ", result.content);
  return result;
}

ToolResult ComparisonTools::CompareSkill(const json& args, ToolCallRecord& record) {
  std::string skill, error;
  if (!GetStringArg(args, "skill", &skill, &error)) return FailedTool(error);
  record.skill = skill;
  if (!ctx_.skills->HasSkill(skill) || !ctx_.reference.skills->HasSkill(skill)) {
    return FailedTool(absl::StrCat("Unknown skill '", skill, "'. Use list_skills."));
  }
  auto inputs = SkillInputsArg(args);
  if (!inputs.ok()) return FailedTool(std::string(inputs.status().message()));
  std::map<std::string, SqlValue> reference_inputs = *inputs;
  bool own_reference_params = false;
  if (auto it = args.find("reference_params"); it != args.end() && it->is_object()) {
    auto ref = SkillInputsArg(json{{"params", *it}});
    if (!ref.ok()) return FailedTool(absl::StrCat("reference_params: ", ref.status().message()));
    reference_inputs = *ref;
    own_reference_params = true;
  }

  AgentSession& s = *ctx_.session;
  const std::string differences_id = NextComparisonId();
  SkillComparison cmp = CompareSkillRuns(skill, *inputs, reference_inputs, *ctx_.skills,
                                         *ctx_.reference.skills, differences_id);
  ToolResult out;
  out.ok = cmp.current.outcome == skills::SkillOutcome::kOk &&
           cmp.reference.outcome == skills::SkillOutcome::kOk && cmp.differences != nullptr;
  out.content = absl::StrCat("compare_skill ", skill, ": current trace ", s.trace.empty() ? "" : s.trace,
                             s.trace.empty() ? "" : " ",
                             skills::SkillOutcomeName(cmp.current.outcome), ", reference trace ",
                             ctx_.reference.trace_id, " ",
                             skills::SkillOutcomeName(cmp.reference.outcome), "\n");
  for (const char* id_name : {"upid", "utid"}) {
    if (inputs->count(id_name) && !own_reference_params) {
      absl::StrAppend(&out.content, "note: ", id_name,
                      " is per trace; the same value may name another process or thread on the "
                      "reference trace (pass reference_params)\n");
    }
  }
  // Both sides' results: stored in full, shown as summaries (the summary steps only).
  auto show = [&](const skills::SkillRunResult& run, const char* side) {
    for (const auto& step : run.steps) {
      if (step->artifact_id.empty()) continue;
      s.AddArtifact(step);
      if (step->status != skills::StepStatus::kOk || step->kind == "diagnose" ||
          step->level == "hidden") {
        continue;
      }
      out.artifacts.push_back(step->artifact_id);
      if (step->level != "summary") continue;
      SummaryOptions options;
      options.full_rows = 5;
      absl::StrAppend(&out.content, "\n[", side, "] ", SummarizeResult(*step, options));
    }
    for (const auto& cited : run.cited) s.AddArtifact(cited);
  };
  show(cmp.current, "current");
  show(cmp.reference, "reference");
  for (const skills::Finding& f : cmp.current.findings) s.skill_findings.push_back(f);
  for (const auto* run : {&cmp.current, &cmp.reference}) {
    const char* side = run == &cmp.current ? "current" : "reference";
    for (const skills::Finding& f : run->findings) {
      absl::StrAppend(&out.content, "\n", side, " finding (", skills::SeverityName(f.severity),
                      "): ", f.title, " [evidence ", f.evidence_artifact_id, "]");
    }
  }
  if (cmp.differences != nullptr) {
    s.AddArtifact(cmp.differences);
    out.artifacts.push_back(cmp.differences->artifact_id);
    absl::StrAppend(&out.content, "\n\nDifferences (artifact ", cmp.differences->artifact_id,
                    "; delta = current - reference):\n",
                    cmp.differences->rows.empty() ? "- no numeric summary columns to compare\n"
                                                  : DescribeDifferences(*cmp.differences, 24));
  }
  for (const std::string& note : cmp.notes) absl::StrAppend(&out.content, "note: ", note, "\n");
  return out;
}

ToolResult ComparisonTools::GetComparisonContext() {
  AgentSession& s = *ctx_.session;
  const ReferenceTrace& ref = ctx_.reference;
  const TraceSide cur = Probe(*ctx_.sql, *ctx_.skills);
  const TraceSide other = Probe(*ref.sql, *ref.skills);
  if (!cur.status.ok() || !other.status.ok()) {
    const absl::Status& bad = cur.status.ok() ? other.status : cur.status;
    return FailedTool(absl::StrCat("The ", cur.status.ok() ? "reference" : "current",
                                   " trace cannot be queried: ", bad.message()));
  }
  const TraceContext& a = cur.context;
  const TraceContext& b = other.context;

  auto table = std::make_shared<skills::StepResult>();
  table->skill = kGetComparisonContext;
  table->artifact_id = table->step = NextComparisonId();
  table->kind = "comparison";
  table->level = "summary";
  table->title = "Comparison context: current vs reference";
  table->columns = {{"property", skills::ColumnType::kString, ""},
                    {"unit", skills::ColumnType::kString, ""},
                    {"current", skills::ColumnType::kString, ""},
                    {"reference", skills::ColumnType::kString, ""}};
  auto add = [&](const std::string& property, const std::string& unit, SqlValue x, SqlValue y) {
    table->rows.push_back({SqlValue::String(property), SqlValue::String(unit), std::move(x), std::move(y)});
  };
  auto text_or_null = [](const std::string& t) { return t.empty() ? SqlValue() : SqlValue::String(t); };
  add("trace_id", "text", text_or_null(s.trace), SqlValue::String(ref.trace_id));
  add("duration", "duration_ns", SqlValue::Int(a.duration_ns()), SqlValue::Int(b.duration_ns()));
  add("cpus", "count", SqlValue::Int(a.cpus), SqlValue::Int(b.cpus));
  add("processes", "count", SqlValue::Int(a.processes), SqlValue::Int(b.processes));
  add("threads", "count", SqlValue::Int(a.threads), SqlValue::Int(b.threads));
  for (const Capability& c : kCapabilities) {
    add(absl::StrCat(c.name, " rows"), "count", SqlValue::Int(a.*c.count), SqlValue::Int(b.*c.count));
  }
  add("focus_app", "text", text_or_null(a.focus_app), text_or_null(b.focus_app));
  add("focus_upid", "id", SqlValue::Int(a.focus_upid), SqlValue::Int(b.focus_upid));
  add("architecture", "text", SqlValue::String(cur.architecture), SqlValue::String(other.architecture));
  add("refresh_rate", "Hz", a.refresh_hz > 0 ? SqlValue::Double(std::round(a.refresh_hz * 10) / 10) : SqlValue(),
      b.refresh_hz > 0 ? SqlValue::Double(std::round(b.refresh_hz * 10) / 10) : SqlValue());

  std::vector<std::string> only_current, only_reference, cautions;
  for (const Capability& c : kCapabilities) {
    if (a.*c.count > 0 && b.*c.count == 0) only_current.push_back(c.name);
    if (a.*c.count == 0 && b.*c.count > 0) only_reference.push_back(c.name);
  }
  if (!only_current.empty()) {
    add("only_in_current", "text", SqlValue::String(absl::StrJoin(only_current, ", ")), SqlValue());
  }
  if (!only_reference.empty()) {
    add("only_in_reference", "text", SqlValue(), SqlValue::String(absl::StrJoin(only_reference, ", ")));
  }
  if (a.focus_app != b.focus_app) {
    cautions.push_back(absl::StrCat("the focus apps differ (", a.focus_app.empty() ? "none" : a.focus_app,
                                    " vs ", b.focus_app.empty() ? "none" : b.focus_app,
                                    "): compare the same app with reference_params"));
  }
  if (a.refresh_hz > 0 && b.refresh_hz > 0 && std::fabs(a.refresh_hz - b.refresh_hz) > 2) {
    cautions.push_back(absl::StrCat("the refresh rates differ (", Hz(a.refresh_hz), " vs ",
                                    Hz(b.refresh_hz),
                                    "): frame times have different budgets; compare jank rates"));
  }
  if (cur.architecture != other.architecture) {
    cautions.push_back(absl::StrCat("the rendering architectures differ (", cur.architecture, " vs ",
                                    other.architecture, ")"));
  }
  if (a.duration_ns() > 0 && b.duration_ns() > 0) {
    const double ratio = static_cast<double>(a.duration_ns()) / static_cast<double>(b.duration_ns());
    if (ratio > 1.5 || ratio < 1 / 1.5) {
      cautions.push_back("the durations differ a lot: compare rates and percentiles, not totals");
    }
  }
  if (!only_current.empty() || !only_reference.empty()) {
    cautions.push_back("measurements that rest on data only one trace has cannot be compared");
  }
  s.AddArtifact(table);

  std::string out = absl::StrCat("Comparison context (artifact ", table->artifact_id,
                                 "): current trace ", s.trace.empty() ? "(this session's)" : s.trace,
                                 " vs reference trace ", ref.trace_id, "\n");
  absl::StrAppend(&out, "- duration: ", FormatDurationNs(a.duration_ns()), " vs ",
                  FormatDurationNs(b.duration_ns()), "\n");
  absl::StrAppend(&out, "- CPUs: ", a.cpus, " vs ", b.cpus, "; processes: ", a.processes, " vs ",
                  b.processes, "; threads: ", a.threads, " vs ", b.threads, "\n");
  for (const Capability& c : kCapabilities) {
    absl::StrAppend(&out, "- ", c.name, ": ", a.*c.count, " vs ", b.*c.count, " rows\n");
  }
  absl::StrAppend(&out, "- focus app: ", a.focus_app.empty() ? "unknown" : a.focus_app, " (upid ",
                  a.focus_upid, ") vs ", b.focus_app.empty() ? "unknown" : b.focus_app, " (upid ",
                  b.focus_upid, ")\n");
  absl::StrAppend(&out, "- rendering architecture: ", cur.architecture, " vs ", other.architecture, "\n");
  absl::StrAppend(&out, "- refresh rate: ", Hz(a.refresh_hz), " vs ", Hz(b.refresh_hz), "\n");
  absl::StrAppend(&out, "Only the current trace has: ",
                  only_current.empty() ? "nothing" : absl::StrJoin(only_current, ", "), "\n");
  absl::StrAppend(&out, "Only the reference trace has: ",
                  only_reference.empty() ? "nothing" : absl::StrJoin(only_reference, ", "), "\n");
  if (!cautions.empty()) absl::StrAppend(&out, "Cautions: ", absl::StrJoin(cautions, "; "), "\n");
  return {true, out, {table->artifact_id}};
}

}  // namespace tw::agent

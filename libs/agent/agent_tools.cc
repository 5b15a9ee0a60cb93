#include "libs/agent/agent_tools.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/agent/client_tools.h"
#include "libs/agent/comparison_tools.h"
#include "libs/agent/result_summary.h"
#include "libs/agent/schema_lookup.h"
#include "libs/agent/selection_scope.h"
#include "libs/agent/tool_support.h"
#include "libs/agent/trace_data.h"

namespace tw::agent {
namespace {

using nlohmann::json;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool ToolBox::IsDataTool(const std::string& name) {
  return name == "execute_sql" || name == "invoke_skill" || name == "fetch_artifact" ||
         IsComparisonDataTool(name);
}

std::vector<ToolSpec> ToolBox::Specs() const {
  std::vector<ToolSpec> specs = DataSpecs();
  // The client's tools (UI actions) in either mode, and only those the caller can run.
  for (ToolSpec& spec : ClientToolSpecs(ctx_.client_tools)) specs.push_back(std::move(spec));
  return specs;
}

std::vector<ToolSpec> ToolBox::DataSpecs() const {
  std::vector<ToolSpec> specs = BaseSpecs();
  if (!ctx_.reference.present()) return specs;
  if (ctx_.session->mode == AnalysisMode::kQuick) {
    // Quick mode keeps its three tools; comparing, the data tools are the ones that reach both
    // traces: execute_sql_on (either trace) and compare_skill (one skill on both).
    std::vector<ToolSpec> quick;
    for (ToolSpec& spec : ComparisonToolSpecs()) {
      if (spec.name == "execute_sql_on" || spec.name == "compare_skill") quick.push_back(std::move(spec));
    }
    for (ToolSpec& spec : specs) {
      if (spec.name == "lookup_sql_schema") quick.push_back(std::move(spec));
    }
    return quick;
  }
  // A full comparison turn adds the comparison tools to the usual ones.
  for (ToolSpec& spec : ComparisonToolSpecs()) specs.push_back(std::move(spec));
  return specs;
}

std::vector<ToolSpec> ToolBox::BaseSpecs() const {
  std::vector<ToolSpec> specs;
  specs.push_back({"execute_sql",
                   "Run one read-only SQL query (SQLite dialect, Perfetto trace_processor schema "
                   "and standard library; INCLUDE PERFETTO MODULE allowed) against the trace. "
                   "The result is stored as an artifact; you get its id and a summary.",
                   ObjectSchema({{"sql", {{"type", "string"}}},
                           {"summary", {{"type", "boolean"},
                                        {"description", "per-column statistics instead of rows"}}}},
                          {"sql"})});
  specs.push_back({"invoke_skill",
                   "Run an analysis skill by name with parameters. Returns each step's result "
                   "summary with its artifact id, and the skill's diagnostic findings.",
                   ObjectSchema({{"skill", {{"type", "string"}}},
                           {"params", {{"type", "object"}, {"additionalProperties", true}}}},
                          {"skill"})});
  specs.push_back({"lookup_sql_schema",
                   "List the tables and views of the trace (and those stdlib modules add), or "
                   "describe one table, view, function or module: what it is and what each "
                   "column means.",
                   ObjectSchema({{"table", {{"type", "string"}}}}, {})});
  if (ctx_.session->mode == AnalysisMode::kQuick) return specs;
  specs.push_back({"list_skills", "List the available skills (name, category, description).",
                   ObjectSchema({{"category", {{"type", "string"}}}}, {})});
  specs.push_back({"lookup_knowledge",
                   "Background knowledge on a topic (rendering pipeline, binder, scheduler, GC, "
                   "locks, thermal, startup, data sources).",
                   ObjectSchema({{"query", {{"type", "string"}}}}, {"query"})});
  specs.push_back({"fetch_artifact", "Read rows of a stored artifact page by page.",
                   ObjectSchema({{"artifact_id", {{"type", "string"}}},
                           {"offset", {{"type", "integer"}, {"minimum", 0}}},
                           {"limit", {{"type", "integer"}, {"minimum", 1}}}},
                          {"artifact_id"})});
  const json phases = {
      {"type", "array"},
      {"items", ObjectSchema({{"id", {{"type", "string"}}},
                        {"goal", {{"type", "string"}}},
                        {"skills", {{"type", "array"}, {"items", {{"type", "string"}}}}}},
                       {"id", "goal"})}};
  const json aspects = {{"type", "array"}, {"items", {{"type", "string"}}}};
  specs.push_back({"submit_plan",
                   "Submit the investigation plan: phases and the scene aspects it covers. Data "
                   "tools are available once a plan is accepted.",
                   ObjectSchema({{"phases", phases}, {"aspects", aspects}, {"rationale", {{"type", "string"}}}},
                          {"phases", "aspects"})});
  specs.push_back({"revise_plan", "Replace the plan, saying why the data changed it.",
                   ObjectSchema({{"phases", phases}, {"aspects", aspects}, {"reason", {{"type", "string"}}}},
                          {"phases", "aspects", "reason"})});
  specs.push_back({"update_plan_phase", "Mark a plan phase pending/in_progress/done/skipped/not_supported.",
                   ObjectSchema({{"phase_id", {{"type", "string"}}},
                           {"status", {{"type", "string"},
                                       {"enum", {"pending", "in_progress", "done", "skipped", "not_supported"}}}},
                           {"summary", {{"type", "string"}}}},
                          {"phase_id", "status"})});
  specs.push_back({"submit_hypothesis", "State a hypothesis to test.",
                   ObjectSchema({{"statement", {{"type", "string"}}}}, {"statement"})});
  specs.push_back({"resolve_hypothesis", "Confirm or reject a hypothesis, citing artifacts.",
                   ObjectSchema({{"hypothesis_id", {{"type", "string"}}},
                           {"status", {{"type", "string"}, {"enum", {"confirmed", "rejected"}}}},
                           {"evidence", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                           {"resolution", {{"type", "string"}}}},
                          {"hypothesis_id", "status", "evidence"})});
  specs.push_back({"flag_uncertainty", "Record something the data cannot establish.",
                   ObjectSchema({{"issue", {{"type", "string"}}}}, {"issue"})});
  specs.push_back({"write_analysis_note", "Keep a short note for later turns.",
                   ObjectSchema({{"note", {{"type", "string"}}}}, {"note"})});
  return specs;
}

ToolResult ToolBox::Call(const std::string& name, const std::string& arguments) {
  ToolCallRecord record;
  record.tool = name;
  record.arguments = arguments;
  const int64_t start = NowNs();
  ToolResult result;
  const json args = json::parse(arguments.empty() ? "{}" : arguments, nullptr,
                                /*allow_exceptions=*/false);
  if (args.is_discarded() || !args.is_object()) {
    result = FailedTool(absl::StrCat("The arguments of ", name,
                               " are not a JSON object. Send valid JSON matching the schema."));
  } else {
    result = Dispatch(name, args, record);
  }
  record.ok = result.ok;
  if (!result.ok) record.error = result.content;
  record.artifacts = result.artifacts;
  record.elapsed_ns = NowNs() - start;
  AgentSession& s = *ctx_.session;
  s.tool_calls.push_back(std::move(record));
  s.consecutive_failures = result.ok ? 0 : s.consecutive_failures + 1;
  if (result.ok && IsDataTool(name)) ++s.data_results;
  // What a data tool returns is (or quotes) trace text: the model sees it delimited as data.
  if (IsDataTool(name)) result.content = QuoteTraceData(result.content);
  return result;
}

ToolResult ToolBox::Dispatch(const std::string& name, const json& args, ToolCallRecord& record) {
  AgentSession& s = *ctx_.session;
  if (IsComparisonTool(name) && !ctx_.reference.present()) {
    return FailedTool(absl::StrCat(
        name, " needs a reference trace, and this turn has none: ask with a reference trace "
              "(AskOptions.reference_trace_id) to compare two traces."));
  }
  bool offered = false;
  for (const ToolSpec& spec : Specs()) offered |= spec.name == name;
  if (!offered) {
    return FailedTool(absl::StrCat("Unknown tool '", name, "' in ", AnalysisModeName(s.mode), " mode."));
  }
  if (s.mode == AnalysisMode::kFull && IsDataTool(name) && !s.plan.present()) {
    return FailedTool("Refused: submit a plan (submit_plan) before using data tools.");
  }
  if (IsComparisonTool(name)) return ComparisonTools(ctx_).Call(name, args, record);
  if (name == "execute_sql") return ExecuteSql(args, record);
  if (name == "invoke_skill") return InvokeSkill(args, record);
  if (name == "list_skills") return ListSkills(args);
  if (name == "lookup_sql_schema") return LookupSchema(args);
  if (name == "lookup_knowledge") return LookupKnowledge(args);
  if (name == "fetch_artifact") return FetchArtifact(args);
  if (name == "submit_plan") return SubmitPlan(args, false);
  if (name == "revise_plan") return SubmitPlan(args, true);
  if (name == "update_plan_phase") return UpdatePlanPhase(args);
  if (name == "submit_hypothesis") return SubmitHypothesis(args);
  if (name == "resolve_hypothesis") return ResolveHypothesis(args);
  if (name == "flag_uncertainty") return FlagUncertainty(args);
  if (name == "write_analysis_note") return WriteNote(args);
  return FailedTool(absl::StrCat("Unknown tool '", name, "'"));
}

ToolResult ToolBox::ExecuteSql(const json& args, ToolCallRecord& record) {
  SqlArtifactRequest request;
  std::string error;
  if (!GetStringArg(args, "sql", &request.sql, &error)) return FailedTool(error);
  AgentSession& s = *ctx_.session;
  request.artifact_id = absl::StrCat("sql-", s.next_sql_artifact++);
  request.summary_only = args.value("summary", false);
  request.max_rows = ctx_.limits.sql_max_rows;
  return RunSqlArtifact(*ctx_.sql, request, s);
}

ToolResult ToolBox::InvokeSkill(const json& args, ToolCallRecord& record) {
  std::string name, error;
  if (!GetStringArg(args, "skill", &name, &error)) return FailedTool(error);
  record.skill = name;
  if (!ctx_.skills->HasSkill(name)) {
    return FailedTool(absl::StrCat("Unknown skill '", name, "'. Use list_skills."));
  }
  auto inputs = SkillInputsArg(args);
  if (!inputs.ok()) return FailedTool(std::string(inputs.status().message()));
  // The user's selection bounds the skills that take a window, unless the model chose one.
  std::string scoped;
  if (ctx_.scope && BindWindow(*ctx_.scope, *ctx_.skills, name, *inputs)) {
    scoped = absl::StrCat(" (scoped to the selection: start_ts=", ctx_.scope->start_ns,
                          ", end_ts=", ctx_.scope->end_ns, ")");
  }
  skills::SkillRunResult run = ctx_.skills->Run(name, *inputs);
  AgentSession& s = *ctx_.session;
  ToolResult out;
  out.ok = run.outcome == skills::SkillOutcome::kOk;
  out.content = SkillOutcomeText(run) + scoped + "\n";
  for (const auto& step : run.steps) {
    if (step->artifact_id.empty()) continue;
    s.AddArtifact(step);
    if (step->status != skills::StepStatus::kOk || step->kind == "diagnose" || step->level == "hidden") {
      continue;
    }
    out.artifacts.push_back(step->artifact_id);
    SummaryOptions options;
    options.full_rows = 10;
    absl::StrAppend(&out.content, "\n[", step->title.empty() ? step->step : step->title, "] ",
                    SummarizeResult(*step, options));
  }
  // Evidence of called skills' findings: citable, though not listed as this skill's results.
  for (const auto& cited : run.cited) s.AddArtifact(cited);
  for (const skills::Finding& f : run.findings) {
    s.skill_findings.push_back(f);
    absl::StrAppend(&out.content, "\nfinding (", skills::SeverityName(f.severity), "): ", f.title,
                    " — ", f.description, " [evidence ", f.evidence_artifact_id, "]");
  }
  return out;
}

ToolResult ToolBox::ListSkills(const json& args) {
  if (!ctx_.skill_library) return FailedTool("The skill list is not available here.");
  const std::string category = args.value("category", "");
  std::string out;
  for (const skills::Skill* skill : ctx_.skill_library->All()) {
    if (!category.empty() && skill->category != category) continue;
    std::vector<std::string> inputs;
    for (const auto& in : skill->inputs) {
      inputs.push_back(absl::StrCat(in.name, ":", skills::InputTypeName(in.type), in.required ? "!" : ""));
    }
    const std::string first_line = skill->description.substr(0, skill->description.find('\n'));
    absl::StrAppend(&out, skill->name, " [", skill->category, "] (", absl::StrJoin(inputs, ", "),
                    ") — ", first_line, "\n");
  }
  return {true, out.empty() ? "No skills match." : out, {}};
}

ToolResult ToolBox::LookupSchema(const json& args) {
  std::string table, error;
  if (!GetStringArg(args, "table", &table, &error, false)) return FailedTool(error);
  auto answer = LookupSqlSchema(*ctx_.schema, table);
  if (!answer.ok()) return FailedTool(std::string(answer.status().message()));
  return {true, *answer, {}};
}

ToolResult ToolBox::LookupKnowledge(const json& args) {
  std::string query, error;
  if (!GetStringArg(args, "query", &query, &error)) return FailedTool(error);
  auto hits = ctx_.strategies->knowledge().Search(query, 1);
  if (hits.empty()) {
    std::vector<std::string> topics;
    for (const auto& t : ctx_.strategies->knowledge().topics()) topics.push_back(t.topic);
    return FailedTool(absl::StrCat("No topic matches. Topics: ", absl::StrJoin(topics, ", ")));
  }
  return {true, absl::StrCat("# ", hits[0]->title, "\n", hits[0]->body), {}};
}

ToolResult ToolBox::FetchArtifact(const json& args) {
  std::string id, error;
  if (!GetStringArg(args, "artifact_id", &id, &error)) return FailedTool(error);
  auto it = ctx_.session->artifacts.find(id);
  if (it == ctx_.session->artifacts.end()) return FailedTool(absl::StrCat("Unknown artifact '", id, "'."));
  const int64_t offset = std::max<int64_t>(0, args.value("offset", int64_t{0}));
  const int64_t limit =
      std::clamp<int64_t>(args.value("limit", int64_t{20}), 1, ctx_.limits.fetch_max_rows);
  const auto& r = *it->second;
  return {true,
          absl::StrCat("artifact ", id, " rows ", offset, "..",
                       std::min<int64_t>(offset + limit, r.rows.size()), " of ", r.rows.size(), "\n",
                       RenderRows(r, offset, limit)),
          {}};
}

ToolResult ToolBox::SubmitPlan(const json& args, bool revision) {
  AgentSession& s = *ctx_.session;
  if (!s.strategy) return FailedTool("No scene strategy for this analysis.");
  PlanSubmission submission;
  auto phases = args.find("phases");
  if (phases == args.end() || !phases->is_array()) return FailedTool("'phases' must be a list of {id, goal}");
  for (const auto& p : *phases) {
    if (!p.is_object() || !p.contains("id") || !p["id"].is_string()) {
      return FailedTool("each phase needs a string 'id' and a 'goal'");
    }
    PlannedPhase phase;
    phase.id = p["id"].get<std::string>();
    phase.goal = p.value("goal", "");
    phase.skills = GetStringListArg(p, "skills");
    submission.phases.push_back(std::move(phase));
  }
  submission.aspects = GetStringListArg(args, "aspects");
  submission.rationale = args.value("rationale", "");
  std::string reason;
  if (revision) {
    reason = args.value("reason", "");
    if (reason.empty()) return FailedTool("revise_plan needs a 'reason'");
    if (!s.plan.present()) return FailedTool("No plan to revise: use submit_plan.");
  }
  PlanDecision d = s.plan.Submit(submission, *s.strategy, reason);
  std::string content = d.message;
  if (!d.accepted && !s.strategy->plan_aspects.empty()) {
    absl::StrAppend(&content, "\nRequired aspects: ", absl::StrJoin(s.strategy->plan_aspects, "; "));
  }
  return {d.accepted, content, {}};
}

ToolResult ToolBox::UpdatePlanPhase(const json& args) {
  std::string id, status, error;
  if (!GetStringArg(args, "phase_id", &id, &error) || !GetStringArg(args, "status", &status, &error)) {
    return FailedTool(error);
  }
  PlanDecision d = ctx_.session->plan.UpdatePhase(id, status, args.value("summary", ""));
  return {d.accepted, d.message, {}};
}

ToolResult ToolBox::SubmitHypothesis(const json& args) {
  std::string statement, error;
  if (!GetStringArg(args, "statement", &statement, &error)) return FailedTool(error);
  const std::string id = ctx_.session->hypotheses.Submit(statement);
  return {true, absl::StrCat("Hypothesis ", id, " recorded. Resolve it with evidence before concluding."), {}};
}

ToolResult ToolBox::ResolveHypothesis(const json& args) {
  std::string id, status, error;
  if (!GetStringArg(args, "hypothesis_id", &id, &error) || !GetStringArg(args, "status", &status, &error)) {
    return FailedTool(error);
  }
  AgentSession& s = *ctx_.session;
  const std::string refused = s.hypotheses.Resolve(
      id, status, GetStringListArg(args, "evidence"), args.value("resolution", ""),
      [&](const std::string& a) { return s.HasArtifact(a); });
  if (!refused.empty()) return FailedTool(absl::StrCat("Refused: ", refused, "."));
  return {true, absl::StrCat("Hypothesis ", id, " ", status, "."), {}};
}

ToolResult ToolBox::FlagUncertainty(const json& args) {
  std::string issue, error;
  if (!GetStringArg(args, "issue", &issue, &error)) return FailedTool(error);
  ctx_.session->uncertainties.push_back(issue);
  return {true, "Recorded; it will be listed under the report's limits.", {}};
}

ToolResult ToolBox::WriteNote(const json& args) {
  std::string note, error;
  if (!GetStringArg(args, "note", &note, &error)) return FailedTool(error);
  ctx_.session->notes.push_back(note);
  return {true, "Noted.", {}};
}

}  // namespace tw::agent

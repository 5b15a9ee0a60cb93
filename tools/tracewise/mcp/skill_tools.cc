#include "tools/tracewise/mcp/skill_tools.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "libs/agent/result_summary.h"
#include "libs/agent/tool_support.h"
#include "libs/common/units.h"
#include "libs/skills/result_json.h"

namespace tw::mcp {
namespace {

Json InputJson(const skills::SkillInput& in) {
  Json j = {{"name", in.name},
            {"type", skills::InputTypeName(in.type)},
            {"required", in.required},
            {"description", in.description}};
  if (in.default_value) j["default"] = skills::SqlValueJson(*in.default_value);
  if (!in.values.empty()) j["values"] = in.values;
  return j;
}

std::string InputText(const skills::SkillInput& in) {
  std::string s = absl::StrCat(in.name, ": ", skills::InputTypeName(in.type));
  if (in.required) s += " (required)";
  if (in.default_value) absl::StrAppend(&s, " = ", skills::SqlValueJson(*in.default_value).dump());
  if (!in.values.empty()) absl::StrAppend(&s, " {", absl::StrJoin(in.values, "|"), "}");
  if (!in.description.empty()) absl::StrAppend(&s, " — ", in.description);
  return s;
}

// Names close to `name` (sharing a word or containing it), for "did you mean".
std::vector<std::string> Similar(const skills::SkillLibrary& library, const std::string& name) {
  std::vector<std::string> out;
  for (const skills::Skill* s : library.All()) {
    for (absl::string_view word : absl::StrSplit(name, '_', absl::SkipEmpty())) {
      if (word.size() >= 3 && absl::StrContains(s->name, word)) {
        out.push_back(s->name);
        break;
      }
    }
    if (out.size() >= 5) break;
  }
  return out;
}

std::string UnknownSkill(const skills::SkillLibrary& library, const std::string& name) {
  const auto similar = Similar(library, name);
  return absl::StrCat("no skill named \"", name, "\"",
                      similar.empty() ? "" : absl::StrCat(" (similar: ", absl::StrJoin(similar, ", "), ")"),
                      "; list_skills lists them");
}

ToolResult ListSkills(const skills::SkillLibrary& library, const ToolCall& call) {
  const std::string category = call.arguments.value("category", "");
  Json list = Json::array();
  std::string text;
  std::set<std::string> categories;
  for (const skills::Skill* s : library.All()) {
    categories.insert(s->category);
    if (!category.empty() && s->category != category) continue;
    std::vector<std::string> inputs;
    for (const auto& in : s->inputs) inputs.push_back(in.required ? in.name + "*" : in.name);
    list.push_back({{"name", s->name},
                    {"version", s->version},
                    {"category", s->category},
                    {"description", s->description},
                    {"tags", s->tags},
                    {"inputs", inputs}});
    absl::StrAppend(&text, s->name, " (", s->category, "): ", s->description,
                    inputs.empty() ? "" : absl::StrCat(" [inputs: ", absl::StrJoin(inputs, ", "), "]"), "\n");
  }
  if (!category.empty() && !categories.count(category)) {
    return ToolResult::Error(absl::StrCat("no skill category \"", category,
                                          "\"; categories: ", absl::StrJoin(categories, ", ")));
  }
  absl::StrAppend(&text, "(", list.size(), " skills; * = required input; describe_skill gives details)\n");
  return ToolResult::Structured({{"skills", std::move(list)}}, std::move(text));
}

ToolResult DescribeSkill(const skills::SkillLibrary& library, const ToolCall& call) {
  const std::string name = call.arguments["skill"].get<std::string>();
  const skills::Skill* s = library.Find(name);
  if (s == nullptr) return ToolResult::Error(UnknownSkill(library, name));
  std::string text = absl::StrCat(s->name, " (v", s->version, ", ", s->category, ")\n", s->description, "\n");
  if (!s->inputs.empty()) text += "inputs:\n";
  for (const auto& in : s->inputs) absl::StrAppend(&text, "  ", InputText(in), "\n");
  if (!s->required_tables.empty()) {
    absl::StrAppend(&text, "requires tables: ", absl::StrJoin(s->required_tables, ", "), "\n");
  }
  if (!s->required_modules.empty()) {
    absl::StrAppend(&text, "requires modules: ", absl::StrJoin(s->required_modules, ", "), "\n");
  }
  text += "steps:\n";
  for (const auto& st : s->steps) {
    absl::StrAppend(&text, "  ", st.id, ": ", skills::StepKindName(st.kind),
                    st.kind == skills::Step::Kind::kSkill ? absl::StrCat(" -> ", st.skill) : "",
                    st.display.title.empty() ? "" : absl::StrCat(" — ", st.display.title), "\n");
  }
  return ToolResult::Structured(SkillJson(*s), std::move(text));
}

// JSON params → the text form the executor converts by each input's declared type, so a wrong
// type or an unknown input is reported exactly as on the command line.
std::map<std::string, std::string> ParamTexts(const Json& params) {
  std::map<std::string, std::string> out;
  if (!params.is_object()) return out;
  for (const auto& [name, v] : params.items()) {
    if (v.is_null()) continue;
    out[name] = v.is_string() ? v.get<std::string>() : v.dump();
  }
  return out;
}

ToolResult RunSkill(const skills::SkillLibrary& library, TraceWorkspace& workspace, const ToolCall& call) {
  const std::string trace_id = call.arguments["trace_id"].get<std::string>();
  const std::string name = call.arguments["skill"].get<std::string>();
  const skills::Skill* skill = library.Find(name);
  if (skill == nullptr) return ToolResult::Error(UnknownSkill(library, name));
  auto inputs = skills::SkillExecutor::ConvertParams(*skill, ParamTexts(call.arguments.value("params", Json())));
  if (!inputs.ok()) {
    return ToolResult::Error(absl::StrCat("bad params for ", name, ": ", inputs.status().message(),
                                          " (describe_skill ", name, " lists its inputs)"));
  }
  if (auto info = workspace.Info(trace_id); !info.ok()) {
    return ToolResult::Error(std::string(info.status().message()));
  }
  call.Progress(1, 0, "running " + name);
  TraceSkills skills = workspace.SkillsFor(trace_id, call.cancelled);
  const skills::SkillRunResult run = skills.runner->Run(name, *inputs);
  if (call.is_cancelled()) return ToolResult::Error("cancelled");
  // The text is what the LLM agent's invoke_skill shows: outcome, compact step summaries, findings.
  std::string text = agent::SkillOutcomeText(run) + " (" + FormatDurationNs(run.elapsed_ns) + ")\n";
  for (const auto& step : run.steps) {
    if (step->status != skills::StepStatus::kOk || step->kind == "diagnose" || step->level == "hidden") {
      continue;
    }
    agent::SummaryOptions options;
    options.full_rows = 20;
    absl::StrAppend(&text, "\n[", step->title.empty() ? step->step : step->title, "] ",
                    agent::SummarizeResult(*step, options));
  }
  for (const skills::Finding& f : run.findings) {
    absl::StrAppend(&text, "\nfinding (", skills::SeverityName(f.severity), "): ", f.title, " — ",
                    f.description, " [evidence ", f.evidence_artifact_id, "]");
  }
  Json structured = skills::SkillRunResultJson(run);
  structured["trace_id"] = trace_id;
  if (run.outcome != skills::SkillOutcome::kOk) {
    // The skill could not give its result (bad inputs, missing data, a failed step): an error
    // the model sees, with what the run produced.
    ToolResult error = ToolResult::Error(text);
    error.structured = std::move(structured);
    return error;
  }
  return ToolResult::Structured(std::move(structured), std::move(text));
}

}  // namespace

Json SkillJson(const skills::Skill& s) {
  Json inputs = Json::array();
  for (const auto& in : s.inputs) inputs.push_back(InputJson(in));
  Json steps = Json::array();
  for (const auto& st : s.steps) {
    Json j = {{"id", st.id}, {"kind", skills::StepKindName(st.kind)}, {"title", st.display.title},
              {"optional", st.optional}};
    if (st.kind == skills::Step::Kind::kSkill) j["skill"] = st.skill;
    if (st.when) j["when"] = st.when->text();
    steps.push_back(std::move(j));
  }
  return {{"name", s.name},
          {"version", s.version},
          {"category", s.category},
          {"description", s.description},
          {"tags", s.tags},
          {"inputs", std::move(inputs)},
          {"requires", {{"tables", s.required_tables}, {"modules", s.required_modules}}},
          {"steps", std::move(steps)}};
}

absl::Status AddSkillTools(ToolRegistry& registry, const skills::SkillLibrary* library,
                           TraceWorkspace* workspace) {
  ToolDefinition list;
  list.name = "list_skills";
  list.title = "List analysis skills";
  list.description =
      "The analysis skills: deterministic, tested SQL analyses of a trace (frames and jank, "
      "startup, binder, CPU, thread states, memory, ...) with diagnostic rules that produce "
      "findings. Optionally only one category.";
  list.input_schema = Json::parse(R"json({
    "type": "object",
    "properties": {"category": {"type": "string", "description": "only skills of this category"}},
    "additionalProperties": false
  })json");
  list.output_schema = Json::parse(R"json({
    "type": "object",
    "properties": {"skills": {"type": "array", "items": {"type": "object", "properties": {
      "name": {"type": "string"}, "version": {"type": "string"}, "category": {"type": "string"},
      "description": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
      "inputs": {"type": "array", "items": {"type": "string"}}}, "required": ["name"]}}},
    "required": ["skills"]
  })json");
  list.handler = [library](const ToolCall& call) { return ListSkills(*library, call); };
  if (auto s = registry.Add(std::move(list)); !s.ok()) return s;

  ToolDefinition describe;
  describe.name = "describe_skill";
  describe.title = "Describe a skill";
  describe.description = "A skill's inputs (names, types, defaults, allowed values), what it requires of a trace, and its steps.";
  describe.input_schema = Json::parse(R"json({
    "type": "object",
    "properties": {"skill": {"type": "string", "minLength": 1}},
    "required": ["skill"],
    "additionalProperties": false
  })json");
  describe.output_schema = Json::parse(R"json({
    "type": "object",
    "properties": {
      "name": {"type": "string"}, "version": {"type": "string"}, "category": {"type": "string"},
      "description": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
      "inputs": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "type": {"type": "string"}, "required": {"type": "boolean"},
        "description": {"type": "string"}, "values": {"type": "array", "items": {"type": "string"}}},
        "required": ["name", "type", "required"]}},
      "requires": {"type": "object", "properties": {
        "tables": {"type": "array", "items": {"type": "string"}},
        "modules": {"type": "array", "items": {"type": "string"}}}},
      "steps": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "string"}, "kind": {"type": "string"}, "title": {"type": "string"}},
        "required": ["id", "kind"]}}
    },
    "required": ["name", "inputs", "steps"]
  })json");
  describe.handler = [library](const ToolCall& call) { return DescribeSkill(*library, call); };
  if (auto s = registry.Add(std::move(describe)); !s.ok()) return s;

  ToolDefinition run;
  run.name = "run_skill";
  run.title = "Run a skill on a trace";
  run.description =
      "Run one analysis skill on a loaded trace with its inputs as `params` (see describe_skill). "
      "Returns each step's result (typed columns, rows, the SQL and parameters that produced it, "
      "an artifact id) and the findings of its diagnostic rules with their evidence. A skill the "
      "trace lacks data for, bad params or a failed step give an error result saying why.";
  run.input_schema = Json::parse(R"json({
    "type": "object",
    "properties": {
      "trace_id": {"type": "string", "minLength": 1},
      "skill": {"type": "string", "minLength": 1},
      "params": {
        "type": "object",
        "description": "the skill's inputs by name",
        "additionalProperties": {"type": ["string", "number", "boolean", "null"]}
      }
    },
    "required": ["trace_id", "skill"],
    "additionalProperties": false
  })json");
  run.output_schema = Json::parse(R"json({
    "type": "object",
    "properties": {
      "trace_id": {"type": "string"},
      "skill": {"type": "string"},
      "outcome": {"type": "string", "enum": ["ok", "not_supported", "invalid_argument", "error"]},
      "message": {"type": "string"},
      "elapsed_ns": {"type": "integer"},
      "steps": {"type": "array", "items": {"type": "object", "properties": {
        "step": {"type": "string"}, "kind": {"type": "string"}, "status": {"type": "string"},
        "title": {"type": "string"}, "artifact_id": {"type": "string"},
        "columns": {"type": "array", "items": {"type": "object", "properties": {
          "name": {"type": "string"}, "type": {"type": "string"}, "unit": {"type": "string"}}}},
        "rows": {"type": "array", "items": {"type": "array"}},
        "truncated": {"type": "boolean"},
        "provenance": {"type": "object"}},
        "required": ["step", "status", "columns", "rows"]}},
      "findings": {"type": "array", "items": {"type": "object", "properties": {
        "skill": {"type": "string"}, "rule": {"type": "string"},
        "severity": {"type": "string", "enum": ["info", "warning", "critical"]},
        "title": {"type": "string"}, "description": {"type": "string"},
        "suggestions": {"type": "array", "items": {"type": "string"}},
        "evidence": {"type": "object"}},
        "required": ["severity", "title"]}}
    },
    "required": ["skill", "outcome", "steps", "findings"]
  })json");
  run.handler = [library, workspace](const ToolCall& call) { return RunSkill(*library, *workspace, call); };
  return registry.Add(std::move(run));
}

}  // namespace tw::mcp

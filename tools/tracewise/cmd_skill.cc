// `tracewise skill list|describe|run|validate`: the skill library from the command line.
//
//   skill list [--skills DIR]
//   skill describe SKILL [--skills DIR]
//   skill run TRACE SKILL [--param k=v ...] [--format table|json] [--skills DIR]
//             [--trace-query HOST:PORT[,HOST:PORT...]|dns:///NAME:PORT] [--skill-engine HOST:PORT]
//   skill validate [DIR] [--strict] [--no-engine]
//
// `run` is local by default (the trace is loaded in this process). With --trace-query the trace
// is uploaded to (or, given as a trace id, already held by) that trace-query service and the
// skill's SQL runs there; with --skill-engine as well, the whole skill runs in that skill-engine
// (which must use the same trace-query) and its events stream back. Exit codes: 0 success, 1 error (load, SQL, a
// required step failed), 2 usage or invalid parameters, 3 the skill is not supported by this
// trace (missing tables or modules); validate exits 1 on any error (and on warnings with
// --strict).

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/units.h"
#include "libs/rpc/trace_query_router.h"
#include "libs/skills/backend_runner.h"
#include "libs/skills/envelope_proto.h"
#include "libs/skills/result_json.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/skill_validator.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/query/result_format.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracewise/commands.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"

namespace tw::cli {
namespace {

using skills::ColumnType;
using skills::Diagnostic;
using skills::Finding;
using skills::Skill;
using skills::SkillLibrary;
using skills::SkillRunResult;
using skills::StepResult;

void Usage() {
  std::fprintf(stderr,
               "usage: tracewise skill list [--skills DIR]\n"
               "       tracewise skill describe SKILL [--skills DIR]\n"
               "       tracewise skill run TRACE SKILL [--param k=v ...] [--format table|json] "
               "[--skills DIR]\n"
               "                 [--trace-query HOST:PORT[,...]|dns:///NAME:PORT [--skill-engine HOST:PORT]]\n"
               "       tracewise skill validate [DIR] [--strict] [--no-engine]\n");
}

struct Options {
  std::string skills_dir;
  std::string format = "table";
  std::map<std::string, std::string> params;
  bool strict = false;
  bool engine = true;
  std::string trace_query;   // the trace-query replicas (libs/rpc/replica_target.h)
  std::string skill_engine;  // HOST:PORT of a skill-engine service
  std::vector<std::string> positional;
  bool ok = true;
};

Options ParseOptions(const Args& args, size_t from) {
  Options o;
  for (size_t i = from; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> std::string {
      const std::string prefix = absl::StrCat(flag, "=");
      if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
      if (i + 1 < args.size()) return args[++i];
      o.ok = false;
      return "";
    };
    if (a == "--skills" || a.rfind("--skills=", 0) == 0) {
      o.skills_dir = value("--skills");
    } else if (a == "--format" || a.rfind("--format=", 0) == 0) {
      o.format = value("--format");
    } else if (a == "--param" || a.rfind("--param=", 0) == 0) {
      const std::string kv = value("--param");
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::fprintf(stderr, "tracewise: --param needs key=value, got '%s'\n", kv.c_str());
        o.ok = false;
      } else {
        o.params[kv.substr(0, eq)] = kv.substr(eq + 1);
      }
    } else if (a == "--trace-query" || a.rfind("--trace-query=", 0) == 0) {
      o.trace_query = value("--trace-query");
    } else if (a == "--skill-engine" || a.rfind("--skill-engine=", 0) == 0) {
      o.skill_engine = value("--skill-engine");
    } else if (a == "--strict") {
      o.strict = true;
    } else if (a == "--no-engine") {
      o.engine = false;
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "tracewise: unknown option %s\n", a.c_str());
      o.ok = false;
    } else {
      o.positional.push_back(a);
    }
  }
  if (o.format != "table" && o.format != "json") o.ok = false;
  return o;
}

// Loads the library; prints load errors (files with errors are left out) and returns false if
// nothing loaded.
bool LoadLibrary(const Options& o, SkillLibrary* library) {
  const std::string dir = o.skills_dir.empty() ? skills::DefaultSkillsDir() : o.skills_dir;
  std::vector<Diagnostic> diags;
  *library = SkillLibrary::LoadDirectory(dir, &diags);
  for (const auto& d : diags) {
    if (!d.warning) std::fprintf(stderr, "%s\n", d.ToString().c_str());
  }
  return library->size() > 0;
}

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

int List(const Options& o) {
  SkillLibrary library;
  if (!LoadLibrary(o, &library)) return 1;
  QueryResult table;
  table.columns = {"name", "category", "version", "description"};
  for (const Skill* s : library.All()) {
    table.rows.push_back({SqlValue::String(s->name), SqlValue::String(s->category),
                          SqlValue::String(s->version), SqlValue::String(FirstLine(s->description))});
  }
  const std::string out = FormatTable(table, 90);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

std::string SqlValueText(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull:
      return "null";
    case SqlValue::Type::kInt:
      return absl::StrCat(v.int_value);
    case SqlValue::Type::kDouble:
      return absl::StrCat(v.double_value);
    case SqlValue::Type::kString:
      return v.string_value;
  }
  return "";
}

int Describe(const Options& o) {
  if (o.positional.size() != 1) {
    Usage();
    return 2;
  }
  SkillLibrary library;
  if (!LoadLibrary(o, &library)) return 1;
  const Skill* s = library.Find(o.positional[0]);
  if (!s) {
    std::fprintf(stderr, "tracewise: no skill '%s'\n", o.positional[0].c_str());
    return 1;
  }
  std::printf("%s (v%s, %s)\n  %s\n  file: %s\n", s->name.c_str(), s->version.c_str(),
              s->category.c_str(), s->description.c_str(), s->location.file.c_str());
  if (!s->tags.empty()) std::printf("  tags: %s\n", absl::StrJoin(s->tags, ", ").c_str());
  if (!s->required_tables.empty() || !s->required_modules.empty()) {
    std::printf("requires:\n");
    if (!s->required_tables.empty()) {
      std::printf("  tables: %s\n", absl::StrJoin(s->required_tables, ", ").c_str());
    }
    if (!s->required_modules.empty()) {
      std::printf("  modules: %s\n", absl::StrJoin(s->required_modules, ", ").c_str());
    }
  }
  if (!s->inputs.empty()) std::printf("inputs:\n");
  for (const auto& in : s->inputs) {
    std::printf("  %s: %s%s%s%s\n", in.name.c_str(), skills::InputTypeName(in.type),
                in.required ? " (required)" : "",
                in.default_value ? absl::StrCat(" = ", SqlValueText(*in.default_value)).c_str() : "",
                in.values.empty() ? "" : absl::StrCat(" {", absl::StrJoin(in.values, "|"), "}").c_str());
    if (!in.description.empty()) std::printf("      %s\n", in.description.c_str());
  }
  std::printf("steps:\n");
  for (const auto& st : s->steps) {
    std::string detail;
    if (st.kind == skills::Step::Kind::kSkill) detail = absl::StrCat(" -> ", st.skill);
    if (st.kind == skills::Step::Kind::kForEach) {
      detail = absl::StrCat(" over ", st.over, " (max ", st.max_items, ")");
    }
    if (st.kind == skills::Step::Kind::kDiagnose) detail = absl::StrCat(" (", st.rules.size(), " rules)");
    std::printf("  %s: %s%s%s%s%s\n", st.id.c_str(), skills::StepKindName(st.kind), detail.c_str(),
                st.optional ? " optional" : "",
                st.when ? absl::StrCat(" when ", st.when->text()).c_str() : "",
                st.display.title.empty() ? "" : absl::StrCat(" — ", st.display.title).c_str());
  }
  return 0;
}

// A cell as people read it, by the column's declared type.
std::string HumanCell(const SqlValue& v, const skills::ResultColumn& c) {
  if (v.type == SqlValue::Type::kNull) return "";
  if (v.type == SqlValue::Type::kInt || v.type == SqlValue::Type::kDouble) {
    const double d = v.type == SqlValue::Type::kInt ? static_cast<double>(v.int_value) : v.double_value;
    switch (c.type) {
      case ColumnType::kBool:
        return d != 0 ? "true" : "false";
      case ColumnType::kDurationNs:
        return FormatDurationNs(static_cast<int64_t>(d));
      case ColumnType::kBytes:
        return FormatBytes(static_cast<int64_t>(d));
      case ColumnType::kPercent:
        return absl::StrCat(std::round(d * 100) / 100, "%");
      default:
        break;
    }
    std::string s = v.type == SqlValue::Type::kInt ? absl::StrCat(v.int_value)
                                                   : absl::StrCat(std::round(d * 1000) / 1000);
    return c.unit.empty() ? s : absl::StrCat(s, " ", c.unit);
  }
  return v.string_value;
}

void PrintStepTable(const StepResult& r) {
  if (r.level == "hidden") return;
  if (r.kind == "diagnose" && r.status == skills::StepStatus::kOk) return;  // see Findings
  std::printf("\n== %s [%s] %s\n", r.title.empty() ? r.step.c_str() : r.title.c_str(),
              r.step.c_str(), r.status == skills::StepStatus::kOk
                                  ? ""
                                  : absl::StrCat("(", skills::StepStatusName(r.status), ": ",
                                                 r.message, ")").c_str());
  if (r.status != skills::StepStatus::kOk || r.kind == "diagnose") return;
  QueryResult table;
  for (const auto& c : r.columns) table.columns.push_back(c.name);
  const size_t limit = r.level == "summary" ? 100 : 50;
  for (size_t i = 0; i < r.rows.size() && i < limit; ++i) {
    std::vector<SqlValue> row;
    for (size_t c = 0; c < r.rows[i].size(); ++c) {
      const SqlValue& v = r.rows[i][c];
      // Numbers stay numbers (right-aligned) unless a type gives them a unit.
      const auto type = r.columns[c].type;
      const bool human = type == ColumnType::kDurationNs || type == ColumnType::kBytes ||
                         type == ColumnType::kBool ||
                         type == ColumnType::kPercent || !r.columns[c].unit.empty();
      row.push_back(human || v.type == SqlValue::Type::kString
                        ? SqlValue::String(HumanCell(v, r.columns[c]))
                        : v);
    }
    table.rows.push_back(std::move(row));
  }
  table.truncated = r.truncated || r.rows.size() > limit;
  const std::string out = FormatTable(table, 60);
  std::fwrite(out.data(), 1, out.size(), stdout);
}

int ExitCode(const SkillRunResult& r) {
  switch (r.outcome) {
    case skills::SkillOutcome::kOk:
      return 0;
    case skills::SkillOutcome::kInvalidArgument:
      return 2;
    case skills::SkillOutcome::kNotSupported:
      return 3;
    case skills::SkillOutcome::kError:
      return 1;
  }
  return 1;
}

// The skill run by a skill-engine service, rebuilt from its event stream.
absl::StatusOr<SkillRunResult> RunRemotely(const Options& o, const std::string& trace_id) {
  auto channel = grpc::CreateChannel(o.skill_engine, grpc::InsecureChannelCredentials());
  auto stub = tracewise::v1::SkillEngine::NewStub(channel);
  tracewise::v1::InvokeSkillRequest req;
  req.set_trace_id(trace_id);
  req.set_skill(o.positional[1]);
  for (const auto& [k, v] : o.params) (*req.mutable_params())[k] = v;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(5));
  auto reader = stub->InvokeSkill(&ctx, req);
  SkillRunResult result;
  result.skill = o.positional[1];
  tracewise::v1::SkillEvent e;
  while (reader->Read(&e)) {
    using K = tracewise::v1::SkillEvent;
    if (e.kind() == K::STEP_COMPLETED && e.depth() == 0) {
      auto step = std::make_shared<StepResult>(skills::FromEnvelope(e.envelope()));
      if (e.step_status() == "skipped") step->status = skills::StepStatus::kSkipped;
      if (e.step_status() == "failed") step->status = skills::StepStatus::kFailed;
      if (e.step_status() == "not_supported") step->status = skills::StepStatus::kNotSupported;
      step->message = e.message();
      step->step = e.step();
      result.steps.push_back(std::move(step));
    } else if (e.kind() == K::FINDING) {
      Finding f;
      f.skill = e.skill();
      f.title = e.finding().title();
      f.description = e.finding().description();
      f.severity = e.finding().severity() == tracewise::v1::SEVERITY_CRITICAL ? skills::Severity::kCritical
                   : e.finding().severity() == tracewise::v1::SEVERITY_INFO   ? skills::Severity::kInfo
                   : e.finding().severity() == tracewise::v1::SEVERITY_LOW    ? skills::Severity::kNotice
                                                                               : skills::Severity::kWarning;
      for (const auto& s : e.finding().suggestions()) f.suggestions.push_back(s);
      if (e.finding().evidence_size() > 0) {
        const auto& ev = e.finding().evidence(0);
        f.evidence_artifact_id = ev.artifact_id();
        f.evidence_row = ev.row();
        for (const auto& p : ev.fields()) f.evidence_fields.emplace_back(p.name(), skills::FromProto(p.value()));
      }
      result.findings.push_back(std::move(f));
    } else if ((e.kind() == K::SKILL_COMPLETED || e.kind() == K::SKILL_ERROR) && e.depth() == 0) {
      result.outcome = e.outcome() == "ok"              ? skills::SkillOutcome::kOk
                       : e.outcome() == "not_supported" ? skills::SkillOutcome::kNotSupported
                       : e.outcome() == "invalid_argument" ? skills::SkillOutcome::kInvalidArgument
                                                           : skills::SkillOutcome::kError;
      result.message = e.message();
    } else if (e.kind() == K::SKILL_STARTED && e.depth() == 0) {
      result.elapsed_ns = 0;
    }
  }
  grpc::Status status = reader->Finish();
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  }
  for (const auto& st : result.steps) result.elapsed_ns += st->elapsed_ns;
  return result;
}

int RunSkill(const Options& o) {
  if (o.positional.size() != 2 || (!o.skill_engine.empty() && o.trace_query.empty())) {
    Usage();
    return 2;
  }
  SkillRunResult result;
  if (!o.trace_query.empty()) {
    // The trace lives in a trace-query service: upload the file, or use the id as given.
    auto router = rpc::TraceQueryRouter::Create(o.trace_query);
    if (!router.ok()) {
      std::fprintf(stderr, "tracewise: --trace-query: %s\n", std::string(router.status().message()).c_str());
      return 2;
    }
    rpc::TraceQueryRouter& backend = **router;
    std::string trace_id = o.positional[0];
    if (std::filesystem::is_regular_file(o.positional[0])) {
      auto uploaded = backend.UploadFile(o.positional[0]);
      if (!uploaded.ok()) {
        std::fprintf(stderr, "tracewise: cannot upload %s: %s\n", o.positional[0].c_str(),
                     std::string(uploaded.status().message()).c_str());
        return 1;
      }
      trace_id = uploaded->trace_id;
    }
    if (!o.skill_engine.empty()) {
      auto remote = RunRemotely(o, trace_id);
      if (!remote.ok()) {
        std::fprintf(stderr, "tracewise: %s\n", std::string(remote.status().message()).c_str());
        return remote.status().code() == absl::StatusCode::kInvalidArgument ||
                       remote.status().code() == absl::StatusCode::kNotFound
                   ? 2
                   : 1;
      }
      result = std::move(*remote);
    } else {
      SkillLibrary library;
      if (!LoadLibrary(o, &library)) return 1;
      const Skill* skill = library.Find(o.positional[1]);
      if (!skill) {
        std::fprintf(stderr, "tracewise: no skill '%s' (see `tracewise skill list`)\n",
                     o.positional[1].c_str());
        return 2;
      }
      skills::BackendQueryRunner runner(&backend, trace_id);
      skills::SkillExecutor executor(library, runner);
      result = executor.Run(*skill, o.params);
    }
  } else {
    SkillLibrary library;
    if (!LoadLibrary(o, &library)) return 1;
    const Skill* skill = library.Find(o.positional[1]);
    if (!skill) {
      std::fprintf(stderr, "tracewise: no skill '%s' (see `tracewise skill list`)\n",
                   o.positional[1].c_str());
      return 2;
    }
    auto trace = LoadTraceFile(o.positional[0]);
    if (!trace.ok()) {
      std::fprintf(stderr, "tracewise: cannot load %s: %s\n", o.positional[0].c_str(),
                   std::string(trace.status().message()).c_str());
      return 1;
    }
    skills::TraceDatabaseRunner runner(&(*trace)->db());
    skills::SkillExecutor executor(library, runner);
    result = executor.Run(*skill, o.params);
  }

  if (o.format == "json") {
    std::printf("%s\n", skills::SkillRunResultJson(result).dump(2).c_str());
    return ExitCode(result);
  }
  std::printf("skill %s: %s%s%s (%s)\n", result.skill.c_str(),
              skills::SkillOutcomeName(result.outcome), result.message.empty() ? "" : " — ",
              result.message.c_str(), FormatDurationNs(result.elapsed_ns).c_str());
  for (const auto& s : result.steps) PrintStepTable(*s);
  if (!result.findings.empty()) std::printf("\n== Findings\n");
  for (const auto& f : result.findings) {
    std::printf("[%s] %s\n", skills::SeverityName(f.severity), f.title.c_str());
    if (!f.description.empty()) std::printf("    %s\n", f.description.c_str());
    std::vector<std::string> fields;
    for (const auto& [k, v] : f.evidence_fields) fields.push_back(absl::StrCat(k, "=", SqlValueText(v)));
    if (!f.evidence_artifact_id.empty()) {
      std::printf("    evidence: %s%s%s\n", f.evidence_artifact_id.c_str(),
                  f.evidence_row >= 0 ? absl::StrCat(" row ", f.evidence_row).c_str() : "",
                  fields.empty() ? "" : absl::StrCat(" (", absl::StrJoin(fields, ", "), ")").c_str());
    }
    for (const auto& s : f.suggestions) std::printf("    suggestion: %s\n", s.c_str());
  }
  return ExitCode(result);
}

int Validate(const Options& o) {
  if (o.positional.size() > 1) {
    Usage();
    return 2;
  }
  const std::string dir = o.positional.empty() ? skills::DefaultSkillsDir() : o.positional[0];
  skills::ValidationOptions options;
  options.check_against_engine = o.engine;
  const std::vector<Diagnostic> diags = skills::ValidateSkillDirectory(dir, options);
  int errors = 0, warnings = 0;
  for (const auto& d : diags) {
    std::fprintf(stderr, "%s\n", d.ToString().c_str());
    (d.warning ? warnings : errors)++;
  }
  const size_t files = skills::FindSkillFiles(dir).size();
  std::fprintf(stderr, "%zu skill file(s) in %s: %d error(s), %d warning(s)\n", files, dir.c_str(),
               errors, warnings);
  return errors > 0 || (o.strict && warnings > 0) ? 1 : 0;
}

}  // namespace

int RunSkillCommand(const Args& args) {
  if (args.empty()) {
    Usage();
    return 2;
  }
  const Options o = ParseOptions(args, 1);
  if (!o.ok) {
    Usage();
    return 2;
  }
  const std::string& sub = args[0];
  if (sub == "list") return List(o);
  if (sub == "describe") return Describe(o);
  if (sub == "run") return RunSkill(o);
  if (sub == "validate") return Validate(o);
  Usage();
  return 2;
}

}  // namespace tw::cli

#include "tools/tracewise/turn_target.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/agent/report_render.h"
#include "libs/backends/llm_wiring.h"

namespace tw::cli {

const char kTargetUsage[] =
    "  --services TQ,SE[,V]    run through the services (HOST:PORT each): the trace is uploaded to\n"
    "                          trace-query, skills run on the skill-engine, the verifier checks.\n"
    "  --orchestrator HOST:PORT  run on a deployment through its orchestrator alone: the trace is\n"
    "                          uploaded through it and the turn runs there (its LLM or offline).\n"
    "  --skills DIR --strategies DIR --llm-config FILE   local libraries and LLM configuration\n"
    "  --offline               the deterministic offline analyst even with an LLM configured\n";

bool ParseTargetFlag(const Args& args, size_t& i, TargetFlags& flags, std::string* error) {
  const std::string& a = args[i];
  auto value = [&](std::string& into) {
    if (i + 1 >= args.size()) {
      *error = a + " needs a value";
      return true;
    }
    into = args[++i];
    return true;
  };
  if (a == "--services") {
    std::string list;
    value(list);
    for (absl::string_view part : absl::StrSplit(list, ',', absl::SkipEmpty())) {
      flags.services.emplace_back(part);
    }
    if (flags.services.size() < 2 || flags.services.size() > 3) {
      *error = "--services takes TRACE_QUERY,SKILL_ENGINE[,VERIFIER]";
    }
    return true;
  }
  if (a == "--orchestrator") return value(flags.orchestrator);
  if (a == "--skills") return value(flags.skills_dir);
  if (a == "--strategies") return value(flags.strategies_dir);
  if (a == "--llm-config") return value(flags.llm_config);
  if (a == "--offline") {
    flags.offline = true;
    return true;
  }
  return false;
}

absl::StatusOr<std::unique_ptr<LocalTurns>> LocalTurns::Create(
    const TargetFlags& flags,
    std::function<std::optional<agent::ClientToolAnswer>(const agent::ClientToolRequest&)> run_now) {
  std::unique_ptr<LocalTurns> t(new LocalTurns());
  std::vector<skills::Diagnostic> diagnostics;
  t->library_ = skills::SkillLibrary::LoadDirectory(
      flags.skills_dir.empty() ? skills::DefaultSkillsDir() : flags.skills_dir, &diagnostics);
  for (const auto& d : diagnostics) {
    if (!d.warning) std::fprintf(stderr, "%s\n", d.ToString().c_str());
  }
  auto strategies = strategy::StrategyLibrary::Load(
      flags.strategies_dir.empty() ? strategy::DefaultStrategiesDir() : flags.strategies_dir);
  if (!strategies.ok()) return strategies.status();
  t->strategies_ = std::make_unique<strategy::StrategyLibrary>(std::move(*strategies));
  if (!flags.offline) {
    auto config = llm::LoadLlmConfig(flags.llm_config);
    if (!config.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("LLM configuration: ", config.status().message()));
    }
    t->llm_ = *config;
  }
  backends::BackendFactoryOptions wiring;
  if (!flags.services.empty()) {
    wiring.services = {flags.services[0], flags.services[1], flags.services.size() > 2 ? flags.services[2] : ""};
  }
  wiring.skills = &t->library_;
  wiring.make_llm = backends::ProviderMaker(t->llm_);
  auto factory = backends::BackendFactory::Create(std::move(wiring));
  if (!factory.ok()) return factory.status();
  t->factory_ = std::move(*factory);
  agent::TurnRunnerOptions runner;
  runner.loop = backends::LoopOptionsFor(t->llm_);
  runner.loop.client_tools.run_now = std::move(run_now);
  t->runner_ = std::make_unique<agent::TurnRunner>(*t->strategies_, &t->library_, std::move(runner));
  return t;
}

absl::StatusOr<std::string> LocalTurns::AddTrace(const std::string& path) {
  auto id = factory_->AddTraceFile(path);
  if (id.ok()) names_[*id] = path;
  return id;
}

agent::TurnResult LocalTurns::Run(const agent::TurnSpec& spec, const std::string& trace_id,
                                  const std::string& reference_id, agent::AgentSession& session,
                                  const ConsoleOptions& console) {
  backends::BackendFactory::TurnWiring wiring;
  wiring.reference_id = reference_id;
  auto backends = factory_->ForTurn(trace_id, wiring);
  if (!backends.ok()) {
    agent::TurnResult failed;
    failed.status = agent::kTurnError;
    failed.error = backends.status();
    return failed;
  }
  agent::TurnResult result = runner_->Run(spec, *backends, session, [&](const agent::AgentEvent& e) {
    PrintAgentEvent(e, console);
  });
  RelabelTraces(result.report, names_);
  return result;
}

absl::StatusOr<std::string> RemoteTurns::AddTrace(const std::string& path) {
  auto id = client_.UploadFile(path);
  if (!id.ok()) {
    return absl::Status(id.status().code(), absl::StrCat("upload of ", path, " through the orchestrator at ",
                                                         address_, " failed: ", id.status().message()));
  }
  names_[*id] = path;
  return id;
}

absl::StatusOr<agent::AnalysisReport> RemoteTurns::Ask(
    const std::string& trace_id, const rpc::RemoteQuestion& question, const ConsoleOptions& console,
    const std::function<std::optional<agent::ClientToolAnswer>(const agent::ClientToolRequest&)>& client_tool) {
  rpc::RemoteQuestion q = question;
  if (session_.empty()) {
    auto session = client_.CreateSession(trace_id, names_.count(trace_id) ? names_[trace_id] : trace_id);
    if (!session.ok()) return session.status();
    session_ = *session;
    session_trace_ = trace_id;
  } else if (trace_id != session_trace_) {
    q.trace_id = trace_id;  // the session moves to another trace
    session_trace_ = trace_id;
  }
  absl::Status submit_error;
  absl::Status asked = client_.Ask(session_, q, [&](const agent::AgentEvent& e) {
    PrintAgentEvent(e, console);
    if (e.kind != agent::AgentEventKind::kClientToolRequest || !client_tool) return;
    agent::ClientToolRequest request{e.data.value("request_id", ""), e.data.value("tool", ""),
                                     e.data.contains("arguments") ? e.data["arguments"].dump() : "{}",
                                     e.data.value("deadline_unix_ns", int64_t{0})};
    if (std::optional<agent::ClientToolAnswer> answer = client_tool(request)) {
      absl::Status s = client_.SubmitToolResult(session_, request.request_id, *answer);
      if (!s.ok()) submit_error = s;
    }
  });
  if (!asked.ok()) return asked;
  if (!submit_error.ok()) return submit_error;
  auto turn = client_.LastTurn(session_);
  if (!turn.ok()) return turn.status();
  auto report = agent::ParseReportJson(turn->report_json);
  if (!report.ok()) return report.status();
  RelabelTraces(*report, names_);
  return report;
}

}  // namespace tw::cli

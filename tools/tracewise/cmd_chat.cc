// `tracewise chat TRACE`: a multi-turn terminal session with the LLM agent over one trace. Each
// question is a turn; the session keeps the conversation, notes and artifacts, so follow-ups
// ("and on the RenderThread?") build on earlier answers. Without an LLM configured, each
// question gets the offline analyst's report instead.

#include <cstdio>
#include <iostream>
#include <string>

#include "libs/agent/agent_loop.h"
#include "libs/agent/context_probes.h"
#include "libs/agent/offline_analyst.h"
#include "libs/agent/report_render.h"
#include "libs/agent/schema_provider.h"
#include "libs/common/units.h"
#include "libs/llm/llm_config.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracewise/agent_console.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise chat TRACE [--mode quick|full|auto] [--skills DIR] [--strategies DIR]\n"
    "                            [--llm-config FILE] [--quiet]\n"
    "  Asks questions about TRACE in a terminal session; an empty line, 'exit' or EOF ends it.\n";

}  // namespace

int RunChat(const Args& args) {
  std::string trace_path, mode = "auto", skills_dir, strategies_dir, llm_config_path;
  bool quiet = false;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    const std::string& a = args[i];
    bool ok = true;
    if (a == "--mode") {
      ok = value(mode);
    } else if (a == "--skills") {
      ok = value(skills_dir);
    } else if (a == "--strategies") {
      ok = value(strategies_dir);
    } else if (a == "--llm-config") {
      ok = value(llm_config_path);
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a.rfind("--", 0) == 0 || !trace_path.empty()) {
      ok = false;
    } else {
      trace_path = a;
    }
    if (!ok) {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  if (trace_path.empty() || (mode != "auto" && mode != "quick" && mode != "full")) {
    std::fputs(kUsage, stderr);
    return 2;
  }

  auto config = llm::LoadLlmConfig(llm_config_path);
  if (!config.ok()) {
    std::fprintf(stderr, "tracewise chat: LLM configuration: %s\n",
                 std::string(config.status().message()).c_str());
    return 2;
  }
  std::vector<skills::Diagnostic> diagnostics;
  const skills::SkillLibrary library = skills::SkillLibrary::LoadDirectory(
      skills_dir.empty() ? skills::DefaultSkillsDir() : skills_dir, &diagnostics);
  auto strategies = strategy::StrategyLibrary::Load(
      strategies_dir.empty() ? strategy::DefaultStrategiesDir() : strategies_dir);
  if (!strategies.ok()) {
    std::fprintf(stderr, "tracewise chat: %s\n", std::string(strategies.status().message()).c_str());
    return 1;
  }
  auto trace = LoadTraceFile(trace_path);
  if (!trace.ok()) {
    std::fprintf(stderr, "tracewise chat: cannot load %s: %s\n", trace_path.c_str(),
                 std::string(trace.status().message()).c_str());
    return 1;
  }
  skills::TraceDatabaseRunner queries(&(*trace)->db());
  agent::LocalSkillRunner runner(library, queries);
  agent::LocalSchemaProvider schema(&(*trace)->db());
  verify::LocalVerifierClient verifier;

  std::unique_ptr<llm::LlmProvider> provider;
  if (config->configured()) {
    auto made = llm::MakeProvider(*config);
    if (!made.ok()) {
      std::fprintf(stderr, "tracewise chat: %s\n", std::string(made.status().message()).c_str());
      return 2;
    }
    provider = std::move(*made);
    std::fprintf(stderr, "chat: %s loaded in %s; LLM %s\n", trace_path.c_str(),
                 FormatDurationNs((*trace)->info().load_ns).c_str(), config->Describe().c_str());
  } else {
    std::fprintf(stderr, "chat: no LLM configured, each question gets the offline analyst's report.\n%s\n",
                 llm::HowToConfigure().c_str());
  }

  agent::ToolContext tools;
  tools.skills = &runner;
  tools.skill_library = &library;
  tools.sql = &queries;
  tools.schema = &schema;
  tools.strategies = &*strategies;
  agent::AgentSession session;
  session.trace = trace_path;
  std::vector<llm::Message> history;
  agent::TurnContext context;
  if (auto probed = agent::ProbeTraceContext(queries); probed.ok()) context.trace_context = probed->Describe();
  ConsoleOptions console;
  console.quiet = quiet;

  std::string question;
  while (true) {
    std::fputs("\n> ", stderr);
    if (!std::getline(std::cin, question) || question.empty() || question == "exit" ||
        question == "quit") {
      break;
    }
    if (provider == nullptr) {
      agent::OfflineAnalyst analyst(*strategies, runner, &verifier);
      const std::string text = agent::RenderMarkdown(analyst.Analyze(question, trace_path));
      std::fwrite(text.data(), 1, text.size(), stdout);
      continue;
    }
    agent::AgentLoop loop(*provider, *strategies, tools, &verifier, LoopOptionsFor(*config));
    agent::TurnRequest request;
    request.question = question;
    request.mode = mode;
    request.context = context;
    request.history = history;
    const agent::TurnOutcome outcome = loop.Run(
        request, session, [&](const agent::AgentEvent& e) { PrintAgentEvent(e, console); });
    std::fputs("\n", stdout);
    std::fflush(stdout);
    std::fprintf(stderr, "  (%s)\n", TurnSummary(outcome, *config).c_str());
    history.push_back({llm::Role::kUser, question});
    history.push_back({llm::Role::kAssistant, outcome.answer});
  }
  return 0;
}

}  // namespace tw::cli

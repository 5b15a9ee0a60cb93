// `tracewise chat TRACE`: a multi-turn terminal session with the LLM agent over one trace. Each
// question is a turn; the session keeps the conversation, notes and artifacts, so follow-ups
// ("and on the RenderThread?") build on earlier answers. Without an LLM configured, each
// question gets the offline analyst's report instead. `/trace OTHER` moves the session to another
// trace (what the agent gathered on the previous one is dropped). With --annotations the model
// may pin notes (the add_annotation client tool), printed here. In process, through the services
// or on an orchestrator, like analyze (turn_target.h).

#include <cstdio>
#include <iostream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/agent/report_render.h"
#include "libs/llm/llm_config.h"
#include "tools/tracewise/agent_console.h"
#include "tools/tracewise/commands.h"
#include "tools/tracewise/turn_target.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise chat TRACE [--mode quick|full|auto] [--annotations] [--quiet]\n"
    "                            [--services TQ,SE[,V] | --orchestrator HOST:PORT]\n"
    "                            [--skills DIR] [--strategies DIR] [--llm-config FILE] [--offline]\n"
    "  Asks questions about TRACE in a terminal session; an empty line, 'exit' or EOF ends it.\n"
    "  '/trace OTHER' moves the session to another trace. --annotations lets the model pin notes\n"
    "  (the add_annotation client tool), printed as they come.\n";

// chat's one client-side tool: an annotation, printed.
std::optional<agent::ClientToolAnswer> PrintAnnotation(const agent::ClientToolRequest& request) {
  if (request.tool != "add_annotation") return std::nullopt;
  const nlohmann::json args = nlohmann::json::parse(request.arguments, nullptr, false);
  if (!args.is_object()) return agent::ClientToolAnswer{"", "", "", "the arguments are not a JSON object"};
  std::string where = args.contains("slice_id") ? absl::StrCat("slice ", args["slice_id"].dump())
                                                : absl::StrCat(args.value("start_ns", int64_t{0}), "..",
                                                               args.value("end_ns", int64_t{0}), " ns");
  std::fprintf(stderr, "\n  📌 %s: %s\n", where.c_str(), args.value("text", "").c_str());
  return agent::ClientToolAnswer{R"({"pinned": true})", "", "", ""};
}

}  // namespace

int RunChat(const Args& args) {
  std::string trace_path, mode = "auto";
  bool quiet = false, annotations = false;
  TargetFlags target;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string error;
    bool ok = true;
    if (ParseTargetFlag(args, i, target, &error)) {
      ok = error.empty();
      if (!ok) std::fprintf(stderr, "tracewise chat: %s\n", error.c_str());
    } else if (a == "--mode") {
      ok = i + 1 < args.size();
      if (ok) mode = args[++i];
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "--annotations") {
      annotations = true;
    } else if (a.rfind("--", 0) == 0 || !trace_path.empty()) {
      ok = false;
    } else {
      trace_path = a;
    }
    if (!ok) {
      std::fputs(kUsage, stderr);
      std::fputs(kTargetUsage, stderr);
      return 2;
    }
  }
  if (trace_path.empty() || (mode != "auto" && mode != "quick" && mode != "full") ||
      (!target.orchestrator.empty() && (!target.services.empty() || target.offline))) {
    std::fputs(kUsage, stderr);
    std::fputs(kTargetUsage, stderr);
    return 2;
  }
  std::vector<std::string> client_tools;
  if (annotations) client_tools.push_back("add_annotation");
  ConsoleOptions console;
  console.quiet = quiet;

  // The session lives here (in process / through the services) or on the orchestrator.
  std::unique_ptr<LocalTurns> local;
  std::unique_ptr<RemoteTurns> remote;
  if (target.orchestrator.empty()) {
    auto made = LocalTurns::Create(target, PrintAnnotation);
    if (!made.ok()) {
      std::fprintf(stderr, "tracewise chat: %s\n", std::string(made.status().message()).c_str());
      return 2;
    }
    local = std::move(*made);
  } else {
    remote = std::make_unique<RemoteTurns>(target.orchestrator);
  }
  auto add_trace = [&](const std::string& path) {
    return local ? local->AddTrace(path) : remote->AddTrace(path);
  };
  auto trace = add_trace(trace_path);
  if (!trace.ok()) {
    std::fprintf(stderr, "tracewise chat: %s\n", std::string(trace.status().message()).c_str());
    return 1;
  }
  std::string trace_id = *trace;
  if (local && local->has_llm()) {
    std::fprintf(stderr, "chat: %s ready; LLM %s\n", trace_path.c_str(), local->llm().Describe().c_str());
  } else if (local) {
    std::fprintf(stderr, "chat: no LLM configured, each question gets the offline analyst's report.\n%s\n",
                 target.offline ? "" : llm::HowToConfigure().c_str());
  } else {
    std::fprintf(stderr, "chat: %s uploaded; the orchestrator at %s answers\n", trace_path.c_str(),
                 target.orchestrator.c_str());
  }

  agent::AgentSession session;
  std::vector<llm::Message> history;
  std::string question;
  while (true) {
    std::fputs("\n> ", stderr);
    if (!std::getline(std::cin, question) || question.empty() || question == "exit" ||
        question == "quit") {
      break;
    }
    if (absl::StartsWith(question, "/trace ")) {
      const std::string path = question.substr(7);
      auto other = add_trace(path);
      if (!other.ok()) {
        std::fprintf(stderr, "chat: %s\n", std::string(other.status().message()).c_str());
        continue;
      }
      if (local && *other != trace_id) local->Forget(trace_id);
      trace_id = *other;
      std::fprintf(stderr, "chat: now on %s\n", path.c_str());
      continue;
    }
    if (remote) {
      rpc::RemoteQuestion q;
      q.question = question;
      q.mode = mode;
      q.client_tools = client_tools;
      console.stream_text = true;
      auto report = remote->Ask(trace_id, q, console, PrintAnnotation);
      if (!report.ok()) {
        std::fprintf(stderr, "chat: %s\n", std::string(report.status().message()).c_str());
        continue;
      }
      if (report->deterministic) {
        const std::string text = agent::RenderMarkdown(*report);
        std::fwrite(text.data(), 1, text.size(), stdout);
      }
      std::fputs("\n", stdout);
      std::fflush(stdout);
      continue;
    }
    agent::TurnSpec spec;
    spec.question = question;
    spec.mode = mode;
    spec.history = history;
    spec.client_tools = client_tools;
    console.stream_text = local->has_llm();
    const agent::TurnResult result = local->Run(spec, trace_id, "", session, console);
    if (result.offline) {
      const std::string text = agent::RenderMarkdown(result.report);
      std::fwrite(text.data(), 1, text.size(), stdout);
      continue;
    }
    std::fputs("\n", stdout);
    std::fflush(stdout);
    std::fprintf(stderr, "  (%s)\n", TurnSummary(result, local->llm()).c_str());
    for (const llm::Message& m : result.exchange) history.push_back(m);
  }
  return 0;
}

}  // namespace tw::cli

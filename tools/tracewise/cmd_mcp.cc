// `tracewise mcp`: Tracewise as a Model Context Protocol server on stdin/stdout, for coding
// agents and IDE assistants (tools/tracewise/mcp/README.md). stdout carries only protocol
// messages: the real stdout is kept for them and fd 1 is pointed at stderr, so nothing a
// library prints can corrupt the stream.

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "tools/tracewise/commands.h"
#include "tools/tracewise/mcp/tracewise_server.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise mcp [--data-dir DIR] [--skills DIR] [--strategies DIR]\n"
    "                     [--services TRACE_QUERY,SKILL_ENGINE[,VERIFIER]] [--orchestrator HOST:PORT]\n"
    "                     [--memory-budget-mb N] [--workers N] [--llm-config FILE] [--offline]\n"
    "  Serves the Model Context Protocol over stdin/stdout (newline-delimited JSON-RPC 2.0);\n"
    "  logs go to stderr. Embedded by default: traces load into this process and are stored\n"
    "  under --data-dir (default: a temporary directory removed on exit; give one to keep\n"
    "  trace ids valid across restarts). --services uses a trace-query and a skill-engine\n"
    "  service instead (HOST:PORT each). analyze / ask use the LLM agent when a model is\n"
    "  configured (--llm-config, TRACEWISE_LLM_*), else (or with --offline) the offline analyst;\n"
    "  with --orchestrator (and --services for the trace tools) they run on that deployment.\n";

struct McpArgs {
  mcp::TracewiseServerConfig config;
  int workers = 4;
};

bool Parse(const Args& args, McpArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = args[++i];
      return true;
    };
    std::string v;
    if (a == "--data-dir") {
      if (!value(out.config.data_dir)) return false;
    } else if (a == "--skills") {
      if (!value(out.config.skills_dir)) return false;
    } else if (a == "--strategies") {
      if (!value(out.config.strategies_dir)) return false;
    } else if (a == "--services") {
      if (!value(v)) return false;
      for (absl::string_view part : absl::StrSplit(v, ',', absl::SkipEmpty())) {
        out.config.services.emplace_back(part);
      }
      if (out.config.services.size() < 2 || out.config.services.size() > 3) return false;
    } else if (a == "--orchestrator") {
      if (!value(out.config.orchestrator)) return false;
    } else if (a == "--llm-config") {
      if (!value(out.config.llm_config)) return false;
    } else if (a == "--offline") {
      out.config.offline = true;
    } else if (a == "--memory-budget-mb") {
      int64_t mb = 0;
      if (!value(v) || !absl::SimpleAtoi(v, &mb) || mb <= 0) return false;
      out.config.memory_budget_bytes = mb << 20;
    } else if (a == "--workers") {
      if (!value(v) || !absl::SimpleAtoi(v, &out.workers) || out.workers < 1 || out.workers > 64) {
        return false;
      }
    } else {
      std::fprintf(stderr, "tracewise mcp: unknown argument %s\n", a.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int RunMcp(const Args& args) {
  McpArgs a;
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kUsage, stderr);
    return 0;
  }
  if (!Parse(args, a)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  // The protocol's stdout, kept aside; anything else written to fd 1 lands on stderr.
  const int protocol_out = dup(STDOUT_FILENO);
  if (protocol_out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("tracewise mcp: dup");
    return 1;
  }
  signal(SIGPIPE, SIG_IGN);  // a client that goes away is seen as a failed write

  std::string temp_dir;
  if (a.config.data_dir.empty() && a.config.services.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "tracewise-mcp-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      std::perror("tracewise mcp: mkdtemp");
      return 1;
    }
    a.config.data_dir = temp_dir = pattern;
  }
  int code = 1;
  {
    auto server = mcp::TracewiseServer::Create(a.config);
    if (!server.ok()) {
      std::fprintf(stderr, "tracewise mcp: %s\n", std::string(server.status().message()).c_str());
    } else {
      std::fprintf(stderr, "tracewise mcp: serving %zu tools and %zu resources on stdio; %s\n",
                   (*server)->tools().size(), (*server)->resources().size(),
                   (*server)->workspace().Describe().c_str());
      std::fprintf(stderr, "tracewise mcp: %s\n", (*server)->turns().Describe().c_str());
      mcp::McpServerOptions options;
      options.worker_threads = a.workers;
      code = mcp::ServeStdio((*server)->identity(), &(*server)->tools(), &(*server)->resources(),
                             options, STDIN_FILENO, protocol_out);
    }
  }
  if (!temp_dir.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(temp_dir, ec);
  }
  return code;
}

}  // namespace tw::cli

// tracewise: the command line face of Tracewise. Subcommands live in cmd_*.cc.

#include <cstdio>
#include <cstring>
#include <string>

#include "libs/rpc/channel_security.h"
#include "tools/tracewise/commands.h"

namespace {

void PrintUsage() {
  std::fprintf(stderr,
               "usage: tracewise <command> [args]\n"
               "\n"
               "commands:\n"
               "  analyze TRACE [\"question\"] [--format md|json]   diagnose a trace (analyze --help)\n"
               "  chat TRACE [--mode quick|full|auto]         ask questions in a terminal session\n"
               "  strategy validate|classify ...              check strategies / classify a question\n"
               "  query TRACE SQL [--format csv|table|json]   run SQL over a trace\n"
               "  schema [NAME]                               the SQL tables, views, functions and\n"
               "                                              what their columns mean\n"
               "  info TRACE                                  describe a trace and its import\n"
               "  bench [--encoding=plain|compact|both] ...   import benchmark (bench --help)\n"
               "  synth-sched OUT [--cpus --seconds ...]      write a synthetic scheduling trace\n"
               "  tracegen SCENARIO -o OUT | --list           synthetic Android trace + ground truth\n"
               "  skill list|describe|run|validate ...        analysis skills (skill --help)\n"
               "  llm ping [\"prompt\"]                          check the configured LLM provider\n"
               "  mcp [--data-dir DIR] [--services ...]       MCP server on stdio (mcp --help)\n"

               "  auth issue|list|check|token ...             API keys and tokens (auth --help)\n"
               "  serve [--port 8080]                         run the services + web app locally\n"
               "  eval [SUITE.yaml] [--ci] [--format json]    the diagnosis benchmark (eval --help)\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    PrintUsage();
    return argc < 2 ? 2 : 0;
  }
  // Remote modes (--services) reach the services with TRACEWISE_TOKEN and TRACEWISE_TLS_*.
  if (absl::Status s = tw::rpc::SetClientSecurityFromEnv(); !s.ok()) {
    std::fprintf(stderr, "tracewise: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  const std::string command = argv[1];
  tw::cli::Args args(argv + 2, argv + argc);
  if (command == "analyze") return tw::cli::RunAnalyze(args);
  if (command == "strategy") return tw::cli::RunStrategy(args);
  if (command == "query") return tw::cli::RunQuery(args);
  if (command == "schema") return tw::cli::RunSchema(args);
  if (command == "info") return tw::cli::RunInfo(args);
  if (command == "bench") return tw::cli::RunBench(args);
  if (command == "synth-sched") return tw::cli::RunSynthSched(args);
  if (command == "tracegen") return tw::cli::RunTracegen(args);
  if (command == "skill") return tw::cli::RunSkillCommand(args);
  if (command == "llm") return tw::cli::RunLlm(args);
  if (command == "chat") return tw::cli::RunChat(args);
  if (command == "mcp") return tw::cli::RunMcp(args);
  if (command == "auth") return tw::cli::RunAuth(args);
  if (command == "serve") return tw::cli::RunServe(args);
  if (command == "eval") return tw::cli::RunEval(args);
  std::fprintf(stderr, "tracewise: unknown command '%s'\n\n", command.c_str());
  PrintUsage();
  return 2;
}

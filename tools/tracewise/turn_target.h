#pragma once
// Where `analyze` and `chat` run their turns — the CLI's side of DESIGN.md §1's wiring choice:
//   in process (default): the trace is loaded here, skills and the verifier run here;
//   --services TQ,SE[,V]: the trace is uploaded to trace-query, skills run on the skill-engine;
//   --orchestrator HOST:PORT: a client of a deployment through one address — the trace goes up
//     through the orchestrator, which runs the turn (its LLM or its offline analyst).
// The first two build backends with libs/backends and run the one turn runner here; the third
// asks the orchestrator, which runs the same runner there.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/agent/turn_runner.h"
#include "libs/backends/backend_factory.h"
#include "libs/llm/llm_config.h"
#include "libs/rpc/orchestrator_client.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "tools/tracewise/agent_console.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {

struct TargetFlags {
  std::vector<std::string> services;  // trace-query, skill-engine[, verifier]
  std::string orchestrator;           // HOST:PORT
  std::string skills_dir;
  std::string strategies_dir;
  std::string llm_config;
  bool offline = false;
};

// Consumes args[i] (and its value) when it is one of --services, --orchestrator, --skills,
// --strategies, --llm-config, --offline. False when it is not; `error` set when it is but is wrong.
bool ParseTargetFlag(const Args& args, size_t& i, TargetFlags& flags, std::string* error);
// Usage lines for those flags.
extern const char kTargetUsage[];

// Turns in process or through the services: the libraries, the backends factory, the runner.
class LocalTurns {
 public:
  // `run_now` answers client tools in this process (chat's add_annotation); may be empty.
  static absl::StatusOr<std::unique_ptr<LocalTurns>> Create(
      const TargetFlags& flags,
      std::function<std::optional<agent::ClientToolAnswer>(const agent::ClientToolRequest&)> run_now = {});

  // Loads (or uploads) a trace file; returns the id turns name it by.
  absl::StatusOr<std::string> AddTrace(const std::string& path);
  // Runs one turn; its report names the traces by their files.
  agent::TurnResult Run(const agent::TurnSpec& spec, const std::string& trace_id,
                        const std::string& reference_id, agent::AgentSession& session,
                        const ConsoleOptions& console);
  void Forget(const std::string& trace_id) { factory_->Forget(trace_id); }

  const llm::LlmConfig& llm() const { return llm_; }
  bool has_llm() const { return factory_->has_llm(); }
  const strategy::StrategyLibrary& strategies() const { return *strategies_; }

 private:
  LocalTurns() = default;
  skills::SkillLibrary library_;
  std::unique_ptr<strategy::StrategyLibrary> strategies_;
  llm::LlmConfig llm_;
  std::unique_ptr<backends::BackendFactory> factory_;
  std::unique_ptr<agent::TurnRunner> runner_;
  std::map<std::string, std::string> names_;  // trace id → the file the user gave
};

// Turns on a remote orchestrator, in one session.
class RemoteTurns {
 public:
  explicit RemoteTurns(const std::string& orchestrator) : address_(orchestrator), client_(orchestrator) {}
  absl::StatusOr<std::string> AddTrace(const std::string& path);
  // Opens the session on the first call. Events print as they stream; client-tool requests go to
  // `client_tool` (its answer is submitted; none = the request is left to time out).
  absl::StatusOr<agent::AnalysisReport> Ask(
      const std::string& trace_id, const rpc::RemoteQuestion& question, const ConsoleOptions& console,
      const std::function<std::optional<agent::ClientToolAnswer>(const agent::ClientToolRequest&)>&
          client_tool = {});
 private:
  std::string address_;
  rpc::OrchestratorClient client_;
  std::string session_;
  std::string session_trace_;
  std::map<std::string, std::string> names_;
};

}  // namespace tw::cli

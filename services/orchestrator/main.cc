// tracewise-orchestrator: serves tracewise.v1.Orchestrator (see README.md).
//
//   tracewise-orchestrator --trace-query SPEC --skill-engine HOST:PORT [--verifier HOST:PORT]
//                          [--listen HOST:PORT] [--data-dir DIR] [--strategies DIR] [--skills DIR]
//                          [--llm-config FILE] [--client-tool-timeout-s SECONDS]
//
// SPEC names the trace-query replicas: HOST:PORT, HOST:PORT,HOST:PORT,... or dns:///NAME:PORT
// (each trace goes to its owner by rendezvous hashing, libs/rpc/trace_query_router.h).
// Sessions persist in DIR/sessions.db. Without --verifier, analyses are verified in process.
// The LLM comes from TRACEWISE_LLM_* (or --llm-config FILE, see libs/llm/llm_config.h); with
// none configured, every question is answered by the offline analyst. A client-side tool request
// unanswered for --client-tool-timeout-s (default 120) times out into a tool error the model reads.

#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/numbers.h"
#include "libs/backends/llm_wiring.h"
#include "libs/llm/llm_config.h"
#include "libs/rpc/replica_target.h"
#include "libs/rpc/server_runner.h"
#include "libs/rpc/service_security.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "services/orchestrator/orchestrator_service.h"

namespace {
constexpr char kUsage[] =
    "usage: tracewise-orchestrator --trace-query HOST:PORT[,HOST:PORT...]|dns:///NAME:PORT\n"
    "                              --skill-engine HOST:PORT [--verifier HOST:PORT]\n"
    "                              [--listen HOST:PORT] [--data-dir DIR] [--strategies DIR]\n"
    "                              [--skills DIR] [--llm-config FILE] [--client-tool-timeout-s S]\n"
    "                              [--sessions sqlite:PATH|postgres://USER:PASS@HOST:PORT/DB]\n"
    "                              [--turn-lease-ms N]\n"
    "  Sessions and questions (tracewise.v1.Orchestrator). Sessions persist in --sessions,\n"
    "  by default sqlite:DIR/sessions.db. Replicas share a PostgreSQL one: any replica serves\n"
    "  any session, and a turn whose replica dies is ended (interrupted) by another once its\n"
    "  lease (--turn-lease-ms, default 15000) lapses. A client-side tool request unanswered for\n"
    "  --client-tool-timeout-s (default 120) becomes a tool error the model reads.\n";
}  // namespace

int main(int argc, char** argv) {
  using tw::rpc::FlagValue;
  tw::rpc::CheckFlags(argc, argv, kUsage + std::string(tw::rpc::kSecurityUsage),
                      tw::rpc::WithSecurityFlags(
                          {"--listen", "--trace-query", "--skill-engine", "--verifier", "--data-dir",
                           "--strategies", "--skills", "--llm-config", "--sessions", "--turn-lease-ms",
                           "--client-tool-timeout-s"}));
  tw::rpc::ServerOptions server;
  if (auto v = FlagValue(argc, argv, "--listen"); !v.empty()) server.listen = v;
  tw::services::OrchestratorOptions options;
  options.trace_query = FlagValue(argc, argv, "--trace-query");
  options.skill_engine = FlagValue(argc, argv, "--skill-engine");
  options.verifier = FlagValue(argc, argv, "--verifier");
  options.strategies_dir = FlagValue(argc, argv, "--strategies");
  if (options.strategies_dir.empty()) options.strategies_dir = tw::strategy::DefaultStrategiesDir();
  options.skills_dir = FlagValue(argc, argv, "--skills");
  if (options.skills_dir.empty()) options.skills_dir = tw::skills::DefaultSkillsDir();
  std::string data_dir = FlagValue(argc, argv, "--data-dir");
  if (data_dir.empty()) data_dir = "tracewise-data";
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  options.sessions_db = data_dir + "/sessions.db";
  if (const std::string sessions = FlagValue(argc, argv, "--sessions"); !sessions.empty()) {
    if (sessions.rfind("sqlite:", 0) == 0 && sessions.size() > 7) {
      options.sessions_db = sessions.substr(7);
    } else if (sessions.rfind("postgres://", 0) == 0 || sessions.rfind("postgresql://", 0) == 0) {
      options.sessions_url = sessions;
    } else {
      std::fprintf(stderr,
                   "tracewise-orchestrator: --sessions: expected sqlite:PATH or postgres://..., "
                   "not '%s'\n", sessions.c_str());
      return 2;
    }
  }
  if (const std::string lease = FlagValue(argc, argv, "--turn-lease-ms"); !lease.empty()) {
    options.turn_lease_ms = std::atoll(lease.c_str());
    if (options.turn_lease_ms < 100) {
      std::fprintf(stderr, "tracewise-orchestrator: --turn-lease-ms must be at least 100\n");
      return 2;
    }
  }
  if (options.trace_query.empty() || options.skill_engine.empty()) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  if (auto target = tw::rpc::ParseReplicaTarget(options.trace_query); !target.ok()) {
    std::fprintf(stderr, "tracewise-orchestrator: --trace-query: %s\n",
                 std::string(target.status().message()).c_str());
    return 2;
  }
  auto llm = tw::llm::LoadLlmConfig(FlagValue(argc, argv, "--llm-config"));
  if (!llm.ok()) {
    std::fprintf(stderr, "tracewise-orchestrator: LLM configuration: %s\n",
                 std::string(llm.status().message()).c_str());
    return 2;
  }
  options.loop = tw::backends::LoopOptionsFor(*llm);
  if (llm->configured()) {
    const tw::llm::LlmConfig config = *llm;
    std::fprintf(stderr, "tracewise-orchestrator: LLM %s\n", config.Describe().c_str());
    options.make_llm = tw::backends::ProviderMaker(config);
    if (config.prices.Find(config.model)) {
      options.micro_usd_of = [config](const tw::llm::Usage& u) { return tw::backends::MicroUsd(config, u); };
    }
  } else {
    std::fprintf(stderr, "tracewise-orchestrator: no LLM configured; the offline analyst answers\n");
  }
  if (auto v = FlagValue(argc, argv, "--client-tool-timeout-s"); !v.empty()) {
    double seconds = 0;
    if (!absl::SimpleAtod(v, &seconds) || seconds <= 0) {
      std::fprintf(stderr, "tracewise-orchestrator: --client-tool-timeout-s must be a positive number\n");
      return 2;
    }
    options.loop.client_tools.timeout_ms = static_cast<int64_t>(seconds * 1000);
  }
  // Security (issue #16): tokens, per-tenant quotas and the audit log from --auth-config; TLS
  // for this server and (with --tls-ca) mTLS on its own calls to the other services.
  auto security = tw::rpc::LoadServiceSecurity(argc, argv);
  if (!security.ok()) {
    std::fprintf(stderr, "tracewise-orchestrator: %s\n", std::string(security.status().message()).c_str());
    return 2;
  }
  std::fprintf(stderr, "tracewise-orchestrator: %s\n", tw::rpc::DescribeSecurity(*security).c_str());
  server.tls = security->tls;
  server.auth_enabled = security->auth->enabled();
  server.health_listen = security->health_listen;
  options.auth = security->auth;
  options.quotas = security->quotas;
  options.audit = security->audit;
  auto service = tw::services::OrchestratorService::Create(std::move(options));
  if (!service.ok()) {
    std::fprintf(stderr, "tracewise-orchestrator: %s\n",
                 std::string(service.status().message()).c_str());
    return 1;
  }
  return tw::rpc::RunServer("tracewise-orchestrator", server, {service->get()});
}

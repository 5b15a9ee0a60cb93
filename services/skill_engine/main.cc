// tracewise-skill-engine: serves tracewise.v1.SkillEngine (see README.md).
//
//   tracewise-skill-engine [--listen HOST:PORT] [--skills DIR]
//                          (--trace-query SPEC | --data-dir DIR [--memory-budget-mb N])
//
// With --trace-query (HOST:PORT, a list HOST:PORT,HOST:PORT,... or dns:///NAME:PORT), traces are
// queried through the trace-query replicas, each trace on its owner (libs/rpc/trace_query_router);
// otherwise they are
// loaded in this process from the trace store in --data-dir (the same directory layout
// trace-query uses).

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "libs/rpc/trace_query_router.h"
#include "libs/rpc/server_runner.h"
#include "libs/rpc/service_security.h"
#include "libs/skills/skill_library.h"
#include "libs/trace/store/trace_manager.h"
#include "libs/trace/store/trace_store.h"
#include "services/skill_engine/skill_engine_service.h"

namespace {
constexpr char kUsage[] =
    "usage: tracewise-skill-engine [--listen HOST:PORT] [--skills DIR]\n"
    "                              (--trace-query HOST:PORT[,HOST:PORT...]|dns:///NAME:PORT\n"
    "                               | --data-dir DIR [--memory-budget-mb N])\n"
    "  Runs the YAML skills of DIR (tracewise.v1.SkillEngine) against traces held by the\n"
    "  trace-query replicas, or loaded in this process from the trace store in --data-dir.\n";
}  // namespace

int main(int argc, char** argv) {
  using tw::rpc::FlagValue;
  tw::rpc::CheckFlags(argc, argv, kUsage + std::string(tw::rpc::kSecurityUsage),
                      tw::rpc::WithSecurityFlags(
                          {"--listen", "--skills", "--trace-query", "--data-dir", "--memory-budget-mb"}));
  tw::rpc::ServerOptions server;
  if (auto v = FlagValue(argc, argv, "--listen"); !v.empty()) server.listen = v;
  tw::services::SkillEngineOptions options;
  options.skills_dir = FlagValue(argc, argv, "--skills");
  if (options.skills_dir.empty()) options.skills_dir = tw::skills::DefaultSkillsDir();
  const std::string trace_query = FlagValue(argc, argv, "--trace-query");
  std::string data_dir = FlagValue(argc, argv, "--data-dir");
  if (data_dir.empty()) data_dir = "tracewise-data/traces";
  const std::string budget = FlagValue(argc, argv, "--memory-budget-mb");
  const int64_t budget_mb = budget.empty() ? 4096 : std::atoll(budget.c_str());
  if (budget_mb <= 0) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  auto security = tw::rpc::LoadServiceSecurity(argc, argv);
  if (!security.ok()) {
    std::fprintf(stderr, "tracewise-skill-engine: %s\n", std::string(security.status().message()).c_str());
    return 2;
  }
  std::fprintf(stderr, "tracewise-skill-engine: %s\n", tw::rpc::DescribeSecurity(*security).c_str());
  server.tls = security->tls;
  server.auth_enabled = security->auth->enabled();
  server.health_listen = security->health_listen;
  options.auth = security->auth;

  std::unique_ptr<tw::QueryBackend> backend;
  std::unique_ptr<tw::TraceStore> store;
  std::unique_ptr<tw::TraceManager> manager;
  if (!trace_query.empty()) {
    auto router = tw::rpc::TraceQueryRouter::Create(trace_query);
    if (!router.ok()) {
      std::fprintf(stderr, "tracewise-skill-engine: --trace-query: %s\n",
                   std::string(router.status().message()).c_str());
      return 2;
    }
    backend = std::move(*router);
  } else {
    auto opened = tw::TraceStore::Open(data_dir, int64_t{2048} << 20);
    if (!opened.ok()) {
      std::fprintf(stderr, "tracewise-skill-engine: %s\n",
                   std::string(opened.status().message()).c_str());
      return 1;
    }
    store = std::move(*opened);
    manager = std::make_unique<tw::TraceManager>(store.get(), tw::TraceManagerOptions{budget_mb << 20});
    backend = std::make_unique<tw::LocalQueryBackend>(manager.get());
    options.check_trace = [s = store.get()](const tw::auth::Identity& caller,
                                            const std::string& trace_id) -> absl::Status {
      auto stored = s->Find(trace_id);
      if (stored.ok() && caller.SeesTenant(stored->tenant)) return absl::OkStatus();
      if (!stored.ok() && stored.status().code() == absl::StatusCode::kInvalidArgument) return stored.status();
      return absl::NotFoundError("unknown trace '" + trace_id + "'");
    };
  }
  tw::services::SkillEngineService service(options, backend.get());
  std::fprintf(stderr, "tracewise-skill-engine: %zu skills from %s\n", service.library().size(),
               options.skills_dir.c_str());
  return tw::rpc::RunServer("tracewise-skill-engine", server, {&service});
}

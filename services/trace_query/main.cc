// tracewise-trace-query: serves tracewise.v1.TraceQuery (see README.md).

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "libs/common/container_memory.h"
#include "libs/common/process_memory.h"
#include "libs/rpc/server_runner.h"
#include "libs/rpc/service_security.h"
#include "libs/trace/store/trace_manager.h"
#include "libs/trace/store/trace_store.h"
#include "services/trace_query/trace_query_service.h"

namespace {
constexpr char kUsage[] =
    "usage: tracewise-trace-query [--listen HOST:PORT] [--data-dir DIR] [--memory-budget-mb N]\n"
    "                             [--max-upload-mb N]\n"
    "  Holds traces and answers read-only SQL about them (tracewise.v1.TraceQuery).\n"
    "  --data-dir DIR        the trace store; replicas may share it (a ReadWriteMany volume)\n"
    "  --memory-budget-mb N  the whole process's memory budget; default: 75% of the container's\n"
    "                        memory limit (cgroup v2 memory.max or v1), else 4096\n"
    "  --max-upload-mb N     the largest trace accepted (default 2048)\n";
constexpr int64_t kDefaultBudgetMb = 4096;
}  // namespace

int main(int argc, char** argv) {
  using tw::rpc::FlagValue;
  tw::rpc::CheckFlags(argc, argv, kUsage + std::string(tw::rpc::kSecurityUsage),
                      tw::rpc::WithSecurityFlags(
                          {"--listen", "--data-dir", "--memory-budget-mb", "--max-upload-mb"}));
  tw::rpc::ServerOptions server;
  if (auto v = FlagValue(argc, argv, "--listen"); !v.empty()) server.listen = v;
  std::string data_dir = FlagValue(argc, argv, "--data-dir");
  if (data_dir.empty()) data_dir = "tracewise-data/traces";
  const std::string budget = FlagValue(argc, argv, "--memory-budget-mb");
  const std::string upload = FlagValue(argc, argv, "--max-upload-mb");
  int64_t budget_bytes = budget.empty() ? 0 : std::atoll(budget.c_str()) << 20;
  const int64_t upload_mb = upload.empty() ? 2048 : std::atoll(upload.c_str());
  if ((!budget.empty() && budget_bytes <= 0) || upload_mb <= 0) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  if (budget.empty()) {
    // In a container the limit is what kills us: stay well under it by default.
    if (auto limit = tw::ContainerMemoryLimitBytes()) {
      budget_bytes = tw::BudgetFromLimit(*limit);
      std::fprintf(stderr, "tracewise-trace-query: memory budget %lld MB (75%% of the container's limit of %lld MB)\n",
                   static_cast<long long>(budget_bytes >> 20), static_cast<long long>(*limit >> 20));
    } else {
      budget_bytes = kDefaultBudgetMb << 20;
    }
  }
  // Every query thread would otherwise get an allocator arena of its own, each keeping freed
  // memory: a few arenas bound that slack at little cost in contention.
  mallopt(M_ARENA_MAX, 4);
  auto store = tw::TraceStore::Open(data_dir, upload_mb << 20);
  if (!store.ok()) {
    std::fprintf(stderr, "tracewise-trace-query: %s\n", std::string(store.status().message()).c_str());
    return 1;
  }
  auto security = tw::rpc::LoadServiceSecurity(argc, argv);
  if (!security.ok()) {
    std::fprintf(stderr, "tracewise-trace-query: %s\n", std::string(security.status().message()).c_str());
    return 2;
  }
  std::fprintf(stderr, "tracewise-trace-query: %s\n", tw::rpc::DescribeSecurity(*security).c_str());
  server.tls = security->tls;
  server.auth_enabled = security->auth->enabled();
  server.health_listen = security->health_listen;
  tw::TraceManagerOptions manager_options;
  manager_options.memory_budget_bytes = budget_bytes;
  manager_options.process_resident_bytes = [] { return tw::CurrentRssBytes(); };  // the whole process
  tw::TraceManager manager(store->get(), manager_options);
  tw::services::TraceQueryServiceOptions options;
  options.auth = security->auth;
  options.quotas = security->quotas;
  options.audit = security->audit;
  tw::services::TraceQueryService service(&manager, options);
  return tw::rpc::RunServer("tracewise-trace-query", server, {&service});
}

// tracewise-trace-query: serves tracewise.v1.TraceQuery (see README.md).

#include <cstdio>
#include <cstdlib>
#include <string>

#include "libs/rpc/server_runner.h"
#include "libs/trace/store/trace_manager.h"
#include "libs/trace/store/trace_store.h"
#include "services/trace_query/trace_query_service.h"

int main(int argc, char** argv) {
  using tw::rpc::FlagValue;
  tw::rpc::ServerOptions server;
  if (auto v = FlagValue(argc, argv, "--listen"); !v.empty()) server.listen = v;
  std::string data_dir = FlagValue(argc, argv, "--data-dir");
  if (data_dir.empty()) data_dir = "tracewise-data/traces";
  const std::string budget = FlagValue(argc, argv, "--memory-budget-mb");
  const std::string upload = FlagValue(argc, argv, "--max-upload-mb");
  const int64_t budget_mb = budget.empty() ? 4096 : std::atoll(budget.c_str());
  const int64_t upload_mb = upload.empty() ? 2048 : std::atoll(upload.c_str());
  if (budget_mb <= 0 || upload_mb <= 0) {
    std::fprintf(stderr,
                 "usage: tracewise-trace-query [--listen HOST:PORT] [--data-dir DIR] "
                 "[--memory-budget-mb N] [--max-upload-mb N]\n");
    return 2;
  }
  auto store = tw::TraceStore::Open(data_dir, upload_mb << 20);
  if (!store.ok()) {
    std::fprintf(stderr, "tracewise-trace-query: %s\n", std::string(store.status().message()).c_str());
    return 1;
  }
  tw::TraceManager manager(store->get(), {budget_mb << 20});
  tw::services::TraceQueryService service(&manager);
  return tw::rpc::RunServer("tracewise-trace-query", server, {&service});
}

#include "services/orchestrator/trace_backends.h"

#include "libs/rpc/grpc_skill_runner.h"

namespace tw::services {
namespace {

// Stands in for a router whose spec did not parse, so the error reaches the caller.
class FailingBackend : public QueryBackend {
 public:
  explicit FailingBackend(absl::Status status) : status_(std::move(status)) {}
  absl::StatusOr<QueryResult> Query(const BackendQuery&) override { return status_; }
  absl::StatusOr<std::vector<TableColumns>> GetSchema(const std::string&) override { return status_; }

 private:
  absl::Status status_;
};

std::unique_ptr<QueryBackend> Connect(const std::string& spec) {
  auto router = rpc::TraceQueryRouter::Create(spec);
  if (!router.ok()) return std::make_unique<FailingBackend>(router.status());
  return std::move(*router);
}

}  // namespace

TraceBackendFactory::TraceBackendFactory(std::string trace_query, std::string skill_engine)
    : skill_engine_(std::move(skill_engine)), query_(Connect(trace_query)) {}

TraceBackends TraceBackendFactory::ForTrace(const std::string& trace_id,
                                            const std::atomic<bool>* cancelled) {
  TraceBackends b;
  b.sql = std::make_unique<skills::BackendQueryRunner>(query_.get(), trace_id, absl::Seconds(60),
                                                       cancelled);
  b.skills = std::make_unique<rpc::GrpcSkillRunner>(skill_engine_, trace_id);
  b.schema = std::make_unique<agent::BackendSchemaProvider>(query_.get(), trace_id);
  return b;
}

absl::Status TraceBackendFactory::CheckTrace(const std::string& trace_id) {
  BackendQuery q;
  q.trace_id = trace_id;
  q.sql = "SELECT 1";
  q.timeout = absl::Seconds(30);
  return query_->Query(q).status();
}

absl::StatusOr<std::string> TraceBackendFactory::ContextFor(const std::string& trace_id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = contexts_.find(trace_id);
    if (it != contexts_.end()) return it->second;
  }
  skills::BackendQueryRunner sql(query_.get(), trace_id, absl::Seconds(60));
  auto context = agent::ProbeTraceContext(sql);
  if (!context.ok()) return context.status();
  const std::string text = context->Describe();
  std::lock_guard<std::mutex> lock(mu_);
  contexts_[trace_id] = text;
  return text;
}

}  // namespace tw::services

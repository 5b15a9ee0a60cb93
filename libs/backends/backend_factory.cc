#include "libs/backends/backend_factory.h"

#include "absl/strings/str_cat.h"
#include "libs/agent/context_probes.h"
#include "libs/agent/schema_provider.h"
#include "libs/rpc/trace_query_router.h"
#include "libs/rpc/grpc_skill_runner.h"
#include "libs/rpc/grpc_verifier_client.h"
#include "libs/skills/backend_runner.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/trace_loader.h"

namespace tw::backends {

absl::StatusOr<std::unique_ptr<BackendFactory>> BackendFactory::Create(BackendFactoryOptions options) {
  if (!options.services.trace_query.empty() && options.services.skill_engine.empty()) {
    return absl::InvalidArgumentError("through the services, turns need a skill-engine address too");
  }
  if (options.services.trace_query.empty() && options.skills == nullptr) {
    return absl::InvalidArgumentError("in process, turns need a skill library");
  }
  std::unique_ptr<BackendFactory> factory(new BackendFactory(std::move(options)));
  if (factory->remote()) {
    auto router = rpc::ConnectTraceQuery(factory->options_.services.trace_query);
    if (!router.ok()) return router.status();
    factory->query_ = std::move(*router);
  }
  return factory;
}

BackendFactory::BackendFactory(BackendFactoryOptions options) : options_(std::move(options)) {}

BackendFactory::~BackendFactory() = default;

absl::StatusOr<std::string> BackendFactory::AddTraceFile(const std::string& path) {
  if (remote()) {
    auto uploaded = query_->UploadFile(path);
    if (!uploaded.ok()) {
      return absl::Status(uploaded.status().code(),
                          absl::StrCat("upload of ", path, " to trace-query at ", options_.services.trace_query,
                                       " failed: ", uploaded.status().message()));
    }
    return uploaded->trace_id;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (loaded_.count(path)) return path;
  }
  auto trace = LoadTraceFile(path);
  if (!trace.ok()) {
    return absl::Status(trace.status().code(),
                        absl::StrCat("cannot load ", path, ": ", trace.status().message()));
  }
  std::lock_guard<std::mutex> lock(mu_);
  loaded_[path] = std::shared_ptr<LoadedTrace>(std::move(*trace));
  return path;
}

absl::Status BackendFactory::CheckTrace(const std::string& trace_id) {
  if (!remote()) {
    std::lock_guard<std::mutex> lock(mu_);
    if (loaded_.count(trace_id)) return absl::OkStatus();
    return absl::NotFoundError(absl::StrCat("trace '", trace_id, "' is not loaded"));
  }
  BackendQuery q;
  q.trace_id = trace_id;
  q.sql = "SELECT 1";
  q.timeout = absl::Seconds(30);
  return query_->Query(q).status();
}

absl::StatusOr<agent::TraceBackends> BackendFactory::ForTrace(const std::string& trace_id,
                                                              const std::atomic<bool>* cancelled) {
  agent::TraceBackends b;
  b.trace_id = trace_id;
  if (remote()) {
    b.sql = std::make_unique<skills::BackendQueryRunner>(query_.get(), trace_id,
                                                         options_.query_timeout, cancelled);
    b.skills = std::make_unique<rpc::GrpcSkillRunner>(options_.services.skill_engine, trace_id);
    b.schema = std::make_unique<agent::BackendSchemaProvider>(query_.get(), trace_id);
    b.keep_alive = query_;
  } else {
    std::shared_ptr<LoadedTrace> trace;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = loaded_.find(trace_id);
      if (it == loaded_.end()) {
        return absl::NotFoundError(absl::StrCat("trace '", trace_id, "' is not loaded"));
      }
      trace = it->second;
    }
    b.sql = std::make_unique<skills::TraceDatabaseRunner>(&trace->db(), options_.query_timeout, cancelled);
    b.skills = std::make_unique<agent::LocalSkillRunner>(*options_.skills, *b.sql);
    b.schema = std::make_unique<agent::LocalSchemaProvider>(&trace->db());
    b.keep_alive = trace;
  }
  return b;
}

std::string BackendFactory::ContextFor(const std::string& trace_id, skills::SkillQueryRunner& sql) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = contexts_.find(trace_id);
    if (it != contexts_.end()) return it->second;
  }
  auto context = agent::ProbeTraceContext(sql);
  if (!context.ok()) return "";  // not cached: the next turn probes again
  const std::string text = context->Describe();
  std::lock_guard<std::mutex> lock(mu_);
  contexts_[trace_id] = text;
  return text;
}

absl::StatusOr<agent::TurnBackends> BackendFactory::ForTurn(const std::string& trace_id,
                                                            const TurnWiring& wiring) {
  const std::string& reference_id = wiring.reference_id;
  agent::TurnBackends turn;
  auto trace = ForTrace(trace_id, wiring.cancelled);
  if (!trace.ok()) return trace.status();
  turn.trace = std::move(*trace);
  if (!reference_id.empty()) {
    auto reference = ForTrace(reference_id, wiring.cancelled);
    if (!reference.ok()) {
      return absl::Status(reference.status().code(),
                          absl::StrCat("reference trace ", reference_id, ": ", reference.status().message()));
    }
    turn.reference = std::move(*reference);
  }
  if (!wiring.offline && options_.make_llm) turn.llm = options_.make_llm();
  // Only a model reads the context probes; the offline analyst runs its own.
  if (turn.llm && wiring.probe_context) turn.trace.context = ContextFor(trace_id, *turn.trace.sql);
  if (options_.services.verifier.empty()) {
    turn.verifier = std::make_unique<verify::LocalVerifierClient>();
  } else {
    turn.verifier = std::make_unique<rpc::GrpcVerifierClient>(options_.services.verifier);
  }
  return turn;
}

void BackendFactory::Forget(const std::string& trace_id) {
  std::lock_guard<std::mutex> lock(mu_);
  contexts_.erase(trace_id);
  loaded_.erase(trace_id);
}

}  // namespace tw::backends

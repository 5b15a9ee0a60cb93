#pragma once
// The factory of a turn's backends (agent::TurnBackends), in process or from service addresses
// — the one place that wiring choice is made (see README.md).

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/agent/turn_runner.h"
#include "libs/llm/llm_provider.h"
#include "libs/skills/skill_library.h"

namespace tw {
class LoadedTrace;
}

namespace tw::rpc {
class TraceQueryRouter;
}

namespace tw::backends {

// Where each service is; an empty trace_query means everything runs in process.
struct ServiceAddresses {
  // trace-query's replicas: HOST:PORT, a list A,B,C or dns:///NAME:PORT (the trace-query router
  // sends each trace to its owner, libs/rpc/trace_query_router.h).
  std::string trace_query;
  std::string skill_engine;
  std::string verifier;  // empty: verify in process
};

struct BackendFactoryOptions {
  ServiceAddresses services;
  // In process: the skills turns run (must outlive the factory). Required then.
  const skills::SkillLibrary* skills = nullptr;
  // The LLM provider of one turn (providers need not be thread-safe, so one per turn); empty or
  // returning null: no model, the offline analyst answers.
  std::function<std::shared_ptr<llm::LlmProvider>()> make_llm;
  absl::Duration query_timeout = absl::Seconds(60);
};

class BackendFactory {
 public:
  // INVALID_ARGUMENT: remote without a skill-engine address or with a malformed trace-query
  // spec, or in process without skills.
  static absl::StatusOr<std::unique_ptr<BackendFactory>> Create(BackendFactoryOptions options);
  ~BackendFactory();

  bool remote() const { return !options_.services.trace_query.empty(); }

  // A local trace file made available to turns: in process it is loaded (its id is the path);
  // remotely it is streamed to trace-query (its id is the content checksum).
  absl::StatusOr<std::string> AddTraceFile(const std::string& path);
  // NOT_FOUND when no trace of that id is available.
  absl::Status CheckTrace(const std::string& trace_id);
  struct TurnWiring {
    std::string reference_id;  // a comparison's reference trace; empty = none
    const std::atomic<bool>* cancelled = nullptr;  // polled by the query runners
    bool offline = false;       // no model even when one is configured
    bool probe_context = true;  // a resumed turn has its context probes in its continuation
  };
  // A fresh bundle for one turn on `trace_id`.
  absl::StatusOr<agent::TurnBackends> ForTurn(const std::string& trace_id, const TurnWiring& wiring);
  // Drops what is cached about a trace: its context probes, and in process the loaded trace
  // (bundles still using it keep it alive).
  void Forget(const std::string& trace_id);
  // Whether turns get a model.
  bool has_llm() const { return static_cast<bool>(options_.make_llm); }
  // Remote: the router to trace-query's replicas (e.g. for streamed uploads); null in process.
  rpc::TraceQueryRouter* router() const { return query_.get(); }

 private:
  explicit BackendFactory(BackendFactoryOptions options);
  absl::StatusOr<agent::TraceBackends> ForTrace(const std::string& trace_id,
                                                const std::atomic<bool>* cancelled);
  // Context probes are computed once per trace (the trace does not change).
  std::string ContextFor(const std::string& trace_id, skills::SkillQueryRunner& sql);

  BackendFactoryOptions options_;
  std::shared_ptr<rpc::TraceQueryRouter> query_;  // remote: one router for every turn
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<LoadedTrace>> loaded_;  // in process, by path
  std::map<std::string, std::string> contexts_;
};

}  // namespace tw::backends

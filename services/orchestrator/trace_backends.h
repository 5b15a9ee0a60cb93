#pragma once
// What a turn needs to reach one trace through the other services: SQL via trace-query, skills
// via skill-engine, the schema for lookup_sql_schema, and the trace's context probes (computed
// once per trace and cached, since the trace does not change).

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "libs/agent/context_probes.h"
#include "libs/agent/schema_provider.h"
#include "libs/agent/skill_runner.h"
#include "libs/rpc/trace_query_router.h"
#include "libs/skills/backend_runner.h"

namespace tw::services {

struct TraceBackends {
  std::unique_ptr<skills::BackendQueryRunner> sql;
  std::unique_ptr<agent::SkillRunner> skills;
  std::unique_ptr<agent::SchemaProvider> schema;
};

class TraceBackendFactory {
 public:
  // `trace_query`: one replica, a list or a dns:/// target (libs/rpc/trace_query_router.h).
  // A malformed spec is reported by CheckTrace and every query.
  TraceBackendFactory(std::string trace_query, std::string skill_engine);

  // Fresh per turn (runners keep per-turn state such as a cancel flag); cheap.
  TraceBackends ForTrace(const std::string& trace_id, const std::atomic<bool>* cancelled);
  // Cached per trace; probes run on first use. Errors (e.g. NOT_FOUND) are not cached.
  absl::StatusOr<std::string> ContextFor(const std::string& trace_id);
  // NOT_FOUND when trace-query does not know the trace.
  absl::Status CheckTrace(const std::string& trace_id);

 private:
  std::string skill_engine_;
  std::unique_ptr<QueryBackend> query_;  // the router: one channel per replica, shared by every turn
  std::mutex mu_;
  std::map<std::string, std::string> contexts_;
};

}  // namespace tw::services

#pragma once
// A SkillQueryRunner over the engine's QueryBackend seam (libs/trace/store/query_backend.h):
// the same skills then run against a trace held in this process (LocalQueryBackend) or by a
// trace-query service (libs/rpc's gRPC backend). Parameters travel as BackendQuery::params and
// are bound by whoever executes the SQL.

#include <atomic>
#include <map>
#include <string>

#include "absl/time/time.h"
#include "libs/skills/skill_executor.h"
#include "libs/trace/store/query_backend.h"

namespace tw::skills {

class BackendQueryRunner : public SkillQueryRunner {
 public:
  BackendQueryRunner(QueryBackend* backend, std::string trace_id,
                     absl::Duration timeout = absl::Seconds(60),
                     const std::atomic<bool>* cancelled = nullptr)
      : backend_(backend), trace_id_(std::move(trace_id)), timeout_(timeout), cancelled_(cancelled) {}

  absl::StatusOr<QueryResult> Query(std::string_view sql, const BoundParams& params,
                                    int64_t max_rows) override;
  // Asks the engine behind the backend (which may be another process): a module exists when
  // `INCLUDE PERFETTO MODULE` of it succeeds. Answers are remembered per runner.
  bool HasModule(std::string_view name) override;

 private:
  QueryBackend* backend_;
  std::string trace_id_;
  absl::Duration timeout_;
  const std::atomic<bool>* cancelled_;
  std::map<std::string, bool, std::less<>> modules_;
};

}  // namespace tw::skills

#pragma once
// A SkillQueryRunner over an in-process TraceDatabase (the CLI's local mode, tests, and the
// in-process QueryBackend). Parameters are bound by TraceDatabase (QueryOptions::params), never
// spliced; every query gets the runner's timeout and cancellation flag.

#include <atomic>

#include "absl/time/time.h"
#include "libs/skills/skill_executor.h"
#include "libs/trace/query/trace_database.h"

namespace tw::skills {

class TraceDatabaseRunner : public SkillQueryRunner {
 public:
  explicit TraceDatabaseRunner(TraceDatabase* db, absl::Duration timeout = absl::Seconds(60),
                               const std::atomic<bool>* cancelled = nullptr)
      : db_(db), timeout_(timeout), cancelled_(cancelled) {}
  absl::StatusOr<QueryResult> Query(std::string_view sql, const BoundParams& params,
                                    int64_t max_rows) override;
  bool HasModule(std::string_view name) override;

 private:
  TraceDatabase* db_;
  absl::Duration timeout_;
  const std::atomic<bool>* cancelled_;
};

}  // namespace tw::skills

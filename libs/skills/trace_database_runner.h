#pragma once
// A SkillQueryRunner over an in-process TraceDatabase (the CLI's local mode and tests).
//
// Parameters are bound with sqlite3_bind_* on the statement that uses them. Every statement but
// the last runs through TraceDatabase::Execute (INCLUDE, CREATE PERFETTO ..., macros); the last
// one, when it has parameters, is prepared on the database's connection directly so they can be
// bound: the read-only authorizer still applies (it is installed on the connection), but macros
// are not expanded in it. Not thread-safe: one runner per thread.

#include "libs/skills/skill_executor.h"
#include "libs/trace/query/trace_database.h"

namespace tw::skills {

class TraceDatabaseRunner : public SkillQueryRunner {
 public:
  explicit TraceDatabaseRunner(TraceDatabase* db) : db_(db) {}
  absl::StatusOr<QueryResult> Query(std::string_view sql, const BoundParams& params,
                                    int64_t max_rows) override;
  bool HasModule(std::string_view name) override;

 private:
  TraceDatabase* db_;
};

}  // namespace tw::skills

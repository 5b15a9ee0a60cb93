#include "libs/skills/backend_runner.h"

#include "absl/strings/str_cat.h"

namespace tw::skills {

absl::StatusOr<QueryResult> BackendQueryRunner::Query(std::string_view sql,
                                                      const BoundParams& params,
                                                      int64_t max_rows) {
  BackendQuery q;
  q.trace_id = trace_id_;
  q.sql = std::string(sql);
  q.params = params;
  q.max_rows = max_rows;
  q.timeout = timeout_;
  q.cancelled = cancelled_;
  return backend_->Query(q);
}

bool BackendQueryRunner::HasModule(std::string_view name) {
  if (auto it = modules_.find(name); it != modules_.end()) return it->second;
  // Module names are identifiers with dots (they come from skill files, never from inputs).
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  }
  auto r = Query(absl::StrCat("INCLUDE PERFETTO MODULE ", std::string(name), ";"), {}, 1);
  // INVALID_ARGUMENT is the engine saying "unknown module"; any other failure (an unknown trace,
  // a deadline) is not an answer, and the skill's own queries will report it.
  if (!r.ok() && r.status().code() != absl::StatusCode::kInvalidArgument) return true;
  modules_.emplace(std::string(name), r.ok());
  return r.ok();
}

}  // namespace tw::skills

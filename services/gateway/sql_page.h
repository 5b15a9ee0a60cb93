#pragma once
// One page of a read-only SQL result through TraceQuery.Query: the query runs with a row cap of
// offset + limit + 1, the first `offset` rows are skipped as they stream by, and the call is
// cancelled once the page (and one row to know there is more) has arrived. Any SQL works,
// including several statements and INCLUDE PERFETTO MODULE; each page re-runs the query.

#include <nlohmann/json.hpp>
#include <string>

#include "services/gateway/gateway_context.h"

namespace tw::gateway {

struct SqlPageRequest {
  std::string trace_id;
  std::string sql;
  nlohmann::json params = nlohmann::json::object();  // {name: scalar}, bound as :name
  int64_t offset = 0;
  int64_t limit = 500;
  int64_t timeout_ms = 0;  // 0: the gateway's query deadline
};

// {columns: [{name, type}], rows, offset, limit, next_offset (null at the end), elapsed_ns}.
absl::StatusOr<nlohmann::json> QueryPage(GatewayContext& ctx, const Caller& caller,
                                         const SqlPageRequest& request);

}  // namespace tw::gateway

// POST /api/traces/{id}/query — read-only SQL, paged (sql_page.h).

#include <chrono>

#include "absl/strings/str_cat.h"
#include "services/gateway/json_convert.h"
#include "services/gateway/sql_page.h"

namespace tw::gateway {

absl::StatusOr<nlohmann::json> QueryPage(GatewayContext& ctx, const Caller& caller,
                                         const SqlPageRequest& r) {
  if (r.sql.empty()) return absl::InvalidArgumentError("sql is empty");
  if (r.offset < 0) return absl::InvalidArgumentError("offset must be >= 0");
  if (r.limit <= 0 || r.limit > ctx.options.max_query_rows) {
    return absl::InvalidArgumentError(
        absl::StrCat("limit must be between 1 and ", ctx.options.max_query_rows));
  }
  pb::QueryRequest request;
  request.set_trace_id(r.trace_id);
  request.set_sql(r.sql);
  if (!r.params.is_object())
    return absl::InvalidArgumentError("params must be an object {name: value}");
  for (const auto& [name, value] : r.params.items()) {
    auto v = ValueFromJson(value);
    if (!v.ok())
      return absl::InvalidArgumentError(absl::StrCat("params.", name, ": ", v.status().message()));
    pb::Parameter* p = request.add_parameters();
    p->set_name(name);
    *p->mutable_value() = *v;
  }
  request.set_max_rows(r.offset + r.limit + 1);
  const int64_t timeout = r.timeout_ms > 0 ? std::min(r.timeout_ms, ctx.options.query_timeout_ms)
                                           : ctx.options.query_timeout_ms;
  request.set_timeout_ms(timeout);
  const auto start = std::chrono::steady_clock::now();
  nlohmann::json columns = nlohmann::json::array();
  nlohmann::json rows = nlohmann::json::array();
  int64_t seen = 0;
  bool more = false;
  bool truncated = false;
  // The page is only sent once complete, so a replica that fails mid-stream is simply retried
  // on the next one (the router's failover) with the page started afresh.
  const absl::Status status = ctx.trace_query->CallWithFailover(
      r.trace_id, [&](const std::string&, const std::shared_ptr<grpc::Channel>& channel, bool*) {
        columns = nlohmann::json::array();
        rows = nlohmann::json::array();
        seen = 0;
        more = false;
        truncated = false;
        auto stub = pb::TraceQuery::NewStub(channel);
        auto call = ctx.NewCall(caller, timeout + 1000);
        auto reader = stub->Query(call.get(), request);
        pb::QueryResponse response;
        while (!more && reader->Read(&response)) {
          for (const auto& c : response.columns()) {
            columns.push_back({{"name", c.name()}, {"type", ColumnTypeName(c.type())}});
          }
          for (const auto& row : response.rows()) {
            if (seen++ < r.offset) continue;
            if (static_cast<int64_t>(rows.size()) == r.limit) {
              more = true;
              break;
            }
            nlohmann::json cells = nlohmann::json::array();
            for (const auto& v : row.values()) cells.push_back(ValueJson(v));
            rows.push_back(std::move(cells));
          }
          if (response.done()) truncated = response.truncated();
        }
        if (more) call->TryCancel();
        const grpc::Status finished = reader->Finish();
        return more ? absl::OkStatus() : FromGrpc(finished);
      });
  if (!status.ok()) return status;
  // The server's own row cap (not ours) cut the result: say so rather than pretend it ended.
  const bool server_cut = truncated && seen < r.offset + r.limit + 1;
  return nlohmann::json{
      {"columns", std::move(columns)},
      {"rows", std::move(rows)},
      {"offset", r.offset},
      {"limit", r.limit},
      {"next_offset", more ? nlohmann::json(r.offset + r.limit) : nlohmann::json(nullptr)},
      {"truncated", server_cut},
      {"elapsed_ns", std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count()}};
}

void RegisterQueryRoutes(httplib::Server& server, GatewayContext& ctx) {
  server.Post(R"(/api/traces/([^/]+)/query)",
              JsonApi(ctx, [&ctx](const httplib::Request& req, httplib::Response& res,
                                  const Caller& caller, const nlohmann::json& body) {
                SqlPageRequest r;
                r.trace_id = req.matches[1];
                if (!body.contains("sql") || !body["sql"].is_string()) {
                  SendError(res, absl::InvalidArgumentError("sql (a string) is required"));
                  return;
                }
                r.sql = body["sql"].get<std::string>();
                if (body.contains("params")) r.params = body["params"];
                try {
                  r.offset = body.value("offset", int64_t{0});
                  r.limit = body.value("limit", int64_t{500});
                  r.timeout_ms = body.value("timeout_ms", int64_t{0});
                } catch (const nlohmann::json::exception&) {
                  SendError(res, absl::InvalidArgumentError(
                                     "offset, limit and timeout_ms must be integers"));
                  return;
                }
                auto page = QueryPage(ctx, caller, r);
                if (!page.ok()) {
                  SendError(res, page.status());
                  return;
                }
                SendJson(res, 200, *page);
              }));
}

}  // namespace tw::gateway

#pragma once
// What the route files share: the options, the gRPC stubs of the services, the authenticator,
// and the helpers that turn statuses and bodies into HTTP. Private to services/gateway (it
// includes grpc++ and httplib; gateway_server.h, the public face, includes neither).

#include <grpcpp/grpcpp.h>
#include <httplib.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/status/status.h"
#include "libs/rpc/trace_query_router.h"
#include "services/gateway/caller.h"
#include "services/gateway/gateway_options.h"
#include "tracewise/v1/orchestrator.grpc.pb.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw::gateway {

namespace pb = tracewise::v1;

struct GatewayContext {
  GatewayOptions options;
  // trace-query through the router (libs/rpc): one replica or many (`a,b,c`, `dns:///...`),
  // each trace on its rendezvous owner, failing over when a replica is down.
  std::unique_ptr<rpc::TraceQueryRouter> trace_query;
  std::unique_ptr<pb::SkillEngine::Stub> skill_engine;
  std::unique_ptr<pb::Orchestrator::Stub> orchestrator;
  Authenticator authenticate = AllowAnonymous();

  // A downstream call with its deadline. This is where the caller's identity will be attached
  // as call metadata once the services check it (issue #16).
  std::unique_ptr<grpc::ClientContext> NewCall(const Caller& caller, int64_t timeout_ms) const;
};

absl::Status FromGrpc(const grpc::Status& status);
// A downstream RESOURCE_EXHAUSTED keeps the service's `retry-after` (sent on as Retry-After).
absl::Status WithRetryAfter(const grpc::ClientContext& context, absl::Status status);

// One unary call with its deadline: `call` issues it on the context given, e.g.
// `Unary(ctx, caller, ms, [&](auto* c) { return ctx.orchestrator->GetSession(c, request, &out);
// })`.
absl::Status Unary(const GatewayContext& ctx, const Caller& caller, int64_t timeout_ms,
                   const std::function<grpc::Status(grpc::ClientContext*)>& call);
void SendJson(httplib::Response& res, int http_status, const nlohmann::json& body);
void SendError(httplib::Response& res, const absl::Status& status);
// RESOURCE_EXHAUSTED of a request body over a limit is 413, not 429.
void SendTooLarge(httplib::Response& res, const std::string& message);

using ApiHandler = std::function<void(const httplib::Request&, httplib::Response&, const Caller&)>;
using JsonHandler = std::function<void(const httplib::Request&, httplib::Response&, const Caller&,
                                       const nlohmann::json& body)>;

// Wraps a handler: authenticates the caller, answers errors and exceptions as JSON errors.
httplib::Server::Handler Api(GatewayContext& ctx, ApiHandler handler);
// For requests with a JSON body: reads it through the content reader within
// options.max_request_bytes (413 past it), parses it (400 when it is not JSON).
httplib::Server::HandlerWithContentReader JsonApi(GatewayContext& ctx, JsonHandler handler);

// The request's Content-Length, or -1 when it has none (or not a number).
int64_t ContentLength(const httplib::Request& req);

// Reads a request body of at most `limit` bytes. Past the limit the rest is read and dropped
// (so the connection stays in step) and RESOURCE_EXHAUSTED is returned.
absl::StatusOr<std::string> ReadBody(const httplib::Request& req,
                                     const httplib::ContentReader& reader, int64_t limit);

void RegisterTraceRoutes(httplib::Server& server, GatewayContext& ctx);
void RegisterQueryRoutes(httplib::Server& server, GatewayContext& ctx);
void RegisterSkillRoutes(httplib::Server& server, GatewayContext& ctx);
void RegisterSessionRoutes(httplib::Server& server, GatewayContext& ctx);
void RegisterReportRoutes(httplib::Server& server, GatewayContext& ctx);

}  // namespace tw::gateway

// Sessions and turns: POST/GET /api/sessions, GET/DELETE /api/sessions/{id},
// POST /api/sessions/{id}/turns (ask, SSE), GET /api/sessions/{id}/events (resume, SSE),
// POST /api/sessions/{id}/cancel, POST /api/sessions/{id}/tool-results.

#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "services/gateway/json_convert.h"
#include "services/gateway/sse_stream.h"

namespace tw::gateway {
namespace {

// The seq to resume after: Last-Event-ID (what EventSource sends on reconnect) or ?after=N.
absl::StatusOr<int64_t> ResumePoint(const httplib::Request& req) {
  std::string text = req.get_header_value("Last-Event-ID");
  if (text.empty()) text = req.get_param_value("after");
  if (text.empty()) return 0;
  int64_t seq = 0;
  if (!absl::SimpleAtoi(text, &seq) || seq < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Last-Event-ID / after must be a non-negative event sequence number, not '", text, "'"));
  }
  return seq;
}

}  // namespace

void RegisterSessionRoutes(httplib::Server& server, GatewayContext& ctx) {
  server.Post(
      "/api/sessions", JsonApi(ctx, [&ctx](const httplib::Request&, httplib::Response& res,
                                           const Caller& caller, const nlohmann::json& body) {
        pb::CreateSessionRequest request;
        const auto trace = body.find("trace_id");
        if (trace == body.end() || !trace->is_string()) {
          return SendError(res, absl::InvalidArgumentError("trace_id (a string) is required"));
        }
        request.set_trace_id(trace->get<std::string>());
        if (body.contains("title") && body["title"].is_string()) {
          request.set_title(body["title"].get<std::string>());
        }
        pb::Session session;
        if (absl::Status s = Unary(ctx, caller, ctx.options.query_timeout_ms,
                                   [&](grpc::ClientContext* c) {
                                     return ctx.orchestrator->CreateSession(c, request, &session);
                                   });
            !s.ok()) {
          return SendError(res, s);
        }
        SendJson(res, 201, SessionJson(session));
      }));
  server.Get(
      "/api/sessions",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        pb::ListSessionsRequest request;
        if (req.has_param("limit")) {
          int limit = 0;
          if (!absl::SimpleAtoi(req.get_param_value("limit"), &limit) || limit < 0) {
            return SendError(res,
                             absl::InvalidArgumentError("limit must be a non-negative integer"));
          }
          request.set_limit(limit);
        }
        pb::ListSessionsResponse response;
        if (absl::Status s = Unary(ctx, caller, ctx.options.unary_timeout_ms,
                                   [&](grpc::ClientContext* c) {
                                     return ctx.orchestrator->ListSessions(c, request, &response);
                                   });
            !s.ok()) {
          return SendError(res, s);
        }
        nlohmann::json sessions = nlohmann::json::array();
        for (const auto& s : response.sessions()) sessions.push_back(SessionJson(s));
        SendJson(res, 200, {{"sessions", std::move(sessions)}});
      }));
  server.Get(
      R"(/api/sessions/([^/]+))",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        pb::GetSessionRequest request;
        request.set_session_id(req.matches[1]);
        pb::Session session;
        if (absl::Status s = Unary(ctx, caller, ctx.options.unary_timeout_ms,
                                   [&](grpc::ClientContext* c) {
                                     return ctx.orchestrator->GetSession(c, request, &session);
                                   });
            !s.ok()) {
          return SendError(res, s);
        }
        SendJson(res, 200, SessionJson(session));
      }));
  server.Delete(
      R"(/api/sessions/([^/]+))",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        pb::DeleteSessionRequest request;
        request.set_session_id(req.matches[1]);
        pb::DeleteSessionResponse response;
        if (absl::Status s = Unary(ctx, caller, ctx.options.unary_timeout_ms,
                                   [&](grpc::ClientContext* c) {
                                     return ctx.orchestrator->DeleteSession(c, request, &response);
                                   });
            !s.ok()) {
          return SendError(res, s);
        }
        res.status = 204;
      }));
  server.Post(
      R"(/api/sessions/([^/]+)/turns)",
      JsonApi(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller,
                          const nlohmann::json& body) {
        pb::AskRequest request;
        request.set_session_id(req.matches[1]);
        const auto question = body.find("question");
        if (question == body.end() || !question->is_string()) {
          return SendError(res, absl::InvalidArgumentError("question (a string) is required"));
        }
        request.set_question(question->get<std::string>());
        if (const auto trace = body.find("trace_id"); trace != body.end() && !trace->is_null()) {
          if (!trace->is_string()) {
            return SendError(res, absl::InvalidArgumentError("trace_id must be a string"));
          }
          request.set_trace_id(trace->get<std::string>());
        }
        if (absl::Status s = AskOptionsFromJson(body.value("options", nlohmann::json()),
                                                request.mutable_options());
            !s.ok()) {
          return SendError(res, s);
        }
        auto call = std::make_shared<EventCall>();
        call->context = ctx.NewCall(caller, ctx.options.stream_timeout_ms);
        call->reader = ctx.orchestrator->Ask(call->context.get(), request);
        RelayEventStream(call, res, ctx.options.sse_heartbeat_ms);
      }));
  server.Get(
      R"(/api/sessions/([^/]+)/events)",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        auto after = ResumePoint(req);
        if (!after.ok()) return SendError(res, after.status());
        pb::ResumeRequest request;
        request.set_session_id(req.matches[1]);
        request.set_from_seq(*after);
        auto call = std::make_shared<EventCall>();
        call->context = ctx.NewCall(caller, ctx.options.stream_timeout_ms);
        call->reader = ctx.orchestrator->Resume(call->context.get(), request);
        RelayEventStream(call, res, ctx.options.sse_heartbeat_ms);
      }));
  server.Post(R"(/api/sessions/([^/]+)/cancel)",
              JsonApi(ctx, [&ctx](const httplib::Request& req, httplib::Response& res,
                                  const Caller& caller, const nlohmann::json&) {
                pb::CancelTurnRequest request;
                request.set_session_id(req.matches[1]);
                pb::CancelTurnResponse response;
                if (absl::Status s = Unary(ctx, caller, ctx.options.unary_timeout_ms,
                                           [&](grpc::ClientContext* c) {
                                             return ctx.orchestrator->CancelTurn(c, request,
                                                                                 &response);
                                           });
                    !s.ok()) {
                  return SendError(res, s);
                }
                SendJson(res, 200, {{"turn", response.turn()}, {"cancelled", true}});
              }));
  server.Post(R"(/api/sessions/([^/]+)/tool-results)",
              JsonApi(ctx, [&ctx](const httplib::Request& req, httplib::Response& res,
                                  const Caller& caller, const nlohmann::json& body) {
                pb::SubmitToolResultRequest request;
                request.set_session_id(req.matches[1]);
                if (absl::Status s = ToolResultFromJson(body, &request); !s.ok()) {
                  return SendError(res, s);
                }
                pb::SubmitToolResultResponse response;
                if (absl::Status s = Unary(ctx, caller, ctx.options.unary_timeout_ms,
                                           [&](grpc::ClientContext* c) {
                                             return ctx.orchestrator->SubmitToolResult(c, request,
                                                                                       &response);
                                           });
                    !s.ok()) {
                  return SendError(res, s);
                }
                SendJson(res, 200,
                         {{"turn", response.turn()},
                          {"pending", response.pending()},
                          {"resumed", response.resumed()}});
              }));
}

}  // namespace tw::gateway

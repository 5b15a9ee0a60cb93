#include "services/gateway/gateway_context.h"

#include <chrono>
#include <exception>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/auth/quotas.h"
#include "libs/rpc/channel_security.h"
#include "services/gateway/http_errors.h"

namespace tw::gateway {

std::unique_ptr<grpc::ClientContext> GatewayContext::NewCall(const Caller& caller,
                                                             int64_t timeout_ms) const {
  auto call = std::make_unique<grpc::ClientContext>();
  call->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(timeout_ms));
  if (!caller.bearer_token.empty()) call->AddMetadata("authorization", caller.Authorization());
  return call;
}

absl::Status FromGrpc(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  // Both use the canonical code numbers.
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
}

absl::Status Unary(const GatewayContext& ctx, const Caller& caller, int64_t timeout_ms,
                   const std::function<grpc::Status(grpc::ClientContext*)>& call) {
  auto context = ctx.NewCall(caller, timeout_ms);
  return WithRetryAfter(*context, FromGrpc(call(context.get())));
}

absl::Status WithRetryAfter(const grpc::ClientContext& context, absl::Status status) {
  if (status.code() != absl::StatusCode::kResourceExhausted) return status;
  const auto& trailers = context.GetServerTrailingMetadata();
  auto it = trailers.find("retry-after");
  int64_t seconds = 0;
  if (it == trailers.end() ||
      !absl::SimpleAtoi(absl::string_view(it->second.data(), it->second.size()), &seconds)) {
    return status;
  }
  return auth::QuotaExceeded(std::string(status.message()), seconds);
}

void SendJson(httplib::Response& res, int http_status, const nlohmann::json& body) {
  res.status = http_status;
  res.set_header("Cache-Control", "no-store");
  // "; charset=utf-8" also keeps httplib from brotli-compressing every response at its highest
  // quality (it matches exact content types), which costs far more than it saves on loopback.
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                  "application/json; charset=utf-8");
}

void SendError(httplib::Response& res, const absl::Status& status) {
  const int http = HttpStatusFor(status.code());
  res.status = http;
  if (auto retry = auth::RetryAfterSeconds(status)) res.set_header("Retry-After", absl::StrCat(*retry));
  if (http == 401) res.set_header("WWW-Authenticate", "Bearer");
  res.set_header("Cache-Control", "no-store");
  res.set_content(ErrorJson(status.code(), std::string(status.message()), http),
                  "application/json; charset=utf-8");
}

void SendTooLarge(httplib::Response& res, const std::string& message) {
  res.status = 413;
  res.set_content(ErrorJson(absl::StatusCode::kResourceExhausted, message, 413),
                  "application/json; charset=utf-8");
}

namespace {

bool Authenticate(GatewayContext& ctx, const httplib::Request& req, httplib::Response& res,
                  Caller* caller) {
  auto who = ctx.authenticate(req.get_header_value("Authorization"));
  if (!who.ok()) {
    SendError(res, who.status());
    return false;
  }
  *caller = *who;
  return true;
}

template <typename F>
void Guarded(httplib::Response& res, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    SendError(res, absl::InternalError(absl::StrCat("gateway: ", e.what())));
  }
}

}  // namespace

httplib::Server::Handler Api(GatewayContext& ctx, ApiHandler handler) {
  return [&ctx, handler = std::move(handler)](const httplib::Request& req, httplib::Response& res) {
    Guarded(res, [&] {
      Caller caller;
      if (!Authenticate(ctx, req, res, &caller)) return;
      rpc::ScopedCallAuthorization as_caller(caller.Authorization());
      handler(req, res, caller);
    });
  };
}

int64_t ContentLength(const httplib::Request& req) {
  int64_t n = -1;
  if (!req.has_header("Content-Length") ||
      !absl::SimpleAtoi(req.get_header_value("Content-Length"), &n)) {
    return -1;
  }
  return n;
}

absl::StatusOr<std::string> ReadBody(const httplib::Request& req,
                                     const httplib::ContentReader& reader, int64_t limit) {
  std::string body;
  bool over = false;
  int64_t seen = 0;
  const bool complete = reader([&](const char* data, size_t n) {
    seen += static_cast<int64_t>(n);
    if (seen > limit) {
      over = true;
      body.clear();
      body.shrink_to_fit();
      return true;  // keep reading, dropping the rest
    }
    body.append(data, n);
    return true;
  });
  if (over || (!complete && ContentLength(req) > limit)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the request body is over the gateway's limit of ", limit, " bytes"));
  }
  if (!complete) return absl::InvalidArgumentError("the request body could not be read");
  return body;
}

httplib::Server::HandlerWithContentReader JsonApi(GatewayContext& ctx, JsonHandler handler) {
  return [&ctx, handler = std::move(handler)](const httplib::Request& req, httplib::Response& res,
                                              const httplib::ContentReader& reader) {
    Guarded(res, [&] {
      auto body = ReadBody(req, reader, ctx.options.max_request_bytes);
      Caller caller;
      if (!Authenticate(ctx, req, res, &caller)) return;
      rpc::ScopedCallAuthorization as_caller(caller.Authorization());
      if (!body.ok()) {
        if (body.status().code() == absl::StatusCode::kResourceExhausted) {
          SendTooLarge(res, std::string(body.status().message()));
        } else {
          SendError(res, body.status());
        }
        return;
      }
      nlohmann::json json = nlohmann::json::object();
      if (!body->empty()) {
        json = nlohmann::json::parse(*body, nullptr, false);
        if (json.is_discarded() || !json.is_object()) {
          SendError(res, absl::InvalidArgumentError("the request body must be a JSON object"));
          return;
        }
      }
      handler(req, res, caller, json);
    });
  };
}

}  // namespace tw::gateway

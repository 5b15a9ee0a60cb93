#include "services/gateway/gateway_server.h"

#include "absl/strings/str_cat.h"
#include "libs/rpc/channel_security.h"
#include "services/gateway/gateway_context.h"
#include "services/gateway/http_errors.h"
#include "services/gateway/static_files.h"

namespace tw::gateway {

struct GatewayServer::Impl {
  GatewayContext ctx;
  StaticFiles web;
  std::unique_ptr<httplib::Server> server;  // an SSLServer with HTTPS on
  int port = 0;
};

namespace {

std::shared_ptr<grpc::Channel> Channel(const std::string& target) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  return rpc::MakeChannel(target, args);  // mTLS when the gateway is configured for it
}

bool IsContentReaderRoute(const httplib::Request& req) {
  return req.method == "POST" && req.path.rfind("/api/", 0) == 0;
}

// CORS only for configured origins: the API is same-origin by default.
void ApplyCors(const GatewayOptions& options, const httplib::Request& req, httplib::Response& res) {
  const std::string origin = req.get_header_value("Origin");
  if (origin.empty()) return;
  for (const std::string& allowed : options.cors_origins) {
    if (allowed == origin || allowed == "*") {
      res.set_header("Access-Control-Allow-Origin", origin);
      res.set_header("Vary", "Origin");
      res.set_header("Access-Control-Expose-Headers", "Content-Disposition");
      return;
    }
  }
}

}  // namespace

GatewayServer::GatewayServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GatewayServer::~GatewayServer() { Stop(); }

absl::StatusOr<std::unique_ptr<GatewayServer>> GatewayServer::Create(GatewayOptions options,
                                                                     Authenticator authenticate) {
  if (options.trace_query.empty() || options.skill_engine.empty() || options.orchestrator.empty()) {
    return absl::InvalidArgumentError(
        "the gateway needs --trace-query, --skill-engine and --orchestrator");
  }
  auto impl = std::make_unique<Impl>();
  if (!options.tls_cert.empty() && !options.tls_key.empty()) {
    auto https = std::make_unique<httplib::SSLServer>(options.tls_cert.c_str(), options.tls_key.c_str());
    if (!https->is_valid()) {
      return absl::InvalidArgumentError(absl::StrCat("cannot serve HTTPS with ", options.tls_cert,
                                                     " and ", options.tls_key));
    }
    impl->server = std::move(https);
  } else {
    impl->server = std::make_unique<httplib::Server>();
  }
  GatewayContext& ctx = impl->ctx;
  ctx.options = std::move(options);
  ctx.authenticate = std::move(authenticate);
  auto router = rpc::TraceQueryRouter::Create(ctx.options.trace_query);
  if (!router.ok()) return router.status();
  ctx.trace_query = std::move(*router);
  ctx.skill_engine = pb::SkillEngine::NewStub(Channel(ctx.options.skill_engine));
  ctx.orchestrator = pb::Orchestrator::NewStub(Channel(ctx.options.orchestrator));
  const GatewayOptions& o = ctx.options;
  httplib::Server& server = *impl->server;

  const size_t threads = static_cast<size_t>(std::max(4, o.http_threads));
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // Headers and body go out as separate writes: without TCP_NODELAY, Nagle holds the second
  // behind the client's delayed ACK and every kept-alive request waits ~40 ms.
  server.set_tcp_nodelay(true);
  // httplib reads (and drops) a body over this before a handler sees it; the upload route has
  // the largest limit, every other route checks its own.
  server.set_payload_max_length(
      static_cast<size_t>(std::max(o.max_upload_bytes, o.max_request_bytes)));
  server.set_read_timeout(std::chrono::seconds(60));
  server.set_write_timeout(std::chrono::seconds(60));
  server.set_keep_alive_timeout(30);
  server.set_default_headers({
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"Content-Security-Policy",
       "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
       "object-src 'none'; frame-ancestors 'none'; base-uri 'none'"},
  });

  server.set_pre_routing_handler([&ctx](const httplib::Request& req, httplib::Response& res) {
    ApplyCors(ctx.options, req, res);
    if (req.method == "OPTIONS") {
      if (res.has_header("Access-Control-Allow-Origin")) {
        res.set_header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
        res.set_header(
            "Access-Control-Allow-Headers",
            "Authorization, Content-Type, Last-Event-ID, X-Content-SHA256, X-Trace-Name");
        res.set_header("Access-Control-Max-Age", "600");
        res.status = 204;
      } else {
        res.status = 403;
        res.set_content(ErrorJson(absl::StatusCode::kPermissionDenied,
                                  "cross-origin requests are not allowed from this origin", 403),
                        "application/json; charset=utf-8");
      }
      return httplib::Server::HandlerResponse::Handled;
    }
    // Bodies are read by routes with a limit (POST /api/...); anything else may not carry a
    // large one (httplib would read it whole into memory).
    if (!IsContentReaderRoute(req)) {
      const bool chunked =
          req.get_header_value("Transfer-Encoding").find("chunked") != std::string::npos;
      if (chunked || ContentLength(req) > ctx.options.max_request_bytes) {
        res.status = 413;
        res.set_header("Connection", "close");
        res.set_content(ErrorJson(absl::StatusCode::kResourceExhausted,
                                  "this request may not carry a body that large", 413),
                        "application/json; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty() || res.content_length_ > 0)
          return httplib::Server::HandlerResponse::Unhandled;
        const absl::StatusCode code = res.status == 404   ? absl::StatusCode::kNotFound
                                      : res.status == 413 ? absl::StatusCode::kResourceExhausted
                                      : res.status == 400 ? absl::StatusCode::kInvalidArgument
                                                          : absl::StatusCode::kUnknown;
        const std::string message =
            res.status == 404   ? absl::StrCat("no such resource: ", req.method, " ", req.path)
            : res.status == 413 ? "the request body is over the gateway's limit"
                                : absl::StrCat("HTTP ", res.status);
        res.set_content(ErrorJson(code, message, res.status), "application/json; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
      }));

  server.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok\n", "text/plain");
  });
  server.Get("/api/config",
             Api(ctx, [&ctx](const httplib::Request&, httplib::Response& res, const Caller&) {
               SendJson(
                   res, 200,
                   {{"max_upload_bytes", ctx.options.max_upload_bytes},
                    {"max_request_bytes", ctx.options.max_request_bytes},
                    {"max_query_rows", ctx.options.max_query_rows},
                    {"client_tools",
                     {"select_slice", "select_time_range", "add_annotation", "capture_view"}}});
             }));
  RegisterTraceRoutes(server, ctx);
  RegisterQueryRoutes(server, ctx);
  RegisterSkillRoutes(server, ctx);
  RegisterSessionRoutes(server, ctx);
  RegisterReportRoutes(server, ctx);

  if (!o.web_dir.empty()) {
    auto files = StaticFiles::Load(o.web_dir);
    if (!files.ok()) return files.status();
    impl->web = std::move(*files);
    server.Get(R"(/(?!api/).*)", [&web = impl->web](const httplib::Request& req,
                                                    httplib::Response& res) {
      if (!web.Serve(req, res)) {
        res.status = 404;
        res.set_content(ErrorJson(absl::StatusCode::kNotFound, "no such file: " + req.path, 404),
                        "application/json; charset=utf-8");
      }
    });
  }

  const int port = o.listen_port == 0
                       ? server.bind_to_any_port(o.listen_host)
                       : (server.bind_to_port(o.listen_host, o.listen_port) ? o.listen_port : -1);
  if (port <= 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", o.listen_host, ":", o.listen_port));
  }
  impl->port = port;
  return std::unique_ptr<GatewayServer>(new GatewayServer(std::move(impl)));
}

int GatewayServer::port() const { return impl_->port; }

bool GatewayServer::Run() { return impl_->server->listen_after_bind(); }

void GatewayServer::Stop() {
  if (impl_ && impl_->server && impl_->server->is_running()) impl_->server->stop();
}

}  // namespace tw::gateway

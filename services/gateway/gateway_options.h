#pragma once
// What the gateway is configured with (flags of tracewise-gateway, `tracewise serve`). Plain
// data: no gRPC or HTTP headers here.

#include <cstdint>
#include <string>
#include <vector>

namespace tw::gateway {

struct GatewayOptions {
  std::string listen_host = "127.0.0.1";
  int listen_port = 8080;    // 0 picks a free port
  std::string trace_query;   // HOST:PORT
  std::string skill_engine;  // HOST:PORT
  std::string orchestrator;  // HOST:PORT
  // The built web app (index.html, app.js, app.css); empty = API only.
  std::string web_dir;
  // Strategies folder, for the strategy digests in exported reports; empty = not reported.
  std::string strategies_dir;

  int64_t max_upload_bytes = int64_t{2048} << 20;
  // Every other request body (JSON); tool results carry a PNG, hence a few MB.
  int64_t max_request_bytes = int64_t{16} << 20;
  // Rows one SQL page may return.
  int64_t max_query_rows = 200000;

  // Deadlines of the calls the gateway makes, in milliseconds.
  int64_t unary_timeout_ms = 30'000;
  int64_t query_timeout_ms = 60'000;
  int64_t skill_timeout_ms = 300'000;
  int64_t upload_timeout_ms = 60 * 60'000;
  int64_t stream_timeout_ms = 4 * 60 * 60'000;
  // An SSE comment is sent this often while a stream is idle (keeps proxies from closing it,
  // and finds clients that went away while no event came).
  int64_t sse_heartbeat_ms = 15'000;

  // Origins allowed to call the API from another origin; empty = no CORS headers at all.
  std::vector<std::string> cors_origins;
  int http_threads = 32;

  // Security (issue #16). HTTPS with this certificate and key when both are set; the same
  // certificate is presented to the services (mTLS) and tls_ca verifies them.
  std::string tls_cert;
  std::string tls_key;
  std::string tls_ca;
  // The auth config (libs/auth); empty = every caller is anonymous.
  std::string auth_config;
  std::string audit_log;
};

}  // namespace tw::gateway

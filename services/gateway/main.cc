// tracewise-gateway: the web app and the HTTP/JSON + SSE API over the gRPC services (README.md).
//
//   tracewise-gateway --trace-query HOST:PORT --skill-engine HOST:PORT --orchestrator HOST:PORT
//                     [--listen HOST:PORT] [--web-dir DIR] [--max-upload-mb N]
//                     [--max-request-kb N] [--cors-origin ORIGIN]... [--strategies DIR]
//
// Prints `listening on http://HOST:PORT` once it serves; stops on SIGINT / SIGTERM.

#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "libs/common/resource_dir.h"
#include "libs/rpc/channel_security.h"
#include "libs/rpc/server_runner.h"
#include "services/gateway/gateway_server.h"

namespace {

void Usage() {
  std::fprintf(stderr,
               "usage: tracewise-gateway --trace-query HOST:PORT --skill-engine HOST:PORT "
               "--orchestrator HOST:PORT [--listen HOST:PORT] [--web-dir DIR] [--max-upload-mb N] "
               "[--max-request-kb N] [--cors-origin ORIGIN]... [--strategies DIR]\n"
               "       [--auth-config FILE] [--tls-cert FILE --tls-key FILE [--tls-ca FILE]]\n"
               "  --auth-config FILE  require bearer tokens (tracewise auth issue); without it every\n"
               "                      caller is anonymous, allowed only on a loopback address\n"
               "  --tls-cert/--tls-key  serve HTTPS, and present this certificate to the services\n"
               "  --tls-ca FILE       verify the services' certificates (their mTLS CA)\n"
               "  --insecure-no-auth=true  serve a non-loopback address without tokens (behind an\n"
               "                      authenticating proxy only)\n");
}

// The built web app: --web-dir, $TRACEWISE_WEB_DIR, or `web/` beside this executable (where
// tools/build.sh puts the bundle).
std::string DefaultWebDir(const char* argv0) {
  if (const char* env = std::getenv("TRACEWISE_WEB_DIR"); env && *env) return env;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto dir = (ec ? std::filesystem::path(argv0) : exe).parent_path() / "web";
  if (std::filesystem::exists(dir / "index.html")) return dir.string();
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  tw::gateway::GatewayOptions o;
  bool web_dir_given = false;
  bool insecure_no_auth = false;  // behind a proxy that authenticates: no tokens here
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string flag = arg;
    std::string value;
    const size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      Usage();
      return 2;
    }
    int64_t n = 0;
    if (flag == "--listen") {
      const size_t colon = value.rfind(':');
      if (colon == std::string::npos || !absl::SimpleAtoi(value.substr(colon + 1), &n) || n < 0 ||
          n > 65535) {
        std::fprintf(stderr, "tracewise-gateway: --listen wants HOST:PORT, not '%s'\n",
                     value.c_str());
        return 2;
      }
      o.listen_host = value.substr(0, colon);
      o.listen_port = static_cast<int>(n);
    } else if (flag == "--trace-query") {
      o.trace_query = value;
    } else if (flag == "--skill-engine") {
      o.skill_engine = value;
    } else if (flag == "--orchestrator") {
      o.orchestrator = value;
    } else if (flag == "--web-dir") {
      o.web_dir = value;
      web_dir_given = true;
    } else if (flag == "--strategies") {
      o.strategies_dir = value;
    } else if (flag == "--insecure-no-auth" && (value == "true" || value == "false")) {
      insecure_no_auth = value == "true";
    } else if (flag == "--auth-config") {
      o.auth_config = value;
    } else if (flag == "--tls-cert") {
      o.tls_cert = value;
    } else if (flag == "--tls-key") {
      o.tls_key = value;
    } else if (flag == "--tls-ca") {
      o.tls_ca = value;
    } else if (flag == "--cors-origin") {
      o.cors_origins.push_back(value);
    } else if (flag == "--max-upload-mb" && absl::SimpleAtoi(value, &n) && n > 0) {
      o.max_upload_bytes = n << 20;
    } else if (flag == "--max-request-kb" && absl::SimpleAtoi(value, &n) && n > 0) {
      o.max_request_bytes = n << 10;
    } else if (flag == "--sse-heartbeat-ms" && absl::SimpleAtoi(value, &n) && n > 0) {
      o.sse_heartbeat_ms = n;
    } else {
      std::fprintf(stderr, "tracewise-gateway: bad flag or value: %s\n", arg.c_str());
      Usage();
      return 2;
    }
  }
  if (!web_dir_given) o.web_dir = DefaultWebDir(argv[0]);
  if (o.strategies_dir.empty()) {
    o.strategies_dir =
        tw::FindResourceDir("TRACEWISE_STRATEGIES_DIR", "strategies", "general.strategy.md");
  }
  if (o.trace_query.empty() || o.skill_engine.empty() || o.orchestrator.empty()) {
    Usage();
    return 2;
  }
  if (o.web_dir.empty()) {
    std::fprintf(stderr,
                 "tracewise-gateway: no web app found (bash tools/build.sh builds it); serving the "
                 "API only\n");
  }

  // Signals are taken by a thread of ours; block them before any other thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  // Security (issue #16): the services are reached over mTLS with the gateway's certificate when
  // a CA is given; callers authenticate with bearer tokens when an auth config is given.
  if (o.tls_cert.empty() != o.tls_key.empty()) {
    std::fprintf(stderr, "tracewise-gateway: HTTPS needs both --tls-cert and --tls-key\n");
    return 2;
  }
  tw::rpc::ClientSecurity client;
  client.tls.ca = o.tls_ca;
  if (!o.tls_ca.empty()) {
    client.tls.cert = o.tls_cert;
    client.tls.key = o.tls_key;
  }
  if (absl::Status s = tw::rpc::SetClientSecurity(client); !s.ok()) {
    std::fprintf(stderr, "tracewise-gateway: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  tw::gateway::Authenticator authenticate = tw::gateway::AllowAnonymous();
  if (!o.auth_config.empty()) {
    absl::Status error;
    authenticate = tw::gateway::AuthenticateWithConfig(o.auth_config, &error);
    if (!authenticate) {
      std::fprintf(stderr, "tracewise-gateway: %s\n", std::string(error.message()).c_str());
      return 2;
    }
  } else if (!tw::rpc::IsLoopbackHost(o.listen_host) && !insecure_no_auth) {
    std::fprintf(stderr,
                 "tracewise-gateway: refusing to serve %s without authentication: give "
                 "--auth-config FILE (tracewise auth issue creates one), listen on 127.0.0.1, or "
                 "pass --insecure-no-auth=true behind a proxy that authenticates\n",
                 o.listen_host.c_str());
    return 2;
  } else {
    std::fprintf(stderr,
                 "tracewise-gateway: WARNING: authentication is OFF: anyone on this machine can "
                 "read and change every trace and session (give --auth-config to require tokens)\n");
  }
  auto server = tw::gateway::GatewayServer::Create(o, authenticate);
  if (!server.ok()) {
    std::fprintf(stderr, "tracewise-gateway: %s\n", std::string(server.status().message()).c_str());
    return 1;
  }
  std::thread stopper([&] {
    int received = 0;
    sigwait(&signals, &received);
    std::fprintf(stderr, "tracewise-gateway: signal %d, shutting down\n", received);
    (*server)->Stop();
  });
  std::printf("tracewise-gateway listening on %s://%s:%d\n", o.tls_cert.empty() ? "http" : "https",
              o.listen_host.c_str(), (*server)->port());
  std::fflush(stdout);
  const bool ok = (*server)->Run();
  // Run() also returns when the listening socket fails; wake the signal thread then.
  pthread_kill(stopper.native_handle(), SIGTERM);
  stopper.join();
  return ok ? 0 : 1;
}

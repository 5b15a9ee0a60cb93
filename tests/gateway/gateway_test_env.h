#pragma once
// The whole stack as real processes on loopback ports — trace-query, skill-engine, verifier,
// orchestrator and tracewise-gateway — for the gateway's API tests, its benchmark and the
// browser tests' harness. Traces come from tracegen; HTTP goes through cpp-httplib's client.
// With `security` set (issue #16), every process runs with that auth config and mTLS, the
// gateway serves HTTPS, and Client() verifies its certificate and sends a bearer token.

#include <httplib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tests/common/process_temp_dir.h"
#include "tests/services/service_process.h"
#include "tools/tracegen/tracegen.h"

namespace tw::testing {

struct GatewayEnvOptions {
  std::vector<std::string> orchestrator_env;  // e.g. TRACEWISE_LLM_* for a scripted model
  std::vector<std::string> gateway_args;      // e.g. --max-upload-mb 4
  int64_t trace_query_max_upload_mb = 2048;
  // Flags every process gets (--auth-config, --tls-cert/--tls-key/--tls-ca); empty = plaintext,
  // auth off. The gateway then serves HTTPS with the same certificate.
  std::vector<std::string> security_flags;
  std::string https_ca;        // the CA Client() verifies the gateway's certificate with
  std::string authorization;   // "Bearer X" Client() sends on every request by default
};

class GatewayEnv {
 public:
  explicit GatewayEnv(const std::string& name, GatewayEnvOptions options = {})
      : dir_(ProcessTempDir() + "/" + name), options_(std::move(options)) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }

  // False (with `error()` set) when a process did not start.
  bool Start() {
    trace_query_ = std::make_unique<ServiceProcess>(
        TW_TRACE_QUERY_BINARY,
        Secured({"--data-dir", dir_ + "/traces", "--max-upload-mb",
                 std::to_string(options_.trace_query_max_upload_mb)}));
    if (!trace_query_->ok()) return Fail("trace-query");
    skill_engine_ = std::make_unique<ServiceProcess>(
        TW_SKILL_ENGINE_BINARY,
        Secured({"--trace-query", trace_query_->address(), "--skills", TW_SOURCE_DIR "/skills"}));
    if (!skill_engine_->ok()) return Fail("skill-engine");
    verifier_ = std::make_unique<ServiceProcess>(TW_VERIFIER_BINARY, Secured({}));
    if (!verifier_->ok()) return Fail("verifier");
    orchestrator_ = std::make_unique<ServiceProcess>(
        TW_ORCHESTRATOR_BINARY,
        Secured({"--trace-query", trace_query_->address(), "--skill-engine", skill_engine_->address(),
                 "--verifier", verifier_->address(), "--data-dir", dir_ + "/orchestrator",
                 "--strategies", TW_SOURCE_DIR "/strategies", "--skills", TW_SOURCE_DIR "/skills"}),
        options_.orchestrator_env);
    if (!orchestrator_->ok()) return Fail("orchestrator");
    return StartGateway(options_.gateway_args, &gateway_);
  }

  // Another gateway over the same services (e.g. with other limits or CORS).
  bool StartGateway(const std::vector<std::string>& extra, std::unique_ptr<ServiceProcess>* out) {
    std::vector<std::string> args = {"--trace-query",      trace_query_->address(),
                                     "--skill-engine",     skill_engine_->address(),
                                     "--orchestrator",     orchestrator_->address(),
                                     "--strategies",       TW_SOURCE_DIR "/strategies",
                                     "--sse-heartbeat-ms", "500"};
    args.insert(args.end(), extra.begin(), extra.end());
    *out = std::make_unique<ServiceProcess>(TW_GATEWAY_BINARY, Secured(args));
    if (!(*out)->ok()) return Fail("gateway");
    return true;
  }

  // "127.0.0.1:PORT" of the gateway (it prints "listening on http[s]://127.0.0.1:PORT").
  static std::string HostPort(const ServiceProcess& p) {
    std::string a = p.address();
    for (const std::string scheme : {"http://", "https://"}) {
      if (a.rfind(scheme, 0) == 0) a = a.substr(scheme.size());
    }
    return a;
  }
  bool secured() const { return !options_.security_flags.empty(); }
  std::string gateway_host_port() const { return HostPort(*gateway_); }
  std::string gateway_url() const {
    return (secured() ? "https://" : "http://") + gateway_host_port();
  }
  int gateway_port() const {
    return std::stoi(gateway_host_port().substr(gateway_host_port().rfind(':') + 1));
  }
  const std::string& trace_query_address() const { return trace_query_->address(); }
  const std::string& skill_engine_address() const { return skill_engine_->address(); }
  const std::string& verifier_address() const { return verifier_->address(); }
  const std::string& orchestrator_address() const { return orchestrator_->address(); }
  ServiceProcess& gateway() { return *gateway_; }
  const std::string& dir() const { return dir_; }
  const std::string& error() const { return error_; }

  // A client of the gateway: HTTPS verified against the test CA and the default bearer token
  // when the stack is secured; `authorization` overrides the token ("" = none).
  std::unique_ptr<httplib::Client> Client() const { return Client(options_.authorization); }
  std::unique_ptr<httplib::Client> Client(const std::string& authorization) const {
    auto c = std::make_unique<httplib::Client>(gateway_url());
    c->set_read_timeout(std::chrono::seconds(120));
    if (secured()) {
      c->set_ca_cert_path(options_.https_ca);
      c->enable_server_certificate_verification(true);
    }
    if (!authorization.empty()) c->set_default_headers({{"Authorization", authorization}});
    return c;
  }

  // A tracegen scenario written under the env's folder.
  std::string Generate(const std::string& scenario, uint64_t seed = 7, double seconds = 3,
                       int fps = 90, std::vector<std::string> extra_processes = {}) {
    tracegen::TracegenOptions o;
    o.scenario = scenario;
    o.seed = seed;
    o.duration_s = seconds;
    o.fps = fps;
    o.extra_process_names = std::move(extra_processes);
    const std::string path = dir_ + "/" + scenario + "-" + std::to_string(seed) + ".pftrace";
    auto truth = tracegen::GenerateTrace(o, path);
    return truth.ok() ? path : "";
  }

  ~GatewayEnv() {
    gateway_.reset();
    orchestrator_.reset();
    verifier_.reset();
    skill_engine_.reset();
    trace_query_.reset();
  }

 private:
  std::vector<std::string> Secured(std::vector<std::string> args) const {
    args.insert(args.end(), options_.security_flags.begin(), options_.security_flags.end());
    return args;
  }
  bool Fail(const std::string& what) {
    error_ = what + " did not start";
    return false;
  }

  std::string dir_;
  GatewayEnvOptions options_;
  std::string error_;
  std::unique_ptr<ServiceProcess> trace_query_, skill_engine_, verifier_, orchestrator_, gateway_;
};

// One Server-Sent Event as the gateway writes it.
struct SseEvent {
  std::string id, event, data;
};

// Splits an SSE body into events (comments such as ": ping" are skipped).
inline std::vector<SseEvent> ParseSse(const std::string& body) {
  std::vector<SseEvent> out;
  size_t at = 0;
  while (at < body.size()) {
    size_t end = body.find("\n\n", at);
    if (end == std::string::npos) break;
    SseEvent e;
    bool any = false;
    size_t line_at = at;
    while (line_at < end) {
      size_t nl = body.find('\n', line_at);
      if (nl == std::string::npos || nl > end) nl = end;
      const std::string line = body.substr(line_at, nl - line_at);
      auto field = [&](const char* name, std::string* v) {
        const std::string prefix = std::string(name) + ": ";
        if (line.rfind(prefix, 0) == 0) {
          *v = line.substr(prefix.size());
          any = true;
        }
      };
      field("id", &e.id);
      field("event", &e.event);
      field("data", &e.data);
      line_at = nl + 1;
    }
    if (any) out.push_back(e);
    at = end + 2;
  }
  return out;
}

}  // namespace tw::testing

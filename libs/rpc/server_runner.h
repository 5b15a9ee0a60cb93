#pragma once
// What every service's main does the same way: listen (port 0 picks a free port), serve the
// given services plus the gRPC health service and reflection, print `listening on HOST:PORT`,
// and shut down cleanly on SIGINT/SIGTERM.

#include <string>
#include <vector>

#include "libs/rpc/channel_security.h"

namespace grpc {
class Service;
}

namespace tw::rpc {

struct ServerOptions {
  std::string listen = "127.0.0.1:0";
  int max_message_bytes = 64 << 20;
  // TLS (mTLS with tls.ca) from files; plaintext when not enabled. See service_security.h.
  TlsFiles tls;
  // HOST:PORT of a plaintext port serving only the gRPC health service (probes); empty = none.
  std::string health_listen;
  // Only for the start-up warning: serving a non-loopback address without auth says so loudly.
  bool auth_enabled = false;
};

// Blocks until a termination signal; returns the process exit code.
int RunServer(const std::string& name, const ServerOptions& options,
              const std::vector<grpc::Service*>& services);

// 127.x.x.x, localhost, ::1.
bool IsLoopbackHost(const std::string& host);

// Reads `--flag value` / `--flag=value` from argv; empty when absent.
std::string FlagValue(int argc, char** argv, const std::string& flag);

// What every service's main does first: `--help` prints `usage` and exits 0; an argument that
// is not one of `flags` (each takes a value: `--flag V` or `--flag=V`) prints the error and the
// usage and exits 2. So a typo in a deployment fails at start instead of being ignored, and the
// chart checks (tools/chart) can ask each binary which flags it takes.
void CheckFlags(int argc, char** argv, const std::string& usage,
                const std::vector<std::string>& flags);

}  // namespace tw::rpc

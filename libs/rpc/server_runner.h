#pragma once
// What every service's main does the same way: listen (port 0 picks a free port), serve the
// given services plus the gRPC health service and reflection, print `listening on HOST:PORT`,
// and shut down cleanly on SIGINT/SIGTERM.

#include <string>
#include <vector>

namespace grpc {
class Service;
}

namespace tw::rpc {

struct ServerOptions {
  std::string listen = "127.0.0.1:0";
  int max_message_bytes = 64 << 20;
};

// Blocks until a termination signal; returns the process exit code.
int RunServer(const std::string& name, const ServerOptions& options,
              const std::vector<grpc::Service*>& services);

// Reads `--flag value` / `--flag=value` from argv; empty when absent.
std::string FlagValue(int argc, char** argv, const std::string& flag);

}  // namespace tw::rpc

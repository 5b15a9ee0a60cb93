#pragma once
// tracewise-gateway's server: the web app's files and the HTTP/JSON + SSE API over the gRPC
// services (README.md lists the endpoints). No gRPC or HTTP library headers here.

#include <memory>

#include "absl/status/statusor.h"
#include "services/gateway/caller.h"
#include "services/gateway/gateway_options.h"

namespace tw::gateway {

class GatewayServer {
 public:
  // Connects to the services and binds the listening socket (port 0 picks a free one).
  static absl::StatusOr<std::unique_ptr<GatewayServer>> Create(
      GatewayOptions options, Authenticator authenticate = AllowAnonymous());
  ~GatewayServer();

  int port() const;
  // Serves until Stop(); returns false if the server failed.
  bool Run();
  void Stop();

 private:
  struct Impl;
  explicit GatewayServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tw::gateway

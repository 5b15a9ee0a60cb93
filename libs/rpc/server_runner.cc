#include "libs/rpc/server_runner.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/status/status.h"

namespace tw::rpc {

int RunServer(const std::string& name, const ServerOptions& options,
              const std::vector<grpc::Service*>& services) {
  // Signals are taken synchronously below; block them before gRPC starts its threads so none of
  // those threads receives them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  std::shared_ptr<grpc::ServerCredentials> credentials;
  if (absl::Status s = MakeServerCredentials(options.tls, &credentials); !s.ok()) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), std::string(s.message()).c_str());
    return 2;
  }
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.listen, credentials, &port);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  for (grpc::Service* service : services) builder.RegisterService(service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::fprintf(stderr, "%s: cannot listen on %s\n", name.c_str(), options.listen.c_str());
    return 1;
  }
  const std::string host = options.listen.substr(0, options.listen.rfind(':'));
  if (!options.auth_enabled && !IsLoopbackHost(host)) {
    std::fprintf(stderr,
                 "%s: WARNING: serving %s WITHOUT AUTHENTICATION: anyone who reaches this port "
                 "can read and change every trace and session (give --auth-config)\n",
                 name.c_str(), options.listen.c_str());
  }
  // Kubernetes' gRPC probes cannot present a client certificate: with TLS on, health can be
  // served on a plaintext port of its own (health only — no service of ours is reachable there).
  std::unique_ptr<grpc::Server> health;
  if (!options.health_listen.empty()) {
    grpc::ServerBuilder health_builder;
    int health_port = 0;
    health_builder.AddListeningPort(options.health_listen, grpc::InsecureServerCredentials(), &health_port);
    health = health_builder.BuildAndStart();
    if (!health || health_port == 0) {
      std::fprintf(stderr, "%s: cannot listen on %s (health)\n", name.c_str(), options.health_listen.c_str());
      return 1;
    }
  }
  std::printf("%s listening on %s:%d\n", name.c_str(), host.c_str(), port);
  std::fflush(stdout);

  int received = 0;
  sigwait(&signals, &received);
  std::fprintf(stderr, "%s: signal %d, shutting down\n", name.c_str(), received);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (health) health->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  return 0;
}

bool IsLoopbackHost(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "[::1]" || host == "::1";
}

std::string FlagValue(int argc, char** argv, const std::string& flag) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == flag && i + 1 < argc) return argv[i + 1];
    if (arg.rfind(flag + "=", 0) == 0) return arg.substr(flag.size() + 1);
  }
  return "";
}

void CheckFlags(int argc, char** argv, const std::string& usage,
                const std::vector<std::string>& flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", usage.c_str());
      std::exit(0);
    }
    const std::string name = arg.substr(0, arg.find('='));
    const bool known = std::find(flags.begin(), flags.end(), name) != flags.end();
    if (!known) {
      std::fprintf(stderr, "%s: unknown argument '%s'\n%s", argv[0], arg.c_str(), usage.c_str());
      std::exit(2);
    }
    if (name == arg) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s: %s needs a value\n%s", argv[0], arg.c_str(), usage.c_str());
        std::exit(2);
      }
      ++i;  // its value
    }
  }
}

}  // namespace tw::rpc

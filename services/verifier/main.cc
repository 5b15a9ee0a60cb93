// tracewise-verifier: serves tracewise.v1.Verifier. `--listen HOST:PORT` (port 0: any), and the
// security flags every service takes (libs/rpc/service_security.h).

#include <cstdio>

#include "libs/rpc/server_runner.h"
#include "libs/rpc/service_security.h"
#include "services/verifier/verifier_service.h"

int main(int argc, char** argv) {
  tw::rpc::CheckFlags(argc, argv,
                      std::string("usage: tracewise-verifier [--listen HOST:PORT]\n"
                                  "  Checks analysis records (tracewise.v1.Verifier). Port 0 picks a "
                                  "free port.\n") +
                          tw::rpc::kSecurityUsage,
                      tw::rpc::WithSecurityFlags({"--listen"}));
  tw::rpc::ServerOptions server;
  if (auto v = tw::rpc::FlagValue(argc, argv, "--listen"); !v.empty()) server.listen = v;
  auto security = tw::rpc::LoadServiceSecurity(argc, argv);
  if (!security.ok()) {
    std::fprintf(stderr, "tracewise-verifier: %s\n", std::string(security.status().message()).c_str());
    return 2;
  }
  std::fprintf(stderr, "tracewise-verifier: %s\n", tw::rpc::DescribeSecurity(*security).c_str());
  server.tls = security->tls;
  server.auth_enabled = security->auth->enabled();
  server.health_listen = security->health_listen;
  tw::services::VerifierService service(security->auth);
  return tw::rpc::RunServer("tracewise-verifier", server, {&service});
}

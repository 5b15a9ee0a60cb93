// tracewise-verifier: serves tracewise.v1.Verifier. `--listen HOST:PORT` (port 0: any).

#include "libs/rpc/server_runner.h"
#include "services/verifier/verifier_service.h"

int main(int argc, char** argv) {
  tw::rpc::CheckFlags(argc, argv,
                      "usage: tracewise-verifier [--listen HOST:PORT]\n"
                      "  Checks analysis records (tracewise.v1.Verifier). Port 0 picks a free port.\n",
                      {"--listen"});
  tw::rpc::ServerOptions server;
  if (auto v = tw::rpc::FlagValue(argc, argv, "--listen"); !v.empty()) server.listen = v;
  tw::services::VerifierService service;
  return tw::rpc::RunServer("tracewise-verifier", server, {&service});
}

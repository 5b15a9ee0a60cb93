#pragma once
// How this process reaches other services: TLS (with a client certificate: mTLS) or plaintext,
// and the bearer token its calls carry unless a caller's own is forwarded. Set once by main
// (services from --tls-* flags; the CLI from TRACEWISE_TLS_* / TRACEWISE_TOKEN), then every
// client adapter (GrpcQueryBackend, GrpcSkillRunner, GrpcVerifierClient) and test helper makes
// its channels through MakeChannel, so local-vs-remote and plaintext-vs-TLS are one decision.

#include <memory>
#include <string>

#include "absl/status/status.h"

namespace grpc {
class Channel;
class ChannelArguments;
class ClientContext;
class ServerCredentials;
}  // namespace grpc

namespace tw::rpc {

// PEM files. With all three, a server requires and verifies client certificates (mTLS) and a
// client presents its certificate; `ca` alone makes a client verify servers without presenting
// one (e.g. the CLI talking to a TLS gateway-facing service).
struct TlsFiles {
  std::string cert;
  std::string key;
  std::string ca;
  std::string server_name;  // overrides the name checked against the server's certificate
  bool enabled() const { return !ca.empty() || !cert.empty(); }
};

struct ClientSecurity {
  TlsFiles tls;
  std::string authorization;  // "Bearer X" sent on calls that have no caller to forward
};

// Reads the files now: INVALID_ARGUMENT when one is missing or not PEM.
absl::Status SetClientSecurity(const ClientSecurity& security);
// TRACEWISE_TLS_CA / _CERT / _KEY / _SERVER_NAME and TRACEWISE_TOKEN (a bare token).
absl::Status SetClientSecurityFromEnv();
const std::string& DefaultAuthorization();
bool ClientTlsEnabled();

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target);
std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target, const grpc::ChannelArguments& args);

// The caller a thread works for. A service handling a request (or running a turn for it) opens
// a scope with the caller's `authorization`; every client call made on that thread carries it
// (unless the adapter was given one explicitly). Outside a scope: the process default. A thread
// hop loses the scope, and the call then fails UNAUTHENTICATED — closed, never open.
class ScopedCallAuthorization {
 public:
  explicit ScopedCallAuthorization(std::string authorization);
  ~ScopedCallAuthorization();
  ScopedCallAuthorization(const ScopedCallAuthorization&) = delete;
  ScopedCallAuthorization& operator=(const ScopedCallAuthorization&) = delete;

 private:
  std::string previous_;
  bool had_previous_;
};
// The scope's authorization on this thread, else DefaultAuthorization().
std::string CurrentAuthorization();

// Adds `authorization` metadata — or, when it is empty, CurrentAuthorization() — if any.
void Authorize(grpc::ClientContext& context, const std::string& authorization = "");

// Server credentials: SSL from the files (client certificates required when `ca` is set), or
// insecure when `tls` is not enabled. INVALID_ARGUMENT for unreadable files.
absl::Status MakeServerCredentials(const TlsFiles& tls,
                                   std::shared_ptr<grpc::ServerCredentials>* out);

}  // namespace tw::rpc

#include "libs/rpc/channel_security.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace tw::rpc {
namespace {

struct ClientState {
  std::mutex mu;
  bool tls = false;
  grpc::SslCredentialsOptions ssl;
  std::string server_name;
  std::string authorization;
};

ClientState& State() {
  static ClientState* state = new ClientState();
  return *state;
}

absl::Status ReadPem(const std::string& path, const char* what, std::string* out) {
  if (path.empty()) return absl::OkStatus();
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read the TLS ", what, " ", path));
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  if (out->find("-----BEGIN") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("the TLS ", what, " ", path, " is not PEM"));
  }
  return absl::OkStatus();
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

absl::Status SetClientSecurity(const ClientSecurity& security) {
  grpc::SslCredentialsOptions ssl;
  if (security.tls.cert.empty() != security.tls.key.empty()) {
    return absl::InvalidArgumentError("a TLS client certificate needs both --tls-cert and --tls-key");
  }
  if (absl::Status s = ReadPem(security.tls.ca, "CA", &ssl.pem_root_certs); !s.ok()) return s;
  if (absl::Status s = ReadPem(security.tls.cert, "certificate", &ssl.pem_cert_chain); !s.ok()) return s;
  if (absl::Status s = ReadPem(security.tls.key, "key", &ssl.pem_private_key); !s.ok()) return s;
  ClientState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  state.tls = security.tls.enabled();
  state.ssl = ssl;
  state.server_name = security.tls.server_name;
  state.authorization = security.authorization;
  return absl::OkStatus();
}

absl::Status SetClientSecurityFromEnv() {
  ClientSecurity security;
  security.tls.ca = Env("TRACEWISE_TLS_CA");
  security.tls.cert = Env("TRACEWISE_TLS_CERT");
  security.tls.key = Env("TRACEWISE_TLS_KEY");
  security.tls.server_name = Env("TRACEWISE_TLS_SERVER_NAME");
  const std::string token = Env("TRACEWISE_TOKEN");
  if (!token.empty()) security.authorization = "Bearer " + token;
  return SetClientSecurity(security);
}

const std::string& DefaultAuthorization() {
  ClientState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  return state.authorization;
}

bool ClientTlsEnabled() {
  ClientState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  return state.tls;
}

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target) {
  return MakeChannel(target, grpc::ChannelArguments());
}

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target,
                                           const grpc::ChannelArguments& given) {
  ClientState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  if (!state.tls) return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), given);
  grpc::ChannelArguments args = given;
  if (!state.server_name.empty()) args.SetSslTargetNameOverride(state.server_name);
  return grpc::CreateCustomChannel(target, grpc::SslCredentials(state.ssl), args);
}

namespace {
thread_local std::string scoped_authorization;
thread_local bool in_scope = false;
}  // namespace

ScopedCallAuthorization::ScopedCallAuthorization(std::string authorization)
    : previous_(std::move(scoped_authorization)), had_previous_(in_scope) {
  scoped_authorization = std::move(authorization);
  in_scope = true;
}

ScopedCallAuthorization::~ScopedCallAuthorization() {
  scoped_authorization = std::move(previous_);
  in_scope = had_previous_;
}

std::string CurrentAuthorization() {
  if (in_scope) return scoped_authorization;
  return DefaultAuthorization();
}

void Authorize(grpc::ClientContext& context, const std::string& authorization) {
  const std::string value = authorization.empty() ? CurrentAuthorization() : authorization;
  if (!value.empty()) context.AddMetadata("authorization", value);
}

absl::Status MakeServerCredentials(const TlsFiles& tls,
                                   std::shared_ptr<grpc::ServerCredentials>* out) {
  if (!tls.enabled()) {
    *out = grpc::InsecureServerCredentials();
    return absl::OkStatus();
  }
  if (tls.cert.empty() || tls.key.empty()) {
    return absl::InvalidArgumentError("a TLS server needs --tls-cert and --tls-key");
  }
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  grpc::SslServerCredentialsOptions options(
      tls.ca.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                     : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  if (absl::Status s = ReadPem(tls.cert, "certificate", &pair.cert_chain); !s.ok()) return s;
  if (absl::Status s = ReadPem(tls.key, "key", &pair.private_key); !s.ok()) return s;
  if (absl::Status s = ReadPem(tls.ca, "CA", &options.pem_root_certs); !s.ok()) return s;
  options.pem_key_cert_pairs.push_back(pair);
  *out = grpc::SslServerCredentials(options);
  return absl::OkStatus();
}

}  // namespace tw::rpc

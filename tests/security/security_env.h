#pragma once
// The services as real processes with authentication and mTLS on (issue #16's attack suite):
// a CA and certificates from openssl, an auth config with API keys for two tenants in every
// role plus HS256 and RS256 JWT keys, and helpers to call as any of them — or as nobody, with a
// forged or expired token, over plaintext, or with a certificate from another CA.

#include <grpcpp/grpcpp.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/time/clock.h"
#include "libs/auth/api_key.h"
#include "libs/auth/auth_config.h"
#include "libs/auth/jwt_verifier.h"
#include "tests/security/test_pki.h"
#include "tests/services/service_process.h"

namespace tw::testing {

inline constexpr char kJwtSecret[] = "attack-suite-hs256-secret-of-at-least-32-bytes";

class SecurityEnv {
 public:
  // Quota for tenant "small": 300 KB of stored traces (one small synthetic trace, not two).
  static constexpr int64_t kSmallTenantBytes = 300 * 1024;
  // Tenant "rated": 30 requests per minute at the gateway (one every 2 s once the burst is
  // spent). Tenant "single": one turn at a time per orchestrator.
  static constexpr int kRatedRequestsPerMinute = 30;

  explicit SecurityEnv(const std::string& name) {
    dir_ = (std::filesystem::temp_directory_path() /
            (name + "-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand())))
               .string();
    std::filesystem::create_directories(dir_);
    pki_ = MakeTestPki(dir_ + "/pki");
    const std::string rsa = dir_ + "/jwt-rsa";
    ok_ = pki_.ok &&
          std::system(("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out '" + rsa +
                       ".key' 2>/dev/null && openssl pkey -in '" + rsa + ".key' -pubout -out '" +
                       rsa + ".pub' 2>/dev/null")
                          .c_str()) == 0;
    rsa_private_ = ReadText(rsa + ".key");
    std::string yaml = "api_keys:\n";
    for (const std::string& tenant :
         std::vector<std::string>{"alpha", "beta", "small", "rated", "single"}) {
      for (const std::string& role : std::vector<std::string>{"viewer", "uploader", "admin"}) {
        const std::string key = *auth::GenerateApiKey();
        keys_[tenant + "/" + role] = key;
        yaml += "  - {hash: " + auth::HashApiKey(key) + ", tenant: " + tenant + ", role: " + role +
                ", subject: " + tenant + "-" + role + "}\n";
      }
    }
    yaml += "jwt:\n  keys:\n    - {algorithm: HS256, secret: " + std::string(kJwtSecret) +
            "}\n    - {algorithm: RS256, public_key_file: " + rsa + ".pub}\n";
    yaml += "quotas:\n  tenants:\n    small: {stored_bytes: " + std::to_string(kSmallTenantBytes) +
            "}\n    rated: {requests_per_minute: " + std::to_string(kRatedRequestsPerMinute) +
            "}\n    single: {concurrent_turns: 1}\n";
    yaml += "audit_log: " + dir_ + "/audit.jsonl\n";
    auth_config_ = dir_ + "/auth.yaml";
    std::ofstream(auth_config_) << yaml;
  }
  ~SecurityEnv() {
    for (auto& p : processes_) p->Stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  bool ok() const { return ok_; }
  const std::string& dir() const { return dir_; }
  const TestPki& pki() const { return pki_; }
  const std::string& auth_config() const { return auth_config_; }

  // The flags every service gets: auth + mTLS.
  std::vector<std::string> SecurityFlags() const {
    return {"--auth-config", auth_config_, "--tls-cert", pki_.server_cert, "--tls-key",
            pki_.server_key, "--tls-ca", pki_.ca_cert};
  }
  // `env`: NAME=VALUE assignments for the child (e.g. a scripted LLM's TRACEWISE_LLM_*).
  ServiceProcess* Start(const std::string& binary, std::vector<std::string> args,
                        std::vector<std::string> env = {}) {
    for (auto& f : SecurityFlags()) args.push_back(f);
    processes_.push_back(std::make_unique<ServiceProcess>(binary, std::move(args), std::move(env)));
    return processes_.back()->ok() ? processes_.back().get() : nullptr;
  }

  // "Bearer <key>" of tenant/role, e.g. Bearer("alpha", "viewer").
  std::string Bearer(const std::string& tenant, const std::string& role) const {
    return "Bearer " + keys_.at(tenant + "/" + role);
  }
  std::string Jwt(const std::string& tenant, const std::string& role, int64_t ttl_seconds,
                  bool rs256 = false) const {
    nlohmann::json claims = {{"tenant", tenant},
                             {"role", role},
                             {"sub", "jwt-" + tenant},
                             {"exp", absl::ToUnixSeconds(absl::Now()) + ttl_seconds}};
    auto token = rs256 ? auth::SignJwt(auth::JwtAlgorithm::kRs256, rsa_private_, claims.dump())
                       : auth::SignJwt(auth::JwtAlgorithm::kHs256, kJwtSecret, claims.dump());
    return token.ok() ? "Bearer " + *token : "";
  }
  std::string ForgedJwt(const std::string& tenant, const std::string& role) const {
    nlohmann::json claims = {{"tenant", tenant}, {"role", role},
                             {"exp", absl::ToUnixSeconds(absl::Now()) + 3600}};
    return "Bearer " + *auth::SignJwt(auth::JwtAlgorithm::kHs256,
                                      "a-secret-the-attacker-made-up-32-bytes!!", claims.dump());
  }

  // Channels: mTLS as a trusted client; TLS with no client certificate; a client certificate
  // from another CA; plaintext.
  std::shared_ptr<grpc::Channel> Channel(const std::string& address) const {
    return Tls(address, pki_.client_cert, pki_.client_key);
  }
  std::shared_ptr<grpc::Channel> ChannelWithoutClientCert(const std::string& address) const {
    return Tls(address, "", "");
  }
  std::shared_ptr<grpc::Channel> RogueChannel(const std::string& address) const {
    return Tls(address, pki_.rogue_client_cert, pki_.rogue_client_key);
  }
  static std::shared_ptr<grpc::Channel> Plaintext(const std::string& address) {
    return grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  }

 private:
  std::shared_ptr<grpc::Channel> Tls(const std::string& address, const std::string& cert,
                                     const std::string& key) const {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ReadText(pki_.ca_cert);
    if (!cert.empty()) {
      ssl.pem_cert_chain = ReadText(cert);
      ssl.pem_private_key = ReadText(key);
    }
    return grpc::CreateCustomChannel(address, grpc::SslCredentials(ssl), grpc::ChannelArguments());
  }

  bool ok_ = false;
  std::string dir_;
  TestPki pki_;
  std::string auth_config_;
  std::string rsa_private_;
  std::map<std::string, std::string> keys_;
  std::vector<std::unique_ptr<ServiceProcess>> processes_;
};

}  // namespace tw::testing

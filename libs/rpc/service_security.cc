#include "libs/rpc/service_security.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/status_macros.h"
#include "libs/rpc/server_runner.h"

namespace tw::rpc {

std::vector<std::string> SecurityFlagNames() {
  return {"--auth-config", "--tls-cert",  "--tls-key",   "--tls-ca",
          "--tls-server-name", "--audit-log", "--health-listen"};
}

const char kSecurityUsage[] =
    "  --auth-config FILE    require bearer tokens (API keys, JWTs) mapped to tenant and role\n"
    "  --tls-cert FILE --tls-key FILE [--tls-ca FILE]\n"
    "                        serve TLS; with --tls-ca, mTLS (client certificates required, and\n"
    "                        this service's own calls present --tls-cert)\n"
    "  --tls-server-name N   the name other services' certificates are checked against\n"
    "  --audit-log FILE      where uploads, questions, exports and deletions are recorded\n"
    "  --health-listen HOST:PORT  plaintext gRPC health only (probes, when TLS is on)\n";

std::vector<std::string> WithSecurityFlags(std::vector<std::string> flags) {
  for (std::string& f : SecurityFlagNames()) flags.push_back(std::move(f));
  return flags;
}

absl::StatusOr<ServiceSecurity> LoadServiceSecurity(int argc, char** argv) {
  ServiceSecurity security;
  const std::string config_path = FlagValue(argc, argv, "--auth-config");
  if (!config_path.empty()) {
    ASSIGN_OR_RETURN(auth::AuthConfig config, auth::LoadAuthConfig(config_path));
    security.auth = std::make_shared<ServerAuth>(config);
    security.quotas = std::make_shared<auth::TenantQuotas>(config.quotas);
    security.config = std::move(config);
  }
  std::string audit_path = FlagValue(argc, argv, "--audit-log");
  if (audit_path.empty() && security.config) audit_path = security.config->audit_log;
  ASSIGN_OR_RETURN(std::unique_ptr<auth::AuditLog> audit, auth::AuditLog::Open(audit_path));
  security.audit = std::move(audit);
  security.tls.cert = FlagValue(argc, argv, "--tls-cert");
  security.tls.key = FlagValue(argc, argv, "--tls-key");
  security.tls.ca = FlagValue(argc, argv, "--tls-ca");
  security.tls.server_name = FlagValue(argc, argv, "--tls-server-name");
  security.health_listen = FlagValue(argc, argv, "--health-listen");
  if (security.tls.enabled() && (security.tls.cert.empty() || security.tls.key.empty())) {
    return absl::InvalidArgumentError("TLS needs --tls-cert and --tls-key (and --tls-ca for mTLS)");
  }
  ClientSecurity client;
  client.tls = security.tls;
  RETURN_IF_ERROR(SetClientSecurity(client));
  return security;
}

std::string DescribeSecurity(const ServiceSecurity& security) {
  std::string auth = "off (every caller is anonymous)";
  if (security.config) {
    std::vector<std::string> jwt;
    for (const auto& k : security.config->jwt.keys) jwt.push_back(auth::JwtAlgorithmName(k.algorithm));
    auth = absl::StrCat(security.config->api_keys.size(), " API keys",
                        jwt.empty() ? "" : absl::StrCat(", JWT ", absl::StrJoin(jwt, "+")));
  }
  std::string tls = "off (plaintext)";
  if (security.tls.enabled()) tls = security.tls.ca.empty() ? "TLS" : "mTLS (client certificates required)";
  std::string audit = security.audit->path().empty() ? "" : absl::StrCat("; audit log ", security.audit->path());
  return absl::StrCat("auth ", auth, "; transport ", tls, audit);
}

}  // namespace tw::rpc

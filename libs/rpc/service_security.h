#pragma once
// The security flags every service's main takes, read in one place:
//   --auth-config FILE   bearer tokens required (libs/auth/auth_config.h); without it: auth off
//   --tls-cert FILE --tls-key FILE [--tls-ca FILE]   serve TLS; with --tls-ca, mTLS: clients
//                        must present a certificate signed by that CA, and this service's own
//                        calls to other services present --tls-cert and verify them with the CA
//   --tls-server-name N  the name other services' certificates are checked against
//   --audit-log FILE     where audited actions go (default: the config's audit_log)
//   --health-listen HOST:PORT   plaintext gRPC health only (Kubernetes probes cannot do mTLS)

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/auth/audit_log.h"
#include "libs/auth/auth_config.h"
#include "libs/auth/quotas.h"
#include "libs/rpc/channel_security.h"
#include "libs/rpc/server_auth.h"

namespace tw::rpc {

struct ServiceSecurity {
  std::optional<auth::AuthConfig> config;
  std::shared_ptr<ServerAuth> auth = std::make_shared<ServerAuth>();
  std::shared_ptr<auth::TenantQuotas> quotas = std::make_shared<auth::TenantQuotas>(auth::QuotaSettings{});
  std::shared_ptr<auth::AuditLog> audit = std::make_shared<auth::AuditLog>();
  TlsFiles tls;
  std::string health_listen;  // --health-listen: ServerOptions::health_listen
};

// Also configures this process's outgoing channels (SetClientSecurity with the same TLS files).
absl::StatusOr<ServiceSecurity> LoadServiceSecurity(int argc, char** argv);
// The flag names above, for usage checks, and `flags` with them appended.
std::vector<std::string> SecurityFlagNames();
std::vector<std::string> WithSecurityFlags(std::vector<std::string> flags);
// The usage lines of the security flags, for each service's --help.
extern const char kSecurityUsage[];
// One line for the service's start-up log: "auth: N API keys, JWT HS256+RS256; TLS: mTLS".
std::string DescribeSecurity(const ServiceSecurity& security);

}  // namespace tw::rpc

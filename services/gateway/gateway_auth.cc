#include <memory>

#include "libs/auth/auth_config.h"
#include "libs/auth/authenticator.h"
#include "libs/auth/quotas.h"
#include "services/gateway/caller.h"

namespace tw::gateway {

Authenticator AuthenticateWithConfig(const std::string& auth_config_path, absl::Status* error) {
  auto config = auth::LoadAuthConfig(auth_config_path);
  if (!config.ok()) {
    *error = config.status();
    return nullptr;
  }
  auto authenticator = std::make_shared<auth::Authenticator>(*config);
  auto quotas = std::make_shared<auth::TenantQuotas>(config->quotas);
  return [authenticator, quotas](const std::string& authorization) -> absl::StatusOr<Caller> {
    auto who = authenticator->Authenticate(authorization);
    if (!who.ok()) return who.status();
    if (absl::Status admitted = quotas->AdmitRequest(who->tenant); !admitted.ok()) return admitted;
    Caller caller;
    caller.subject = who->subject;
    caller.tenant = who->tenant;
    caller.role = auth::RoleName(who->role);
    caller.bearer_token = std::string(auth::Authenticator::BearerToken(authorization));
    return caller;
  };
}

}  // namespace tw::gateway

// Fuzzes what an unauthenticated caller controls: the Authorization header (API key look-up and
// JWT parsing/verification) — and the auth config parser. The first byte picks the target.
#include <cstddef>
#include <cstdint>
#include <string>

#include "libs/auth/auth_config.h"
#include "libs/auth/authenticator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const tw::auth::Authenticator* auth = [] {
    tw::auth::AuthConfig config;
    config.api_keys.push_back({"sha256:" + std::string(64, 'a'), "t", tw::auth::Role::kViewer, "", ""});
    config.jwt.keys.push_back({tw::auth::JwtAlgorithm::kHs256, "fuzz-secret-fuzz-secret-fuzz-secret!", ""});
    return new tw::auth::Authenticator(config);
  }();
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    (void)auth->Authenticate(input);
    (void)auth->Authenticate("Bearer " + input);
  } else {
    (void)tw::auth::ParseAuthConfig(input, "/nonexistent");
  }
  return 0;
}

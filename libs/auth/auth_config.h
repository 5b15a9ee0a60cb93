#pragma once
// The one auth configuration every service and the gateway take (`--auth-config FILE`):
//
//   api_keys:                     # static keys, stored as hashes only (tracewise auth issue)
//     - hash: sha256:<64 hex>
//       tenant: acme
//       role: uploader            # viewer | uploader | admin
//       subject: ci-bot           # optional; default: the key's public id
//   jwt:                          # optional: bearer JWTs signed by your identity provider
//     issuer: https://idp.example # optional: `iss` must equal it
//     audience: tracewise         # optional: `aud` must contain it
//     leeway_seconds: 30          # clock skew allowed on exp / nbf
//     claims: {tenant: tenant, role: role, subject: sub}
//     keys:
//       - {algorithm: HS256, secret_file: /etc/tracewise/jwt.secret}   # or secret: "..."
//       - {algorithm: RS256, public_key_file: /etc/tracewise/jwt.pub.pem, kid: k1}
//   quotas:                       # optional, see quotas.h
//     default: {stored_bytes: 10GiB, concurrent_turns: 4, llm_usd_per_day: 20,
//               requests_per_minute: 600}
//     tenants: {acme: {concurrent_turns: 8}}
//   audit_log: /var/log/tracewise/audit.jsonl   # optional; services may override by flag
//
// Relative file paths resolve against the config file's folder. A config with neither keys
// nor JWT keys is refused (it would lock everyone out).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/auth/identity.h"

namespace tw::auth {

struct ApiKeyEntry {
  std::string hash;  // "sha256:<hex>"
  std::string tenant;
  Role role = Role::kViewer;
  std::string subject;
  std::string created;  // RFC 3339, informational
};

enum class JwtAlgorithm { kHs256, kRs256 };
const char* JwtAlgorithmName(JwtAlgorithm alg);

struct JwtKey {
  JwtAlgorithm algorithm = JwtAlgorithm::kHs256;
  std::string material;  // HS256: the shared secret; RS256: the public key PEM
  std::string kid;       // optional: only tokens naming this kid (or none) try this key
};

struct JwtSettings {
  std::vector<JwtKey> keys;
  std::string issuer;
  std::string audience;
  int64_t leeway_seconds = 30;
  std::string tenant_claim = "tenant";
  std::string role_claim = "role";
  std::string subject_claim = "sub";
};

// Limits per tenant; a field left unset means no limit.
struct QuotaLimits {
  std::optional<int64_t> stored_bytes;
  std::optional<int64_t> concurrent_turns;
  std::optional<int64_t> llm_micro_usd_per_day;
  std::optional<int64_t> requests_per_minute;
};

struct QuotaSettings {
  QuotaLimits defaults;
  std::vector<std::pair<std::string, QuotaLimits>> tenants;  // overrides, field by field
  QuotaLimits For(const std::string& tenant) const;
};

struct AuthConfig {
  std::vector<ApiKeyEntry> api_keys;
  JwtSettings jwt;
  QuotaSettings quotas;
  std::string audit_log;  // path; empty = none
  std::string path;       // where it was loaded from
};

// INVALID_ARGUMENT naming the field for a malformed file; NOT_FOUND when it does not exist.
absl::StatusOr<AuthConfig> LoadAuthConfig(const std::string& path);
absl::StatusOr<AuthConfig> ParseAuthConfig(const std::string& yaml, const std::string& base_dir);

// Adds a key entry to FILE (created if absent, mode 0600), keeping everything else in it;
// written to a temporary file and renamed, so a reader never sees half a config.
absl::Status AppendApiKey(const std::string& path, const ApiKeyEntry& entry);

// "10GiB", "512MB", "1048576" → bytes.
absl::StatusOr<int64_t> ParseByteSize(const std::string& text);

}  // namespace tw::auth

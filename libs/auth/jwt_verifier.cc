#include "libs/auth/jwt_verifier.h"

#include <jwt.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tw::auth {
namespace {

constexpr size_t kMaxTokenBytes = 16 * 1024;

absl::Status Unauthenticated(const std::string& why) {
  return absl::UnauthenticatedError(absl::StrCat("invalid bearer token: ", why));
}

struct JwtFree {
  void operator()(jwt_t* j) const { jwt_free(j); }
};

absl::StatusOr<nlohmann::json> DecodeSegment(absl::string_view segment, const char* what) {
  std::string raw;
  if (segment.empty() || !absl::WebSafeBase64Unescape(segment, &raw)) {
    return Unauthenticated(absl::StrCat("malformed ", what));
  }
  nlohmann::json json = nlohmann::json::parse(raw, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return Unauthenticated(absl::StrCat("malformed ", what));
  return json;
}

std::optional<int64_t> NumericClaim(const nlohmann::json& claims, const char* name) {
  auto it = claims.find(name);
  if (it == claims.end() || !it->is_number()) return std::nullopt;
  return it->is_number_integer() ? it->get<int64_t>() : static_cast<int64_t>(it->get<double>());
}

}  // namespace

absl::StatusOr<Identity> JwtVerifier::Verify(std::string_view token, absl::Time now) const {
  const int64_t now_s = absl::ToUnixSeconds(now);
  const std::string key(token);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) {
      if (now_s <= it->second.valid_until) return it->second.identity;  // nbf held when verified
      cache_.erase(it);  // expired: verified again below, and refused with the precise reason
    }
  }
  int64_t expires = 0;
  auto identity = VerifyUncached(token, now, &expires);
  if (!identity.ok()) return identity;
  std::lock_guard<std::mutex> lock(mu_);
  if (cache_.size() >= kCacheEntries) cache_.clear();  // crude, but bounded; refills on demand
  Cached entry;
  entry.identity = *identity;
  entry.valid_until = std::min(expires + settings_.leeway_seconds, now_s + kCacheSeconds);
  cache_[key] = entry;
  return identity;
}

absl::StatusOr<Identity> JwtVerifier::VerifyUncached(std::string_view token, absl::Time now,
                                                     int64_t* expires) const {
  if (settings_.keys.empty()) return Unauthenticated("JWTs are not accepted here");
  if (token.size() > kMaxTokenBytes) return Unauthenticated("too long");
  const std::vector<absl::string_view> parts =
      absl::StrSplit(absl::string_view(token.data(), token.size()), '.');
  if (parts.size() != 3 || parts[2].empty()) return Unauthenticated("not a signed JWT");
  auto header = DecodeSegment(parts[0], "header");
  if (!header.ok()) return header.status();
  const std::string alg = header->value("alg", "");
  const std::string kid = header->contains("kid") && (*header)["kid"].is_string() ? (*header)["kid"].get<std::string>() : "";
  JwtAlgorithm wanted;
  jwt_alg_t libjwt_alg;
  if (alg == "HS256") {
    wanted = JwtAlgorithm::kHs256;
    libjwt_alg = JWT_ALG_HS256;
  } else if (alg == "RS256") {
    wanted = JwtAlgorithm::kRs256;
    libjwt_alg = JWT_ALG_RS256;
  } else {
    return Unauthenticated(absl::StrCat("algorithm '", alg, "' is not accepted"));
  }

  bool any_key = false;
  bool verified = false;
  const std::string token_text(token);
  for (const JwtKey& key : settings_.keys) {
    if (key.algorithm != wanted) continue;
    if (!kid.empty() && !key.kid.empty() && kid != key.kid) continue;
    any_key = true;
    jwt_t* raw = nullptr;
    const int rc = jwt_decode(&raw, token_text.c_str(),
                              reinterpret_cast<const unsigned char*>(key.material.data()),
                              static_cast<int>(key.material.size()));
    std::unique_ptr<jwt_t, JwtFree> decoded(raw);
    if (rc == 0 && decoded && jwt_get_alg(decoded.get()) == libjwt_alg) {
      verified = true;
      break;
    }
  }
  if (!any_key) return Unauthenticated(absl::StrCat("no ", alg, " key is configured for it"));
  if (!verified) return Unauthenticated("bad signature");

  auto claims = DecodeSegment(parts[1], "claims");
  if (!claims.ok()) return claims.status();
  const int64_t now_s = absl::ToUnixSeconds(now);
  const auto exp = NumericClaim(*claims, "exp");
  if (!exp) return Unauthenticated("it has no expiry (exp)");
  if (now_s > *exp + settings_.leeway_seconds) return Unauthenticated("token expired");
  *expires = *exp;
  if (const auto nbf = NumericClaim(*claims, "nbf"); nbf && now_s + settings_.leeway_seconds < *nbf) {
    return Unauthenticated("token not valid yet (nbf)");
  }
  if (const auto iat = NumericClaim(*claims, "iat"); iat && now_s + settings_.leeway_seconds < *iat) {
    return Unauthenticated("token issued in the future (iat)");
  }
  if (!settings_.issuer.empty() && claims->value("iss", "") != settings_.issuer) {
    return Unauthenticated("wrong issuer");
  }
  if (!settings_.audience.empty()) {
    bool match = false;
    if (auto it = claims->find("aud"); it != claims->end()) {
      if (it->is_string()) match = it->get<std::string>() == settings_.audience;
      if (it->is_array()) {
        for (const auto& a : *it) match = match || (a.is_string() && a.get<std::string>() == settings_.audience);
      }
    }
    if (!match) return Unauthenticated("wrong audience");
  }
  auto string_claim = [&](const std::string& name) -> std::string {
    auto it = claims->find(name);
    return it != claims->end() && it->is_string() ? it->get<std::string>() : "";
  };
  Identity id;
  id.method = "jwt";
  id.tenant = string_claim(settings_.tenant_claim);
  if (id.tenant.empty()) return Unauthenticated(absl::StrCat("claim '", settings_.tenant_claim, "' (tenant) is missing"));
  auto role = ParseRole(string_claim(settings_.role_claim));
  if (!role.ok()) return Unauthenticated(absl::StrCat("claim '", settings_.role_claim, "' is not a role (viewer, uploader, admin)"));
  id.role = *role;
  id.subject = string_claim(settings_.subject_claim);
  if (id.subject.empty()) id.subject = "jwt";
  return id;
}

absl::StatusOr<std::string> SignJwt(JwtAlgorithm alg, const std::string& key_material,
                                    const std::string& claims_json, const std::string& kid) {
  jwt_t* raw = nullptr;
  if (jwt_new(&raw) != 0) return absl::InternalError("jwt_new failed");
  std::unique_ptr<jwt_t, JwtFree> token(raw);
  if (jwt_add_grants_json(token.get(), claims_json.c_str()) != 0) {
    return absl::InvalidArgumentError("claims are not a JSON object");
  }
  if (!kid.empty()) jwt_add_header(token.get(), "kid", kid.c_str());
  const jwt_alg_t a = alg == JwtAlgorithm::kHs256 ? JWT_ALG_HS256 : JWT_ALG_RS256;
  if (jwt_set_alg(token.get(), a, reinterpret_cast<const unsigned char*>(key_material.data()),
                  static_cast<int>(key_material.size())) != 0) {
    return absl::InvalidArgumentError("the key does not suit the algorithm");
  }
  char* encoded = jwt_encode_str(token.get());
  if (encoded == nullptr) return absl::InvalidArgumentError("cannot sign the token with this key");
  std::string out(encoded);
  free(encoded);  // libjwt 1.10 allocates it with malloc
  return out;
}

}  // namespace tw::auth

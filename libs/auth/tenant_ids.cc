#include "libs/auth/tenant_ids.h"

#include <openssl/evp.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace tw::auth {

std::string TenantObjectId(const std::string& tenant, const std::string& content_sha256) {
  if (tenant.empty()) return content_sha256;
  // Length-prefixed fields: no (tenant, hash) pair can be confused with another.
  const std::string input = absl::StrCat("tracewise-tenant-object-v1:", tenant.size(), ":", tenant,
                                         ":", content_sha256);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(input.data(), input.size(), digest, &length, EVP_sha256(), nullptr);
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest), length));
}

}  // namespace tw::auth

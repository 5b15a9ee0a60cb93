#include "libs/auth/api_key.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace tw::auth {

absl::StatusOr<std::string> GenerateApiKey() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    return absl::InternalError("the system random generator gave no bytes for a new key");
  }
  std::string encoded;
  absl::WebSafeBase64Escape(std::string(reinterpret_cast<char*>(bytes), sizeof bytes), &encoded);
  OPENSSL_cleanse(bytes, sizeof bytes);
  return absl::StrCat(kApiKeyPrefix, encoded);
}

std::string HashApiKey(std::string_view key) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(key.data(), key.size(), digest, &length, EVP_sha256(), nullptr);
  return absl::StrCat("sha256:", absl::BytesToHexString(absl::string_view(
                                     reinterpret_cast<const char*>(digest), length)));
}

std::string ApiKeyId(std::string_view stored_hash) {
  const size_t colon = stored_hash.find(':');
  const std::string_view hex = colon == std::string_view::npos ? stored_hash : stored_hash.substr(colon + 1);
  return std::string(hex.substr(0, 12));
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace tw::auth

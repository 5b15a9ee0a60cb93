#pragma once
// Incremental SHA-256 (OpenSSL), hex-encoded: trace ids are content checksums.

#include <memory>
#include <string>
#include <string_view>

namespace tw {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void Update(std::string_view bytes);
  std::string HexDigest();  // finishes the hash; call once

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

}  // namespace tw

#pragma once
// Test key material made at test time: an RSA key pair from the openssl command, and helpers
// for temporary files.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tw::auth::testing {

inline std::string TempDir(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  auto dir = std::filesystem::path(tmp ? tmp : "/tmp") /
             (name + "-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline void WriteAll(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

struct RsaPair {
  std::string private_pem;
  std::string public_pem;
  std::string public_path;
};

// Generates a 2048-bit RSA pair under `dir` with the openssl command.
inline RsaPair MakeRsaPair(const std::string& dir, const std::string& name) {
  const std::string priv = dir + "/" + name + ".key.pem";
  const std::string pub = dir + "/" + name + ".pub.pem";
  const std::string cmd = "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out '" + priv +
                          "' 2>/dev/null && openssl pkey -in '" + priv + "' -pubout -out '" + pub +
                          "' 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) return {};
  return {ReadAll(priv), ReadAll(pub), pub};
}

}  // namespace tw::auth::testing

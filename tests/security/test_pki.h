#pragma once
// Certificates made at test time with the openssl command: a CA, a server certificate for
// localhost / 127.0.0.1 and client certificates signed by it, plus a second, untrusted CA with
// its own client certificate (an attacker's). Keys are EC P-256 (fast to make).

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace tw::testing {

struct TestPki {
  std::string dir;
  std::string ca_cert, ca_key;
  std::string server_cert, server_key;  // also usable as a client certificate (services)
  std::string client_cert, client_key;
  std::string rogue_ca_cert, rogue_client_cert, rogue_client_key;
  bool ok = false;
};

namespace pki_internal {

inline bool Sh(const std::string& command) {
  return std::system((command + " >/dev/null 2>&1").c_str()) == 0;
}

inline bool MakeCa(const std::string& dir, const std::string& name) {
  return Sh("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 "
            "-subj '/CN=" + name + "' -keyout '" + dir + "/" + name + ".key' -out '" + dir + "/" +
            name + ".crt' -addext basicConstraints=critical,CA:TRUE "
            "-addext keyUsage=critical,keyCertSign,cRLSign");
}

// A leaf certificate for `name` signed by `ca`, valid for server and client use.
inline bool MakeLeaf(const std::string& dir, const std::string& ca, const std::string& name) {
  const std::string ext = dir + "/" + name + ".ext";
  std::ofstream(ext) << "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                        "extendedKeyUsage=serverAuth,clientAuth\n"
                        "basicConstraints=CA:FALSE\n";
  return Sh("openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=" + name +
            "' -keyout '" + dir + "/" + name + ".key' -out '" + dir + "/" + name + ".csr'") &&
         Sh("openssl x509 -req -in '" + dir + "/" + name + ".csr' -CA '" + dir + "/" + ca +
            ".crt' -CAkey '" + dir + "/" + ca + ".key' -CAcreateserial -days 2 -out '" + dir +
            "/" + name + ".crt' -extfile '" + ext + "'");
}

}  // namespace pki_internal

inline TestPki MakeTestPki(const std::string& dir) {
  using pki_internal::MakeCa;
  using pki_internal::MakeLeaf;
  std::filesystem::create_directories(dir);
  TestPki p;
  p.dir = dir;
  p.ok = MakeCa(dir, "ca") && MakeLeaf(dir, "ca", "server") && MakeLeaf(dir, "ca", "client") &&
         MakeCa(dir, "rogue-ca") && MakeLeaf(dir, "rogue-ca", "rogue-client");
  p.ca_cert = dir + "/ca.crt";
  p.ca_key = dir + "/ca.key";
  p.server_cert = dir + "/server.crt";
  p.server_key = dir + "/server.key";
  p.client_cert = dir + "/client.crt";
  p.client_key = dir + "/client.key";
  p.rogue_ca_cert = dir + "/rogue-ca.crt";
  p.rogue_client_cert = dir + "/rogue-client.crt";
  p.rogue_client_key = dir + "/rogue-client.key";
  return p;
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace tw::testing

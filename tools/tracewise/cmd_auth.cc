// `tracewise auth ...`: API keys and tokens for the services and the gateway (issue #16).
//   issue --tenant T --role R --config FILE [--subject NAME]
//       creates an API key, prints it once on stdout and stores only its SHA-256 in FILE
//   list --config FILE        the configured keys (public ids, tenants, roles; never secrets)
//   check --config FILE [--token TOKEN]
//       validates FILE; with a token (or TRACEWISE_TOKEN), says who it authenticates as
//   token --tenant T --role R (--secret-file F | --private-key F) [--ttl SECONDS]
//         [--subject S] [--kid K]
//       signs a JWT (HS256 with a shared secret, RS256 with a private key), for development and
//       tests — production tokens come from your identity provider.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "libs/auth/api_key.h"
#include "libs/auth/auth_config.h"
#include "libs/auth/authenticator.h"
#include "libs/auth/jwt_verifier.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

void PrintAuthUsage() {
  std::fprintf(stderr,
               "usage: tracewise auth issue --tenant T --role viewer|uploader|admin --config FILE "
               "[--subject NAME]\n"
               "       tracewise auth list --config FILE\n"
               "       tracewise auth check --config FILE [--token TOKEN]\n"
               "       tracewise auth token --tenant T --role R (--secret-file F | --private-key F)\n"
               "                            [--ttl SECONDS] [--subject S] [--kid K]\n"
               "  issue prints a new API key once and stores only its hash in FILE (the file\n"
               "  every service and the gateway take as --auth-config).\n");
}

// --flag value pairs; false on anything else.
bool ParseFlags(const Args& args, size_t from, std::map<std::string, std::string>* out) {
  for (size_t i = from; i < args.size(); ++i) {
    if (args[i].rfind("--", 0) != 0 || i + 1 >= args.size()) return false;
    (*out)[args[i]] = args[i + 1];
    ++i;
  }
  return true;
}

int Fail(const std::string& message, int code = 1) {
  std::fprintf(stderr, "tracewise auth: %s\n", message.c_str());
  return code;
}

int Issue(const std::map<std::string, std::string>& f) {
  auto get = [&](const char* k) { auto it = f.find(k); return it == f.end() ? std::string() : it->second; };
  const std::string tenant = get("--tenant"), role_name = get("--role"), config = get("--config");
  if (tenant.empty() || role_name.empty() || config.empty()) {
    PrintAuthUsage();
    return 2;
  }
  auto role = auth::ParseRole(role_name);
  if (!role.ok()) return Fail(std::string(role.status().message()), 2);
  auto key = auth::GenerateApiKey();
  if (!key.ok()) return Fail(std::string(key.status().message()));
  auth::ApiKeyEntry entry;
  entry.hash = auth::HashApiKey(*key);
  entry.tenant = tenant;
  entry.role = *role;
  entry.subject = get("--subject");
  entry.created = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  if (absl::Status s = auth::AppendApiKey(config, entry); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  std::printf("%s\n", key->c_str());
  std::fprintf(stderr,
               "tracewise auth: new %s key for tenant '%s' (id %s); only its hash is stored in %s.\n"
               "This is the only time the key is shown: send it as 'Authorization: Bearer <key>'.\n",
               auth::RoleName(*role), tenant.c_str(), auth::ApiKeyId(entry.hash).c_str(),
               config.c_str());
  return 0;
}

int List(const std::map<std::string, std::string>& f) {
  auto it = f.find("--config");
  if (it == f.end()) {
    PrintAuthUsage();
    return 2;
  }
  auto config = auth::LoadAuthConfig(it->second);
  if (!config.ok()) return Fail(std::string(config.status().message()));
  std::printf("%-14s %-20s %-9s %-20s %s\n", "key id", "tenant", "role", "subject", "created");
  for (const auth::ApiKeyEntry& k : config->api_keys) {
    std::printf("%-14s %-20s %-9s %-20s %s\n", auth::ApiKeyId(k.hash).c_str(), k.tenant.c_str(),
                auth::RoleName(k.role), k.subject.c_str(), k.created.c_str());
  }
  for (const auth::JwtKey& k : config->jwt.keys) {
    std::printf("JWT %s key%s (tenant claim '%s', role claim '%s')\n",
                auth::JwtAlgorithmName(k.algorithm), k.kid.empty() ? "" : (" " + k.kid).c_str(),
                config->jwt.tenant_claim.c_str(), config->jwt.role_claim.c_str());
  }
  return 0;
}

int Check(const std::map<std::string, std::string>& f) {
  auto it = f.find("--config");
  if (it == f.end()) {
    PrintAuthUsage();
    return 2;
  }
  auto config = auth::LoadAuthConfig(it->second);
  if (!config.ok()) return Fail(std::string(config.status().message()));
  std::printf("%s: %zu API keys, %zu JWT keys\n", it->second.c_str(), config->api_keys.size(),
              config->jwt.keys.size());
  std::string token;
  if (auto t = f.find("--token"); t != f.end()) token = t->second;
  if (token.empty() && std::getenv("TRACEWISE_TOKEN")) token = std::getenv("TRACEWISE_TOKEN");
  if (token.empty()) return 0;
  auto who = auth::Authenticator(*config).Authenticate("Bearer " + token);
  if (!who.ok()) return Fail(std::string(who.status().message()));
  std::printf("token: tenant '%s', role %s, subject '%s' (%s)\n", who->tenant.c_str(),
              auth::RoleName(who->role), who->subject.c_str(), who->method.c_str());
  return 0;
}

int Token(const std::map<std::string, std::string>& f) {
  auto get = [&](const char* k) { auto it = f.find(k); return it == f.end() ? std::string() : it->second; };
  const std::string tenant = get("--tenant"), role = get("--role");
  const std::string secret_file = get("--secret-file"), private_key = get("--private-key");
  if (tenant.empty() || role.empty() || secret_file.empty() == private_key.empty()) {
    PrintAuthUsage();
    return 2;
  }
  if (!auth::ParseRole(role).ok()) return Fail("unknown role '" + role + "'", 2);
  std::ifstream in(secret_file.empty() ? private_key : secret_file, std::ios::binary);
  if (!in) return Fail("cannot read " + (secret_file.empty() ? private_key : secret_file));
  std::ostringstream text;
  text << in.rdbuf();
  std::string material = text.str();
  if (!secret_file.empty()) {
    while (!material.empty() && (material.back() == '\n' || material.back() == '\r')) material.pop_back();
  }
  const int64_t ttl = get("--ttl").empty() ? 3600 : std::atoll(get("--ttl").c_str());
  const int64_t now = absl::ToUnixSeconds(absl::Now());
  nlohmann::json claims = {{"tenant", tenant},
                           {"role", role},
                           {"sub", get("--subject").empty() ? "tracewise-cli" : get("--subject")},
                           {"iat", now},
                           {"exp", now + ttl}};
  auto jwt = auth::SignJwt(secret_file.empty() ? auth::JwtAlgorithm::kRs256 : auth::JwtAlgorithm::kHs256,
                           material, claims.dump(), get("--kid"));
  if (!jwt.ok()) return Fail(std::string(jwt.status().message()));
  std::printf("%s\n", jwt->c_str());
  return 0;
}

}  // namespace

int RunAuth(const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    PrintAuthUsage();
    return args.empty() ? 2 : 0;
  }
  std::map<std::string, std::string> flags;
  if (!ParseFlags(args, 1, &flags)) {
    PrintAuthUsage();
    return 2;
  }
  if (args[0] == "issue") return Issue(flags);
  if (args[0] == "list") return List(flags);
  if (args[0] == "check") return Check(flags);
  if (args[0] == "token") return Token(flags);
  PrintAuthUsage();
  return 2;
}

}  // namespace tw::cli

#include "libs/auth/auth_config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace tw::auth {
namespace {

namespace fs = std::filesystem;

absl::Status Invalid(const std::string& where, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("auth config: ", where, ": ", what));
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string Resolve(const std::string& base_dir, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute() || base_dir.empty()) return path;
  return (fs::path(base_dir) / path).string();
}

absl::StatusOr<std::string> Scalar(const YAML::Node& node, const std::string& key,
                                   const std::string& where, bool required) {
  const YAML::Node value = node[key];
  if (!value) {
    if (required) return Invalid(where, absl::StrCat("'", key, "' is required"));
    return std::string();
  }
  if (!value.IsScalar()) return Invalid(where, absl::StrCat("'", key, "' must be a string"));
  return value.as<std::string>();
}

absl::StatusOr<int64_t> Integer(const std::string& text, const std::string& where) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(text, &v) || v < 0) return Invalid(where, absl::StrCat("'", text, "' is not a count"));
  return v;
}

absl::StatusOr<QuotaLimits> ParseLimits(const YAML::Node& node, const std::string& where) {
  QuotaLimits limits;
  if (!node) return limits;
  if (!node.IsMap()) return Invalid(where, "must be a map");
  for (const auto& item : node) {
    const std::string key = item.first.as<std::string>();
    const std::string text = item.second.IsScalar() ? item.second.as<std::string>() : "";
    const std::string at = absl::StrCat(where, ".", key);
    if (key == "stored_bytes") {
      ASSIGN_OR_RETURN(limits.stored_bytes, ParseByteSize(text));
    } else if (key == "concurrent_turns") {
      ASSIGN_OR_RETURN(limits.concurrent_turns, Integer(text, at));
    } else if (key == "requests_per_minute") {
      ASSIGN_OR_RETURN(limits.requests_per_minute, Integer(text, at));
    } else if (key == "llm_usd_per_day") {
      double usd = 0;
      if (!absl::SimpleAtod(text, &usd) || usd < 0 || !std::isfinite(usd)) {
        return Invalid(at, absl::StrCat("'", text, "' is not an amount in USD"));
      }
      limits.llm_micro_usd_per_day = static_cast<int64_t>(std::llround(usd * 1e6));
    } else {
      return Invalid(at, "unknown quota (stored_bytes, concurrent_turns, llm_usd_per_day, "
                         "requests_per_minute)");
    }
  }
  return limits;
}

absl::Status ParseJwt(const YAML::Node& node, const std::string& base_dir, JwtSettings* out) {
  if (!node.IsMap()) return Invalid("jwt", "must be a map");
  ASSIGN_OR_RETURN(out->issuer, Scalar(node, "issuer", "jwt", false));
  ASSIGN_OR_RETURN(out->audience, Scalar(node, "audience", "jwt", false));
  ASSIGN_OR_RETURN(const std::string leeway, Scalar(node, "leeway_seconds", "jwt", false));
  if (!leeway.empty()) {
    ASSIGN_OR_RETURN(out->leeway_seconds, Integer(leeway, "jwt.leeway_seconds"));
  }
  if (const YAML::Node claims = node["claims"]) {
    if (!claims.IsMap()) return Invalid("jwt.claims", "must be a map");
    ASSIGN_OR_RETURN(std::string tenant, Scalar(claims, "tenant", "jwt.claims", false));
    ASSIGN_OR_RETURN(std::string role, Scalar(claims, "role", "jwt.claims", false));
    ASSIGN_OR_RETURN(std::string subject, Scalar(claims, "subject", "jwt.claims", false));
    if (!tenant.empty()) out->tenant_claim = tenant;
    if (!role.empty()) out->role_claim = role;
    if (!subject.empty()) out->subject_claim = subject;
  }
  const YAML::Node keys = node["keys"];
  if (!keys || !keys.IsSequence() || keys.size() == 0) {
    return Invalid("jwt.keys", "a list of at least one verification key is required");
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string where = absl::StrCat("jwt.keys[", i, "]");
    JwtKey key;
    ASSIGN_OR_RETURN(const std::string alg, Scalar(keys[i], "algorithm", where, true));
    ASSIGN_OR_RETURN(key.kid, Scalar(keys[i], "kid", where, false));
    if (alg == "HS256") {
      key.algorithm = JwtAlgorithm::kHs256;
      ASSIGN_OR_RETURN(const std::string inline_secret, Scalar(keys[i], "secret", where, false));
      ASSIGN_OR_RETURN(const std::string file, Scalar(keys[i], "secret_file", where, false));
      if (inline_secret.empty() == file.empty()) {
        return Invalid(where, "HS256 needs exactly one of 'secret' and 'secret_file'");
      }
      if (!file.empty()) {
        ASSIGN_OR_RETURN(key.material, ReadFile(Resolve(base_dir, file)));
        while (!key.material.empty() && (key.material.back() == '\n' || key.material.back() == '\r')) {
          key.material.pop_back();
        }
      } else {
        key.material = inline_secret;
      }
      // RFC 7518 §3.2: an HS256 key at least as long as the hash output.
      if (key.material.size() < 32) return Invalid(where, "an HS256 secret needs at least 32 bytes");
    } else if (alg == "RS256") {
      key.algorithm = JwtAlgorithm::kRs256;
      ASSIGN_OR_RETURN(const std::string file, Scalar(keys[i], "public_key_file", where, true));
      ASSIGN_OR_RETURN(key.material, ReadFile(Resolve(base_dir, file)));
      if (key.material.find("-----BEGIN") == std::string::npos) {
        return Invalid(where, absl::StrCat(file, " is not a PEM public key"));
      }
    } else {
      return Invalid(where, absl::StrCat("algorithm '", alg, "' is not supported (HS256, RS256)"));
    }
    out->keys.push_back(std::move(key));
  }
  return absl::OkStatus();
}

}  // namespace

const char* JwtAlgorithmName(JwtAlgorithm alg) {
  return alg == JwtAlgorithm::kHs256 ? "HS256" : "RS256";
}

QuotaLimits QuotaSettings::For(const std::string& tenant) const {
  QuotaLimits limits = defaults;
  for (const auto& [name, o] : tenants) {
    if (name != tenant) continue;
    if (o.stored_bytes) limits.stored_bytes = o.stored_bytes;
    if (o.concurrent_turns) limits.concurrent_turns = o.concurrent_turns;
    if (o.llm_micro_usd_per_day) limits.llm_micro_usd_per_day = o.llm_micro_usd_per_day;
    if (o.requests_per_minute) limits.requests_per_minute = o.requests_per_minute;
  }
  return limits;
}

absl::StatusOr<int64_t> ParseByteSize(const std::string& text) {
  std::string t(absl::StripAsciiWhitespace(text));
  size_t digits = 0;
  while (digits < t.size() && (std::isdigit(static_cast<unsigned char>(t[digits])) || t[digits] == '.')) ++digits;
  double number = 0;
  if (digits == 0 || !absl::SimpleAtod(t.substr(0, digits), &number)) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a size (e.g. 10GiB)"));
  }
  std::string unit = absl::AsciiStrToLower(absl::StripAsciiWhitespace(t.substr(digits)));
  double scale = 1;
  if (unit.empty() || unit == "b") scale = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib") scale = 1024.0;
  else if (unit == "m" || unit == "mb" || unit == "mib") scale = 1024.0 * 1024;
  else if (unit == "g" || unit == "gb" || unit == "gib") scale = 1024.0 * 1024 * 1024;
  else if (unit == "t" || unit == "tb" || unit == "tib") scale = 1024.0 * 1024 * 1024 * 1024;
  else return absl::InvalidArgumentError(absl::StrCat("'", text, "': unknown unit '", unit, "'"));
  return static_cast<int64_t>(number * scale);
}

absl::StatusOr<AuthConfig> ParseAuthConfig(const std::string& yaml, const std::string& base_dir) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("auth config is not valid YAML: ", e.what()));
  }
  AuthConfig config;
  if (root.IsNull()) return Invalid("(top)", "the file is empty: add api_keys or jwt");
  if (!root.IsMap()) return Invalid("(top)", "must be a map");
  try {
    for (const auto& item : root) {
      const std::string key = item.first.as<std::string>();
      if (key != "api_keys" && key != "jwt" && key != "quotas" && key != "audit_log") {
        return Invalid(key, "unknown section (api_keys, jwt, quotas, audit_log)");
      }
    }
    if (const YAML::Node keys = root["api_keys"]) {
      if (!keys.IsSequence()) return Invalid("api_keys", "must be a list");
      for (size_t i = 0; i < keys.size(); ++i) {
        const std::string where = absl::StrCat("api_keys[", i, "]");
        ApiKeyEntry e;
        ASSIGN_OR_RETURN(e.hash, Scalar(keys[i], "hash", where, true));
        if (e.hash.rfind("sha256:", 0) != 0 || e.hash.size() != 7 + 64) {
          return Invalid(where, "hash must be sha256:<64 hex digits> (tracewise auth issue writes it)");
        }
        ASSIGN_OR_RETURN(e.tenant, Scalar(keys[i], "tenant", where, true));
        if (e.tenant.empty()) return Invalid(where, "tenant must not be empty");
        ASSIGN_OR_RETURN(const std::string role, Scalar(keys[i], "role", where, true));
        auto parsed = ParseRole(role);
        if (!parsed.ok()) return Invalid(where, std::string(parsed.status().message()));
        e.role = *parsed;
        ASSIGN_OR_RETURN(e.subject, Scalar(keys[i], "subject", where, false));
        ASSIGN_OR_RETURN(e.created, Scalar(keys[i], "created", where, false));
        config.api_keys.push_back(std::move(e));
      }
    }
    if (const YAML::Node jwt = root["jwt"]) RETURN_IF_ERROR(ParseJwt(jwt, base_dir, &config.jwt));
    if (const YAML::Node quotas = root["quotas"]) {
      if (!quotas.IsMap()) return Invalid("quotas", "must be a map");
      ASSIGN_OR_RETURN(config.quotas.defaults, ParseLimits(quotas["default"], "quotas.default"));
      if (const YAML::Node tenants = quotas["tenants"]) {
        if (!tenants.IsMap()) return Invalid("quotas.tenants", "must be a map of tenant → limits");
        for (const auto& t : tenants) {
          const std::string name = t.first.as<std::string>();
          ASSIGN_OR_RETURN(QuotaLimits limits, ParseLimits(t.second, "quotas.tenants." + name));
          config.quotas.tenants.emplace_back(name, limits);
        }
      }
    }
    ASSIGN_OR_RETURN(const std::string audit, Scalar(root, "audit_log", "audit_log", false));
    config.audit_log = Resolve(base_dir, audit);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("auth config: ", e.what()));
  }
  if (config.api_keys.empty() && config.jwt.keys.empty()) {
    return Invalid("(top)", "no api_keys and no jwt keys: nobody could authenticate");
  }
  return config;
}

absl::StatusOr<AuthConfig> LoadAuthConfig(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text, ReadFile(path));
  const std::string base = fs::path(path).parent_path().string();
  ASSIGN_OR_RETURN(AuthConfig config, ParseAuthConfig(text, base));
  config.path = path;
  return config;
}

absl::Status AppendApiKey(const std::string& path, const ApiKeyEntry& entry) {
  YAML::Node root;
  std::error_code ec;
  if (fs::exists(path, ec)) {
    try {
      root = YAML::LoadFile(path);
    } catch (const YAML::Exception& e) {
      return absl::InvalidArgumentError(absl::StrCat(path, " is not valid YAML: ", e.what()));
    }
    if (!root.IsNull() && !root.IsMap()) return absl::InvalidArgumentError(absl::StrCat(path, " is not a YAML map"));
  }
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  YAML::Node key(YAML::NodeType::Map);
  key["hash"] = entry.hash;
  key["tenant"] = entry.tenant;
  key["role"] = RoleName(entry.role);
  if (!entry.subject.empty()) key["subject"] = entry.subject;
  if (!entry.created.empty()) key["created"] = entry.created;
  root["api_keys"].push_back(key);

  YAML::Emitter emitter;
  emitter << root;
  const std::string text = absl::StrCat(
      "# Tracewise auth config (--auth-config). API keys are stored as SHA-256 hashes only.\n",
      emitter.c_str(), "\n");
  // The result must still be a config the services accept.
  if (auto check = ParseAuthConfig(text, fs::path(path).parent_path().string()); !check.ok()) {
    return check.status();
  }
  const std::string temp = absl::StrCat(path, ".tmp.", ::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return absl::PermissionDeniedError(absl::StrCat("cannot write ", temp));
  const ssize_t written = ::write(fd, text.data(), text.size());
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()) || !synced ||
      ::rename(temp.c_str(), path.c_str()) != 0) {
    ::unlink(temp.c_str());
    return absl::InternalError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

}  // namespace tw::auth

#include "libs/llm/provider_errors.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"

namespace tw::llm {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string StringField(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

bool Contains(const std::string& haystack, const char* needle) {
  return haystack.find(needle) != std::string::npos;
}

bool LooksLikeContextTooLong(const ProviderError& e) {
  const std::string m = Lower(e.message);
  return e.code == "context_length_exceeded" || Contains(m, "context length") ||
         Contains(m, "context_length") || Contains(m, "context window") ||
         Contains(m, "prompt is too long") || Contains(m, "too many tokens") ||
         Contains(m, "maximum context") || Contains(m, "input is too long") ||
         Contains(m, "exceeds the model");
}

bool LooksLikeUnknownModel(const ProviderError& e) {
  const std::string m = Lower(e.message);
  return e.code == "model_not_found" ||
         (Contains(m, "model") && (Contains(m, "not found") || Contains(m, "does not exist") ||
                                   Contains(m, "not exist") || Contains(m, "unknown")));
}

std::string Detail(const ProviderError& e) {
  if (e.message.empty()) return "";
  return absl::StrCat(": ", e.message);
}

std::string AfterAttempts(int attempts) {
  if (attempts <= 0) return "";
  return absl::StrCat(" after ", attempts, attempts == 1 ? " attempt" : " attempts");
}

}  // namespace

ProviderError ParseProviderError(const std::string& body) {
  ProviderError out;
  nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object()) {
    auto err = j.find("error");
    if (err != j.end() && err->is_object()) {
      out.type = StringField(*err, "type");
      out.message = StringField(*err, "message");
      if (auto code = err->find("code"); code != err->end()) {
        out.code = code->is_string() ? code->get<std::string>()
                                     : (code->is_number() ? code->dump() : "");
      }
      return out;
    }
    if (err != j.end() && err->is_string()) {  // Ollama and friends: {"error": "..."}
      out.message = err->get<std::string>();
      return out;
    }
    out.message = StringField(j, "message");
    if (!out.message.empty()) return out;
  }
  constexpr size_t kMaxRaw = 300;
  out.message = body.size() > kMaxRaw ? body.substr(0, kMaxRaw) + "..." : body;
  while (!out.message.empty() && std::isspace(static_cast<unsigned char>(out.message.back()))) {
    out.message.pop_back();
  }
  return out;
}

int HttpStatusForErrorType(const ProviderError& e) {
  const std::string& t = e.type;
  if (t == "overloaded_error") return 529;
  if (t == "rate_limit_error" || t == "rate_limit_exceeded" || e.code == "rate_limit_exceeded") {
    return 429;
  }
  if (t == "insufficient_quota") return 429;
  if (t == "authentication_error" || t == "invalid_api_key" || e.code == "invalid_api_key") {
    return 401;
  }
  if (t == "permission_error") return 403;
  if (t == "not_found_error") return 404;
  if (t == "request_too_large") return 413;
  if (t == "invalid_request_error") return 400;
  return 500;  // api_error, server_error, or unknown: a server-side failure
}

absl::Status HttpErrorToStatus(const std::string& provider, const std::string& model,
                               int http_status, const ProviderError& e, int attempts) {
  const std::string who = absl::StrCat(provider, " (HTTP ", http_status, ")");
  if (http_status == 401) {
    return absl::UnauthenticatedError(
        absl::StrCat(who, ": API key rejected — check TRACEWISE_LLM_API_KEY", Detail(e)));
  }
  if (http_status == 403) {
    return absl::PermissionDeniedError(
        absl::StrCat(who, ": API key lacks permission for model '", model, "'", Detail(e)));
  }
  if (LooksLikeContextTooLong(e)) {
    return absl::InvalidArgumentError(
        absl::StrCat(who, ": context too long for model '", model, "'", Detail(e)));
  }
  if (http_status == 404 || LooksLikeUnknownModel(e)) {
    return absl::NotFoundError(absl::StrCat(who, ": unknown model '", model,
                                            "' or wrong endpoint URL", Detail(e)));
  }
  if (http_status == 429 && (e.type == "insufficient_quota" || e.code == "insufficient_quota")) {
    return absl::ResourceExhaustedError(
        absl::StrCat(who, ": quota exhausted (billing), not retried", Detail(e)));
  }
  if (http_status == 429) {
    return absl::ResourceExhaustedError(
        absl::StrCat(who, ": rate limited", AfterAttempts(attempts), Detail(e)));
  }
  if (http_status == 413) {
    return absl::InvalidArgumentError(absl::StrCat(who, ": request too large", Detail(e)));
  }
  if (http_status >= 400 && http_status < 500) {
    return absl::InvalidArgumentError(absl::StrCat(who, ": request rejected", Detail(e)));
  }
  const char* what = (http_status == 529 || e.type == "overloaded_error") ? "server overloaded"
                                                                          : "server error";
  return absl::UnavailableError(absl::StrCat(who, ": ", what, AfterAttempts(attempts), Detail(e)));
}

std::string RedactSecrets(std::string text, const std::string& secret) {
  if (secret.size() >= 4) {
    for (size_t pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos)) {
      text.replace(pos, secret.size(), "[redacted]");
    }
  }
  // Providers echo (partly masked) keys in their messages ("Incorrect API key provided:
  // sk-abc*****xyz"): hide any token that starts like a key.
  for (const char* prefix : {"sk-", "sk_"}) {
    size_t pos = 0;
    while ((pos = text.find(prefix, pos)) != std::string::npos) {
      if (pos > 0 && (std::isalnum(static_cast<unsigned char>(text[pos - 1])))) {
        ++pos;
        continue;
      }
      size_t end = pos;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
             text[end] != '"' && text[end] != '\'' && text[end] != ',' && text[end] != '.') {
        ++end;
      }
      if (end - pos >= 8) {
        text.replace(pos, end - pos, "[redacted]");
        pos += 10;
      } else {
        pos = end;
      }
    }
  }
  return text;
}

absl::Status RedactSecrets(const absl::Status& status, const std::string& secret) {
  if (status.ok()) return status;
  return absl::Status(status.code(), RedactSecrets(std::string(status.message()), secret));
}

}  // namespace tw::llm

#include "libs/auth/audit_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace tw::auth {

absl::StatusOr<std::unique_ptr<AuditLog>> AuditLog::Open(const std::string& path) {
  auto log = std::make_unique<AuditLog>();
  if (path.empty()) return log;
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  log->fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log->fd_ < 0) return absl::PermissionDeniedError(absl::StrCat("cannot open audit log ", path));
  log->path_ = path;
  return log;
}

AuditLog::~AuditLog() {
  if (fd_ >= 0) ::close(fd_);
}

void AuditLog::Record(const Identity& who, const std::string& action, const std::string& object,
                      const std::string& outcome, const std::string& detail) {
  if (fd_ < 0) return;
  nlohmann::json line = {
      {"ts", absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone())},
      {"tenant", who.tenant},
      {"subject", who.subject},
      {"role", RoleName(who.role)},
      {"method", who.method},
      {"action", action},
      {"object", object},
      {"outcome", outcome}};
  if (!who.key_id.empty()) line["key_id"] = who.key_id;
  if (!detail.empty()) line["detail"] = detail;
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    std::call_once(warned_, [&] {
      std::fprintf(stderr, "tracewise: cannot write the audit log %s\n", path_.c_str());
    });
  }
}

}  // namespace tw::auth

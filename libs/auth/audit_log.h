#pragma once
// Who did what: one JSON object per line, appended (O_APPEND, one write per record, so lines
// from several threads or processes never interleave), e.g.
//   {"ts":"2026-11-26T15:04:05.123Z","tenant":"acme","subject":"ci-bot","role":"uploader",
//    "method":"api_key","key_id":"3f9a…","action":"upload","object":"trace/ab12…",
//    "outcome":"ok","detail":"name=app.pftrace bytes=1048576"}
// Actions: upload, ask, export, delete (and their refusals: outcome = the status code name).
// A log that cannot be written is reported on stderr once, never fails the request.

#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "libs/auth/identity.h"

namespace tw::auth {

class AuditLog {
 public:
  // A log that records nothing (no path configured).
  AuditLog() = default;
  static absl::StatusOr<std::unique_ptr<AuditLog>> Open(const std::string& path);
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  void Record(const Identity& who, const std::string& action, const std::string& object,
              const std::string& outcome, const std::string& detail = "");
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
  std::once_flag warned_;
};

}  // namespace tw::auth

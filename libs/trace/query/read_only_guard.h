#pragma once
// Keeps a trace's tables read-only for callers while letting them build their own scratch
// objects. Several callers share one connection per trace, so a write to `slice` (or a TEMP
// object shadowing it) would silently change every later answer.
//
// The guard is an SQLite authorizer. While disabled (the prelude and standard-library modules,
// which are our own SQL) everything is allowed; once enabled it denies:
//   - INSERT/UPDATE/DELETE/DROP/ALTER/CREATE TRIGGER on protected objects (the intrinsic tables,
//     everything the prelude created, everything modules created);
//   - creating any object (main or temp) under a protected name, which would shadow it;
//   - ATTACH/DETACH, PRAGMAs that set a value, and load_extension().
// Objects callers create themselves stay fully writable and droppable.

#include <sqlite3.h>

#include <string>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace tw {

class ReadOnlyGuard {
 public:
  // Installs the authorizer on `db`, disabled.
  explicit ReadOnlyGuard(sqlite3* db);
  ~ReadOnlyGuard();  // removes it
  ReadOnlyGuard(const ReadOnlyGuard&) = delete;
  ReadOnlyGuard& operator=(const ReadOnlyGuard&) = delete;

  void set_enabled(bool enabled) { enabled_ = enabled; }
  bool enabled() const { return enabled_; }

  // Case-insensitive. Names starting with "__intrinsic_" are always protected.
  void Protect(std::string_view name);
  bool IsProtected(std::string_view name) const;

  // SQLite rejects UPDATE/DELETE on a view before consulting the authorizer, with a generic
  // message; this check of the statement's write target (see WriteTargetOf) comes first so
  // such writes are PERMISSION_DENIED too. OK for "" and unprotected names, or when disabled.
  absl::Status CheckWriteTarget(std::string_view target) const;

  // Why the authorizer last said no (empty if it did not), for PERMISSION_DENIED messages.
  // Clear before each prepare.
  const std::string& last_denial() const { return last_denial_; }
  void ClearDenial() { last_denial_.clear(); }

 private:
  static int Authorize(void* self, int action, const char* a1, const char* a2, const char* db,
                       const char* trigger);
  int Decide(int action, const char* a1, const char* a2);
  int Deny(std::string message);

  sqlite3* db_;
  bool enabled_ = false;
  absl::flat_hash_set<std::string> protected_;  // lower-case
  std::string last_denial_;
};

}  // namespace tw

#include "libs/trace/query/read_only_guard.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// SQLite writes its schema tables itself while running CREATE/DROP/ALTER, and reports those
// writes to the authorizer; the statement itself was already judged by its CREATE/DROP code.
bool IsSchemaTable(std::string_view name) { return StartsWith(name, "sqlite_"); }

// PRAGMAs whose argument names what to read (a table, an index) rather than a value to set.
bool IsQueryPragma(std::string_view pragma) {
  static constexpr std::string_view kQueryPragmas[] = {
      "table_info",     "table_xinfo",      "table_list",     "index_info",  "index_xinfo",
      "index_list",     "foreign_key_list", "function_list",  "module_list", "pragma_list",
      "collation_list", "database_list",    "compile_options"};
  const std::string p = Lower(pragma);
  return std::find(std::begin(kQueryPragmas), std::end(kQueryPragmas), p) !=
         std::end(kQueryPragmas);
}

std::string Quoted(const char* name) { return absl::StrCat("'", name ? name : "", "'"); }

}  // namespace

ReadOnlyGuard::ReadOnlyGuard(sqlite3* db) : db_(db) {
  sqlite3_set_authorizer(db_, &ReadOnlyGuard::Authorize, this);
}

ReadOnlyGuard::~ReadOnlyGuard() { sqlite3_set_authorizer(db_, nullptr, nullptr); }

void ReadOnlyGuard::Protect(std::string_view name) { protected_.insert(Lower(name)); }

bool ReadOnlyGuard::IsProtected(std::string_view name) const {
  const std::string lower = Lower(name);
  return StartsWith(lower, "__intrinsic_") || protected_.contains(lower);
}

absl::Status ReadOnlyGuard::CheckWriteTarget(std::string_view target) const {
  if (!enabled_ || target.empty() || !IsProtected(target)) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      "trace table '", absl::string_view(target.data(), target.size()), "' is read-only"));
}

int ReadOnlyGuard::Authorize(void* self, int action, const char* a1, const char* a2,
                             const char* /*db*/, const char* /*trigger*/) {
  auto* guard = static_cast<ReadOnlyGuard*>(self);
  if (!guard->enabled_) return SQLITE_OK;
  return guard->Decide(action, a1, a2);
}

int ReadOnlyGuard::Deny(std::string message) {
  last_denial_ = std::move(message);
  return SQLITE_DENY;
}

int ReadOnlyGuard::Decide(int action, const char* a1, const char* a2) {
  auto is_protected = [&](const char* name) { return name && IsProtected(name); };
  auto read_only = [&](const char* name) {
    return Deny(absl::StrCat("trace table ", Quoted(name), " is read-only"));
  };
  switch (action) {
    // a1: the table written to.
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
      if (a1 && IsSchemaTable(a1)) return SQLITE_OK;
      return is_protected(a1) ? read_only(a1) : SQLITE_OK;

    // a1: the object dropped (for indexes and triggers a2 is their table).
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_VIEW:
    case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_VTABLE:
    case SQLITE_DROP_INDEX:
    case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_TEMP_TRIGGER:
      return is_protected(a1) ? read_only(a1) : SQLITE_OK;

    // a1: the new object. Creating one under a protected name would shadow the trace's (TEMP
    // objects are found first).
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_VTABLE:
    case SQLITE_CREATE_INDEX:
    case SQLITE_CREATE_TEMP_INDEX:
      if (is_protected(a1)) {
        return Deny(absl::StrCat(Quoted(a1), " is a trace table name and cannot be redefined"));
      }
      return SQLITE_OK;

    // a1: the trigger, a2: its table. A trigger on a trace table (an INSTEAD OF trigger on a
    // view, say) would make it writable.
    case SQLITE_CREATE_TRIGGER:
    case SQLITE_CREATE_TEMP_TRIGGER:
      if (is_protected(a1)) {
        return Deny(absl::StrCat(Quoted(a1), " is a trace table name and cannot be redefined"));
      }
      return is_protected(a2) ? read_only(a2) : SQLITE_OK;

    case SQLITE_ALTER_TABLE:  // a1: database, a2: table
      return is_protected(a2) ? read_only(a2) : SQLITE_OK;

    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      return Deny("ATTACH and DETACH are not allowed on a trace database");

    case SQLITE_PRAGMA:  // a1: pragma, a2: its argument or NULL
      if (a2 == nullptr || IsQueryPragma(a1 ? a1 : "")) return SQLITE_OK;
      return Deny(absl::StrCat("PRAGMA ", a1 ? a1 : "",
                               " with a value is not allowed on a "
                               "trace database"));

    case SQLITE_FUNCTION:  // a2: function name
      if (a2 && Lower(a2) == "load_extension") {
        return Deny("load_extension() is not allowed on a trace database");
      }
      return SQLITE_OK;

    default:
      return SQLITE_OK;
  }
}

}  // namespace tw

#include "libs/trace/query/bounded_printf.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// SQLite's printf on a connection of this thread's own, one cached statement per argument count.
class PlainPrintf {
 public:
  ~PlainPrintf() {
    for (auto& [argc, stmt] : stmts_) sqlite3_finalize(stmt);
    if (db_) sqlite3_close(db_);
  }
  sqlite3_stmt* For(int argc) {
    auto it = stmts_.find(argc);
    if (it != stmts_.end()) return it->second;
    if (!db_ && sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                                nullptr) != SQLITE_OK) {
      return nullptr;
    }
    sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, 64 << 20);
    std::string sql = "SELECT printf(";
    for (int i = 1; i <= argc; ++i) absl::StrAppend(&sql, i > 1 ? "," : "", "?", i);
    sql += ")";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
      return nullptr;
    }
    stmts_[argc] = stmt;
    return stmt;
  }
  const char* error() const { return db_ ? sqlite3_errmsg(db_) : "cannot open"; }

 private:
  sqlite3* db_ = nullptr;
  std::map<int, sqlite3_stmt*> stmts_;
};

thread_local PlainPrintf plain;

// Reads a width or precision at `fmt[*i]`: digits or '*' (the next argument). False when larger
// than the bound.
bool BoundedNumber(const unsigned char* fmt, size_t* i, int argc, sqlite3_value** argv, int* next_arg) {
  if (fmt[*i] == '*') {
    ++*i;
    if (*next_arg < argc) {
      const sqlite3_int64 v = sqlite3_value_int64(argv[(*next_arg)++]);
      if (v > kMaxPrintfWidth || v < -kMaxPrintfWidth) return false;
    }
    return true;
  }
  sqlite3_int64 v = 0;
  while (std::isdigit(fmt[*i])) {
    v = v * 10 + (fmt[(*i)++] - '0');
    if (v > kMaxPrintfWidth) return false;
  }
  return true;
}

bool WithinBounds(const unsigned char* fmt, int argc, sqlite3_value** argv) {
  int next_arg = 1;
  for (size_t i = 0; fmt[i]; ++i) {
    if (fmt[i] != '%') continue;
    ++i;
    if (fmt[i] == '%') continue;
    while (fmt[i] && std::strchr("-+ #0,!", fmt[i])) ++i;
    if (!BoundedNumber(fmt, &i, argc, argv, &next_arg)) return false;
    if (fmt[i] == '.') {
      ++i;
      if (!BoundedNumber(fmt, &i, argc, argv, &next_arg)) return false;
    }
    while (fmt[i] == 'l') ++i;
    if (!fmt[i]) break;
    ++next_arg;  // the conversion's own argument
  }
  return true;
}

void BoundedPrintf(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 1) return sqlite3_result_null(ctx);
  const unsigned char* fmt = sqlite3_value_text(argv[0]);
  if (fmt == nullptr) return sqlite3_result_null(ctx);
  if (!WithinBounds(fmt, argc, argv)) {
    const std::string message =
        absl::StrCat("printf: a width or precision above ", kMaxPrintfWidth, " is not allowed");
    return sqlite3_result_error(ctx, message.c_str(), -1);
  }
  sqlite3_stmt* stmt = plain.For(argc);
  if (stmt == nullptr) return sqlite3_result_error(ctx, plain.error(), -1);
  for (int i = 0; i < argc; ++i) sqlite3_bind_value(stmt, i + 1, argv[i]);
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));  // copies
  } else {
    sqlite3_result_error(ctx, plain.error(), -1);
    sqlite3_result_error_code(ctx, rc);
  }
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
}

}  // namespace

absl::Status RegisterBoundedPrintf(sqlite3* db) {
  for (const char* name : {"printf", "format"}) {
    if (sqlite3_create_function_v2(db, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                   &BoundedPrintf, nullptr, nullptr, nullptr) != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("cannot register ", name, ": ", sqlite3_errmsg(db)));
    }
  }
  return absl::OkStatus();
}

}  // namespace tw

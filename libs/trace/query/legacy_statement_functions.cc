#include "libs/trace/query/legacy_statement_functions.h"

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

std::string_view Text(sqlite3_value* v) {
  const unsigned char* s = sqlite3_value_text(v);
  return s ? std::string_view(reinterpret_cast<const char*>(s),
                              static_cast<size_t>(sqlite3_value_bytes(v)))
           : std::string_view();
}

std::vector<LegacyStatement>* QueueOf(sqlite3_context* ctx) {
  return static_cast<std::vector<LegacyStatement>*>(sqlite3_user_data(ctx));
}

// These functions act like statements with no output: their value is marked void, so a shell
// printing every statement's result skips them (QueryOptions::every_output). SQL sees NULL.
void ResultVoid(sqlite3_context* ctx) {
  static char marker;
  sqlite3_result_pointer(ctx, &marker, kVoidPointerType, nullptr);
}

// Every argument must be a string: anything else is a caller's mistake worth an error now,
// rather than a confusing PerfettoSQL error after the statement.
bool AllText(sqlite3_context* ctx, const char* fn, int argc, sqlite3_value** argv) {
  for (int i = 0; i < argc; ++i) {
    if (sqlite3_value_type(argv[i]) != SQLITE_TEXT) {
      sqlite3_result_error(ctx, absl::StrCat(fn, ": argument ", i + 1, " must be a string").c_str(),
                           -1);
      return false;
    }
  }
  return true;
}

void CreateFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (!AllText(ctx, "CREATE_FUNCTION", argc, argv)) return;
  QueueOf(ctx)->push_back({LegacyStatement::Kind::kPerfettoSql,
                           LegacyCreateFunctionStatement(Text(argv[0]), Text(argv[1]),
                                                         Text(argv[2]))});
  ResultVoid(ctx);
}

void CreateViewFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (!AllText(ctx, "CREATE_VIEW_FUNCTION", argc, argv)) return;
  QueueOf(ctx)->push_back({LegacyStatement::Kind::kPerfettoSql,
                           LegacyCreateViewFunctionStatement(Text(argv[0]), Text(argv[1]),
                                                             Text(argv[2]))});
  ResultVoid(ctx);
}

void Import(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (!AllText(ctx, "IMPORT", argc, argv)) return;
  QueueOf(ctx)->push_back({LegacyStatement::Kind::kPerfettoSql,
                           "INCLUDE PERFETTO MODULE " + std::string(Text(argv[0]))});
  ResultVoid(ctx);
}

void Memoize(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (!AllText(ctx, "EXPERIMENTAL_MEMOIZE", argc, argv)) return;
  QueueOf(ctx)->push_back({LegacyStatement::Kind::kMemoize, std::string(Text(argv[0]))});
  ResultVoid(ctx);
}

}  // namespace

std::string LegacyCreateFunctionStatement(std::string_view prototype, std::string_view return_type,
                                          std::string_view body) {
  // OR REPLACE: old scripts define the same helper again (metrics that run twice).
  return "CREATE OR REPLACE PERFETTO FUNCTION " + std::string(prototype) + " RETURNS " +
         std::string(return_type) + " AS " + std::string(body);
}

std::string LegacyCreateViewFunctionStatement(std::string_view prototype,
                                              std::string_view columns, std::string_view body) {
  return "CREATE OR REPLACE PERFETTO FUNCTION " + std::string(prototype) + " RETURNS TABLE(" +
         std::string(columns) + ") AS " + std::string(body);
}

absl::Status RegisterLegacyStatementFunctions(sqlite3* db, std::vector<LegacyStatement>* queue) {
  struct Def {
    const char* name;
    int argc;
    void (*fn)(sqlite3_context*, int, sqlite3_value**);
  };
  for (const Def& d : {Def{"create_function", 3, CreateFunction},
                       Def{"create_view_function", 3, CreateViewFunction},
                       Def{"import", 1, Import}, Def{"experimental_memoize", 1, Memoize}}) {
    if (sqlite3_create_function_v2(db, d.name, d.argc, SQLITE_UTF8, queue, d.fn, nullptr, nullptr,
                                   nullptr) != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("cannot register ", d.name, ": ", sqlite3_errmsg(db)));
    }
  }
  return absl::OkStatus();
}

}  // namespace tw

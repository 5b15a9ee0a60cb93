#pragma once
// Perfetto SQL on top of SQLite. trace_processor's dialect adds a few statements to SQLite's
// (INCLUDE PERFETTO MODULE, CREATE PERFETTO TABLE/VIEW/INDEX/FUNCTION/MACRO) and `name!(...)`
// macro calls. This file turns that dialect into plain SQLite:
//   - SqlTokenizer / SplitSqlStatements: just enough lexing to never be fooled by strings,
//     quoted names or comments;
//   - MacroRegistry: textual macro expansion, run on each statement before anything else;
//   - ParsePerfettoStatement: recognises the Perfetto statements and what they define;
//   - PerfettoFunctions: the SQLite functions and table-valued functions that
//     CREATE PERFETTO FUNCTION defines (bodies run as nested statements with `$arg` bound).
// The database (trace_database.cc) drives these in order, statement by statement.

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tw {

// ---------------------------------------------------------------------------------------------
// Lexing

enum class SqlTokenType : uint8_t {
  kEnd,  // no more input
  kSpace,
  kComment,     // -- to end of line, or /* ... */
  kWord,        // identifier, keyword or number
  kString,      // '...'
  kQuotedName,  // "...", `...` or [...]
  kVariable,    // $name, :name, @name, ?NNN
  kPunct,       // one character, or "!=" (kept whole so `a!=b` is never a macro call)
};

struct SqlToken {
  SqlTokenType type = SqlTokenType::kEnd;
  std::string_view text;
  bool Is(std::string_view word) const;  // case-insensitive, words and punctuation only
  bool significant() const {
    return type != SqlTokenType::kSpace && type != SqlTokenType::kComment;
  }
};

// Unterminated strings and comments run to the end of the input; SQLite reports them later.
class SqlTokenizer {
 public:
  explicit SqlTokenizer(std::string_view sql, size_t pos = 0) : sql_(sql), pos_(pos) {}
  SqlToken Next();
  SqlToken NextSignificant();  // skips space and comments
  size_t offset() const { return pos_; }
  // Offset of `token` (which must come from this tokenizer's input) in the input.
  size_t OffsetOf(const SqlToken& token) const {
    return static_cast<size_t>(token.text.data() - sql_.data());
  }

 private:
  std::string_view sql_;
  size_t pos_;
};

struct SqlStatementText {
  std::string_view sql;  // from the first significant token up to (excluding) the ';'
  int line = 1;          // 1-based line of that first token in the whole input
};

// Splits a script at top-level ';'. Empty statements (only space or comments) are dropped.
// CREATE TRIGGER bodies, whose statements end in ';' too, stay whole until their "; END".
std::vector<SqlStatementText> SplitSqlStatements(std::string_view sql);

// The first line of `statement`'s text, trimmed and cut to `max_chars`, for error messages.
std::string FirstLineOf(std::string_view statement, size_t max_chars = 100);

// For INSERT / REPLACE / UPDATE / DELETE (after an optional WITH clause) and ALTER TABLE: the
// name of the table written to, unqualified and unquoted. Empty for anything else.
std::string WriteTargetOf(std::string_view statement);

// ---------------------------------------------------------------------------------------------
// Statements

struct SqlArgDef {
  std::string name;
  std::string type;  // as written, e.g. "LONG", "JOINID(thread.id)", "TableOrSubquery"
};

struct PerfettoStatement {
  enum class Kind : uint8_t {
    kSql,             // anything else: `sql` is run as is
    kInclude,         // INCLUDE PERFETTO MODULE `name` (may end in ".*" or be "*")
    kCreateTable,     // CREATE [OR REPLACE] PERFETTO TABLE name[(columns)] AS body
    kCreateView,      // CREATE [OR REPLACE] PERFETTO VIEW name[(columns)] AS body
    kCreateIndex,     // CREATE [OR REPLACE] PERFETTO INDEX name ON table(cols)
    kDropIndex,       // DROP PERFETTO INDEX name ON table
    kCreateFunction,  // CREATE [OR REPLACE] PERFETTO FUNCTION name(args) RETURNS ... AS body
    kCreateMacro,     // CREATE [OR REPLACE] PERFETTO MACRO name(args) RETURNS type AS body
  };
  Kind kind = Kind::kSql;
  std::string sql;       // kSql: the statement; table/view/index: the SQLite statement to run
  std::string drop_sql;  // OR REPLACE of a table/view/index: run first
  std::string name;      // object, module, function or macro name, unquoted
  bool or_replace = false;
  std::vector<SqlArgDef> args;     // function / macro arguments
  std::vector<SqlArgDef> columns;  // table / view schema, or RETURNS TABLE(...) columns
  bool returns_table = false;
  std::string return_type;  // scalar function / macro return type
  std::string body;         // the SELECT of a table/view/function, or the macro body
  std::string delegate;     // RETURNS x DELEGATES TO <delegate>: a scalar alias
  bool variadic = false;    // the last argument is `name TYPE...` (DELEGATES TO only)
};

// Errors: INVALID_ARGUMENT for a malformed Perfetto statement (plain SQL is never rejected
// here: SQLite judges it).
absl::StatusOr<PerfettoStatement> ParsePerfettoStatement(std::string_view sql);

// Checks a declared schema against the columns a SELECT really produces, as trace_processor
// does: the same set of names (order free), and no duplicate names in the SELECT.
absl::Status CheckDeclaredColumns(std::string_view object, const std::vector<SqlArgDef>& declared,
                                  const std::vector<std::string>& actual);

// ---------------------------------------------------------------------------------------------
// Macros

class MacroRegistry {
 public:
  // `trusted` marks prelude and module macros, which callers may not redefine. Errors:
  // INVALID_ARGUMENT (exists and not `replace`), PERMISSION_DENIED (redefining a trusted one).
  absl::Status Define(const PerfettoStatement& macro, bool trusted);

  // Expands every `name!(...)` in `sql`, including calls produced by expansions and the
  // intrinsic helpers (__intrinsic_stringify!, __intrinsic_token_apply!, ...).
  // Errors: INVALID_ARGUMENT (unknown macro, wrong arity, unbalanced call, runaway recursion).
  absl::StatusOr<std::string> Expand(std::string_view sql) const;

 private:
  struct Macro {
    std::vector<std::string> args;
    std::string body;
    bool trusted = false;
  };
  absl::StatusOr<std::string> ExpandAt(std::string_view sql, int depth) const;
  absl::StatusOr<std::string> ExpandCall(std::string_view name,
                                         const std::vector<std::string>& args, int depth) const;

  absl::flat_hash_map<std::string, Macro> macros_;  // by lower-case name
};

// ---------------------------------------------------------------------------------------------
// Functions defined in SQL

class PerfettoFunctions {
 public:
  explicit PerfettoFunctions(sqlite3* db);
  ~PerfettoFunctions();  // finalizes cached statements; call before closing the connection
  PerfettoFunctions(const PerfettoFunctions&) = delete;
  PerfettoFunctions& operator=(const PerfettoFunctions&) = delete;

  // Names callers may not define (SQLite's and our native functions, prelude and module ones).
  void Reserve(std::string_view name);

  // Registers a scalar function or an eponymous table-valued function. The body is prepared
  // once here to validate it (columns, `$arg` names). Errors: INVALID_ARGUMENT (bad body,
  // exists and not OR REPLACE), PERMISSION_DENIED (reserved name and not `trusted`).
  absl::Status Define(const PerfettoStatement& fn, bool trusted);

  // EXPERIMENTAL_MEMOIZE: from now on the one-argument scalar function `name` keeps its
  // non-NULL results by integer argument. Errors: INVALID_ARGUMENT (no such function).
  absl::Status Memoize(std::string_view name);

  struct Function;  // one definition; public so the SQLite callbacks can reach it

 private:
  absl::Status DefineScalar(Function* fn);
  absl::Status DefineTable(Function* fn);
  void FinalizeCachedStatements();

  sqlite3* db_;
  absl::flat_hash_set<std::string> reserved_;            // lower-case names
  absl::flat_hash_map<std::string, Function*> defined_;  // "name/argc" or "name/table"
  // Every definition ever made, replaced ones included: SQLite may still hold their pointers
  // until the connection closes.
  std::vector<std::unique_ptr<Function>> all_;
};

}  // namespace tw

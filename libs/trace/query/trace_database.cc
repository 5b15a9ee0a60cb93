#include "libs/trace/query/trace_database.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "libs/trace/query/perfetto_sql.h"
#include "libs/trace/query/bounded_printf.h"
#include "libs/trace/query/derived_tables.h"
#include "libs/trace/query/read_only_guard.h"
#include "libs/trace/query/legacy_statement_functions.h"
#include "libs/trace/query/regexp_functions.h"
#include "libs/trace/query/interval_intersect_table.h"
#include "libs/trace/query/slice_layout_table.h"
#include "libs/trace/query/experimental_flamegraph_table.h"
#include "libs/trace/query/span_join_table.h"
#include "libs/trace/query/flamegraph_table.h"
#include "libs/trace/query/stdlib_objects_table.h"
#include "libs/trace/query/table_info.h"
#include "libs/trace/query/sql_functions.h"
#include "libs/trace/query/table_vtab.h"
#include "libs/trace/query/window_functions.h"
#include "libs/trace/stdlib/stdlib.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {
namespace {

// How often (in SQLite VM instructions) the deadline and the cancel flag are looked at: often
// enough to stop within a millisecond or so, rarely enough to cost nothing.
constexpr int kProgressInterval = 1000;
// The largest single string or blob a statement may build (SQLite's own default is 1 GB).
constexpr int kMaxValueBytes = 64 << 20;

enum class StopReason { kNone, kDeadline, kCancelled };

absl::string_view Piece(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// Where the result of the statement being run goes: nowhere (prelude, modules, statements before
// the last) or into the caller's result, within its limits.
struct ResultSink {
  QueryResult* result;
  int64_t max_rows;
  int64_t max_bytes;
  const RowStream* stream = nullptr;
  int64_t streamed_rows = 0;
  bool void_result = false;  // the single column's first value came from a void function
};

// Whether trace_processor's shell prints this statement's result (QueryOptions::every_output).
bool HasOutput(const QueryResult& r, bool void_result) {
  if (r.columns.empty()) return false;
  if (r.columns.size() == 1 && (r.columns[0] == "suppress_query_output" || void_result)) {
    return false;
  }
  return true;
}

int BindValue(sqlite3_stmt* stmt, int index, const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull:
      return sqlite3_bind_null(stmt, index);
    case SqlValue::Type::kInt:
      return sqlite3_bind_int64(stmt, index, v.int_value);
    case SqlValue::Type::kDouble:
      return sqlite3_bind_double(stmt, index, v.double_value);
    case SqlValue::Type::kString:
      return sqlite3_bind_text(stmt, index, v.string_value.data(),
                               static_cast<int>(v.string_value.size()), SQLITE_TRANSIENT);
  }
  return SQLITE_MISUSE;
}

// Approximate size of a cell, for max_bytes.
int64_t CellBytes(const SqlValue& v) {
  return v.type == SqlValue::Type::kString ? static_cast<int64_t>(v.string_value.size()) + 1 : 8;
}

SqlValue ReadCell(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_INTEGER:
      return SqlValue::Int(sqlite3_column_int64(stmt, col));
    case SQLITE_FLOAT:
      return SqlValue::Double(sqlite3_column_double(stmt, col));
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return SqlValue::String(std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt, col))));
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
      const auto n = static_cast<size_t>(sqlite3_column_bytes(stmt, col));
      return SqlValue::String(p ? std::string(p, n) : std::string());
    }
    default:
      return SqlValue::Null();
  }
}

std::string QuoteName(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

// Finalizes on scope exit.
struct StmtCloser {
  sqlite3_stmt* stmt = nullptr;
  ~StmtCloser() { sqlite3_finalize(stmt); }
};

}  // namespace

struct TraceDatabase::Impl {
  TraceStorage* storage = nullptr;
  sqlite3* db = nullptr;
  // Derived tables (derived_tables.h) before the contexts that point at them, so the
  // contexts go first.
  std::vector<std::unique_ptr<Table>> derived_tables;
  std::vector<std::unique_ptr<TableVtabContext>> vtabs;
  std::unique_ptr<SqlFunctionContext> native_functions;
  MacroRegistry macros;
  std::unique_ptr<PerfettoFunctions> functions;
  std::unique_ptr<ReadOnlyGuard> guard;
  absl::flat_hash_set<std::string> included_modules;
  // What legacy statement functions (CREATE_FUNCTION, IMPORT, ...) asked for during the
  // statement now running; run when it finishes.
  std::vector<LegacyStatement> legacy_queue;
  // > 0 while our own SQL runs (prelude, modules): the guard is off and what it defines is
  // protected afterwards.
  int trusted_depth = 0;

  // Limits of the Execute in progress.
  absl::Time deadline = absl::InfiniteFuture();
  absl::Duration timeout = absl::InfiniteDuration();
  const std::atomic<bool>* cancelled = nullptr;
  const std::vector<std::pair<std::string, SqlValue>>* params = nullptr;
  bool every_output = false;
  StopReason stop = StopReason::kNone;

  bool trusted() const { return trusted_depth > 0; }

  static int OnProgress(void* self);
  absl::Status CheckStop();
  absl::Status SqliteError(int rc);

  absl::Status RunScript(std::string_view script, std::string_view origin, ResultSink* sink,
                         int* statement_count);
  absl::Status RunStatement(std::string_view text, ResultSink* sink);
  absl::Status RunLegacyQueue();
  absl::Status RunSql(std::string_view sql, ResultSink* sink);
  absl::Status Step(sqlite3_stmt* stmt, ResultSink* sink);
  absl::Status StepStreaming(sqlite3_stmt* stmt, ResultSink* sink);
  absl::StatusOr<std::vector<std::string>> ColumnsOf(std::string_view select);
  absl::Status CreateTableOrView(const PerfettoStatement& st);
  absl::Status Include(std::string_view name);
  absl::Status IncludeModule(const SqlModule& module);
  absl::StatusOr<absl::flat_hash_set<std::string>> SchemaObjectNames();
};

// Runs `body` with the guard off and definitions marked trusted.
template <typename Fn>
absl::Status RunTrusted(TraceDatabase::Impl& impl, Fn body) {
  ++impl.trusted_depth;
  impl.guard->set_enabled(false);
  absl::Status s = body();
  if (--impl.trusted_depth == 0) impl.guard->set_enabled(true);
  return s;
}

int TraceDatabase::Impl::OnProgress(void* self) {
  auto* impl = static_cast<Impl*>(self);
  if (impl->cancelled && impl->cancelled->load(std::memory_order_relaxed)) {
    impl->stop = StopReason::kCancelled;
    return 1;
  }
  if (impl->deadline != absl::InfiniteFuture() && absl::Now() > impl->deadline) {
    impl->stop = StopReason::kDeadline;
    return 1;
  }
  return 0;
}

absl::Status TraceDatabase::Impl::CheckStop() {
  if (stop == StopReason::kNone) {
    if (cancelled && cancelled->load(std::memory_order_relaxed)) {
      stop = StopReason::kCancelled;
    } else if (deadline != absl::InfiniteFuture() && absl::Now() > deadline) {
      stop = StopReason::kDeadline;
    }
  }
  switch (stop) {
    case StopReason::kNone:
      return absl::OkStatus();
    case StopReason::kCancelled:
      return absl::CancelledError("query was cancelled");
    case StopReason::kDeadline:
      return absl::DeadlineExceededError(
          absl::StrCat("query exceeded its deadline of ", absl::FormatDuration(timeout)));
  }
  return absl::OkStatus();
}

// Maps a failed prepare/step to a status. A stop we asked for wins over whatever error SQLite
// reports for it (an interrupt can surface as a plain error through nested statements).
absl::Status TraceDatabase::Impl::SqliteError(int rc) {
  if (stop != StopReason::kNone) return CheckStop();
  // The authorizer's reason, if it said no while preparing: SQLite reports some denials (of
  // functions, say) as plain errors.
  const std::string& why = guard->last_denial();
  if (!why.empty()) return absl::PermissionDeniedError(why);
  if ((rc & 0xff) == SQLITE_AUTH) return absl::PermissionDeniedError(sqlite3_errmsg(db));
  return absl::InvalidArgumentError(sqlite3_errmsg(db));
}

absl::Status TraceDatabase::Impl::RunScript(std::string_view script, std::string_view origin,
                                            ResultSink* sink, int* statement_count) {
  const std::vector<SqlStatementText> statements = SplitSqlStatements(script);
  for (size_t i = 0; i < statements.size(); ++i) {
    RETURN_IF_ERROR(CheckStop());
    const bool last = i + 1 == statements.size();
    // Statements before the last keep their rows only when every output is wanted.
    QueryResult earlier;
    ResultSink earlier_sink{&earlier, sink ? sink->max_rows : -1, sink ? sink->max_bytes : -1};
    const bool collect = every_output && sink != nullptr && sink->stream == nullptr;
    ResultSink* target = last ? sink : (collect ? &earlier_sink : nullptr);
    if (target) target->void_result = false;
    absl::Status s = RunStatement(statements[i].sql, target);
    // What the statement's legacy calls asked for takes effect before the next statement; a
    // statement that failed asked for nothing.
    if (s.ok()) {
      s = RunLegacyQueue();
    } else {
      legacy_queue.clear();
    }
    if (!s.ok()) {
      if (s.code() != absl::StatusCode::kInvalidArgument) return s;
      // Say where: which statement (and module), so a long script's error can be found.
      return absl::InvalidArgumentError(absl::StrCat(
          s.message(), " (", origin.empty() ? "" : absl::StrCat(Piece(origin), ", "), "statement ",
          i + 1, ", line ", statements[i].line, ": ", FirstLineOf(statements[i].sql), ")"));
    }
    if (statement_count) ++*statement_count;
    if (collect && HasOutput(*target->result, target->void_result)) {
      if (last) {
        QueryResult copy;
        copy.columns = sink->result->columns;
        copy.rows = sink->result->rows;
        copy.truncated = sink->result->truncated;
        sink->result->outputs.push_back(std::move(copy));
      } else {
        sink->result->outputs.push_back(std::move(earlier));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status TraceDatabase::Impl::RunLegacyQueue() {
  while (!legacy_queue.empty()) {
    std::vector<LegacyStatement> queued;
    queued.swap(legacy_queue);
    for (const LegacyStatement& q : queued) {
      absl::Status s = q.kind == LegacyStatement::Kind::kMemoize ? functions->Memoize(q.text)
                                                                 : RunStatement(q.text, nullptr);
      if (!s.ok()) {
        legacy_queue.clear();
        return s;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status TraceDatabase::Impl::RunStatement(std::string_view text, ResultSink* sink) {
  // A macro's body is kept as written: its `$args` and the calls in it are expanded at each use.
  auto raw = ParsePerfettoStatement(text);
  if (raw.ok() && raw->kind == PerfettoStatement::Kind::kCreateMacro) {
    return macros.Define(*raw, trusted());
  }
  ASSIGN_OR_RETURN(const std::string expanded, macros.Expand(text));
  ASSIGN_OR_RETURN(const PerfettoStatement st, ParsePerfettoStatement(expanded));
  using Kind = PerfettoStatement::Kind;
  switch (st.kind) {
    case Kind::kSql:
      return RunSql(st.sql, sink);
    case Kind::kInclude:
      return Include(st.name);
    case Kind::kCreateMacro:
      return macros.Define(st, trusted());
    case Kind::kCreateFunction:
      return functions->Define(st, trusted());
    case Kind::kCreateTable:
    case Kind::kCreateView:
      return CreateTableOrView(st);
    case Kind::kCreateIndex:
      if (!st.drop_sql.empty()) RETURN_IF_ERROR(RunSql(st.drop_sql, nullptr));
      return RunSql(st.sql, nullptr);
    case Kind::kDropIndex:
      return RunSql(st.sql, nullptr);
  }
  return absl::OkStatus();
}

absl::Status TraceDatabase::Impl::CreateTableOrView(const PerfettoStatement& st) {
  // Checked before anything is created or dropped, so a bad definition changes nothing.
  ASSIGN_OR_RETURN(const std::vector<std::string> columns, ColumnsOf(st.body));
  RETURN_IF_ERROR(CheckDeclaredColumns(st.name, st.columns, columns));
  if (!st.drop_sql.empty()) RETURN_IF_ERROR(RunSql(st.drop_sql, nullptr));
  RETURN_IF_ERROR(RunSql(st.sql, nullptr));
  if (st.kind != PerfettoStatement::Kind::kCreateTable) return absl::OkStatus();
  // SQL written for trace_processor relies on lookups by a Perfetto table's `id` being cheap
  // (its tables are sorted by id); an index gives SQLite's tables the same property.
  for (const std::string& c : columns) {
    if (c.size() == 2 && (c[0] | 0x20) == 'i' && (c[1] | 0x20) == 'd') {
      return RunSql(absl::StrCat("CREATE INDEX ", QuoteName(st.name + "_id_index"), " ON ",
                                 QuoteName(st.name), "(id)"),
                    nullptr);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> TraceDatabase::Impl::ColumnsOf(std::string_view select) {
  StmtCloser stmt;
  guard->ClearDenial();
  const int rc = sqlite3_prepare_v3(db, select.data(), static_cast<int>(select.size()), 0,
                                    &stmt.stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteError(rc);
  if (!stmt.stmt) return absl::InvalidArgumentError("expected a SELECT");
  std::vector<std::string> names;
  for (int i = 0; i < sqlite3_column_count(stmt.stmt); ++i) {
    const char* name = sqlite3_column_name(stmt.stmt, i);
    names.emplace_back(name ? name : "");
  }
  return names;
}

absl::Status TraceDatabase::Impl::RunSql(std::string_view sql, ResultSink* sink) {
  const char* tail = sql.data();
  const char* const end = sql.data() + sql.size();
  while (tail < end) {
    const std::string_view rest(tail, static_cast<size_t>(end - tail));
    if (!trusted()) RETURN_IF_ERROR(guard->CheckWriteTarget(WriteTargetOf(rest)));
    StmtCloser stmt;
    const char* next = nullptr;
    guard->ClearDenial();
    const int rc = sqlite3_prepare_v3(db, tail, static_cast<int>(end - tail), 0, &stmt.stmt, &next);
    if (rc != SQLITE_OK) return SqliteError(rc);
    tail = next ? next : end;
    if (!stmt.stmt) continue;  // only space or comments
    if (params && !trusted()) {
      for (const auto& [name, value] : *params) {
        const int index = sqlite3_bind_parameter_index(stmt.stmt, absl::StrCat(":", name).c_str());
        if (index > 0 && BindValue(stmt.stmt, index, value) != SQLITE_OK) return SqliteError(SQLITE_ERROR);
      }
    }
    // TRACEWISE_SQL_PROFILE=1 prints each statement's time on stderr (module includes too):
    // where a slow skill or module spends its time.
    static const bool profile = std::getenv("TRACEWISE_SQL_PROFILE") != nullptr;
    const auto started = profile ? absl::Now() : absl::InfinitePast();
    RETURN_IF_ERROR(Step(stmt.stmt, sink));
    if (profile) {
      std::string text = absl::StrJoin(absl::StrSplit(sqlite3_sql(stmt.stmt), absl::ByAnyChar("\n "),
                                                      absl::SkipEmpty()),
                                       " ");
      std::fprintf(stderr, "[sql %8.2f ms] %.110s\n",
                   absl::ToDoubleMilliseconds(absl::Now() - started), text.c_str());
    }
  }
  return absl::OkStatus();
}

absl::Status TraceDatabase::Impl::Step(sqlite3_stmt* stmt, ResultSink* sink) {
  QueryResult* result = sink ? sink->result : nullptr;
  const int ncols = sqlite3_column_count(stmt);
  if (result) {
    result->columns.clear();
    result->rows.clear();
    result->truncated = false;
    for (int i = 0; i < ncols; ++i) {
      const char* name = sqlite3_column_name(stmt, i);
      result->columns.emplace_back(name ? name : "");
    }
  }
  if (result && sink->stream) return StepStreaming(stmt, sink);
  int64_t bytes = 0;
  for (;;) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return SqliteError(rc);
    if (!result) continue;
    // A limit only truncates when a row beyond it really exists, hence the check on arrival.
    if (sink->max_rows >= 0 && static_cast<int64_t>(result->rows.size()) >= sink->max_rows) {
      result->truncated = true;
      break;
    }
    if (ncols == 1 && result->rows.empty()) {
      sink->void_result =
          sqlite3_value_pointer(sqlite3_column_value(stmt, 0), kVoidPointerType) != nullptr;
    }
    std::vector<SqlValue> row;
    row.reserve(static_cast<size_t>(ncols));
    int64_t row_bytes = 0;
    for (int i = 0; i < ncols; ++i) {
      row.push_back(ReadCell(stmt, i));
      row_bytes += CellBytes(row.back());
    }
    if (sink->max_bytes >= 0 && bytes + row_bytes > sink->max_bytes) {
      result->truncated = true;
      break;
    }
    bytes += row_bytes;
    result->rows.push_back(std::move(row));
  }
  return absl::OkStatus();
}

absl::Status TraceDatabase::Impl::StepStreaming(sqlite3_stmt* stmt, ResultSink* sink) {
  const RowStream& stream = *sink->stream;
  const int ncols = sqlite3_column_count(stmt);
  const size_t batch_rows = std::max<size_t>(1, stream.batch_rows);
  std::vector<std::vector<SqlValue>> batch;
  batch.reserve(batch_rows);
  auto stopped_by_consumer = [&] {
    stop = StopReason::kCancelled;
    return absl::CancelledError("the result's consumer stopped the query");
  };
  if (stream.on_columns && !stream.on_columns(sink->result->columns)) return stopped_by_consumer();
  for (;;) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return SqliteError(rc);
    if (sink->max_rows >= 0 && sink->streamed_rows >= sink->max_rows) {
      sink->result->truncated = true;
      break;
    }
    std::vector<SqlValue> row;
    row.reserve(static_cast<size_t>(ncols));
    for (int i = 0; i < ncols; ++i) row.push_back(ReadCell(stmt, i));
    batch.push_back(std::move(row));
    ++sink->streamed_rows;
    if (batch.size() >= batch_rows) {
      if (!stream.on_rows(std::move(batch))) return stopped_by_consumer();
      batch.clear();
      batch.reserve(batch_rows);
      RETURN_IF_ERROR(CheckStop());
    }
  }
  if (!batch.empty() && !stream.on_rows(std::move(batch))) return stopped_by_consumer();
  return absl::OkStatus();
}

absl::Status TraceDatabase::Impl::Include(std::string_view name) {
  if (name == "*" || (name.size() > 2 && name.substr(name.size() - 2) == ".*")) {
    // Wildcards include whatever exists under the prefix; none is not an error.
    const std::string_view prefix = name == "*" ? "" : name.substr(0, name.size() - 1);
    for (const SqlModule* m : SqlModulesWithPrefix(prefix)) RETURN_IF_ERROR(IncludeModule(*m));
    return absl::OkStatus();
  }
  const SqlModule* module = FindSqlModule(name);
  // trace_processor's own prelude modules are named differently from ours; whatever they hold,
  // ours (all included at open) already provide.
  if (!module && name.substr(0, 8) == "prelude.") return absl::OkStatus();
  if (!module) {
    return absl::InvalidArgumentError(absl::StrCat("unknown module '", Piece(name), "'"));
  }
  return IncludeModule(*module);
}

absl::Status TraceDatabase::Impl::IncludeModule(const SqlModule& module) {
  const std::string name(module.name);
  if (!included_modules.insert(name).second) return absl::OkStatus();  // once per database
  ASSIGN_OR_RETURN(const auto before, SchemaObjectNames());
  absl::Status s = RunTrusted(*this, [&] {
    return RunScript(module.sql, absl::StrCat("module '", name, "'"), nullptr, nullptr);
  });
  if (!s.ok()) {
    included_modules.erase(name);
    return s;
  }
  // What the module created is read-only for callers, like the prelude's views.
  ASSIGN_OR_RETURN(const auto after, SchemaObjectNames());
  for (const std::string& object : after) {
    if (!before.contains(object)) guard->Protect(object);
  }
  return absl::OkStatus();
}

absl::StatusOr<absl::flat_hash_set<std::string>> TraceDatabase::Impl::SchemaObjectNames() {
  static constexpr char kSql[] =
      "SELECT name FROM sqlite_schema UNION ALL SELECT name FROM sqlite_temp_schema";
  StmtCloser stmt;
  int rc = sqlite3_prepare_v3(db, kSql, -1, 0, &stmt.stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteError(rc);
  absl::flat_hash_set<std::string> names;
  while ((rc = sqlite3_step(stmt.stmt)) == SQLITE_ROW) {
    names.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt.stmt, 0)));
  }
  if (rc != SQLITE_DONE) return SqliteError(rc);
  return names;
}

absl::StatusOr<std::unique_ptr<TraceDatabase>> TraceDatabase::Open(TraceStorage* storage) {
  std::unique_ptr<TraceDatabase> self(new TraceDatabase());
  self->storage_ = storage;
  self->impl_ = std::make_unique<Impl>();
  Impl& impl = *self->impl_;
  impl.storage = storage;

  // NOMUTEX: the connection is only used under mu_.
  const int rc =
      sqlite3_open_v2(":memory:", &self->db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    return absl::InternalError(absl::StrCat("cannot open SQLite: ", sqlite3_errstr(rc)));
  }
  sqlite3* db = self->db_;
  impl.db = db;
  sqlite3_extended_result_codes(db, 1);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);  // no writable_schema tricks
  // Hostile SQL (issue #16): no other database may be attached (VACUUM INTO attaches one too,
  // and would write a file), one value cannot grow past kMaxValueBytes (a doubling recursive
  // CTE ends in "string or blob too big", not in an exhausted process), and triggers on the
  // caller's own tables cannot recurse deeply.
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
  sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 16);
  sqlite3_exec(db, "PRAGMA temp_store = MEMORY", nullptr, nullptr, nullptr);

  for (Table* table : storage->AllTables()) {
    auto ctx = std::make_unique<TableVtabContext>();
    ctx->table = table;
    ctx->strings = &storage->strings();
    ctx->indexes = std::make_unique<TableIndexCache>(table, &storage->strings());
    RETURN_IF_ERROR(RegisterTableVtab(db, ctx.get()));
    impl.vtabs.push_back(std::move(ctx));
  }
  for (DerivedTable& derived : MakeDerivedTables(storage)) {
    auto ctx = std::make_unique<TableVtabContext>();
    ctx->table = derived.table.get();
    ctx->strings = &storage->strings();
    ctx->indexes = std::make_unique<TableIndexCache>(derived.table.get(), &storage->strings());
    ctx->fill = std::move(derived.fill);
    RETURN_IF_ERROR(RegisterTableVtab(db, ctx.get()));
    impl.vtabs.push_back(std::move(ctx));
    impl.derived_tables.push_back(std::move(derived.table));
  }
  impl.native_functions = std::make_unique<SqlFunctionContext>(storage);
  RETURN_IF_ERROR(RegisterSqlFunctions(db, impl.native_functions.get()));
  RETURN_IF_ERROR(RegisterBoundedPrintf(db));
  RETURN_IF_ERROR(RegisterSpanJoinModules(db));
  RETURN_IF_ERROR(RegisterFlamegraphModule(db));
  RETURN_IF_ERROR(RegisterStdlibObjectsTable(db));
  RETURN_IF_ERROR(RegisterTableInfoFunction(db));
  RETURN_IF_ERROR(RegisterSliceLayoutFunction(db));
  RETURN_IF_ERROR(RegisterExperimentalFlamegraph(db, storage));
  RETURN_IF_ERROR(RegisterIntervalIntersect(db));
  RETURN_IF_ERROR(RegisterLegacyStatementFunctions(db, &impl.legacy_queue));
  RETURN_IF_ERROR(RegisterWindowFunctions(db));
  RETURN_IF_ERROR(RegisterRegexpFunctions(db));

  // Every function and virtual-table module existing now (SQLite's and ours, the intrinsic
  // tables included) is off limits for CREATE PERFETTO FUNCTION: a table function is a module,
  // and replacing `__intrinsic_slice` would swap the trace's data under every view.
  impl.functions = std::make_unique<PerfettoFunctions>(db);
  for (const char* sql :
       {"SELECT DISTINCT name FROM pragma_function_list", "SELECT name FROM pragma_module_list"}) {
    StmtCloser stmt;
    if (sqlite3_prepare_v3(db, sql, -1, 0, &stmt.stmt, nullptr) != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("cannot list functions: ", sqlite3_errmsg(db)));
    }
    while (sqlite3_step(stmt.stmt) == SQLITE_ROW) {
      impl.functions->Reserve(reinterpret_cast<const char*>(sqlite3_column_text(stmt.stmt, 0)));
    }
  }

  impl.guard = std::make_unique<ReadOnlyGuard>(db);
  sqlite3_progress_handler(db, kProgressInterval, &Impl::OnProgress, &impl);

  // Every `prelude.*` module (trace_processor's public views and built-in helpers, written in
  // SQL: libs/trace/stdlib/prelude), marked as included so a later INCLUDE of one is a no-op.
  absl::Status prelude = RunTrusted(impl, [&]() -> absl::Status {
    for (const SqlModule* m : SqlModulesWithPrefix("prelude.")) {
      RETURN_IF_ERROR(impl.IncludeModule(*m));
    }
    return absl::OkStatus();
  });
  if (!prelude.ok()) {
    return absl::InternalError(absl::StrCat("prelude failed: ", prelude.message()));
  }
  // Everything in the schema now is the trace's; callers' objects come later.
  ASSIGN_OR_RETURN(const auto names, impl.SchemaObjectNames());
  for (const std::string& name : names) impl.guard->Protect(name);
  impl.guard->set_enabled(true);
  return self;
}

int64_t TraceDatabase::memory_bytes() {
  int64_t total = 0;
  if (impl_) {
    for (const auto& ctx : impl_->vtabs) total += static_cast<int64_t>(ctx->indexes->memory_bytes());
  }
  // The connection is opened without SQLite's own mutex: read its counters only when no
  // statement runs on it.
  std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
  if (lock.owns_lock() && db_) {
    int64_t sqlite = 0;
    for (int op : {SQLITE_DBSTATUS_CACHE_USED, SQLITE_DBSTATUS_SCHEMA_USED, SQLITE_DBSTATUS_STMT_USED}) {
      int current = 0, high = 0;
      if (sqlite3_db_status(db_, op, &current, &high, 0) == SQLITE_OK) sqlite += current;
    }
    sqlite_bytes_ = sqlite;
  }
  return total + sqlite_bytes_;
}

TraceDatabase::~TraceDatabase() {
  if (impl_) {
    impl_->functions.reset();  // finalizes cached statements
    impl_->guard.reset();
  }
  if (db_) {
    // Nothing should be left unfinalized, but a zombie connection would outlive the vtab
    // contexts it points at: finalize stragglers and close for real.
    while (sqlite3_stmt* stmt = sqlite3_next_stmt(db_, nullptr)) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }
}

absl::StatusOr<QueryResult> TraceDatabase::Execute(std::string_view sql,
                                                   const QueryOptions& options) {
  std::lock_guard<std::mutex> lock(mu_);
  Impl& impl = *impl_;
  const absl::Time start = absl::Now();
  impl.timeout = options.timeout;
  impl.deadline = options.timeout == absl::InfiniteDuration() ? absl::InfiniteFuture()
                                                              : start + options.timeout;
  impl.cancelled = options.cancelled;
  impl.params = options.params.empty() ? nullptr : &options.params;
  impl.every_output = options.every_output;
  impl.stop = StopReason::kNone;

  QueryResult result;
  ResultSink sink{&result, options.max_rows, options.max_bytes, options.stream};
  absl::Status s = impl.RunScript(sql, "", &sink, &result.statement_count);

  // A transaction left open would leak into the next caller's statements on this shared
  // connection.
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  impl.cancelled = nullptr;
  impl.params = nullptr;
  impl.deadline = absl::InfiniteFuture();
  impl.stop = StopReason::kNone;
  if (!s.ok()) return s;
  result.elapsed_ns = absl::ToInt64Nanoseconds(absl::Now() - start);
  return result;
}

absl::StatusOr<QueryResult> TraceDatabase::ListTablesAndViews() {
  // Names starting with '_' are private by trace_processor's convention (and cover
  // __intrinsic_*); sqlite_* are SQLite's own.
  static constexpr std::string_view kSql = R"sql(
    SELECT name, type FROM (
      SELECT name, type FROM sqlite_schema
      UNION ALL
      SELECT name, type FROM sqlite_temp_schema
    )
    WHERE type IN ('table', 'view')
      AND substr(name, 1, 1) != '_'
      AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
    ORDER BY name
  )sql";
  return Execute(kSql);
}

}  // namespace tw

#include "libs/trace/query/span_join_table.h"

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "libs/common/status_macros.h"
#include "libs/trace/query/span_join_sweep.h"
#include "libs/trace/query/sql_value.h"

namespace tw {
namespace {

std::string Quote(absl::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

bool SameName(absl::string_view a, absl::string_view b) { return absl::EqualsIgnoreCase(a, b); }

// One input table as the CREATE named it, with what its columns turned out to be.
struct SideDefinition {
  std::string table;
  std::string partition_column;  // empty: unpartitioned
  struct Column {
    std::string name;
    std::string declared_type;
  };
  std::vector<Column> columns;      // every column of the table
  int ts_index = -1;
  int dur_index = -1;               // -1: no dur column, every span is an instant
  int partition_index = -1;
  std::vector<int> passed_through;  // the columns x shows as its own, in table order

  bool partitioned() const { return !partition_column.empty(); }
};

absl::StatusOr<SideDefinition> ParseSide(absl::string_view argument) {
  std::vector<std::string> words =
      absl::StrSplit(argument, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  SideDefinition side;
  if (words.size() == 1) {
    side.table = words[0];
  } else if (words.size() == 3 && SameName(words[1], "PARTITIONED")) {
    side.table = words[0];
    side.partition_column = words[2];
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "SPAN_JOIN: expected 'table' or 'table PARTITIONED column', got '", argument, "'"));
  }
  for (std::string* name : {&side.table, &side.partition_column}) {
    if (name->size() >= 2 && (name->front() == '"' || name->front() == '`') &&
        name->back() == name->front()) {
      *name = name->substr(1, name->size() - 2);
    }
  }
  if (SameName(side.partition_column, "ts") || SameName(side.partition_column, "dur")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SPAN_JOIN: the partition column of table ", side.table, " cannot be ts or dur"));
  }
  return side;
}

// Reads the table's columns (a view's too) and finds ts, dur and the partition among them.
absl::Status ResolveColumns(sqlite3* db, SideDefinition& side) {
  const std::string sql = absl::StrCat("SELECT * FROM ", Quote(side.table), " LIMIT 0");
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    const std::string why = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return absl::InvalidArgumentError(
        absl::StrCat("SPAN_JOIN: cannot read table ", side.table, ": ", why));
  }
  for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
    const char* name = sqlite3_column_name(stmt, i);
    const char* type = sqlite3_column_decltype(stmt, i);
    side.columns.push_back({name ? name : "", type ? type : ""});
  }
  sqlite3_finalize(stmt);
  for (int i = 0; i < static_cast<int>(side.columns.size()); ++i) {
    const std::string& name = side.columns[static_cast<size_t>(i)].name;
    if (SameName(name, "ts")) {
      side.ts_index = i;
    } else if (SameName(name, "dur")) {
      side.dur_index = i;
    } else if (side.partitioned() && SameName(name, side.partition_column)) {
      side.partition_index = i;
    } else {
      side.passed_through.push_back(i);
    }
  }
  if (side.ts_index < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("SPAN_JOIN: table ", side.table, " has no ts column"));
  }
  if (side.partitioned() && side.partition_index < 0) {
    return absl::InvalidArgumentError(absl::StrCat("SPAN_JOIN: table ", side.table,
                                                   " has no partition column '",
                                                   side.partition_column, "'"));
  }
  return absl::OkStatus();
}

// One side's rows, read for one query: the spans to sweep and the passed-through values.
struct SideData {
  SpanJoinInput input;
  std::vector<SqlValue> values;  // row-major, side.passed_through.size() per row
};

SqlValue ReadValue(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_INTEGER:
      return SqlValue::Int(sqlite3_column_int64(stmt, col));
    case SQLITE_FLOAT:
      return SqlValue::Double(sqlite3_column_double(stmt, col));
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
      return SqlValue::String(
          p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt, col))) : "");
    }
    default:
      return SqlValue::Null();
  }
}

absl::StatusOr<SideData> ReadSide(sqlite3* db, const SideDefinition& side) {
  // Only the columns the join needs, in a fixed order: ts, dur, partition, passed-through.
  std::vector<std::string> select = {Quote(side.columns[static_cast<size_t>(side.ts_index)].name)};
  select.push_back(side.dur_index >= 0
                       ? Quote(side.columns[static_cast<size_t>(side.dur_index)].name)
                       : "0");
  select.push_back(side.partitioned()
                       ? Quote(side.columns[static_cast<size_t>(side.partition_index)].name)
                       : "0");
  for (int i : side.passed_through) select.push_back(Quote(side.columns[static_cast<size_t>(i)].name));
  const std::string sql =
      absl::StrCat("SELECT ", absl::StrJoin(select, ", "), " FROM ", Quote(side.table));
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    const std::string why = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return absl::InvalidArgumentError(
        absl::StrCat("SPAN_JOIN: cannot read table ", side.table, ": ", why));
  }
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> closer(stmt, sqlite3_finalize);
  SideData data;
  data.input.partitioned = side.partitioned();
  const size_t width = side.passed_through.size();
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    InputSpan span;
    if (side.partitioned()) {
      const int type = sqlite3_column_type(stmt, 2);
      if (type == SQLITE_NULL) continue;  // a row outside every partition
      if (type != SQLITE_INTEGER) {
        return absl::InvalidArgumentError(
            absl::StrCat("SPAN_JOIN: partition column '", side.partition_column, "' of table ",
                         side.table, " holds a non-integer value (HASH() a string partition)"));
      }
      span.partition = sqlite3_column_int64(stmt, 2);
    }
    // NULL ts/dur read as 0, as trace_processor reads them (a LEAD()-made dur is NULL on the
    // last row: that span is an instant).
    span.ts = sqlite3_column_int64(stmt, 0);
    span.dur = sqlite3_column_int64(stmt, 1);
    span.row = static_cast<uint32_t>(data.input.spans.size());
    data.input.spans.push_back(span);
    for (size_t c = 0; c < width; ++c) data.values.push_back(ReadValue(stmt, static_cast<int>(c) + 3));
  }
  if (rc != SQLITE_DONE) {
    return absl::InvalidArgumentError(
        absl::StrCat("SPAN_JOIN: reading table ", side.table, ": ", sqlite3_errmsg(db)));
  }
  SortSpans(data.input.spans);
  return data;
}

struct SpanJoinVtab : sqlite3_vtab {
  sqlite3* db = nullptr;
  SpanJoinType type = SpanJoinType::kInner;
  SideDefinition left, right;
  bool has_partition_column = false;
};

struct SpanJoinCursor : sqlite3_vtab_cursor {
  SideData left, right;
  std::unique_ptr<SpanJoinSweep> sweep;
  JoinedSpan current;
  bool eof = true;
  sqlite3_int64 rowid = 0;
};

absl::StatusOr<std::unique_ptr<SpanJoinVtab>> Define(sqlite3* db, SpanJoinType type, int argc,
                                                     const char* const* argv) {
  // argv: module name, database name, table name, then the CREATE's arguments.
  if (argc != 5) {
    return absl::InvalidArgumentError(
        absl::StrCat("SPAN_JOIN: expected two tables, got ", argc - 3, " arguments"));
  }
  auto vtab = std::make_unique<SpanJoinVtab>();
  vtab->db = db;
  vtab->type = type;
  ASSIGN_OR_RETURN(vtab->left, ParseSide(argv[3]));
  ASSIGN_OR_RETURN(vtab->right, ParseSide(argv[4]));
  SideDefinition& l = vtab->left;
  SideDefinition& r = vtab->right;
  if (l.partitioned() && r.partitioned() && !SameName(l.partition_column, r.partition_column)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SPAN_JOIN: both tables must be partitioned on the same column (", l.table,
                     " on ", l.partition_column, ", ", r.table, " on ", r.partition_column, ")"));
  }
  RETURN_IF_ERROR(ResolveColumns(db, l));
  RETURN_IF_ERROR(ResolveColumns(db, r));
  if (l.dur_index < 0 && r.dur_index < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("SPAN_JOIN: neither ", l.table, " nor ", r.table, " has a dur column"));
  }
  vtab->has_partition_column = l.partitioned() || r.partitioned();
  // Every output column name must be unique: the partition and both sides' own columns.
  std::vector<std::string> seen = {"ts", "dur"};
  if (vtab->has_partition_column) {
    seen.push_back(l.partitioned() ? l.partition_column : r.partition_column);
  }
  for (const SideDefinition* side : {&l, &r}) {
    for (int i : side->passed_through) {
      const std::string& name = side->columns[static_cast<size_t>(i)].name;
      for (const std::string& other : seen) {
        if (SameName(name, other)) {
          return absl::InvalidArgumentError(absl::StrCat("SPAN_JOIN: column ", name,
                                                         " is present in both tables ", l.table,
                                                         " and ", r.table));
        }
      }
      seen.push_back(name);
    }
  }
  return vtab;
}

std::string DeclareSql(const SpanJoinVtab& vtab) {
  std::vector<std::string> columns = {"ts BIGINT", "dur BIGINT"};
  if (vtab.has_partition_column) {
    columns.push_back(absl::StrCat(
        Quote(vtab.left.partitioned() ? vtab.left.partition_column : vtab.right.partition_column),
        " BIGINT"));
  }
  for (const SideDefinition* side : {&vtab.left, &vtab.right}) {
    for (int i : side->passed_through) {
      const SideDefinition::Column& c = side->columns[static_cast<size_t>(i)];
      columns.push_back(absl::StrCat(Quote(c.name), " ", c.declared_type));
    }
  }
  return absl::StrCat("CREATE TABLE x(", absl::StrJoin(columns, ", "), ")");
}

template <SpanJoinType kType>
int Create(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out,
           char** error) {
  auto vtab = Define(db, kType, argc, argv);
  if (!vtab.ok()) {
    *error = sqlite3_mprintf("%s", std::string(vtab.status().message()).c_str());
    return SQLITE_ERROR;
  }
  const int rc = sqlite3_declare_vtab(db, DeclareSql(**vtab).c_str());
  if (rc != SQLITE_OK) {
    *error = sqlite3_mprintf("SPAN_JOIN: %s", sqlite3_errmsg(db));
    return rc;
  }
  *out = vtab->release();
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<SpanJoinVtab*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  // Every query reads both inputs whole; SQLite checks the constraints on the output.
  info->estimatedCost = 1e6;
  info->estimatedRows = 100000;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new SpanJoinCursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete static_cast<SpanJoinCursor*>(cursor);
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* c) {
  auto* cursor = static_cast<SpanJoinCursor*>(c);
  cursor->eof = !cursor->sweep->Next(&cursor->current);
  ++cursor->rowid;
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* c, int, const char*, int, sqlite3_value**) {
  auto* cursor = static_cast<SpanJoinCursor*>(c);
  auto* vtab = static_cast<SpanJoinVtab*>(c->pVtab);
  for (auto [def, data] : {std::pair{&vtab->left, &cursor->left}, {&vtab->right, &cursor->right}}) {
    absl::StatusOr<SideData> read = ReadSide(vtab->db, *def);
    if (!read.ok()) {
      sqlite3_free(vtab->zErrMsg);
      vtab->zErrMsg = sqlite3_mprintf("%s", std::string(read.status().message()).c_str());
      return SQLITE_ERROR;
    }
    *data = std::move(*read);
  }
  cursor->sweep = std::make_unique<SpanJoinSweep>(&cursor->left.input, &cursor->right.input,
                                                  vtab->type);
  cursor->rowid = 0;
  return Next(c);
}

int Eof(sqlite3_vtab_cursor* c) { return static_cast<SpanJoinCursor*>(c)->eof ? 1 : 0; }

void ResultValue(sqlite3_context* ctx, const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull:
      sqlite3_result_null(ctx);
      return;
    case SqlValue::Type::kInt:
      sqlite3_result_int64(ctx, v.int_value);
      return;
    case SqlValue::Type::kDouble:
      sqlite3_result_double(ctx, v.double_value);
      return;
    case SqlValue::Type::kString:
      sqlite3_result_text(ctx, v.string_value.data(), static_cast<int>(v.string_value.size()),
                          SQLITE_TRANSIENT);
      return;
  }
}

int Column(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  auto* cursor = static_cast<SpanJoinCursor*>(c);
  auto* vtab = static_cast<SpanJoinVtab*>(c->pVtab);
  const JoinedSpan& span = cursor->current;
  if (col == 0) {
    sqlite3_result_int64(ctx, span.ts);
    return SQLITE_OK;
  }
  if (col == 1) {
    sqlite3_result_int64(ctx, span.dur);
    return SQLITE_OK;
  }
  size_t index = static_cast<size_t>(col - 2);
  if (vtab->has_partition_column) {
    if (index == 0) {
      sqlite3_result_int64(ctx, span.partition);
      return SQLITE_OK;
    }
    --index;
  }
  const size_t left_width = vtab->left.passed_through.size();
  const bool from_left = index < left_width;
  const int64_t row = from_left ? span.left_row : span.right_row;
  if (!from_left) index -= left_width;
  if (row == JoinedSpan::kNoRow) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  const SideData& data = from_left ? cursor->left : cursor->right;
  const size_t width = from_left ? left_width : vtab->right.passed_through.size();
  ResultValue(ctx, data.values[static_cast<size_t>(row) * width + index]);
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* c, sqlite3_int64* out) {
  *out = static_cast<SpanJoinCursor*>(c)->rowid;
  return SQLITE_OK;
}

template <SpanJoinType kType>
sqlite3_module MakeModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.iVersion = 1;
  m.xCreate = Create<kType>;
  m.xConnect = Create<kType>;
  m.xBestIndex = BestIndex;
  m.xDisconnect = Disconnect;
  m.xDestroy = Disconnect;
  m.xOpen = Open;
  m.xClose = Close;
  m.xFilter = Filter;
  m.xNext = Next;
  m.xEof = Eof;
  m.xColumn = Column;
  m.xRowid = Rowid;
  return m;
}

const sqlite3_module kInnerModule = MakeModule<SpanJoinType::kInner>();
const sqlite3_module kLeftModule = MakeModule<SpanJoinType::kLeft>();
const sqlite3_module kOuterModule = MakeModule<SpanJoinType::kOuter>();

}  // namespace

absl::Status RegisterSpanJoinModules(sqlite3* db) {
  for (auto [name, module] : {std::pair{"span_join", &kInnerModule},
                              {"span_left_join", &kLeftModule},
                              {"span_outer_join", &kOuterModule}}) {
    const int rc = sqlite3_create_module_v2(db, name, module, nullptr, nullptr);
    if (rc != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("cannot register ", name, ": ", sqlite3_errstr(rc)));
    }
  }
  return absl::OkStatus();
}

}  // namespace tw

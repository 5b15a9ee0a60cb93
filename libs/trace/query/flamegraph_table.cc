#include "libs/trace/query/flamegraph_table.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/trace/query/flamegraph.h"
#include "libs/trace/query/flamegraph_tree.h"

namespace tw {
namespace {

using flamegraph::Column;
using flamegraph::kNoRow;

constexpr char kConfigPointerType[] = "tw_flamegraph_config";
constexpr char kFindFunction[] = "__intrinsic_flamegraph_find";
// The constraint op __intrinsic_flamegraph_find(_tree_id, ...) becomes in xBestIndex.
constexpr int kFindOp = SQLITE_INDEX_CONSTRAINT_FUNCTION + 1;
constexpr int kSuperRootPlan = 1;

enum FixedColumn {
  kConfig = 0,
  kTreeId,
  kTreeParentId,
  kDepth,
  kName,
  kSelfValue,
  kCumulativeValue,
  kParentCumulativeValue,
  kXStart,
  kXEnd,
  kFirstProperty,
};
constexpr const char* kFixedNames[] = {"in_config", "_tree_id", "_tree_parent_id", "depth",
                                       "name", "self_value", "cumulative_value",
                                       "parent_cumulative_value", "x_start", "x_end"};

// What CREATE read: the source tree and the schema derived from it.
struct SourceState {
  flamegraph::Tree tree;
  std::vector<std::string> properties;  // source columns after id, parent_id, name, value
  std::vector<std::string> numeric_properties;
  double value_sum = 0;
};

struct ModuleContext {
  absl::flat_hash_map<std::string, std::shared_ptr<const SourceState>> tables;
};

struct FlamegraphVtab : sqlite3_vtab {
  ModuleContext* context = nullptr;
  std::string name;
  std::shared_ptr<const SourceState> state;
};

struct FlamegraphCursor : sqlite3_vtab_cursor {
  std::unique_ptr<flamegraph::Result> result;
  const flamegraph::ResultColumn* self = nullptr;
  const flamegraph::ResultColumn* cumulative = nullptr;
  std::vector<const flamegraph::ResultColumn*> by_schema;  // schema column -> result column
  bool super_root = false;
  uint32_t row = 0;
};

std::string Quote(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

absl::StatusOr<std::shared_ptr<const SourceState>> ReadSource(sqlite3* db, const char* source) {
  const std::string sql = absl::StrCat("SELECT * FROM ", source);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return absl::InvalidArgumentError(absl::StrCat("flamegraph: ", sqlite3_errmsg(db)));
  }
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> closer(stmt, sqlite3_finalize);
  const int columns = sqlite3_column_count(stmt);
  std::vector<std::string> names;
  for (int c = 0; c < columns; ++c) names.emplace_back(sqlite3_column_name(stmt, c));
  if (columns < 4 || names[0] != "id" || names[1] != "parent_id" || names[2] != "name" ||
      names[3] != "value") {
    return absl::InvalidArgumentError(
        "flamegraph: first source columns must be id, parent_id, name, value");
  }
  for (int c = 4; c < columns; ++c) {
    for (const char* fixed : kFixedNames) {
      if (names[c] == fixed) {
        return absl::InvalidArgumentError(
            absl::StrCat("flamegraph: reserved property column '", names[c], "'"));
      }
    }
  }
  flamegraph::TreeBuilder builder(names);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int c = 0; c < columns; ++c) {
      const size_t col = static_cast<size_t>(c);
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_INTEGER:
          builder.AddInt(col, sqlite3_column_int64(stmt, c));
          break;
        case SQLITE_FLOAT:
          builder.AddDouble(col, sqlite3_column_double(stmt, c));
          break;
        case SQLITE_TEXT:
          builder.AddString(col, std::string_view(
                                     reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                                     static_cast<size_t>(sqlite3_column_bytes(stmt, c))));
          break;
        case SQLITE_BLOB:
          return builder.AddBlob(col);
        default:
          builder.AddNull(col);
      }
    }
  }
  if (rc != SQLITE_DONE) {
    return absl::InvalidArgumentError(absl::StrCat("flamegraph: ", sqlite3_errmsg(db)));
  }
  auto state = std::make_shared<SourceState>();
  ASSIGN_OR_RETURN(state->tree, std::move(builder).Finish());
  const Column& value = state->tree.columns[3];
  if (state->tree.rows > 0 && !value.numeric()) {
    return absl::InvalidArgumentError("flamegraph: value column must be numeric");
  }
  for (uint32_t r = 0; r < state->tree.rows; ++r) {
    if (!value.IsNull(r)) state->value_sum += value.AsDouble(r);
  }
  for (int c = 4; c < columns; ++c) {
    state->properties.push_back(names[c]);
    if (state->tree.columns[c].numeric()) state->numeric_properties.push_back(names[c]);
  }
  return std::shared_ptr<const SourceState>(std::move(state));
}

std::string Schema(const SourceState& s) {
  std::string schema =
      "CREATE TABLE x(in_config BLOB HIDDEN, _tree_id BIGINT, _tree_parent_id BIGINT, "
      "depth BIGINT, name TEXT, self_value, cumulative_value, parent_cumulative_value, "
      "x_start, x_end";
  for (const std::string& p : s.properties) absl::StrAppend(&schema, ", ", Quote(p));
  for (const std::string& v : s.numeric_properties) {
    absl::StrAppend(&schema, ", ", Quote("self_" + v), ", ", Quote("cumulative_" + v));
  }
  return schema + ")";
}

int Fail(char** err, const absl::Status& status) {
  *err = sqlite3_mprintf("%s", std::string(status.message()).c_str());
  return SQLITE_ERROR;
}

// CREATE reads the source; a later connect (SQLite re-reading its schema) reuses what it read.
int Attach(bool create, sqlite3* db, void* aux, int argc, const char* const* argv,
           sqlite3_vtab** out, char** err) {
  auto* context = static_cast<ModuleContext*>(aux);
  if (argc != 4) {
    return Fail(err, absl::InvalidArgumentError("flamegraph: wrong number of arguments"));
  }
  std::shared_ptr<const SourceState> state;
  auto known = context->tables.find(argv[2]);
  if (!create && known != context->tables.end()) {
    state = known->second;
  } else {
    auto read = ReadSource(db, argv[3]);
    if (!read.ok()) return Fail(err, read.status());
    state = *std::move(read);
  }
  if (sqlite3_declare_vtab(db, Schema(*state).c_str()) != SQLITE_OK) {
    return Fail(err, absl::InternalError("flamegraph: failed to declare schema"));
  }
  auto vtab = std::make_unique<FlamegraphVtab>();
  vtab->context = context;
  vtab->name = argv[2];
  vtab->state = state;
  context->tables[vtab->name] = std::move(state);
  *out = vtab.release();
  return SQLITE_OK;
}

int Create(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
           char** err) {
  return Attach(true, db, aux, argc, argv, out, err);
}

int Connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
            char** err) {
  return Attach(false, db, aux, argc, argv, out, err);
}

int Disconnect(sqlite3_vtab* v) {
  delete static_cast<FlamegraphVtab*>(v);
  return SQLITE_OK;
}

int Destroy(sqlite3_vtab* v) {
  auto* vtab = static_cast<FlamegraphVtab*>(v);
  vtab->context->tables.erase(vtab->name);
  delete vtab;
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  int config = -1;
  int find = -1;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (!c.usable) continue;
    if (c.iColumn == kConfig && c.op == SQLITE_INDEX_CONSTRAINT_EQ) config = i;
    if (c.iColumn == kTreeId && c.op == kFindOp) find = i;
  }
  // Without its configuration the table cannot be read: steer SQLite to a plan that has it.
  if (config < 0) return SQLITE_CONSTRAINT;
  info->aConstraintUsage[config].argvIndex = 1;
  info->aConstraintUsage[config].omit = 1;
  if (find >= 0) {
    info->aConstraintUsage[find].argvIndex = 2;
    info->aConstraintUsage[find].omit = 1;
    info->idxNum = kSuperRootPlan;
  }
  info->estimatedCost = 1000;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new FlamegraphCursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* c) {
  delete static_cast<FlamegraphCursor*>(c);
  return SQLITE_OK;
}

int SetVtabError(sqlite3_vtab* vtab, const absl::Status& status) {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = sqlite3_mprintf("%s", std::string(status.message()).c_str());
  return SQLITE_ERROR;
}

int Filter(sqlite3_vtab_cursor* c, int plan, const char*, int argc, sqlite3_value** argv) {
  auto* cursor = static_cast<FlamegraphCursor*>(c);
  auto* vtab = static_cast<FlamegraphVtab*>(cursor->pVtab);
  cursor->result.reset();
  cursor->by_schema.clear();
  cursor->row = 0;
  cursor->super_root = plan == kSuperRootPlan;
  const auto* query = argc >= 1 ? static_cast<const flamegraph::Query*>(
                                      sqlite3_value_pointer(argv[0], kConfigPointerType))
                                : nullptr;
  if (query == nullptr) {
    return SetVtabError(vtab, absl::InvalidArgumentError(
                                  "flamegraph: the argument must be __intrinsic_flamegraph_config(...)"));
  }
  if (cursor->super_root) {
    const char* selector = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    if (selector == nullptr || std::strcmp(selector, "SUPER_ROOT") != 0) {
      return SetVtabError(vtab, absl::InvalidArgumentError("flamegraph: unknown find selector"));
    }
    return SQLITE_OK;
  }
  auto result = flamegraph::Build(vtab->state->tree, *query);
  if (!result.ok()) return SetVtabError(vtab, result.status());
  cursor->result = std::make_unique<flamegraph::Result>(*std::move(result));
  const flamegraph::Result& r = *cursor->result;
  const SourceState& s = *vtab->state;
  if (r.rows == 0) return SQLITE_OK;
  cursor->self = r.Find("self_" + query->value_columns[0]);
  cursor->cumulative = r.Find("cumulative_" + query->value_columns[0]);
  cursor->by_schema.assign(kFirstProperty + s.properties.size() + 2 * s.numeric_properties.size(),
                           nullptr);
  cursor->by_schema[kName] = r.Find("name");
  cursor->by_schema[kSelfValue] = cursor->self;
  cursor->by_schema[kCumulativeValue] = cursor->cumulative;
  size_t next = kFirstProperty;
  for (const std::string& p : s.properties) cursor->by_schema[next++] = r.Find(p);
  for (const std::string& v : s.numeric_properties) {
    cursor->by_schema[next++] = r.Find("self_" + v);
    cursor->by_schema[next++] = r.Find("cumulative_" + v);
  }
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* c) {
  static_cast<FlamegraphCursor*>(c)->row++;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* c) {
  auto* cursor = static_cast<FlamegraphCursor*>(c);
  if (cursor->super_root) return cursor->row > 0;
  return !cursor->result || cursor->row >= cursor->result->rows;
}

void ResultCell(sqlite3_context* ctx, const flamegraph::ResultColumn* column, uint32_t row) {
  if (column == nullptr || !column->present[row]) {
    sqlite3_result_null(ctx);
    return;
  }
  switch (column->type) {
    case Column::Type::kInt:
      sqlite3_result_int64(ctx, column->ints[row]);
      break;
    case Column::Type::kDouble:
      sqlite3_result_double(ctx, column->doubles[row]);
      break;
    case Column::Type::kString:
      sqlite3_result_text(ctx, column->strings[row].data(),
                          static_cast<int>(column->strings[row].size()), SQLITE_TRANSIENT);
      break;
    case Column::Type::kNull:
      sqlite3_result_null(ctx);
  }
}

void ResultGeometry(sqlite3_context* ctx, bool is_int, double v) {
  if (is_int) {
    sqlite3_result_int64(ctx, static_cast<int64_t>(v));
  } else {
    sqlite3_result_double(ctx, v);
  }
}

int ColumnValue(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  auto* cursor = static_cast<FlamegraphCursor*>(c);
  if (cursor->super_root) {
    auto* vtab = static_cast<FlamegraphVtab*>(cursor->pVtab);
    if (col == kTreeId || col == kDepth) {
      sqlite3_result_int64(ctx, 0);
    } else if (col == kCumulativeValue) {
      sqlite3_result_double(ctx, vtab->state->value_sum);
    } else {
      sqlite3_result_null(ctx);
    }
    return SQLITE_OK;
  }
  const flamegraph::Result& r = *cursor->result;
  const uint32_t row = cursor->row;
  const uint32_t parent = r.parent_row[row];
  switch (col) {
    case kConfig:
      sqlite3_result_null(ctx);
      break;
    case kTreeId:
      sqlite3_result_int64(ctx, row);
      break;
    case kTreeParentId:
      if (parent == kNoRow) sqlite3_result_null(ctx);
      else sqlite3_result_int64(ctx, parent);
      break;
    case kDepth:
      sqlite3_result_int64(ctx, r.depth[row]);
      break;
    case kParentCumulativeValue:
      if (parent == kNoRow) sqlite3_result_null(ctx);
      else ResultCell(ctx, cursor->cumulative, parent);
      break;
    case kXStart:
      ResultGeometry(ctx, r.geometry_is_int, r.x_start[row]);
      break;
    case kXEnd:
      ResultGeometry(ctx, r.geometry_is_int, r.x_start[row] + r.width[row]);
      break;
    default:
      ResultCell(ctx, cursor->by_schema[static_cast<size_t>(col)], row);
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* c, sqlite3_int64* out) {
  *out = static_cast<FlamegraphCursor*>(c)->row;
  return SQLITE_OK;
}

void FindNotConsumed(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_error(ctx, "flamegraph: the super-root constraint was not consumed", -1);
}

int FindFunction(sqlite3_vtab*, int, const char* name,
                 void (**fn)(sqlite3_context*, int, sqlite3_value**), void**) {
  if (!absl::EqualsIgnoreCase(name, kFindFunction)) return 0;
  *fn = FindNotConsumed;
  return kFindOp;
}

sqlite3_module MakeModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.iVersion = 1;
  m.xCreate = Create;
  m.xConnect = Connect;
  m.xBestIndex = BestIndex;
  m.xDisconnect = Disconnect;
  m.xDestroy = Destroy;
  m.xOpen = Open;
  m.xClose = Close;
  m.xFilter = Filter;
  m.xNext = Next;
  m.xEof = Eof;
  m.xColumn = ColumnValue;
  m.xRowid = Rowid;
  m.xFindFunction = FindFunction;
  return m;
}

const sqlite3_module kModule = MakeModule();

// ------------------------------------------------------------ __intrinsic_flamegraph_config

absl::StatusOr<std::string> Text(const char* what, sqlite3_value* v) {
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    return absl::InvalidArgumentError(absl::StrCat("flamegraph_config: ", what, ": expected text"));
  }
  return std::string(reinterpret_cast<const char*>(sqlite3_value_text(v)),
                     static_cast<size_t>(sqlite3_value_bytes(v)));
}

template <typename T>
absl::StatusOr<T> Token(const char* what, sqlite3_value* v,
                        std::initializer_list<std::pair<const char*, T>> tokens) {
  ASSIGN_OR_RETURN(std::string token, Text(what, v));
  for (const auto& [name, value] : tokens) {
    if (token == name) return value;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("flamegraph_config: ", what, ": unknown value '", token, "'"));
}

absl::StatusOr<flamegraph::Pattern> ParsePattern(const char* what, sqlite3_value* regex,
                                                 sqlite3_value* flags) {
  flamegraph::Pattern p;
  ASSIGN_OR_RETURN(p.regex, Text(what, regex));
  ASSIGN_OR_RETURN(std::string f, Text(what, flags));
  if (!f.empty() && f != "i") {
    return absl::InvalidArgumentError(
        absl::StrCat("flamegraph_config: ", what, ": unknown regex flags '", f, "'"));
  }
  p.case_insensitive = f == "i";
  return p;
}

absl::StatusOr<flamegraph::Query> ParseConfig(int argc, sqlite3_value** argv) {
  using flamegraph::Aggregate;
  using flamegraph::View;
  enum class Filter { kShow, kHideStack, kHideFrame };
  flamegraph::Query q;
  for (int i = 0; i < argc;) {
    ASSIGN_OR_RETURN(std::string tag, Text("tag", argv[i]));
    const int arity = tag == "view" || tag == "grouping" || tag == "value" ? 1
                      : tag == "view_pattern"                             ? 2
                      : tag == "filter" || tag == "aggregate"             ? 3
                                                                          : -1;
    if (arity < 0) {
      return absl::InvalidArgumentError(absl::StrCat("flamegraph_config: unknown tag '", tag, "'"));
    }
    if (i + arity >= argc) {
      return absl::InvalidArgumentError(
          absl::StrCat("flamegraph_config: '", tag, "' needs ", arity, " argument(s)"));
    }
    sqlite3_value** a = argv + i + 1;
    if (tag == "view") {
      ASSIGN_OR_RETURN(q.view, Token<View>("view", a[0],
                                           {{"TOP_DOWN", View::kTopDown},
                                            {"BOTTOM_UP", View::kBottomUp},
                                            {"PIVOT", View::kPivot},
                                            {"FROM_FRAME", View::kFromFrame}}));
    } else if (tag == "view_pattern") {
      ASSIGN_OR_RETURN(q.view_pattern, ParsePattern("view_pattern", a[0], a[1]));
    } else if (tag == "filter") {
      ASSIGN_OR_RETURN(Filter kind, Token<Filter>("filter", a[0],
                                                  {{"SHOW_STACK", Filter::kShow},
                                                   {"HIDE_STACK", Filter::kHideStack},
                                                   {"HIDE_FRAME", Filter::kHideFrame}}));
      ASSIGN_OR_RETURN(flamegraph::Pattern p, ParsePattern("filter", a[1], a[2]));
      (kind == Filter::kShow        ? q.show_stack
       : kind == Filter::kHideStack ? q.hide_stack
                                    : q.hide_frame)
          .push_back(std::move(p));
    } else if (tag == "grouping") {
      ASSIGN_OR_RETURN(std::string column, Text("grouping", a[0]));
      q.grouping_columns.push_back(std::move(column));
    } else if (tag == "value") {
      ASSIGN_OR_RETURN(std::string column, Text("value", a[0]));
      q.value_columns.push_back(std::move(column));
    } else {
      flamegraph::Query::AggregateColumn agg;
      ASSIGN_OR_RETURN(agg.kind, Token<Aggregate>("aggregate", a[0],
                                                  {{"SUM", Aggregate::kSum},
                                                   {"ONE_OR_SUMMARY", Aggregate::kOneOrSummary},
                                                   {"CONCAT_WITH_COMMA",
                                                    Aggregate::kConcatWithComma}}));
      ASSIGN_OR_RETURN(agg.input, Text("aggregate", a[1]));
      ASSIGN_OR_RETURN(agg.output, Text("aggregate", a[2]));
      q.aggregates.push_back(std::move(agg));
    }
    i += arity + 1;
  }
  const bool pattern_view = q.view == View::kPivot || q.view == View::kFromFrame;
  if (pattern_view != q.view_pattern.has_value()) {
    return absl::InvalidArgumentError(
        "flamegraph_config: PIVOT and FROM_FRAME require a view pattern");
  }
  if (q.value_columns.empty()) {
    return absl::InvalidArgumentError("flamegraph: at least one value column is required");
  }
  return q;
}

void ConfigFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto query = ParseConfig(argc, argv);
  if (!query.ok()) {
    sqlite3_result_error(ctx, std::string(query.status().message()).c_str(), -1);
    return;
  }
  sqlite3_result_pointer(ctx, new flamegraph::Query(*std::move(query)), kConfigPointerType,
                         [](void* p) { delete static_cast<flamegraph::Query*>(p); });
}

void FindFunctionOutsideFlamegraph(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_error(ctx, "__intrinsic_flamegraph_find must constrain a flamegraph", -1);
}

}  // namespace

absl::Status RegisterFlamegraphModule(sqlite3* db) {
  auto* context = new ModuleContext();
  int rc = sqlite3_create_module_v2(db, "__intrinsic_flamegraph", &kModule, context,
                                    [](void* p) { delete static_cast<ModuleContext*>(p); });
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "__intrinsic_flamegraph_config", -1, SQLITE_UTF8, nullptr,
                                 ConfigFunction, nullptr, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, kFindFunction, 2, SQLITE_UTF8, nullptr,
                                 FindFunctionOutsideFlamegraph, nullptr, nullptr);
  }
  if (rc != SQLITE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot register __intrinsic_flamegraph: ", sqlite3_errstr(rc)));
  }
  return absl::OkStatus();
}

}  // namespace tw

#include "libs/trace/query/experimental_flamegraph_table.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/heap_graph_flamegraph.h"

namespace tw {
namespace {

enum Column {
  kId, kTs, kDepth, kName, kMapName, kCount, kCumulativeCount, kSize, kCumulativeSize,
  kAllocCount, kCumulativeAllocCount, kAllocSize, kCumulativeAllocSize, kParentId,
  kSourceFile, kLineNumber,
  // The arguments, in call order.
  kProfileType, kTsIn, kTsConstraint, kUpid, kUpidGroup, kFocusStr,
};
constexpr int kFirstArgument = kProfileType;
constexpr int kArgumentCount = 6;

struct FlamegraphVtab : sqlite3_vtab {
  const TraceStorage* storage = nullptr;
};

struct FlamegraphCursor : sqlite3_vtab_cursor {
  std::vector<FlamegraphNode> rows;
  sqlite3_value* args[kArgumentCount] = {};
  int64_t ts = 0;
  size_t at = 0;
  ~FlamegraphCursor() {
    for (sqlite3_value* v : args) sqlite3_value_free(v);
  }
};

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db,
      "CREATE TABLE x(id BIGINT, ts BIGINT, depth BIGINT, name TEXT, map_name TEXT, "
      "count BIGINT, cumulative_count BIGINT, size BIGINT, cumulative_size BIGINT, "
      "alloc_count BIGINT, cumulative_alloc_count BIGINT, alloc_size BIGINT, "
      "cumulative_alloc_size BIGINT, parent_id BIGINT, source_file TEXT, line_number BIGINT, "
      "profile_type TEXT HIDDEN, ts_in BIGINT HIDDEN, ts_constraint TEXT HIDDEN, "
      "upid BIGINT HIDDEN, upid_group TEXT HIDDEN, focus_str TEXT HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* vtab = new FlamegraphVtab();
  vtab->storage = static_cast<const TraceStorage*>(aux);
  *out = vtab;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<FlamegraphVtab*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  // Each argument is an equality constraint on its hidden column; idxNum records which ones
  // were given (bit per argument), in argv order.
  int next_arg = 1;
  int given = 0;
  for (int a = 0; a < kArgumentCount; ++a) {
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& c = info->aConstraint[i];
      if (c.iColumn != kFirstArgument + a || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
      if (!c.usable) return SQLITE_CONSTRAINT;  // wait until the argument is known
      info->aConstraintUsage[i].argvIndex = next_arg++;
      info->aConstraintUsage[i].omit = 1;
      given |= 1 << a;
      break;
    }
  }
  info->idxNum = given;
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

int Fail(sqlite3_vtab_cursor* c, const std::string& message) {
  sqlite3_free(c->pVtab->zErrMsg);
  c->pVtab->zErrMsg = sqlite3_mprintf("experimental_flamegraph: %s", message.c_str());
  return SQLITE_ERROR;
}

bool IsNull(sqlite3_value* v) { return v == nullptr || sqlite3_value_type(v) == SQLITE_NULL; }

int Filter(sqlite3_vtab_cursor* c, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* cursor = static_cast<FlamegraphCursor*>(c);
  cursor->rows.clear();
  cursor->at = 0;
  for (sqlite3_value*& v : cursor->args) {
    sqlite3_value_free(v);
    v = nullptr;
  }
  int next = 0;
  for (int a = 0; a < kArgumentCount; ++a) {
    if ((idx_num & (1 << a)) && next < argc) cursor->args[a] = sqlite3_value_dup(argv[next++]);
  }
  sqlite3_value* const* args = cursor->args;
  sqlite3_value* profile = args[kProfileType - kFirstArgument];
  sqlite3_value* ts = args[kTsIn - kFirstArgument];
  sqlite3_value* upid = args[kUpid - kFirstArgument];
  sqlite3_value* focus = args[kFocusStr - kFirstArgument];
  if (IsNull(profile) || sqlite3_value_type(profile) != SQLITE_TEXT) {
    return Fail(c, "profile_type must be a string");
  }
  if (!IsNull(ts) && sqlite3_value_type(ts) != SQLITE_INTEGER) {
    return Fail(c, "ts must be an integer");
  }
  if (!IsNull(upid) && sqlite3_value_type(upid) != SQLITE_INTEGER) {
    return Fail(c, "upid must be an integer");
  }
  if (!IsNull(focus) && sqlite3_value_type(focus) != SQLITE_TEXT) {
    return Fail(c, "focus_str must be a string");
  }
  if (IsNull(ts) && IsNull(args[kTsConstraint - kFirstArgument])) {
    return Fail(c, "one of ts and ts_constraints must not be null");
  }
  if (IsNull(upid) && IsNull(args[kUpidGroup - kFirstArgument])) {
    return Fail(c, "one of upid or upid_group must not be null");
  }
  const std::string type = reinterpret_cast<const char*>(sqlite3_value_text(profile));
  if (type == "native" || type == "perf") {
    return Fail(c, absl::StrCat("profile type '", type, "' is not supported yet"));
  }
  if (type != "graph") {
    return Fail(c, absl::StrCat("Could not recognize profile type: ", type, "."));
  }
  if (IsNull(ts) || IsNull(upid)) return Fail(c, "ts and upid must be present for heap graph");
  cursor->ts = sqlite3_value_int64(ts);
  const auto* vtab = static_cast<FlamegraphVtab*>(c->pVtab);
  cursor->rows = BuildHeapGraphFlamegraph(
      *vtab->storage, static_cast<uint32_t>(sqlite3_value_int64(upid)), cursor->ts);
  if (cursor->rows.empty()) return Fail(c, "Failed to build flamegraph");
  if (!IsNull(focus)) {
    cursor->rows =
        FocusFlamegraph(cursor->rows, reinterpret_cast<const char*>(sqlite3_value_text(focus)));
  }
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* c) {
  ++static_cast<FlamegraphCursor*>(c)->at;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* c) {
  auto* cursor = static_cast<FlamegraphCursor*>(c);
  return cursor->at >= cursor->rows.size() ? 1 : 0;
}

void ResultText(sqlite3_context* ctx, const std::string& s) {
  sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
}

int ColumnValue(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  auto* cursor = static_cast<FlamegraphCursor*>(c);
  const FlamegraphNode& row = cursor->rows[cursor->at];
  switch (col) {
    case kId: sqlite3_result_int64(ctx, static_cast<int64_t>(cursor->at)); break;
    case kTs: sqlite3_result_int64(ctx, cursor->ts); break;
    case kDepth: sqlite3_result_int64(ctx, row.depth); break;
    case kName: ResultText(ctx, row.name); break;
    case kMapName: ResultText(ctx, row.map_name); break;
    case kCount: sqlite3_result_int64(ctx, row.count); break;
    case kCumulativeCount: sqlite3_result_int64(ctx, row.cumulative_count); break;
    case kSize: sqlite3_result_int64(ctx, row.size); break;
    case kCumulativeSize: sqlite3_result_int64(ctx, row.cumulative_size); break;
    case kAllocCount:
    case kCumulativeAllocCount:
    case kAllocSize:
    case kCumulativeAllocSize: sqlite3_result_int64(ctx, 0); break;
    case kParentId:
      if (row.parent) {
        sqlite3_result_int64(ctx, *row.parent);
      } else {
        sqlite3_result_null(ctx);
      }
      break;
    case kSourceFile:
    case kLineNumber: sqlite3_result_null(ctx); break;
    default: {
      sqlite3_value* arg = cursor->args[col - kFirstArgument];
      if (arg) {
        sqlite3_result_value(ctx, arg);
      } else {
        sqlite3_result_null(ctx);
      }
    }
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* c, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(static_cast<FlamegraphCursor*>(c)->at);
  return SQLITE_OK;
}

sqlite3_module MakeModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.iVersion = 1;
  m.xCreate = nullptr;  // eponymous only: used as a table function, never CREATEd
  m.xConnect = Connect;
  m.xBestIndex = BestIndex;
  m.xDisconnect = Disconnect;
  m.xDestroy = Disconnect;
  m.xOpen = Open;
  m.xClose = Close;
  m.xFilter = Filter;
  m.xNext = Next;
  m.xEof = Eof;
  m.xColumn = ColumnValue;
  m.xRowid = Rowid;
  return m;
}

const sqlite3_module kModule = MakeModule();

}  // namespace

absl::Status RegisterExperimentalFlamegraph(sqlite3* db, const TraceStorage* storage) {
  const int rc = sqlite3_create_module_v2(db, "experimental_flamegraph", &kModule,
                                          const_cast<TraceStorage*>(storage), nullptr);
  if (rc != SQLITE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot register experimental_flamegraph: ", sqlite3_errstr(rc)));
  }
  return absl::OkStatus();
}

}  // namespace tw

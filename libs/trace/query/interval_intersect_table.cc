#include "libs/trace/query/interval_intersect_table.h"

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/interval_intersect_sweep.h"

namespace tw {
namespace {

constexpr char kPointerType[] = "tw_interval_set";
constexpr int kMaxTables = kIntervalIntersectMaxTables;
constexpr int kMaxPartitions = kIntervalIntersectMaxPartitions;
// Columns: ts, dur, id_0.., part_0.., then the hidden arguments in_0...
constexpr int kTs = 0, kDur = 1, kFirstId = 2, kFirstPart = kFirstId + kMaxTables,
              kFirstArg = kFirstPart + kMaxPartitions;

SqlValue ToSqlValue(sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: return SqlValue::Int(sqlite3_value_int64(v));
    case SQLITE_FLOAT: return SqlValue::Double(sqlite3_value_double(v));
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
      return SqlValue::String(std::string(text ? text : "", sqlite3_value_bytes(v)));
    }
    default: return SqlValue::Null();
  }
}

void DeleteSet(void* p) { delete static_cast<IntervalSet*>(p); }

// ---- the aggregate -----------------------------------------------------------------------

// The aggregate's state: a pointer to the set being built (SQLite zero-fills the context).
struct AggState {
  IntervalSet* set;
  bool failed;
};

void AggStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* state = static_cast<AggState*>(sqlite3_aggregate_context(ctx, sizeof(AggState)));
  if (!state) return sqlite3_result_error_nomem(ctx);
  if (state->failed) return;
  if (argc < 3 || argc - 3 > kMaxPartitions) {
    state->failed = true;
    return sqlite3_result_error(
        ctx,
        absl::StrCat("__intrinsic_intervals_agg: expects (id, ts, dur, up to ", kMaxPartitions,
                     " partition values)")
            .c_str(),
        -1);
  }
  for (int i = 0; i < 3; ++i) {
    if (sqlite3_value_type(argv[i]) != SQLITE_INTEGER) {
      state->failed = true;
      static constexpr const char* kNames[] = {"id", "ts", "dur"};
      return sqlite3_result_error(
          ctx, absl::StrCat("interval intersect: ", kNames[i], " must be an integer").c_str(),
          -1);
    }
  }
  if (!state->set) state->set = new (std::nothrow) IntervalSet();
  if (!state->set) return sqlite3_result_error_nomem(ctx);
  std::vector<SqlValue> partition;
  partition.reserve(argc - 3);
  for (int i = 3; i < argc; ++i) partition.push_back(ToSqlValue(argv[i]));
  const absl::Status s = state->set->Add(sqlite3_value_int64(argv[0]), sqlite3_value_int64(argv[1]),
                                         sqlite3_value_int64(argv[2]), std::move(partition));
  if (!s.ok()) {
    state->failed = true;
    sqlite3_result_error(ctx, std::string(s.message()).c_str(), -1);
  }
}

void AggFinal(sqlite3_context* ctx) {
  auto* state = static_cast<AggState*>(sqlite3_aggregate_context(ctx, 0));
  IntervalSet* set = state ? state->set : nullptr;
  if (state && state->failed) {
    delete set;
    return;  // the error is already set
  }
  // No rows: an empty set, so the table function sees a table that meets nothing.
  if (!set) set = new (std::nothrow) IntervalSet();
  if (!set) return sqlite3_result_error_nomem(ctx);
  sqlite3_result_pointer(ctx, set, kPointerType, DeleteSet);
}

// ---- the table function ------------------------------------------------------------------

struct SweepCursor : sqlite3_vtab_cursor {
  IntersectionRows rows;
  size_t at = 0;
};

int Connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  std::string schema = "CREATE TABLE x(ts BIGINT, dur BIGINT";
  for (int i = 0; i < kMaxTables; ++i) absl::StrAppend(&schema, ", id_", i, " BIGINT");
  for (int i = 0; i < kMaxPartitions; ++i) absl::StrAppend(&schema, ", part_", i);
  for (int i = 0; i < kMaxTables; ++i) absl::StrAppend(&schema, ", in_", i, " HIDDEN");
  schema += ")";
  const int rc = sqlite3_declare_vtab(db, schema.c_str());
  if (rc != SQLITE_OK) return rc;
  *out = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (!*out) return SQLITE_NOMEM;
  std::memset(*out, 0, sizeof(sqlite3_vtab));
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  sqlite3_free(vtab);
  return SQLITE_OK;
}

// The arguments are equality constraints on the hidden columns in_0, in_1, ...: they must all
// be usable, from in_0 up without a gap (the bitmask of present ones is idxNum).
int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  int present = 0;
  int argv_index[kMaxTables] = {};
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < kFirstArg || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) return SQLITE_CONSTRAINT;  // try a plan where the arguments are known
    const int arg = c.iColumn - kFirstArg;
    present |= 1 << arg;
    argv_index[arg] = i;
  }
  int n = 0;
  while (n < kMaxTables && (present & (1 << n))) ++n;
  for (int arg = 0; arg < n; ++arg) {
    info->aConstraintUsage[argv_index[arg]].argvIndex = arg + 1;
    info->aConstraintUsage[argv_index[arg]].omit = 1;
  }
  info->idxNum = present;
  info->estimatedCost = 1000;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new (std::nothrow) SweepCursor();
  return *out ? SQLITE_OK : SQLITE_NOMEM;
}

int Close(sqlite3_vtab_cursor* c) {
  delete static_cast<SweepCursor*>(c);
  return SQLITE_OK;
}

int Fail(sqlite3_vtab_cursor* c, const std::string& message) {
  sqlite3_free(c->pVtab->zErrMsg);
  c->pVtab->zErrMsg = sqlite3_mprintf("%s", message.c_str());
  return SQLITE_ERROR;
}

int Filter(sqlite3_vtab_cursor* c, int present, const char*, int argc, sqlite3_value** argv) {
  auto* cursor = static_cast<SweepCursor*>(c);
  cursor->rows = IntersectionRows{};
  cursor->at = 0;
  if (argc < 2 || present != (1 << argc) - 1) {
    return Fail(c, "__intrinsic_interval_intersect_sweep: expects two or more interval sets");
  }
  std::vector<const IntervalSet*> sets;
  for (int i = 0; i < argc; ++i) {
    const auto* set = static_cast<const IntervalSet*>(sqlite3_value_pointer(argv[i], kPointerType));
    if (!set) {
      return Fail(c, absl::StrCat("__intrinsic_interval_intersect_sweep: argument ", i + 1,
                                  " is not a set of intervals from __intrinsic_intervals_agg"));
    }
    sets.push_back(set);
  }
  absl::StatusOr<IntersectionRows> rows = IntersectIntervalSets(sets);
  if (!rows.ok()) return Fail(c, std::string(rows.status().message()));
  cursor->rows = std::move(*rows);
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* c) {
  ++static_cast<SweepCursor*>(c)->at;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* c) {
  auto* cursor = static_cast<SweepCursor*>(c);
  return cursor->at >= cursor->rows.size() ? 1 : 0;
}

void ResultValue(sqlite3_context* ctx, const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull: sqlite3_result_null(ctx); break;
    case SqlValue::Type::kInt: sqlite3_result_int64(ctx, v.int_value); break;
    case SqlValue::Type::kDouble: sqlite3_result_double(ctx, v.double_value); break;
    case SqlValue::Type::kString:
      sqlite3_result_text(ctx, v.string_value.data(), static_cast<int>(v.string_value.size()),
                          SQLITE_TRANSIENT);
      break;
  }
}

int ColumnValue(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  auto* cursor = static_cast<SweepCursor*>(c);
  const IntersectionRows& rows = cursor->rows;
  const size_t at = cursor->at;
  if (col == kTs) {
    sqlite3_result_int64(ctx, rows.ts[at]);
  } else if (col == kDur) {
    sqlite3_result_int64(ctx, rows.dur[at]);
  } else if (col < kFirstPart) {
    const size_t table = static_cast<size_t>(col - kFirstId);
    if (table < rows.tables) sqlite3_result_int64(ctx, rows.ids[at * rows.tables + table]);
  } else if (col < kFirstArg) {
    const size_t part = static_cast<size_t>(col - kFirstPart);
    const std::vector<SqlValue>& values = rows.partitions[rows.partition_of[at]];
    if (part < values.size()) ResultValue(ctx, values[part]);
  }
  return SQLITE_OK;  // unset: NULL
}

int Rowid(sqlite3_vtab_cursor* c, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(static_cast<SweepCursor*>(c)->at);
  return SQLITE_OK;
}

sqlite3_module MakeModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.iVersion = 1;
  m.xCreate = nullptr;  // eponymous only
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

absl::Status RegisterIntervalIntersect(sqlite3* db) {
  int rc = sqlite3_create_function_v2(db, "__intrinsic_intervals_agg", -1, SQLITE_UTF8, nullptr,
                                      nullptr, AggStep, AggFinal, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "__intrinsic_interval_intersect_sweep", &kModule, nullptr,
                                  nullptr);
  }
  if (rc != SQLITE_OK) {
    return absl::InternalError(
        absl::StrCat("registering interval intersect: ", sqlite3_errmsg(db)));
  }
  return absl::OkStatus();
}

}  // namespace tw

#include "libs/trace/query/table_info.h"

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

std::string Quote(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

// What one column's values turned out to be, gathered in a single pass.
struct ColumnFacts {
  bool any_null = false, any_int = false, any_double = false, any_text = false;
  int64_t min = std::numeric_limits<int64_t>::max(), max = std::numeric_limits<int64_t>::min();
  bool id_sorted = true, setid_sorted = true, sorted = true;
  uint32_t values = 0;  // non-NULL values seen
  std::optional<int64_t> last_int;
  std::optional<double> last_double;
  std::optional<std::string> last_text;

  void Add(sqlite3_stmt* stmt, int c) {
    switch (sqlite3_column_type(stmt, c)) {
      case SQLITE_NULL:
        any_null = true;
        return;
      case SQLITE_INTEGER: {
        any_int = true;
        const int64_t v = sqlite3_column_int64(stmt, c);
        min = std::min(min, v);
        max = std::max(max, v);
        id_sorted &= v == values;
        setid_sorted &= v == values || (last_int && v == *last_int);
        sorted &= !last_int || *last_int <= v;
        last_int = v;
        break;
      }
      case SQLITE_FLOAT: {
        any_double = true;
        const double v = sqlite3_column_double(stmt, c);
        sorted &= !last_double || *last_double <= v;
        last_double = v;
        break;
      }
      default: {
        any_text = true;
        std::string v(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                      static_cast<size_t>(sqlite3_column_bytes(stmt, c)));
        sorted &= !last_text || *last_text <= v;
        last_text = std::move(v);
      }
    }
    ++values;
  }

  TableColumnInfo Describe(std::string name) const {
    TableColumnInfo info;
    info.name = std::move(name);
    info.nullable = any_null ? 1 : 0;
    if (any_text) {
      info.col_type = "string";
    } else if (any_double) {
      info.col_type = "double";
    } else if (!any_int) {
      info.col_type = "uint32";  // no value to type it: trace_processor's default
    } else if (id_sorted && !any_null) {
      info.col_type = "id";
    } else if (min >= 0 && max <= std::numeric_limits<uint32_t>::max()) {
      info.col_type = "uint32";
    } else if (min >= std::numeric_limits<int32_t>::min() &&
               max <= std::numeric_limits<int32_t>::max()) {
      info.col_type = "int32";
    } else {
      info.col_type = "int64";
    }
    const bool integers = any_int && !any_double && !any_text;
    if (any_null || !sorted || (any_int + any_double + any_text) > 1) {
      info.sorted = 3;
    } else if (integers && id_sorted) {
      info.sorted = 0;
    } else if (integers && setid_sorted) {
      info.sorted = 1;
    } else {
      info.sorted = 2;
    }
    return info;
  }
};

bool IsTable(sqlite3* db, const std::string& table) {
  sqlite3_stmt* stmt = nullptr;
  const char* sql =
      "SELECT 1 FROM (SELECT name, type FROM sqlite_schema UNION ALL "
      "SELECT name, type FROM sqlite_temp_schema) WHERE type = 'table' AND name = ?";
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) return false;
  sqlite3_bind_text(stmt, 1, table.c_str(), -1, SQLITE_TRANSIENT);
  const bool found = sqlite3_step(stmt) == SQLITE_ROW;
  sqlite3_finalize(stmt);
  return found;
}

}  // namespace

absl::StatusOr<std::vector<TableColumnInfo>> DescribeTable(sqlite3* db, const std::string& table) {
  if (!IsTable(db, table)) {
    return absl::InvalidArgumentError(absl::StrCat("Perfetto table '", table, "' not found."));
  }
  sqlite3_stmt* stmt = nullptr;
  const std::string sql = "SELECT * FROM " + Quote(table);
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return absl::InvalidArgumentError(sqlite3_errmsg(db));
  }
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> closer(stmt, sqlite3_finalize);
  const int columns = sqlite3_column_count(stmt);
  std::vector<ColumnFacts> facts(static_cast<size_t>(columns));
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int c = 0; c < columns; ++c) facts[static_cast<size_t>(c)].Add(stmt, c);
  }
  if (rc != SQLITE_DONE) return absl::InvalidArgumentError(sqlite3_errmsg(db));
  std::vector<TableColumnInfo> out;
  for (int c = 0; c < columns; ++c) {
    out.push_back(facts[static_cast<size_t>(c)].Describe(sqlite3_column_name(stmt, c)));
  }
  out.push_back({"_auto_id", "id", 0, 0});
  return out;
}

namespace {

enum Column { kId = 0, kName, kColType, kNullable, kSorted, kTableName };

struct InfoVtab : sqlite3_vtab {
  sqlite3* db = nullptr;
};

struct InfoCursor : sqlite3_vtab_cursor {
  std::vector<TableColumnInfo> rows;
  std::string table;
  size_t at = 0;
};

int Connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(id BIGINT, name TEXT, col_type TEXT, nullable BIGINT, sorted BIGINT, "
          "table_name TEXT HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* vtab = new InfoVtab();
  vtab->db = db;
  *out = vtab;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<InfoVtab*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.usable && c.iColumn == kTableName && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 100;
      return SQLITE_OK;
    }
  }
  return SQLITE_CONSTRAINT;  // the table name is required
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new InfoCursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* c) {
  delete static_cast<InfoCursor*>(c);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* c, int, const char*, int argc, sqlite3_value** argv) {
  auto* cursor = static_cast<InfoCursor*>(c);
  cursor->rows.clear();
  cursor->at = 0;
  auto fail = [&](const std::string& message) {
    sqlite3_free(c->pVtab->zErrMsg);
    c->pVtab->zErrMsg = sqlite3_mprintf("%s", message.c_str());
    return SQLITE_ERROR;
  };
  if (argc < 1 || sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
    return fail("perfetto_table_info takes table name as a string.");
  }
  cursor->table = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  auto rows = DescribeTable(static_cast<InfoVtab*>(c->pVtab)->db, cursor->table);
  if (!rows.ok()) return fail(std::string(rows.status().message()));
  cursor->rows = *std::move(rows);
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* c) {
  static_cast<InfoCursor*>(c)->at++;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* c) {
  auto* cursor = static_cast<InfoCursor*>(c);
  return cursor->at >= cursor->rows.size();
}

int ColumnValue(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  auto* cursor = static_cast<InfoCursor*>(c);
  const TableColumnInfo& r = cursor->rows[cursor->at];
  auto text = [&](const std::string& s) {
    sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
  };
  switch (col) {
    case kId: sqlite3_result_int64(ctx, static_cast<int64_t>(cursor->at)); break;
    case kName: text(r.name); break;
    case kColType: text(r.col_type); break;
    case kNullable: sqlite3_result_int64(ctx, r.nullable); break;
    case kSorted: sqlite3_result_int64(ctx, r.sorted); break;
    default: text(cursor->table);
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* c, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(static_cast<InfoCursor*>(c)->at);
  return SQLITE_OK;
}

sqlite3_module MakeModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.iVersion = 1;
  m.xCreate = nullptr;  // eponymous only: a table function
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

absl::Status RegisterTableInfoFunction(sqlite3* db) {
  const int rc = sqlite3_create_module_v2(db, "perfetto_table_info", &kModule, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot register perfetto_table_info: ", sqlite3_errstr(rc)));
  }
  return absl::OkStatus();
}

}  // namespace tw

#include "libs/trace/query/stdlib_objects_table.h"

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/stdlib_objects.h"

namespace tw {
namespace {

enum Column {
  kPackage = 0,
  kModuleName,
  kName,
  kQualifiedName,
  kObjectType,
  kExposed,
  kShortDescription,
  kSummary,
  kDescription,
  kReturnType,
  kReturnDescription,
  kArgs,
  kCols,
};

struct ObjectsVtab : sqlite3_vtab {
  std::optional<std::vector<StdlibObjectRow>> rows;  // built on the first scan
};

struct ObjectsCursor : sqlite3_vtab_cursor {
  size_t at = 0;
};

int Connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db,
      "CREATE TABLE x(package TEXT, module TEXT, name TEXT, qualified_name TEXT, "
      "object_type TEXT, exposed BIGINT, short_description TEXT, summary TEXT, "
      "description TEXT, return_type TEXT, return_description TEXT, args TEXT, cols TEXT)");
  if (rc != SQLITE_OK) return rc;
  *out = new ObjectsVtab();
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<ObjectsVtab*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 10000;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new ObjectsCursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* c) {
  delete static_cast<ObjectsCursor*>(c);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* c, int, const char*, int, sqlite3_value**) {
  auto* vtab = static_cast<ObjectsVtab*>(c->pVtab);
  static_cast<ObjectsCursor*>(c)->at = 0;
  if (!vtab->rows) {
    auto rows = StdlibObjectRows();
    if (!rows.ok()) {
      sqlite3_free(vtab->zErrMsg);
      vtab->zErrMsg = sqlite3_mprintf("%s", std::string(rows.status().message()).c_str());
      return SQLITE_ERROR;
    }
    vtab->rows = *std::move(rows);
  }
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* c) {
  static_cast<ObjectsCursor*>(c)->at++;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* c) {
  auto* vtab = static_cast<ObjectsVtab*>(c->pVtab);
  return static_cast<ObjectsCursor*>(c)->at >= vtab->rows->size();
}

void Text(sqlite3_context* ctx, const std::string& s) {
  sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
}

int ColumnValue(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  auto* vtab = static_cast<ObjectsVtab*>(c->pVtab);
  const StdlibObjectRow& r = (*vtab->rows)[static_cast<ObjectsCursor*>(c)->at];
  switch (col) {
    case kPackage: Text(ctx, r.package); break;
    case kModuleName: Text(ctx, r.module); break;
    case kName: Text(ctx, r.name); break;
    case kQualifiedName: Text(ctx, r.qualified_name); break;
    case kObjectType: Text(ctx, r.object_type); break;
    case kExposed: sqlite3_result_int64(ctx, r.exposed ? 1 : 0); break;
    case kShortDescription: Text(ctx, r.short_description); break;
    case kSummary: Text(ctx, r.summary); break;
    case kDescription: Text(ctx, r.description); break;
    case kReturnType: Text(ctx, r.return_type); break;
    case kReturnDescription: Text(ctx, r.return_description); break;
    case kArgs: Text(ctx, r.args); break;
    case kCols: Text(ctx, r.cols); break;
    default: sqlite3_result_null(ctx);
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* c, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(static_cast<ObjectsCursor*>(c)->at);
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

absl::Status RegisterStdlibObjectsTable(sqlite3* db) {
  const int rc =
      sqlite3_create_module_v2(db, "__intrinsic_stdlib_objects", &kModule, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot register __intrinsic_stdlib_objects: ", sqlite3_errstr(rc)));
  }
  return absl::OkStatus();
}

}  // namespace tw

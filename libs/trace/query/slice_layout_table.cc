#include "libs/trace/query/slice_layout_table.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "libs/trace/query/slice_layout.h"

namespace tw {
namespace {

enum Column { kId = 0, kLayoutDepth = 1, kFilterTrackIds = 2 };

absl::StatusOr<std::vector<int64_t>> ParseTrackIds(absl::string_view text) {
  std::vector<int64_t> ids;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) continue;
    int64_t id;
    if (!absl::SimpleAtoi(part, &id)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "experimental_slice_layout: '", part, "' in filter_track_ids is not a track id"));
    }
    ids.push_back(id);
  }
  return ids;
}

absl::StatusOr<std::vector<LayoutSlice>> ReadSlices(sqlite3* db, const std::vector<int64_t>& tracks) {
  std::vector<LayoutSlice> slices;
  if (tracks.empty()) return slices;
  const std::string sql = absl::StrCat(
      "SELECT id, ts, dur, depth, parent_id FROM slice WHERE track_id IN (",
      absl::StrJoin(tracks, ","), ")");
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    const std::string why = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return absl::InternalError(absl::StrCat("experimental_slice_layout: ", why));
  }
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> closer(stmt, sqlite3_finalize);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    LayoutSlice s;
    s.id = sqlite3_column_int64(stmt, 0);
    s.ts = sqlite3_column_int64(stmt, 1);
    s.dur = sqlite3_column_int64(stmt, 2);
    s.depth = sqlite3_column_int64(stmt, 3);
    s.parent_id = sqlite3_column_type(stmt, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(stmt, 4);
    slices.push_back(s);
  }
  if (rc != SQLITE_DONE) {
    return absl::InternalError(absl::StrCat("experimental_slice_layout: ", sqlite3_errmsg(db)));
  }
  return slices;
}

struct LayoutVtab : sqlite3_vtab {
  sqlite3* db = nullptr;
};

struct LayoutCursor : sqlite3_vtab_cursor {
  std::vector<LayoutDepth> rows;
  std::string filter;
  size_t at = 0;
};

int Connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(id BIGINT, layout_depth BIGINT, filter_track_ids TEXT HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* vtab = new LayoutVtab();
  vtab->db = db;
  *out = vtab;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<LayoutVtab*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  // The argument arrives as an equality constraint on the hidden column; without it the plan
  // is still accepted (so the error below can say what is missing) but made unattractive.
  info->idxNum = 0;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.usable && c.iColumn == kFilterTrackIds && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->idxNum = 1;
      info->estimatedCost = 1000;
      return SQLITE_OK;
    }
  }
  info->estimatedCost = 1e12;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new LayoutCursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* c) {
  delete static_cast<LayoutCursor*>(c);
  return SQLITE_OK;
}

int Fail(sqlite3_vtab_cursor* c, absl::string_view message) {
  sqlite3_free(c->pVtab->zErrMsg);
  c->pVtab->zErrMsg = sqlite3_mprintf("%s", std::string(message).c_str());
  return SQLITE_ERROR;
}

int Filter(sqlite3_vtab_cursor* c, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* cursor = static_cast<LayoutCursor*>(c);
  cursor->rows.clear();
  cursor->at = 0;
  if (idx_num != 1 || argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    return Fail(c, "experimental_slice_layout: expects filter_track_ids, a list of track ids");
  }
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  cursor->filter = text ? text : "";
  absl::StatusOr<std::vector<int64_t>> tracks = ParseTrackIds(cursor->filter);
  if (!tracks.ok()) return Fail(c, tracks.status().message());
  absl::StatusOr<std::vector<LayoutSlice>> slices =
      ReadSlices(static_cast<LayoutVtab*>(c->pVtab)->db, *tracks);
  if (!slices.ok()) return Fail(c, slices.status().message());
  cursor->rows = ComputeSliceLayout(*slices);
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* c) {
  ++static_cast<LayoutCursor*>(c)->at;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* c) {
  auto* cursor = static_cast<LayoutCursor*>(c);
  return cursor->at >= cursor->rows.size() ? 1 : 0;
}

int ColumnValue(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  auto* cursor = static_cast<LayoutCursor*>(c);
  const LayoutDepth& row = cursor->rows[cursor->at];
  switch (col) {
    case kId:
      sqlite3_result_int64(ctx, row.id);
      break;
    case kLayoutDepth:
      sqlite3_result_int64(ctx, row.layout_depth);
      break;
    default:
      sqlite3_result_text(ctx, cursor->filter.data(), static_cast<int>(cursor->filter.size()),
                          SQLITE_TRANSIENT);
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* c, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(static_cast<LayoutCursor*>(c)->at);
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

absl::Status RegisterSliceLayoutFunction(sqlite3* db) {
  const int rc = sqlite3_create_module_v2(db, "experimental_slice_layout", &kModule, nullptr,
                                          nullptr);
  if (rc != SQLITE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot register experimental_slice_layout: ", sqlite3_errstr(rc)));
  }
  return absl::OkStatus();
}

}  // namespace tw

#include "libs/trace/query/table_vtab.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/row_filter.h"

namespace tw {
namespace {

// idxNum layout: low 8 bits = plan, next bits = column (plan-specific).
enum Plan : int {
  kFullScan = 0,
  kIdRange = 1,      // constraints on id (eq or bounds)
  kSortedRange = 2,  // bounds/eq on a kSorted column
  kIndexedEq = 3,    // equality on any int/string column through the lazy index
};

// Operators we accept, encoded one char each in idxStr.
char OpCode(unsigned char op) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return '=';
    case SQLITE_INDEX_CONSTRAINT_GT: return '>';
    case SQLITE_INDEX_CONSTRAINT_GE: return 'g';
    case SQLITE_INDEX_CONSTRAINT_LT: return '<';
    case SQLITE_INDEX_CONSTRAINT_LE: return 'l';
    case SQLITE_INDEX_CONSTRAINT_GLOB: return 'G';  // string columns only, never a plan
    default: return 0;
  }
}

struct Vtab : sqlite3_vtab {
  TableVtabContext* ctx;
};

// One xFilter argument as BestIndex laid it out in idxStr: "<role><op><column>;" per argument,
// role 'p' (drives the access plan) or 'r' (residual: checked by the RowFilter); upper case
// 'P' / 'R' when SQLite omits its own check, so the RowFilter's must be exact (it checks 'P'
// arguments too: a range or index cannot tell NULL cells apart).
struct ArgSpec {
  bool primary;
  bool exact;
  char op;
  int col;  // 0 = id, k = columns()[k-1]
};

struct Cursor : sqlite3_vtab_cursor {
  // Either iterate rows [pos, end) directly, or positions [pos, end) of `list`, skipping rows
  // the filter rejects.
  const std::vector<uint32_t>* list = nullptr;
  uint32_t pos = 0;
  uint32_t end = 0;
  RowFilter filter;
  // The parsed idxStr of the last xFilter call: a correlated lookup calls xFilter on the same
  // cursor with the same plan once per outer row, and parsing it each time showed in profiles.
  const char* parsed_idx_str = nullptr;
  std::vector<ArgSpec> specs;
  uint64_t col_used = 0;
  std::vector<std::pair<char, sqlite3_value*>> primary;  // this call's plan arguments
  // Columns the query reads, loaded ahead of time on index scans (see Column::Prefetch).
  std::vector<const Column*> prefetch;
  static constexpr uint32_t kPrefetchAhead = 12;

  uint32_t Row() const { return list ? (*list)[pos] : pos; }
  void PrefetchRow(uint32_t at) const {
    if (at >= end) return;
    const uint32_t row = (*list)[at];
    for (const Column* c : prefetch) c->Prefetch(row);
  }
  void Step() {
    ++pos;
    if (list && !prefetch.empty()) PrefetchRow(pos + kPrefetchAhead);
  }
  // Called once the range is set: warms up the first rows of an index scan.
  void Start() {
    if (list && !prefetch.empty()) {
      for (uint32_t i = 0; i < kPrefetchAhead && pos + i < end; ++i) PrefetchRow(pos + i);
    }
    SkipRejected();
  }
  void SkipRejected() {
    if (filter.empty()) return;
    while (pos < end && !filter.Matches(Row())) Step();
  }
};

// idxStr starts with "u<hex>;": SQLite's colUsed mask (bit k: column k, k = 0 the id; bit 63:
// every column from 63 on). The argument specs follow.
std::vector<ArgSpec> ParseArgSpecs(const char* idx_str, uint64_t* col_used) {
  std::vector<ArgSpec> out;
  const char* p = idx_str ? idx_str : "";
  *col_used = ~uint64_t{0};
  if (*p == 'u') {
    char* after = nullptr;
    *col_used = std::strtoull(p + 1, &after, 16);
    p = after && *after == ';' ? after + 1 : "";
  }
  for (; p[0] && p[1];) {
    ArgSpec a{p[0] == 'p' || p[0] == 'P', p[0] == 'P' || p[0] == 'R', p[1], 0};
    p += 2;
    while (*p >= '0' && *p <= '9') a.col = a.col * 10 + (*p++ - '0');
    if (*p == ';') ++p;
    out.push_back(a);
  }
  return out;
}

const char* SqlType(ColumnType t) {
  switch (t) {
    case ColumnType::kInt: return "INTEGER";
    case ColumnType::kDouble: return "DOUBLE";
    case ColumnType::kString: return "TEXT";
  }
  return "";
}

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  auto* ctx = static_cast<TableVtabContext*>(aux);
  if (ctx->fill) std::call_once(ctx->filled, ctx->fill);
  std::string schema = "CREATE TABLE x(id INTEGER";
  for (const Column* c : ctx->table->columns()) {
    // Quoted: some column names (key, release, ...) are SQL keywords.
    absl::StrAppend(&schema, ", \"", c->name(), "\" ", SqlType(c->type()),
                    (c->flags() & kHidden) ? " HIDDEN" : "");
  }
  schema += ")";
  const int rc = sqlite3_declare_vtab(db, schema.c_str());
  if (rc != SQLITE_OK) return rc;
  auto* vtab = new Vtab();
  vtab->ctx = ctx;
  *out = vtab;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* v) {
  delete static_cast<Vtab*>(v);
  return SQLITE_OK;
}

// Whether constraint `i` can be filtered exactly enough in C++ (see RowFilter): integer columns
// and id with any comparison, string columns with BINARY equality.
bool Filterable(const Table& table, sqlite3_index_info* info, int i) {
  const auto& c = info->aConstraint[i];
  if (!c.usable || !OpCode(c.op)) return false;
  const Column* column = c.iColumn <= 0 ? nullptr : table.columns()[c.iColumn - 1];
  // GLOB ignores collations; the filter decides it per distinct string.
  if (c.op == SQLITE_INDEX_CONSTRAINT_GLOB) return column && column->type() == ColumnType::kString;
  if (!column) return true;
  if (column->type() == ColumnType::kDouble) return false;
  if (column->type() == ColumnType::kString) {
    const char* coll = sqlite3_vtab_collation(info, i);
    return c.op == SQLITE_INDEX_CONSTRAINT_EQ && !(coll && sqlite3_stricmp(coll, "BINARY") != 0);
  }
  return true;
}

int BestIndex(sqlite3_vtab* v, sqlite3_index_info* info) {
  TableVtabContext& ctx = *static_cast<Vtab*>(v)->ctx;
  const Table& table = *ctx.table;
  const double n = std::max<double>(table.row_count(), 1);
  const auto& cols = table.columns();
  // Rows per value of an equality on column `col` (1-based), from a sample of the column.
  auto rows_per_value = [&](int col) {
    return col <= 0 ? 1.0 : std::max(1.0, ctx.indexes->RowsPerValue(static_cast<uint32_t>(col - 1)));
  };

  // Score each candidate plan by the rows it visits; keep the cheapest.
  int best_plan = kFullScan;
  int best_col = -1;
  double best_cost = n;

  auto consider = [&](int plan, int col, double cost) {
    if (cost < best_cost) {
      best_plan = plan;
      best_col = col;
      best_cost = cost;
    }
  };

  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (!c.usable || !OpCode(c.op) || c.op == SQLITE_INDEX_CONSTRAINT_GLOB) continue;
    const int col = c.iColumn;  // 0 = id, k = cols[k-1]; -1 = rowid
    const bool eq = c.op == SQLITE_INDEX_CONSTRAINT_EQ;
    if (col <= 0) {
      consider(kIdRange, 0, eq ? 1 : n / 4);
      continue;
    }
    const Column* column = cols[col - 1];
    if (column->type() == ColumnType::kDouble) continue;
    if (column->type() == ColumnType::kString) {
      // The index orders string ids, so it can only answer exact (BINARY) equality: under
      // COLLATE NOCASE, say, it would miss rows SQLite's re-check would have accepted.
      const char* coll = sqlite3_vtab_collation(info, i);
      if (!eq || (coll && sqlite3_stricmp(coll, "BINARY") != 0)) continue;
      // Index rows are scattered through the table: each costs a little more than a scanned one.
      consider(kIndexedEq, col, 2 * rows_per_value(col) + std::log2(n));
      continue;
    }
    if (column->flags() & kSorted) {
      consider(kSortedRange, col, eq ? rows_per_value(col) + std::log2(n) : n / 4);
    } else if (eq) {
      consider(kIndexedEq, col, 2 * rows_per_value(col) + std::log2(n));
    }
  }

  // Pass the chosen column's constraints (plus id ranges) to xFilter to drive the plan, and
  // every other filterable constraint as a residual check.
  std::string specs;
  int arg = 0;
  double out_rows = std::min(best_cost, n);
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (!c.usable || !OpCode(c.op)) continue;
    const int col = c.iColumn < 0 ? 0 : c.iColumn;
    const bool eq = c.op == SQLITE_INDEX_CONSTRAINT_EQ;
    // The value index answers only equality, and for strings only exact (BINARY) equality.
    const bool glob = c.op == SQLITE_INDEX_CONSTRAINT_GLOB;
    const bool primary = best_plan != kFullScan && col == best_col && !glob &&
                         (best_plan != kIndexedEq || (eq && Filterable(table, info, i)));
    if (!primary && !Filterable(table, info, i)) continue;
    char op = OpCode(c.op);
    if (!primary) {
      // A residual IN is taken all at once (one xFilter call, a set check per row) instead of
      // SQLite calling xFilter once per value.
      if (eq && sqlite3_vtab_in(info, i, -1)) {
        sqlite3_vtab_in(info, i, 1);
        op = 'i';
      }
      if (glob) {
        sqlite3_value* pattern = nullptr;
        const bool known = sqlite3_vtab_rhs_value(info, i, &pattern) == SQLITE_OK &&
                           sqlite3_value_type(pattern) == SQLITE_TEXT;
        out_rows *= known ? ctx.indexes->GlobSelectivity(
                                static_cast<uint32_t>(col - 1),
                                reinterpret_cast<const char*>(sqlite3_value_text(pattern)))
                          : 0.5;
      } else {
        out_rows *= eq ? std::min(1.0, rows_per_value(col) / n) : 0.5;
      }
    }
    info->aConstraintUsage[i].argvIndex = ++arg;
    // Comparisons on integers and ids are decided exactly by the RowFilter (NULLs, affinity and
    // all), so SQLite need not read the column again and re-check; everything else (strings,
    // IN lists) SQLite re-checks.
    const bool exact = (col == 0 || cols[col - 1]->type() == ColumnType::kInt) &&
                       !(eq && sqlite3_vtab_in(info, i, -1));
    info->aConstraintUsage[i].omit = exact ? 1 : 0;
    const char* role = primary ? (exact ? "P" : "p") : (exact ? "R" : "r");
    absl::StrAppend(&specs, role, std::string(1, op), col, ";");
  }
  out_rows = std::max(out_rows, 1.0);
  info->idxNum = best_plan | ((best_col < 0 ? 0 : best_col) << 8);
  info->idxStr = sqlite3_mprintf("u%llx;%s", static_cast<unsigned long long>(info->colUsed),
                                 specs.c_str());
  info->needToFreeIdxStr = 1;
  // Visiting a row costs less than SQLite processing one: residual checks pay for themselves.
  // Each xFilter call also has a fixed cost (cursor setup, value conversion), as in
  // trace_processor's tables, so SQLite runs a small table's filter in the outer loop rather
  // than once per row of a larger one: a join without ORDER BY then yields rows in the order
  // trace_processor gives.
  info->estimatedCost = 10 + best_cost * 0.5 + out_rows;
  info->estimatedRows = static_cast<sqlite3_int64>(out_rows);
  if (best_plan == kIdRange && specs == "p=0;") info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;

  // Rows come out in id order for every plan but the value index (SQLite itself drops this
  // when a primary IN constraint makes it call xFilter once per value).
  if (best_plan != kIndexedEq && info->nOrderBy == 1 && info->aOrderBy[0].iColumn == 0 &&
      !info->aOrderBy[0].desc) {
    info->orderByConsumed = 1;
  }
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new Cursor();
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* c) {
  delete static_cast<Cursor*>(c);
  return SQLITE_OK;
}

// Narrows [lo, hi) of row positions by one bound, where value_at(i) is non-decreasing.
template <typename ValueAt>
void ApplyBound(char op, int64_t v, uint32_t* lo, uint32_t* hi, ValueAt value_at) {
  auto lower = [&](int64_t x) {  // first i with value >= x
    uint32_t a = *lo, b = *hi;
    while (a < b) {
      uint32_t m = a + (b - a) / 2;
      if (value_at(m) < x) a = m + 1; else b = m;
    }
    return a;
  };
  auto upper = [&](int64_t x) {  // first i with value > x
    uint32_t a = *lo, b = *hi;
    while (a < b) {
      uint32_t m = a + (b - a) / 2;
      if (value_at(m) <= x) a = m + 1; else b = m;
    }
    return a;
  };
  switch (op) {
    case '=': {
      const uint32_t a = lower(v), b = upper(v);
      *lo = a;
      *hi = std::max(a, b);
      break;
    }
    case '>':
      if (v == INT64_MAX) { *lo = *hi; } else { *lo = lower(v + 1); }
      break;
    case 'g': *lo = lower(v); break;
    case '<':
      if (v == INT64_MIN) { *hi = *lo; } else { *hi = upper(v - 1); }
      break;
    case 'l': *hi = upper(v); break;
  }
  if (*lo > *hi) *lo = *hi;
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char* idx_str, int argc,
           sqlite3_value** argv) {
  auto* c = static_cast<Cursor*>(cur);
  auto* ctx = static_cast<Vtab*>(cur->pVtab)->ctx;
  const Table& table = *ctx->table;
  const int plan = idx_num & 0xff;
  const int col = idx_num >> 8;
  c->list = nullptr;
  c->pos = 0;
  c->end = table.row_count();
  c->filter.Clear();
  if (idx_str != c->parsed_idx_str) {
    c->parsed_idx_str = idx_str;
    c->specs = ParseArgSpecs(idx_str, &c->col_used);
    c->prefetch.clear();
    if (plan == kIndexedEq) {
      const auto& cols = table.columns();
      for (size_t k = 1; k <= cols.size(); ++k) {
        if (c->col_used & (uint64_t{1} << std::min<size_t>(k, 63))) c->prefetch.push_back(cols[k - 1]);
      }
    }
  }
  const std::vector<ArgSpec>& specs = c->specs;
  auto& primary = c->primary;
  primary.clear();
  for (int i = 0; i < argc && i < static_cast<int>(specs.size()); ++i) {
    const ArgSpec& a = specs[static_cast<size_t>(i)];
    if (a.primary) {
      primary.emplace_back(a.op, argv[i]);
      if (!a.exact) continue;
    }
    const Column* column = a.col == 0 ? nullptr : table.columns()[static_cast<size_t>(a.col - 1)];
    switch (c->filter.Add(column, a.op, argv[i], *ctx->strings)) {
      case RowFilter::AddResult::kAdded: break;
      case RowFilter::AddResult::kNoMatch: c->end = 0; return SQLITE_OK;
      case RowFilter::AddResult::kNoMemory: return SQLITE_NOMEM;
    }
  }

  // Narrows [lo, hi) by the plan's integer bounds, where value_at(i) is non-decreasing (empty
  // when no row can match). The bounds are exact (ExactIntComparison); the RowFilter re-checks
  // 'P' arguments anyway, for the NULL cells a range cannot tell apart.
  auto narrow = [&](uint32_t* lo, uint32_t* hi, auto value_at) -> int {
    for (auto [op, value] : primary) {
      int64_t v;
      switch (ExactIntComparison(value, &op, &v)) {
        case IntComparison::kNone: *lo = *hi; return SQLITE_OK;
        case IntComparison::kNoMemory: return SQLITE_NOMEM;
        case IntComparison::kAllNonNull: break;
        case IntComparison::kCompare: ApplyBound(op, v, lo, hi, value_at); break;
      }
    }
    return SQLITE_OK;
  };
  if (plan == kIdRange ||
      (plan == kSortedRange && table.columns()[col - 1]->type() == ColumnType::kInt)) {
    const Column* column = plan == kIdRange ? nullptr : table.columns()[col - 1];
    uint32_t lo = 0, hi = table.row_count();
    const int rc = narrow(&lo, &hi, [column](uint32_t m) {
      return column ? column->GetInt(m) : static_cast<int64_t>(m);
    });
    if (rc != SQLITE_OK) return rc;
    c->pos = lo;
    c->end = hi;
  } else if (plan == kIndexedEq && !primary.empty()) {
    const Column* column = table.columns()[col - 1];
    sqlite3_value* arg = primary[0].second;
    if (sqlite3_value_type(arg) == SQLITE_NULL) {
      c->end = 0;
      return SQLITE_OK;
    }
    int64_t key;
    if (column->type() == ColumnType::kString) {
      if (sqlite3_value_type(arg) != SQLITE_TEXT) {  // full scan, SQLite checks
        c->Start();
        return SQLITE_OK;
      }
      const char* text = reinterpret_cast<const char*>(sqlite3_value_text(arg));
      const int len = sqlite3_value_bytes(arg);
      const StringId id = ctx->strings->Find(std::string_view(text, len));
      if (id == kNullStringId) {
        c->end = 0;
        return SQLITE_OK;
      }
      key = id;
    } else {
      char eq = '=';
      switch (ExactIntComparison(arg, &eq, &key)) {
        case IntComparison::kCompare: break;
        case IntComparison::kNoMemory: return SQLITE_NOMEM;
        default: c->end = 0; return SQLITE_OK;  // NULL, a fraction, text: equals no integer
      }
    }
    const std::vector<uint32_t>& index = ctx->indexes->IndexFor(col - 1);
    uint32_t lo = 0, hi = static_cast<uint32_t>(index.size());
    auto value_at = [&](uint32_t m) {
      return column->type() == ColumnType::kString
                 ? static_cast<int64_t>(column->GetString(index[m]))
                 : column->GetInt(index[m]);
    };
    ApplyBound('=', key, &lo, &hi, value_at);
    c->list = &index;
    c->pos = lo;
    c->end = hi;
  }
  c->Start();
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* cur) {
  auto* c = static_cast<Cursor*>(cur);
  c->Step();
  c->SkipRejected();
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* cur) {
  auto* c = static_cast<Cursor*>(cur);
  return c->pos >= c->end;
}

int ColumnValue(sqlite3_vtab_cursor* cur, sqlite3_context* out, int n) {
  auto* c = static_cast<Cursor*>(cur);
  auto* ctx = static_cast<Vtab*>(cur->pVtab)->ctx;
  const uint32_t row = c->Row();
  if (n == 0) {
    sqlite3_result_int64(out, row);
    return SQLITE_OK;
  }
  const Column* column = ctx->table->columns()[n - 1];
  if (column->IsNull(row)) {
    sqlite3_result_null(out);
    return SQLITE_OK;
  }
  switch (column->type()) {
    case ColumnType::kInt: sqlite3_result_int64(out, column->GetInt(row)); break;
    case ColumnType::kDouble: sqlite3_result_double(out, column->GetDouble(row)); break;
    case ColumnType::kString: {
      const std::string_view s = ctx->strings->Get(column->GetString(row));
      sqlite3_result_text(out, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
      break;
    }
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* out) {
  *out = static_cast<Cursor*>(cur)->Row();
  return SQLITE_OK;
}

sqlite3_module MakeModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.iVersion = 2;
  m.xCreate = nullptr;  // eponymous-only: exists in every connection without CREATE
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

size_t TableIndexCache::memory_bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  size_t total = rows_per_value_.capacity() * sizeof(double);
  for (const auto& index : indexes_) {
    if (index) total += index->capacity() * sizeof(uint32_t);
  }
  return total;
}

const std::vector<uint32_t>& TableIndexCache::IndexFor(uint32_t col) {
  std::lock_guard<std::mutex> lock(mu_);
  if (indexes_.size() < table_->columns().size()) indexes_.resize(table_->columns().size());
  auto& slot = indexes_[col];
  if (!slot) {
    // Keys are read once, in row order (one virtual call per row, sequential memory). Dense
    // small-range keys (utid, cpu, track ids, string ids) are placed by a counting sort, which
    // is linear and keeps row order within a key; others sort (key, row) pairs.
    const Column* column = table_->columns()[col];
    const bool is_string = column->type() == ColumnType::kString;
    const uint32_t n = table_->row_count();
    std::vector<std::pair<int64_t, uint32_t>> keyed;
    keyed.reserve(n);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t r = 0; r < n; ++r) {
      if (column->IsNull(r)) continue;
      const int64_t key = is_string ? static_cast<int64_t>(column->GetString(r)) : column->GetInt(r);
      keyed.emplace_back(key, r);
      lo = std::min(lo, key);
      hi = std::max(hi, key);
    }
    auto index = std::make_unique<std::vector<uint32_t>>(keyed.size());
    // Unsigned differences: the keys may span the whole int64 range.
    auto offset = [&](int64_t key) { return static_cast<uint64_t>(key) - static_cast<uint64_t>(lo); };
    const bool dense = !keyed.empty() && offset(hi) < 2 * static_cast<uint64_t>(keyed.size()) + 1024;
    if (dense) {
      std::vector<uint32_t> start(static_cast<size_t>(offset(hi)) + 2, 0);
      for (const auto& [key, row] : keyed) ++start[offset(key) + 1];
      for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
      for (const auto& [key, row] : keyed) (*index)[start[offset(key)]++] = row;
    } else {
      std::sort(keyed.begin(), keyed.end());
      for (size_t i = 0; i < keyed.size(); ++i) (*index)[i] = keyed[i].second;
    }
    slot = std::move(index);
  }
  return *slot;
}

double TableIndexCache::GlobSelectivity(uint32_t col, const std::string& pattern) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::pair<uint32_t, std::string> key(col, pattern);
  auto it = glob_selectivity_.find(key);
  if (it != glob_selectivity_.end()) return it->second;
  // The share of evenly spaced sample rows that match, with half a row for the rows the sample
  // missed, so a pattern no sampled row matches still counts as rare, not as absent.
  const Column* column = table_->columns()[col];
  const uint32_t n = table_->row_count();
  const uint32_t samples = std::min<uint32_t>(n, 1024);
  GlobMatcher matcher(pattern, strings_);
  uint32_t matches = 0;
  for (uint32_t i = 0; i < samples; ++i) {
    const uint32_t row = static_cast<uint32_t>(static_cast<uint64_t>(i) * n / samples);
    if (!column->IsNull(row) && matcher.Matches(column->GetString(row))) ++matches;
  }
  const double share = samples == 0 ? 1.0 : std::min(1.0, (matches + 0.5) / samples);
  glob_selectivity_.emplace(key, share);
  return share;
}

double TableIndexCache::RowsPerValue(uint32_t col) {
  std::lock_guard<std::mutex> lock(mu_);
  if (rows_per_value_.size() < table_->columns().size()) {
    rows_per_value_.resize(table_->columns().size(), -1);
  }
  double& slot = rows_per_value_[col];
  if (slot < 0) {
    // Distinct values among evenly spaced sample rows. A column with few values (a state, a
    // cpu) shows each of them many times; where most samples differ, extrapolate linearly.
    const Column* column = table_->columns()[col];
    const uint32_t n = table_->row_count();
    const uint32_t samples = std::min<uint32_t>(n, 1024);
    std::vector<int64_t> seen;
    seen.reserve(samples);
    for (uint32_t i = 0; i < samples; ++i) {
      const uint32_t row = static_cast<uint32_t>(static_cast<uint64_t>(i) * n / samples);
      if (column->IsNull(row)) continue;
      seen.push_back(column->type() == ColumnType::kString
                         ? static_cast<int64_t>(column->GetString(row))
                         : column->GetInt(row));
    }
    std::sort(seen.begin(), seen.end());
    const double distinct =
        static_cast<double>(std::unique(seen.begin(), seen.end()) - seen.begin());
    if (distinct == 0) {
      slot = 1;
    } else if (distinct < seen.size() / 2.0) {
      slot = n / distinct;
    } else {
      slot = static_cast<double>(seen.size()) / distinct;
    }
  }
  return slot;
}

absl::Status RegisterTableVtab(sqlite3* db, TableVtabContext* ctx) {
  const std::string name = "__intrinsic_" + ctx->table->name();
  const int rc = sqlite3_create_module_v2(db, name.c_str(), &kModule, ctx, nullptr);
  if (rc != SQLITE_OK) {
    return absl::InternalError(absl::StrCat("cannot register table ", name, ": ",
                                            sqlite3_errmsg(db)));
  }
  return absl::OkStatus();
}

}  // namespace tw

#include "libs/trace/query/row_filter.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace tw {

bool ConstraintIntArg(sqlite3_value* v, char op, int64_t* out) {
  int type = sqlite3_value_type(v);
  if (type == SQLITE_TEXT) {
    // Text that looks like a number compares as one against an INTEGER column. Convert a copy:
    // sqlite3_value_numeric_type() rewrites its argument, which is SQLite's own register.
    sqlite3_value* copy = sqlite3_value_dup(v);
    if (!copy) return false;
    type = sqlite3_value_numeric_type(copy);
    const bool ok = type == SQLITE_INTEGER || type == SQLITE_FLOAT;
    const bool result = ok && ConstraintIntArg(copy, op, out);
    sqlite3_value_free(copy);
    return result;
  }
  switch (type) {
    case SQLITE_INTEGER: *out = sqlite3_value_int64(v); return true;
    case SQLITE_FLOAT: {
      const double d = sqlite3_value_double(v);
      if (d > 9e18 || d < -9e18) return false;
      if (op == '=' || op == 'i') {
        if (d != static_cast<double>(static_cast<int64_t>(d))) return false;
        *out = static_cast<int64_t>(d);
      } else if (op == '>' || op == 'g') {
        *out = static_cast<int64_t>(std::floor(d));
      } else {
        *out = static_cast<int64_t>(std::ceil(d));
      }
      return true;
    }
    default: return false;
  }
}

namespace {

// The comparable key of one operand for `column`: the value for integer columns and the id,
// the string id for string columns. False: not decidable here (leave it to SQLite).
enum class Key { kOk, kUndecidable, kNoMatch };
Key KeyOf(const Column* column, char op, sqlite3_value* v, const StringPool& strings,
          int64_t* out) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return Key::kNoMatch;
  if (column && column->type() == ColumnType::kString) {
    // Only exact equality is decidable on string ids, and only against text operands.
    if ((op != '=' && op != 'i') || sqlite3_value_type(v) != SQLITE_TEXT) return Key::kUndecidable;
    const char* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
    const StringId id =
        strings.Find(std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(v))));
    if (id == kNullStringId) return Key::kNoMatch;
    *out = id;
    return Key::kOk;
  }
  return ConstraintIntArg(v, op, out) ? Key::kOk : Key::kUndecidable;
}

}  // namespace

bool RowFilter::Add(const Column* column, char op, sqlite3_value* arg, const StringPool& strings) {
  if (column && column->type() == ColumnType::kDouble) return true;
  Term term{column, op, 0, {}};
  if (op != 'i') {
    switch (KeyOf(column, op, arg, strings, &term.value)) {
      case Key::kNoMatch: return false;
      case Key::kUndecidable: return true;
      case Key::kOk: break;
    }
    terms_.push_back(std::move(term));
    return true;
  }
  sqlite3_value* v = nullptr;
  int rc = sqlite3_vtab_in_first(arg, &v);
  for (; rc == SQLITE_OK && v; rc = sqlite3_vtab_in_next(arg, &v)) {
    int64_t key;
    switch (KeyOf(column, op, v, strings, &key)) {
      case Key::kNoMatch: continue;  // NULL or an unknown string: matches nothing
      case Key::kUndecidable: return true;
      case Key::kOk: term.set.push_back(key); break;
    }
  }
  if (rc != SQLITE_DONE && rc != SQLITE_OK) return true;  // cannot read the list: no filtering
  if (term.set.empty()) return false;
  std::sort(term.set.begin(), term.set.end());
  terms_.push_back(std::move(term));
  return true;
}

bool RowFilter::Term::Matches(uint32_t row) const {
  int64_t v;
  if (!column) {
    v = row;
  } else if (column->IsNull(row)) {
    return false;  // every comparison with NULL is false
  } else {
    v = column->type() == ColumnType::kString ? static_cast<int64_t>(column->GetString(row))
                                               : column->GetInt(row);
  }
  switch (op) {
    case '=': return v == value;
    case '>': return v > value;
    case 'g': return v >= value;
    case '<': return v < value;
    case 'l': return v <= value;
    case 'i':
      return set.size() <= 4 ? std::find(set.begin(), set.end(), v) != set.end()
                             : std::binary_search(set.begin(), set.end(), v);
  }
  return true;
}

}  // namespace tw

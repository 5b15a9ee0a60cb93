#include "libs/trace/query/row_filter.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace tw {

namespace {

// `column op d` for a real d, as the integer comparison it is equivalent to.
IntComparison RealComparison(double d, char* op, int64_t* out) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (std::isnan(d)) return IntComparison::kNone;
  if (d >= kTwo63) {  // above every int64
    return *op == '<' || *op == 'l' ? IntComparison::kAllNonNull : IntComparison::kNone;
  }
  if (d < -kTwo63) {  // below every int64
    return *op == '>' || *op == 'g' ? IntComparison::kAllNonNull : IntComparison::kNone;
  }
  // In range, floor and ceil are integers an int64 holds (doubles this large are integral).
  const auto floor_d = static_cast<int64_t>(std::floor(d));
  const auto ceil_d = static_cast<int64_t>(std::ceil(d));
  switch (*op) {
    case '=':
      if (std::floor(d) != d) return IntComparison::kNone;
      *out = floor_d;
      break;
    case '<': *out = ceil_d; break;   // x < 2.5  <=>  x < 3
    case 'g': *out = ceil_d; break;   // x >= 2.5 <=>  x >= 3
    case 'l': *out = floor_d; break;  // x <= 2.5 <=>  x <= 2
    case '>': *out = floor_d; break;  // x > 2.5  <=>  x > 2
    default: return IntComparison::kNone;
  }
  return IntComparison::kCompare;
}

// An integer against text that is not a number, or a blob: the integer sorts first.
IntComparison AgainstNonNumber(char op) {
  return op == '<' || op == 'l' ? IntComparison::kAllNonNull : IntComparison::kNone;
}

// The string id of an operand for a string column's exact equality. kUndecidable: leave it to
// SQLite (a non-text operand, an ordering comparison).
enum class Key { kOk, kUndecidable, kNoMatch };
Key StringKeyOf(char op, sqlite3_value* v, const StringPool& strings, int64_t* out) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return Key::kNoMatch;
  if ((op != '=' && op != 'i') || sqlite3_value_type(v) != SQLITE_TEXT) return Key::kUndecidable;
  const char* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
  const StringId id =
      strings.Find(std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(v))));
  if (id == kNullStringId) return Key::kNoMatch;
  *out = id;
  return Key::kOk;
}

}  // namespace

bool GlobMatcher::Matches(StringId id) {
  auto [it, inserted] = seen_.try_emplace(id, false);
  if (inserted) {
    // sqlite3_strglob reads C strings, as GLOB does (it stops at a NUL byte too).
    const std::string text(strings_->Get(id));
    it->second = sqlite3_strglob(pattern_.c_str(), text.c_str()) == 0;
  }
  return it->second;
}

IntComparison ExactIntComparison(sqlite3_value* v, char* op, int64_t* out) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL: return IntComparison::kNone;
    case SQLITE_INTEGER: *out = sqlite3_value_int64(v); return IntComparison::kCompare;
    case SQLITE_FLOAT: return RealComparison(sqlite3_value_double(v), op, out);
    case SQLITE_TEXT: {
      // The column's INTEGER affinity applies numeric affinity to the text first. Convert a
      // copy: sqlite3_value_numeric_type() rewrites its argument, which is SQLite's register.
      sqlite3_value* copy = sqlite3_value_dup(v);
      if (!copy) return IntComparison::kNoMemory;
      IntComparison result;
      switch (sqlite3_value_numeric_type(copy)) {
        case SQLITE_INTEGER:
          *out = sqlite3_value_int64(copy);
          result = IntComparison::kCompare;
          break;
        case SQLITE_FLOAT: result = RealComparison(sqlite3_value_double(copy), op, out); break;
        default: result = AgainstNonNumber(*op); break;
      }
      sqlite3_value_free(copy);
      return result;
    }
    default: return AgainstNonNumber(*op);  // blob
  }
}

RowFilter::AddResult RowFilter::Add(const Column* column, char op, sqlite3_value* arg,
                                    const StringPool& strings) {
  if (column && column->type() == ColumnType::kDouble) return AddResult::kAdded;  // not here
  const bool integer = !column || column->type() == ColumnType::kInt;
  Term term{column, op, 0, {}, nullptr};
  if (op == 'G') {
    if (integer) return AddResult::kAdded;  // not here: SQLite checks it
    if (sqlite3_value_type(arg) == SQLITE_NULL) return AddResult::kNoMatch;
    if (sqlite3_value_type(arg) != SQLITE_TEXT) return AddResult::kAdded;
    term.glob = std::make_shared<GlobMatcher>(
        reinterpret_cast<const char*>(sqlite3_value_text(arg)), &strings);
    terms_.push_back(std::move(term));
    return AddResult::kAdded;
  }
  if (op != 'i') {
    if (integer) {
      switch (ExactIntComparison(arg, &term.op, &term.value)) {
        case IntComparison::kNone: return AddResult::kNoMatch;
        case IntComparison::kNoMemory: return AddResult::kNoMemory;
        case IntComparison::kAllNonNull:
          if (!column) return AddResult::kAdded;  // ids are never NULL
          term.op = 'n';
          break;
        case IntComparison::kCompare: break;
      }
    } else {
      switch (StringKeyOf(op, arg, strings, &term.value)) {
        case Key::kNoMatch: return AddResult::kNoMatch;
        case Key::kUndecidable: return AddResult::kAdded;
        case Key::kOk: break;
      }
    }
    terms_.push_back(std::move(term));
    return AddResult::kAdded;
  }
  sqlite3_value* v = nullptr;
  int rc = sqlite3_vtab_in_first(arg, &v);
  for (; rc == SQLITE_OK && v; rc = sqlite3_vtab_in_next(arg, &v)) {
    int64_t key;
    if (integer) {
      char eq = '=';
      switch (ExactIntComparison(v, &eq, &key)) {
        case IntComparison::kNone: continue;  // NULL, a fraction, text: equals no integer
        case IntComparison::kNoMemory: return AddResult::kNoMemory;
        case IntComparison::kAllNonNull: continue;  // not produced for '='
        case IntComparison::kCompare: term.set.push_back(key); break;
      }
      continue;
    }
    switch (StringKeyOf(op, v, strings, &key)) {
      case Key::kNoMatch: continue;  // NULL or an unknown string: matches nothing
      case Key::kUndecidable: return AddResult::kAdded;
      case Key::kOk: term.set.push_back(key); break;
    }
  }
  if (rc != SQLITE_DONE && rc != SQLITE_OK) {
    // Cannot read the list: no filtering here. SQLite re-checks IN constraints (table_vtab
    // never omits them), so the rows stay right.
    return AddResult::kAdded;
  }
  if (term.set.empty()) return AddResult::kNoMatch;
  std::sort(term.set.begin(), term.set.end());
  terms_.push_back(std::move(term));
  return AddResult::kAdded;
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
    case 'n': return true;  // any non-NULL value
    case 'G': return glob->Matches(static_cast<StringId>(v));
    case 'i':
      return set.size() <= 4 ? std::find(set.begin(), set.end(), v) != set.end()
                             : std::binary_search(set.begin(), set.end(), v);
  }
  return true;
}

}  // namespace tw

#pragma once
// The constraints of a virtual-table scan that its access plan (id range, sorted range or value
// index) does not answer, checked in C++ on each candidate row before SQLite sees it.
//
// Comparisons on integer columns (and the id) are decided exactly as SQLite would decide them —
// NULL operands, numeric affinity applied to text, reals, integers against text or blobs — so the
// table tells SQLite to omit its own re-check of them. String constraints stay a pre-filter: the
// filter may let extra rows through (anything it cannot decide exactly, such as a collation, is
// not filtered here) and SQLite re-checks them. A GLOB on a string column is decided once per
// distinct string (sqlite3_strglob, SQLite's own matcher), not once per row: the stdlib picks
// its slices by name patterns (`name GLOB 'sendMessage(*'`) out of every slice of the trace.
//
// Why: a row handed to SQLite costs a VDBE step and a call per column read, several times the
// cost of comparing one column here. `utid = ? AND state IN ('R', 'R+') AND dur > 0` over a
// thread's rows returns only the matching third of them, and SQLite reads only `state` again.

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

#include "libs/trace/storage/string_pool.h"
#include "libs/trace/storage/table.h"

namespace tw {

// `text GLOB pattern`, remembered per string id.
class GlobMatcher {
 public:
  GlobMatcher(std::string pattern, const StringPool* strings)
      : pattern_(std::move(pattern)), strings_(strings) {}
  bool Matches(StringId id);

 private:
  std::string pattern_;
  const StringPool* strings_;
  absl::flat_hash_map<StringId, bool> seen_;
};

class RowFilter {
 public:
  // One usable constraint of the scan: `op` is '=', '>', 'g' (>=), '<', 'l' (<=), 'i' (IN,
  // all values at once) or 'G' (GLOB, string columns only); `column` is nullptr for the id
  // column. Exact for integer columns and
  // the id (see ExactIntComparison), a superset for strings.
  // kNoMatch: no row can match (a NULL operand, a string the trace never interned), so the scan
  // is empty; kNoMemory: SQLite could not copy an operand to convert it.
  enum class AddResult { kAdded, kNoMatch, kNoMemory };
  AddResult Add(const Column* column, char op, sqlite3_value* arg, const StringPool& strings);

  bool empty() const { return terms_.empty(); }
  void Clear() { terms_.clear(); }
  bool Matches(uint32_t row) const {
    for (const Term& t : terms_) {
      if (!t.Matches(row)) return false;
    }
    return true;
  }

 private:
  struct Term {
    const Column* column;  // nullptr: the id column
    char op;
    int64_t value;  // op 'n' (any non-NULL value) ignores it
    std::vector<int64_t> set;  // op 'i': sorted values (string ids for string columns)
    // op 'G': the pattern, and whether each string id seen so far matches it.
    std::shared_ptr<GlobMatcher> glob;
    bool Matches(uint32_t row) const;
  };
  std::vector<Term> terms_;
};

// `column op v` for an INTEGER-affinity column, decided the way SQLite compares: a NULL operand
// matches nothing; text gets numeric affinity (text that is not a number, and any blob, sorts
// after every integer); a real is compared exactly (`x <= 2.5` is `x <= 2`). The result is no
// row, every non-NULL row, or the integer comparison `column *op *out` (op one of = > g < l).
enum class IntComparison { kNone, kAllNonNull, kCompare, kNoMemory };
IntComparison ExactIntComparison(sqlite3_value* v, char* op, int64_t* out);

}  // namespace tw

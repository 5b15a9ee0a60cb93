#pragma once
// The constraints of a virtual-table scan that its access plan (id range, sorted range or value
// index) does not answer, checked in C++ on each candidate row before SQLite sees it. SQLite
// re-checks every constraint anyway (they are not omitted), so a filter may let extra rows
// through but must never drop a row SQLite would keep: anything it cannot decide exactly (a
// collation, a text value against an integer column, ...) is simply not filtered here.
//
// Why: a row handed to SQLite costs a VDBE step and a call per column read, several times the
// cost of comparing one column here. `utid = ? AND state IN ('R', 'R+') AND dur > 0` over a
// thread's rows returns only the matching third of them.

#include <sqlite3.h>

#include <cstdint>
#include <vector>

#include "libs/trace/storage/string_pool.h"
#include "libs/trace/storage/table.h"

namespace tw {

class RowFilter {
 public:
  // One usable constraint of the scan: `op` is '=', '>', 'g' (>=), '<', 'l' (<=) or 'i' (IN,
  // all values at once); `column` is nullptr for the id column.
  // Returns false when no row can match (a NULL operand, a string the trace never interned);
  // the scan is then empty.
  bool Add(const Column* column, char op, sqlite3_value* arg, const StringPool& strings);

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
    int64_t value;
    std::vector<int64_t> set;  // op 'i': sorted values (string ids for string columns)
    bool Matches(uint32_t row) const;
  };
  std::vector<Term> terms_;
};

// Integer value of a constraint argument, when it can drive a search or filter on an integer
// column. Reals are rounded in the direction that keeps the result a superset; anything else
// (non-numeric text, NULL, blobs) returns false.
bool ConstraintIntArg(sqlite3_value* v, char op, int64_t* out);

}  // namespace tw

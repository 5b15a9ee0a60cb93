#pragma once
// Regular-expression functions trace_processor offers (POSIX extended syntax, as its are):
//   REGEXP(pattern, text[, flags]), `text REGEXP pattern`   1 if pattern matches somewhere in
//       text; flags: 'i' case-insensitive, 'c' case-sensitive (the default), the last one wins
//   REGEXP_EXTRACT(text, pattern)   the first match's first group — the whole match when the
//       pattern has no group or the group took no part; NULL without a match
//   REGEXP_REPLACE_SIMPLE(text, pattern, replacement)   every match replaced (an empty match
//       between every two characters too), the replacement taken literally
// NULL arguments give NULL; a pattern that does not compile is an error naming it. Compiled
// patterns are cached per statement.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

absl::Status RegisterRegexpFunctions(sqlite3* db);

}  // namespace tw

#pragma once
// printf() / format() with bounded widths and precisions. SQLite's own printf stops growing its
// result at the length limit but keeps looping over the requested width: `printf('%1000000000d',
// 1)` burns ~15 s of CPU inside one function call, where no deadline can interrupt it (hostile
// input, issue #16). These replacements refuse a width or precision above kMaxPrintfWidth and
// otherwise hand the call to SQLite's printf on a private per-thread connection, so the
// formatting itself stays SQLite's.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

inline constexpr int kMaxPrintfWidth = 100000;

// Registers printf and format on `db`, replacing the built-in ones.
absl::Status RegisterBoundedPrintf(sqlite3* db);

}  // namespace tw

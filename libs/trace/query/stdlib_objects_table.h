#pragma once
// The __intrinsic_stdlib_objects table (stdlib_objects.h) as an eponymous SQLite module: its rows
// are built on first use and kept for the connection.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

absl::Status RegisterStdlibObjectsTable(sqlite3* db);

}  // namespace tw

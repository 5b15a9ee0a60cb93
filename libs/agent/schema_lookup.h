#pragma once
// The answer of the agent's lookup_sql_schema tool: with no name, the tables and views the trace
// has now plus what each stdlib module would add; with a name, what the table, view, function or
// module is and what each column means (from the schema catalogue), or just the column names of
// a table the catalogue does not know (one the session created).

#include <string>

#include "absl/status/statusor.h"
#include "libs/agent/schema_provider.h"

namespace tw::agent {

// NOT_FOUND when `name` is neither in the catalogue nor in the trace.
absl::StatusOr<std::string> LookupSqlSchema(SchemaProvider& schema, const std::string& name);

}  // namespace tw::agent

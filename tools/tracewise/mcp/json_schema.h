#pragma once
// JSON Schema (2020-12) validation for the schemas this server declares: tool inputs are checked
// before a handler runs (a precise message per problem, for the model to correct itself), and
// structured results are checked against the tool's outputSchema before they leave.
//
// Only the keywords the server's own schemas use are implemented: type (one or a list),
// properties, required, additionalProperties (bool or schema), items, enum, const, minimum,
// maximum, minLength, maxLength, minItems, maxItems, plus the annotations (title, description,
// default, examples, format, $schema, $comment, deprecated, readOnly). `CheckSupported` refuses
// a schema with any other keyword, so a registered schema is never half-enforced. (Debian's one
// C++ validator, valijson, stops at draft 7 and pulls in Qt and Poco.)

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/tracewise/mcp/json_rpc.h"

namespace tw::mcp {

// OK when every keyword of `schema` (recursively) is one Validate enforces or an annotation.
absl::Status CheckSchemaSupported(const Json& schema);

// The ways `value` breaks `schema`, at most `max_problems`, each naming where: "sql: must be a
// string", "max_rows: must be at most 10000", "missing required property \"trace_id\"",
// "unknown property \"foo\"". Empty when it conforms.
std::vector<std::string> ValidateJson(const Json& schema, const Json& value, size_t max_problems = 5);

}  // namespace tw::mcp

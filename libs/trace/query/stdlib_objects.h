#pragma once
// trace_processor's __intrinsic_stdlib_objects: one row per stdlib module and per object each
// module defines (table, view, function, table function, macro), described from the modules'
// own `--` doc comments (sql_docs.h), so every module added under libs/trace/stdlib appears with
// no further step.
//
//   SELECT qualified_name, object_type, exposed, summary FROM __intrinsic_stdlib_objects;
//
// Columns: package (the module name's first part), module, name, qualified_name (module.name; the
// module's own row has name = qualified_name = module), object_type (MODULE, TABLE, VIEW,
// FUNCTION, TABLE_FUNCTION, MACRO), exposed (1 unless the name starts with '_'; modules are 1),
// short_description (the description's first 160 bytes, never splitting a UTF-8 character),
// summary (a labelled text block for search: Package, Module, Name, Qualified name, Search
// aliases — package, module and name with '.' and '_' as spaces —, Kind, Description, Arguments,
// Returns, Columns), description, return_type (a table function's is TABLE), return_description,
// args and cols (JSON arrays of {"name", "type", "description"}).

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tw {

struct StdlibObjectRow {
  std::string package, module, name, qualified_name, object_type;
  bool exposed = true;
  std::string short_description, summary, description, return_type, return_description, args,
      cols;
};

// The rows for every registered stdlib module, in module-name order, each module's row first and
// then its objects in definition order.
absl::StatusOr<std::vector<StdlibObjectRow>> StdlibObjectRows();

}  // namespace tw

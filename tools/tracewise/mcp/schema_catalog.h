#pragma once
// The SQL surface of the trace engine as documentation, for the `tracewise://schema` resources:
// every table and view a query can use without an INCLUDE (with its columns and their types),
// and every stdlib module `INCLUDE PERFETTO MODULE` can load (with the tables, views and
// functions it creates). Read from an empty trace database, so it is exactly what this build's
// engine provides; built once, on first use.

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tw::mcp {

struct SchemaColumn {
  std::string name;
  std::string type;  // the SQL type the engine declares (may be empty for view columns)
  std::string doc;   // empty when the engine has no doc for it
};

struct SchemaObject {
  std::string name;
  std::string kind;    // table | view
  std::vector<SchemaColumn> columns;
  std::string doc;
};

struct SchemaModule {
  std::string name;
  std::vector<std::string> creates;  // tables, views and functions it defines
};

class SchemaCatalog {
 public:
  static absl::StatusOr<SchemaCatalog> Build();

  const std::vector<SchemaObject>& objects() const { return objects_; }
  const std::vector<SchemaModule>& modules() const { return modules_; }
  const SchemaObject* Find(const std::string& name) const;

  // The whole catalogue: tables and views with their columns, then the modules.
  std::string Markdown() const;
  // One table or view, in detail.
  std::string ObjectMarkdown(const SchemaObject& object) const;

 private:
  std::vector<SchemaObject> objects_;  // sorted by name
  std::vector<SchemaModule> modules_;  // sorted by name
};

}  // namespace tw::mcp

#include "libs/agent/schema_lookup.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/trace/query/schema_catalog.h"

namespace tw::agent {
namespace {

bool IsTableLike(const SqlObjectDoc& o) {
  return o.kind == SqlObjectDoc::Kind::kTable || o.kind == SqlObjectDoc::Kind::kView;
}

absl::StatusOr<std::string> ListTables(SchemaProvider& schema) {
  auto tables = schema.Tables();
  if (!tables.ok()) return tables.status();
  std::string out = absl::StrCat("tables and views: ", absl::StrJoin(*tables, ", "), "\n");
  // What modules would add, so the agent knows to INCLUDE one rather than guess.
  std::string modules;
  for (const SqlModuleDoc& m : SchemaCatalog::Get().modules()) {
    if (IsPreludeModule(m.name)) continue;
    std::vector<std::string> names;
    for (const SqlObjectDoc& o : m.objects) {
      if (o.is_public() && IsTableLike(o) &&
          std::find(tables->begin(), tables->end(), o.name) == tables->end()) {
        names.push_back(o.name);
      }
    }
    if (!names.empty()) absl::StrAppend(&modules, "  ", m.name, ": ", absl::StrJoin(names, ", "), "\n");
  }
  if (!modules.empty()) {
    absl::StrAppend(&out, "after INCLUDE PERFETTO MODULE <module>; (in the same SQL):\n", modules);
  }
  absl::StrAppend(&out, "Ask with a table, function or module name for what each column means.");
  return out;
}

}  // namespace

absl::StatusOr<std::string> LookupSqlSchema(SchemaProvider& schema, const std::string& name) {
  if (name.empty()) return ListTables(schema);
  const SchemaCatalog& catalog = SchemaCatalog::Get();
  if (const SqlObjectDoc* o = catalog.Find(name)) {
    std::string out = DescribeSqlObject(*o);
    if (IsTableLike(*o)) {
      // A session may have replaced a documented name with a table of its own.
      auto live = schema.Columns(name);
      if (live.ok()) {
        std::vector<std::string> documented;
        for (const SqlColumnDoc& c : o->columns) documented.push_back(c.name);
        if (*live != documented) {
          absl::StrAppend(&out, "  (in this trace its columns are: ", absl::StrJoin(*live, ", "),
                          ")\n");
        }
      }
    }
    return out;
  }
  if (const SqlModuleDoc* m = catalog.FindModule(name)) {
    std::string out = absl::StrCat("module ", m->name, ": ", m->doc, "\n");
    for (const SqlObjectDoc& o : m->objects) {
      if (o.is_public()) absl::StrAppend(&out, "  ", o.name, ": ", FirstSentence(o.doc), "\n");
    }
    return out;
  }
  auto columns = schema.Columns(name);
  if (!columns.ok()) return columns.status();
  return absl::StrCat(name, "(", absl::StrJoin(*columns, ", "), ")");
}

}  // namespace tw::agent

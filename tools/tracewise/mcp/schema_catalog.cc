#include "tools/tracewise/mcp/schema_catalog.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/stdlib/stdlib.h"
#include "libs/trace/storage/trace_storage.h"
#include "re2/re2.h"

namespace tw::mcp {
namespace {

std::string CellText(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kString: return v.string_value;
    case SqlValue::Type::kInt: return std::to_string(v.int_value);
    default: return "";
  }
}

}  // namespace

absl::StatusOr<SchemaCatalog> SchemaCatalog::Build() {
  auto storage = std::make_unique<TraceStorage>();
  auto db = TraceDatabase::Open(storage.get());
  if (!db.ok()) return db.status();
  SchemaCatalog catalog;
  auto names = (*db)->ListTablesAndViews();
  if (!names.ok()) return names.status();
  for (const auto& row : names->rows) {
    if (row.empty() || row[0].type != SqlValue::Type::kString) continue;
    SchemaObject object;
    object.name = row[0].string_value;
    if (object.name.empty() || object.name[0] == '_') continue;  // internal helpers
    auto kind = (*db)->Execute("SELECT type FROM sqlite_master WHERE name = :n",
                               {.params = {{"n", SqlValue::String(object.name)}}});
    object.kind = kind.ok() && !kind->rows.empty() && CellText(kind->rows[0][0]) == "view" ? "view" : "table";
    // The quoted name comes from the engine's own catalogue.
    auto info = (*db)->Execute(absl::StrCat("SELECT name, type FROM pragma_table_info('", object.name, "')"));
    if (!info.ok()) continue;
    for (const auto& c : info->rows) object.columns.push_back({CellText(c[0]), CellText(c[1]), ""});
    catalog.objects_.push_back(std::move(object));
  }
  std::sort(catalog.objects_.begin(), catalog.objects_.end(),
            [](const SchemaObject& a, const SchemaObject& b) { return a.name < b.name; });

  static const RE2 kCreate(R"((?i)CREATE\s+(?:OR\s+REPLACE\s+)?PERFETTO\s+(?:TABLE|VIEW|FUNCTION|MACRO|INDEX)\s+([A-Za-z0-9_]+))");
  for (const SqlModule* module : SqlModulesWithPrefix("")) {
    if (module->name.substr(0, 8) == "prelude.") continue;  // built in: listed as tables/views
    SchemaModule m;
    m.name = std::string(module->name);
    re2::StringPiece sql(module->sql.data(), module->sql.size());
    std::string created;
    while (RE2::FindAndConsume(&sql, kCreate, &created)) {
      if (!created.empty() && created[0] != '_') m.creates.push_back(created);
    }
    catalog.modules_.push_back(std::move(m));
  }
  std::sort(catalog.modules_.begin(), catalog.modules_.end(),
            [](const SchemaModule& a, const SchemaModule& b) { return a.name < b.name; });
  return catalog;
}

const SchemaObject* SchemaCatalog::Find(const std::string& name) const {
  auto it = std::lower_bound(objects_.begin(), objects_.end(), name,
                             [](const SchemaObject& o, const std::string& n) { return o.name < n; });
  return it != objects_.end() && it->name == name ? &*it : nullptr;
}

std::string SchemaCatalog::ObjectMarkdown(const SchemaObject& object) const {
  std::string out = absl::StrCat("## ", object.name, " (", object.kind, ")\n");
  if (!object.doc.empty()) absl::StrAppend(&out, object.doc, "\n");
  out += "\n| column | type | meaning |\n|---|---|---|\n";
  for (const SchemaColumn& c : object.columns) {
    absl::StrAppend(&out, "| ", c.name, " | ", c.type.empty() ? "-" : c.type, " | ", c.doc, " |\n");
  }
  return out;
}

std::string SchemaCatalog::Markdown() const {
  std::string out =
      "# Tracewise SQL schema\n\n"
      "Perfetto trace_processor's tables and views, as this engine provides them. Timestamps "
      "(`ts`) and durations (`dur`) are int64 nanoseconds. `tracewise://schema/{table}` gives one "
      "table. Stdlib modules add more views: `INCLUDE PERFETTO MODULE <name>;` first.\n\n";
  for (const SchemaObject& object : objects_) {
    std::vector<std::string> columns;
    for (const SchemaColumn& c : object.columns) {
      columns.push_back(c.type.empty() ? c.name : absl::StrCat(c.name, " ", c.type));
    }
    absl::StrAppend(&out, "- **", object.name, "** (", object.kind, "): ", absl::StrJoin(columns, ", "), "\n");
  }
  out += "\n## Stdlib modules\n\n";
  for (const SchemaModule& m : modules_) {
    absl::StrAppend(&out, "- `", m.name, "`",
                    m.creates.empty() ? "" : absl::StrCat(": ", absl::StrJoin(m.creates, ", ")), "\n");
  }
  return out;
}

}  // namespace tw::mcp

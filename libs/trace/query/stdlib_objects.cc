#include "libs/trace/query/stdlib_objects.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/trace/query/result_format.h"
#include "libs/trace/query/sql_docs.h"
#include "libs/trace/stdlib/stdlib.h"

namespace tw {
namespace {

const char* ObjectType(SqlObjectDoc::Kind kind) {
  switch (kind) {
    case SqlObjectDoc::Kind::kTable:
      return "TABLE";
    case SqlObjectDoc::Kind::kView:
      return "VIEW";
    case SqlObjectDoc::Kind::kFunction:
      return "FUNCTION";
    case SqlObjectDoc::Kind::kTableFunction:
      return "TABLE_FUNCTION";
    case SqlObjectDoc::Kind::kMacro:
      return "MACRO";
  }
  return "VIEW";
}

std::string EntriesJson(const std::vector<SqlColumnDoc>& entries) {
  std::string out = "[";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out += ",";
    absl::StrAppend(&out, "{\"name\":", JsonQuote(entries[i].name),
                    ",\"type\":", JsonQuote(entries[i].type),
                    ",\"description\":", JsonQuote(entries[i].doc), "}");
  }
  return out + "]";
}

void AppendEntries(const char* heading, const std::vector<SqlColumnDoc>& entries,
                   std::string* summary) {
  if (entries.empty()) return;
  absl::StrAppend(summary, "\n", heading, ":");
  for (const SqlColumnDoc& e : entries) {
    absl::StrAppend(summary, "\n- ", e.name, " (", e.type, ")");
    if (!e.doc.empty()) absl::StrAppend(summary, ": ", e.doc);
  }
}

std::string ShortDescription(const std::string& description) {
  size_t size = std::min<size_t>(description.size(), 160);
  // Back off to the start of a UTF-8 character (continuation bytes are 10xxxxxx).
  while (size > 0 && size < description.size() &&
         (static_cast<uint8_t>(description[size]) & 0xc0) == 0x80) {
    --size;
  }
  return description.substr(0, size);
}

std::string SearchAliases(const std::string& package, const std::string& module,
                          const std::string& name) {
  std::string out = absl::StrCat(package, " ", module);
  if (!name.empty() && name != module) absl::StrAppend(&out, " ", name);
  std::replace(out.begin(), out.end(), '.', ' ');
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

void FillSummary(const std::vector<SqlColumnDoc>& args, const std::vector<SqlColumnDoc>& cols,
                 StdlibObjectRow* r) {
  std::string& s = r->summary;
  absl::StrAppend(&s, "Package: ", r->package, "\nModule: ", r->module);
  if (r->object_type != "MODULE") absl::StrAppend(&s, "\nName: ", r->name);
  absl::StrAppend(&s, "\nQualified name: ", r->qualified_name,
                  "\nSearch aliases: ", SearchAliases(r->package, r->module, r->name),
                  "\nKind: ", r->exposed ? "public " : "internal ", r->object_type);
  if (!r->description.empty()) absl::StrAppend(&s, "\nDescription: ", r->description);
  AppendEntries("Arguments", args, &s);
  if (!r->return_type.empty()) {
    absl::StrAppend(&s, "\nReturns: ", r->return_type);
    if (!r->return_description.empty()) absl::StrAppend(&s, ": ", r->return_description);
  }
  AppendEntries("Columns", cols, &s);
}

}  // namespace

absl::StatusOr<std::vector<StdlibObjectRow>> StdlibObjectRows() {
  std::vector<StdlibObjectRow> rows;
  for (const SqlModule* m : SqlModulesWithPrefix("")) {
    ASSIGN_OR_RETURN(const SqlModuleDoc doc, ParseSqlModuleDocs(m->name, m->sql));
    const std::string package = doc.name.substr(0, doc.name.find('.'));
    StdlibObjectRow module_row;
    module_row.package = package;
    module_row.module = module_row.name = module_row.qualified_name = doc.name;
    module_row.object_type = "MODULE";
    module_row.args = module_row.cols = "[]";
    FillSummary({}, {}, &module_row);
    rows.push_back(std::move(module_row));
    for (const SqlObjectDoc& o : doc.objects) {
      StdlibObjectRow r;
      r.package = package;
      r.module = doc.name;
      r.name = o.name;
      r.qualified_name = absl::StrCat(doc.name, ".", o.name);
      r.object_type = ObjectType(o.kind);
      r.exposed = o.is_public();
      r.description = o.doc;
      r.short_description = ShortDescription(o.doc);
      r.return_type = o.kind == SqlObjectDoc::Kind::kTableFunction ? "TABLE" : o.return_type;
      r.return_description = o.return_doc;
      r.args = EntriesJson(o.args);
      r.cols = EntriesJson(o.columns);
      FillSummary(o.args, o.columns, &r);
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

}  // namespace tw

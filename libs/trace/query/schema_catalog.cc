#include "libs/trace/query/schema_catalog.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/trace/stdlib/stdlib.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {
namespace {

const char* SqlTypeOf(const Column& c) {
  switch (c.type()) {
    case ColumnType::kInt: return "LONG";
    case ColumnType::kDouble: return "DOUBLE";
    case ColumnType::kString: return "STRING";
  }
  return "";
}

// The declared tables, read from an empty storage (its tables allocate nothing until rows come).
std::vector<SqlObjectDoc> IntrinsicTables() {
  TraceStorage storage;
  std::vector<SqlObjectDoc> out;
  for (const Table* t : storage.AllTables()) {
    SqlObjectDoc doc;
    doc.kind = SqlObjectDoc::Kind::kTable;
    doc.name = "__intrinsic_" + t->name();
    doc.module = "intrinsic";
    doc.doc = std::string(t->doc());
    doc.columns.push_back({"id", "ID", "The row's id: its position in the table, from 0."});
    for (const Column* c : t->columns()) {
      doc.columns.push_back({c->name(), SqlTypeOf(*c), std::string(c->doc())});
    }
    out.push_back(std::move(doc));
  }
  return out;
}

}  // namespace

bool IsPreludeModule(std::string_view module) { return module.substr(0, 8) == "prelude."; }

std::string FirstSentence(std::string_view doc) {
  const size_t end = doc.find(". ");
  return std::string(end == std::string_view::npos ? doc : doc.substr(0, end + 1));
}

const SchemaCatalog& SchemaCatalog::Get() {
  static const SchemaCatalog* catalog = new SchemaCatalog();
  return *catalog;
}

SchemaCatalog::SchemaCatalog() : intrinsic_(IntrinsicTables()) {
  for (const SqlModule* m : SqlModulesWithPrefix("")) {
    auto parsed = ParseSqlModuleDocs(m->name, m->sql);
    if (parsed.ok()) modules_.push_back(std::move(*parsed));
  }
  for (SqlModuleDoc& m : modules_) {
    for (SqlObjectDoc& o : m.objects) InheritColumnDocs(&o);
  }
  for (const SqlModuleDoc& m : modules_) {
    for (const SqlObjectDoc& o : m.objects) {
      if (o.is_public()) public_.push_back(&o);
    }
  }
  std::stable_sort(public_.begin(), public_.end(),
                   [](const SqlObjectDoc* a, const SqlObjectDoc* b) { return a->name < b->name; });
}

void SchemaCatalog::InheritColumnDocs(SqlObjectDoc* object) const {
  for (SqlColumnDoc& column : object->columns) {
    if (!column.doc.empty()) continue;
    for (const std::string& table : object->reads_intrinsic) {
      for (const SqlObjectDoc& t : intrinsic_) {
        if (t.name.size() != 12 + table.size() || t.name.compare(12, std::string::npos, table) != 0) {
          continue;
        }
        for (const SqlColumnDoc& c : t.columns) {
          if (c.name == column.name && !c.doc.empty()) column.doc = c.doc;
        }
      }
      if (!column.doc.empty()) break;
    }
  }
}

const SqlObjectDoc* SchemaCatalog::Find(std::string_view name) const {
  auto it = std::lower_bound(public_.begin(), public_.end(), name,
                             [](const SqlObjectDoc* o, std::string_view n) { return o->name < n; });
  if (it != public_.end() && (*it)->name == name) return *it;
  return nullptr;
}

const SqlModuleDoc* SchemaCatalog::FindModule(std::string_view name) const {
  for (const SqlModuleDoc& m : modules_) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string DescribeSqlObject(const SqlObjectDoc& o) {
  std::string out = absl::StrCat(o.name, " (", SqlObjectKindName(o.kind));
  if (IsPreludeModule(o.module)) {
    absl::StrAppend(&out, ", always available)\n");
  } else if (o.module == "intrinsic") {
    absl::StrAppend(&out, ", intrinsic storage)\n");
  } else {
    absl::StrAppend(&out, " from module ", o.module, ": INCLUDE PERFETTO MODULE ", o.module,
                    "; first)\n");
  }
  if (!o.doc.empty()) absl::StrAppend(&out, "  ", o.doc, "\n");
  auto list = [&](const char* title, const std::vector<SqlColumnDoc>& items) {
    if (items.empty()) return;
    size_t name_width = 0, type_width = 0;
    for (const SqlColumnDoc& c : items) {
      name_width = std::max(name_width, c.name.size());
      type_width = std::max(type_width, c.type.size());
    }
    absl::StrAppend(&out, "  ", title, ":\n");
    for (const SqlColumnDoc& c : items) {
      absl::StrAppend(&out, "    ", c.name, std::string(name_width - c.name.size() + 2, ' '),
                      c.type, std::string(type_width - c.type.size() + 2, ' '), c.doc, "\n");
    }
  };
  list("arguments", o.args);
  if (!o.return_type.empty()) {
    absl::StrAppend(&out, "  returns ", o.return_type,
                    o.return_doc.empty() ? "" : absl::StrCat(": ", o.return_doc), "\n");
  }
  list(o.kind == SqlObjectDoc::Kind::kTableFunction ? "returns rows of" : "columns", o.columns);
  return out;
}

}  // namespace tw

// `tracewise schema [NAME] [--all]`: the trace engine's SQL surface and what it means, without a
// trace. No NAME lists the tables and views (the prelude's, always there; then each stdlib
// module's, which need INCLUDE PERFETTO MODULE first); --all adds functions and macros. NAME is
// a table, view, function or macro (its doc and columns) or a module (its doc and objects).

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/trace/query/schema_catalog.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

bool IsTableLike(const SqlObjectDoc& o) {
  return o.kind == SqlObjectDoc::Kind::kTable || o.kind == SqlObjectDoc::Kind::kView;
}

void PrintLine(const SqlObjectDoc& o) {
  std::string label = o.name;
  if (!IsTableLike(o)) absl::StrAppend(&label, o.kind == SqlObjectDoc::Kind::kMacro ? "!()" : "()");
  std::printf("  %-42s %s\n", label.c_str(), FirstSentence(o.doc).c_str());
}

int ListAll(bool all) {
  const SchemaCatalog& catalog = SchemaCatalog::Get();
  std::printf("Always available:\n");
  for (const SqlObjectDoc* o : catalog.PublicObjects()) {
    if (IsPreludeModule(o->module) && (all || IsTableLike(*o))) PrintLine(*o);
  }
  for (const SqlModuleDoc& m : catalog.modules()) {
    if (IsPreludeModule(m.name)) continue;
    std::vector<const SqlObjectDoc*> shown;
    for (const SqlObjectDoc& o : m.objects) {
      if (o.is_public() && (all || IsTableLike(o))) shown.push_back(&o);
    }
    if (shown.empty()) continue;
    std::printf("\nINCLUDE PERFETTO MODULE %s;  %s\n", m.name.c_str(), FirstSentence(m.doc).c_str());
    for (const SqlObjectDoc* o : shown) PrintLine(*o);
  }
  std::printf("\n`tracewise schema NAME` describes a table, view, function or module.\n");
  return 0;
}

int DescribeModule(const SqlModuleDoc& m) {
  std::printf("module %s%s\n", m.name.c_str(),
              IsPreludeModule(m.name) ? " (always available)" : "");
  if (!m.doc.empty()) std::printf("  %s\n", m.doc.c_str());
  if (!m.includes.empty()) {
    std::string includes;
    for (const std::string& i : m.includes) absl::StrAppend(&includes, includes.empty() ? "" : ", ", i);
    std::printf("  includes: %s\n", includes.c_str());
  }
  for (const SqlObjectDoc& o : m.objects) {
    if (o.is_public()) PrintLine(o);
  }
  return 0;
}

}  // namespace

int RunSchema(const Args& args) {
  std::string name;
  bool all = false;
  for (const std::string& a : args) {
    if (a == "--all") {
      all = true;
    } else if (a == "--help" || a == "-h" || !name.empty() || a.empty() || a[0] == '-') {
      std::fprintf(stderr,
                   "usage: tracewise schema [NAME] [--all]\n"
                   "  Lists the tables and views SQL over a trace can use (--all: functions and\n"
                   "  macros too), or describes NAME: a table, view, function, macro or module.\n");
      return 2;
    } else {
      name = a;
    }
  }
  if (name.empty()) return ListAll(all);
  const SchemaCatalog& catalog = SchemaCatalog::Get();
  if (const SqlObjectDoc* o = catalog.Find(name)) {
    std::fputs(DescribeSqlObject(*o).c_str(), stdout);
    return 0;
  }
  if (const SqlModuleDoc* m = catalog.FindModule(name)) return DescribeModule(*m);
  std::fprintf(stderr, "tracewise schema: no table, view, function or module named '%s'\n",
               name.c_str());
  std::vector<std::string> similar;
  for (const SqlObjectDoc* o : catalog.PublicObjects()) {
    if (absl::StrContains(o->name, name) && similar.size() < 12) similar.push_back(o->name);
  }
  if (!similar.empty()) {
    std::string list;
    for (const std::string& s : similar) absl::StrAppend(&list, list.empty() ? "" : ", ", s);
    std::fprintf(stderr, "  did you mean: %s\n", list.c_str());
  }
  return 1;
}

}  // namespace tw::cli

#pragma once
// The documented SQL surface of a trace, independent of any loaded trace: the intrinsic tables
// (from their declarations, storage/tables/*.h), the prelude's views and functions (always
// there), and every stdlib module's public tables, views, functions and macros (there once the
// module is INCLUDEd), each with what it and each of its columns mean. `tracewise schema` prints
// it; the agent's lookup_sql_schema answers from it.

#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/query/sql_docs.h"

namespace tw {

class SchemaCatalog {
 public:
  // Parses every embedded module once; modules whose docs do not parse are left out (the stdlib
  // docs test keeps that from happening).
  static const SchemaCatalog& Get();

  // A public object (table, view, function, macro) by name, or null.
  const SqlObjectDoc* Find(std::string_view name) const;
  // Every public object, sorted by name.
  const std::vector<const SqlObjectDoc*>& PublicObjects() const { return public_; }
  // A module by name ("android.frames.timeline", "prelude.tracks"), or null.
  const SqlModuleDoc* FindModule(std::string_view name) const;
  const std::vector<SqlModuleDoc>& modules() const { return modules_; }
  // `__intrinsic_<table>` for every declared table, with its column docs.
  const std::vector<SqlObjectDoc>& intrinsic_tables() const { return intrinsic_; }

 private:
  SchemaCatalog();
  void InheritColumnDocs(SqlObjectDoc* object) const;

  std::vector<SqlModuleDoc> modules_;
  std::vector<SqlObjectDoc> intrinsic_;
  std::vector<const SqlObjectDoc*> public_;
};

// Whether objects of `module` exist without any INCLUDE (trace_processor's prelude).
bool IsPreludeModule(std::string_view module);

// The first sentence of `doc` (up to the first ". "), for one-line listings.
std::string FirstSentence(std::string_view doc);

// A readable description: name, kind, where it comes from (and the INCLUDE it needs), its doc,
// then one line per column / argument with type and meaning.
std::string DescribeSqlObject(const SqlObjectDoc& object);

}  // namespace tw

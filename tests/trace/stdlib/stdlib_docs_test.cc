// The stdlib as documented SQL: every embedded module parses, says what it is, documents each
// public table, view, function and macro and each of their columns and arguments, INCLUDEs
// only modules that exist, and runs on an empty trace. The intrinsic tables' declarations
// document every column too. This is what makes `tracewise schema` and lookup_sql_schema
// complete.

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "libs/trace/query/schema_catalog.h"
#include "libs/trace/query/sql_docs.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/stdlib/stdlib.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {
namespace {

TEST(StdlibDocsTest, EveryModuleParsesAndHasADoc) {
  const std::vector<const SqlModule*> modules = SqlModulesWithPrefix("");
  ASSERT_GT(modules.size(), 30u);
  for (const SqlModule* m : modules) {
    auto docs = ParseSqlModuleDocs(m->name, m->sql);
    ASSERT_TRUE(docs.ok()) << docs.status();
    EXPECT_FALSE(docs->doc.empty()) << m->path << ": the file should open with a comment block "
                                                  "saying what the module is for";
  }
}

TEST(StdlibDocsTest, EveryPublicObjectAndColumnIsDocumented) {
  const SchemaCatalog& catalog = SchemaCatalog::Get();
  ASSERT_FALSE(catalog.PublicObjects().empty());
  for (const SqlObjectDoc* o : catalog.PublicObjects()) {
    const std::string where = o->module + ": " + o->name;
    EXPECT_FALSE(o->doc.empty()) << where << " has no doc comment";
    const bool table_like =
        o->kind == SqlObjectDoc::Kind::kTable || o->kind == SqlObjectDoc::Kind::kView;
    if (table_like) {
      EXPECT_FALSE(o->columns.empty()) << where << " should declare its columns";
    }
    for (const SqlColumnDoc& c : o->columns) {
      EXPECT_FALSE(c.doc.empty()) << where << "." << c.name << " has no doc";
    }
    for (const SqlColumnDoc& a : o->args) {
      EXPECT_FALSE(a.doc.empty()) << where << "(" << a.name << ") has no doc";
    }
  }
}

TEST(StdlibDocsTest, EveryIntrinsicColumnIsDocumented) {
  TraceStorage storage;
  for (const Table* t : storage.AllTables()) {
    EXPECT_FALSE(t->doc().empty()) << t->name();
    for (const Column* c : t->columns()) {
      EXPECT_FALSE(c->doc().empty()) << t->name() << "." << c->name();
    }
  }
}

TEST(StdlibDocsTest, IncludesNameExistingModules) {
  std::set<std::string> names;
  for (const SqlModule* m : SqlModulesWithPrefix("")) names.insert(std::string(m->name));
  for (const SqlModuleDoc& m : SchemaCatalog::Get().modules()) {
    for (const std::string& include : m.includes) {
      if (include.size() > 2 && include.substr(include.size() - 2) == ".*") continue;
      EXPECT_TRUE(names.count(include)) << m.name << " includes unknown module " << include;
    }
  }
}

TEST(StdlibDocsTest, PublicNamesAreUnique) {
  std::set<std::string> seen;
  for (const SqlObjectDoc* o : SchemaCatalog::Get().PublicObjects()) {
    if (o->kind == SqlObjectDoc::Kind::kFunction) continue;  // overloads by arity are fine
    EXPECT_TRUE(seen.insert(o->name).second) << o->name << " is defined twice (" << o->module << ")";
  }
}

// Each module on its own, in a fresh database over an empty trace: its INCLUDEs must bring in
// everything it uses, whatever was included before.
TEST(StdlibDocsTest, EveryModuleIncludesAloneOnAnEmptyTrace) {
  TraceStorage storage;
  storage.FinalizeStatsAndMetadata();
  for (const SqlModule* m : SqlModulesWithPrefix("")) {
    auto db = TraceDatabase::Open(&storage);
    ASSERT_TRUE(db.ok()) << db.status();
    auto r = (*db)->Execute("INCLUDE PERFETTO MODULE " + std::string(m->name) + ";");
    EXPECT_TRUE(r.ok()) << m->name << ": " << r.status();
  }
}

TEST(StdlibDocsTest, DescribeShowsColumnMeanings) {
  const SqlObjectDoc* slice = SchemaCatalog::Get().Find("slice");
  ASSERT_NE(slice, nullptr);
  const std::string text = DescribeSqlObject(*slice);
  EXPECT_NE(text.find("always available"), std::string::npos) << text;
  // Inherited from the intrinsic table's declaration.
  EXPECT_NE(text.find("Nesting depth on its track"), std::string::npos) << text;
  const SqlObjectDoc* frames = SchemaCatalog::Get().Find("android_frames");
  ASSERT_NE(frames, nullptr);
  EXPECT_NE(DescribeSqlObject(*frames).find("INCLUDE PERFETTO MODULE android.frames.timeline"),
            std::string::npos);
}

}  // namespace
}  // namespace tw

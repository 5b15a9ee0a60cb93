// The stdlib doc-comment reader on small modules: which comment belongs to what.

#include "libs/trace/query/sql_docs.h"

#include "gtest/gtest.h"

namespace tw {
namespace {

constexpr char kModule[] = R"sql(
-- What the module is for,
-- over two lines.

INCLUDE PERFETTO MODULE slices.with_context;
INCLUDE PERFETTO MODULE android.*;

----------------------------------------------------------------- a section rule, not a doc

-- A table.
CREATE PERFETTO TABLE things(
  -- The id.
  id ID(slice.id),
  -- When, in ns:
  -- the start.
  ts TIMESTAMP,
  undocumented LONG,  -- a trailing comment is not the next column's doc
  kind JOINID(thread.id)
) AS
SELECT id, ts, 1 AS undocumented, 2 AS kind FROM __intrinsic_slice JOIN __intrinsic_thread;

-- Private helpers are parsed too.
CREATE PERFETTO VIEW _helper AS SELECT 1 AS x;

-- Not this one: a blank line follows.

CREATE PERFETTO FUNCTION add_one(
  -- The number.
  x LONG)
-- x + 1.
RETURNS LONG AS SELECT $x + 1;

-- Rows.
CREATE OR REPLACE PERFETTO FUNCTION rows_of(n LONG)
RETURNS TABLE(
  -- A row number.
  i LONG
) AS SELECT 1 AS i;

-- A macro.
CREATE PERFETTO MACRO twice(e Expr) RETURNS Expr AS (($e) * 2);
)sql";

TEST(SqlDocsTest, AttachesCommentsToWhatFollowsThem) {
  auto docs = ParseSqlModuleDocs("test.module", kModule);
  ASSERT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ(docs->name, "test.module");
  EXPECT_EQ(docs->doc, "What the module is for, over two lines.");
  EXPECT_EQ(docs->includes, (std::vector<std::string>{"slices.with_context", "android.*"}));
  ASSERT_EQ(docs->objects.size(), 5u);

  const SqlObjectDoc& things = docs->objects[0];
  EXPECT_EQ(things.kind, SqlObjectDoc::Kind::kTable);
  EXPECT_EQ(things.name, "things");
  EXPECT_EQ(things.module, "test.module");
  EXPECT_EQ(things.doc, "A table.");
  ASSERT_EQ(things.columns.size(), 4u);
  EXPECT_EQ(things.columns[0].name, "id");
  EXPECT_EQ(things.columns[0].type, "ID(slice.id)");
  EXPECT_EQ(things.columns[0].doc, "The id.");
  EXPECT_EQ(things.columns[1].doc, "When, in ns: the start.");
  EXPECT_EQ(things.columns[2].doc, "");
  EXPECT_EQ(things.columns[3].doc, "");
  EXPECT_EQ(things.columns[3].type, "JOINID(thread.id)");
  EXPECT_EQ(things.reads_intrinsic, (std::vector<std::string>{"slice", "thread"}));

  EXPECT_FALSE(docs->objects[1].is_public());
  EXPECT_TRUE(docs->objects[1].columns.empty());

  const SqlObjectDoc& add_one = docs->objects[2];
  EXPECT_EQ(add_one.kind, SqlObjectDoc::Kind::kFunction);
  EXPECT_EQ(add_one.doc, "");
  ASSERT_EQ(add_one.args.size(), 1u);
  EXPECT_EQ(add_one.args[0].doc, "The number.");
  EXPECT_EQ(add_one.return_type, "LONG");
  EXPECT_EQ(add_one.return_doc, "x + 1.");

  const SqlObjectDoc& rows_of = docs->objects[3];
  EXPECT_EQ(rows_of.kind, SqlObjectDoc::Kind::kTableFunction);
  EXPECT_EQ(rows_of.doc, "Rows.");
  ASSERT_EQ(rows_of.columns.size(), 1u);
  EXPECT_EQ(rows_of.columns[0].doc, "A row number.");
  EXPECT_EQ(rows_of.args[0].doc, "");

  const SqlObjectDoc& twice = docs->objects[4];
  EXPECT_EQ(twice.kind, SqlObjectDoc::Kind::kMacro);
  EXPECT_EQ(twice.return_type, "Expr");
}

TEST(SqlDocsTest, MalformedListsAreErrors) {
  EXPECT_FALSE(ParseSqlModuleDocs("m", "CREATE PERFETTO TABLE t(a LONG, b) AS SELECT 1;").ok());
  EXPECT_FALSE(ParseSqlModuleDocs("m", "CREATE PERFETTO TABLE t(a LONG").ok());
  EXPECT_TRUE(ParseSqlModuleDocs("m", "SELECT 1; -- just SQL").ok());
}

}  // namespace
}  // namespace tw

// Perfetto SQL: splitting, macro expansion, statement parsing (pure text), and the objects the
// statements define, run through a TraceDatabase.

#include "libs/trace/query/perfetto_sql.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Rows;
using testing::Scalar;
using Kind = PerfettoStatement::Kind;
using Strings = std::vector<std::string>;

std::vector<std::string> Split(std::string_view sql) {
  std::vector<std::string> out;
  for (const SqlStatementText& s : SplitSqlStatements(sql)) out.emplace_back(s.sql);
  return out;
}

// ----------------------------------------------------------------------------------- splitting

TEST(SplitSqlStatementsTest, SplitsAtTopLevelSemicolons) {
  EXPECT_THAT(Split("SELECT 1; SELECT 2;SELECT 3"),
              ElementsAre("SELECT 1", "SELECT 2", "SELECT 3"));
}

TEST(SplitSqlStatementsTest, IgnoresSemicolonsInStringsNamesAndComments) {
  EXPECT_THAT(
      Split("SELECT 'a;b', \"c;d\", [e;f], `g;h` -- x;y\n FROM t; /* ; */ SELECT 'it''s;'"),
      ElementsAre("SELECT 'a;b', \"c;d\", [e;f], `g;h` -- x;y\n FROM t", "SELECT 'it''s;'"));
}

TEST(SplitSqlStatementsTest, DropsEmptyStatementsAndTracksLines) {
  const auto st = SplitSqlStatements("-- header\n;;\n\nSELECT 1;\n  -- c\n  SELECT\n 2; -- end");
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].sql, "SELECT 1");
  EXPECT_EQ(st[0].line, 4);
  EXPECT_EQ(st[1].sql, "SELECT\n 2");
  EXPECT_EQ(st[1].line, 6);
}

TEST(SplitSqlStatementsTest, KeepsTriggerBodiesWhole) {
  EXPECT_THAT(Split("CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES (1); "
                    "UPDATE u SET a = CASE WHEN 1 THEN 2 END; END; SELECT 1"),
              ElementsAre("CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES "
                          "(1); UPDATE u SET a = CASE WHEN 1 THEN 2 END; END",
                          "SELECT 1"));
}

TEST(SplitSqlStatementsTest, UnterminatedStringRunsToTheEnd) {
  EXPECT_THAT(Split("SELECT 'abc; SELECT 2"), ElementsAre("SELECT 'abc; SELECT 2"));
}

TEST(FirstLineOfTest, SkipsLeadingCommentsAndCuts) {
  EXPECT_EQ(FirstLineOf("-- intro\n  SELECT *\nFROM slice"), "SELECT *");
  EXPECT_EQ(FirstLineOf("SELECT 123456789", 6), "SELECT...");
}

TEST(WriteTargetOfTest, FindsTheWrittenTable) {
  EXPECT_EQ(WriteTargetOf("INSERT INTO slice VALUES (1)"), "slice");
  EXPECT_EQ(WriteTargetOf("insert or replace into \"Slice\"(a) VALUES (1)"), "Slice");
  EXPECT_EQ(WriteTargetOf("REPLACE INTO main.thread VALUES (1)"), "thread");
  EXPECT_EQ(WriteTargetOf("UPDATE OR IGNORE [process] SET a = 1"), "process");
  EXPECT_EQ(WriteTargetOf("-- c\nDELETE FROM args WHERE 1"), "args");
  EXPECT_EQ(WriteTargetOf("WITH RECURSIVE x(a) AS (SELECT 1), y AS (DELETE FROM q) "
                          "DELETE FROM slice"),
            "slice");
  EXPECT_EQ(WriteTargetOf("WITH x AS (SELECT 1) SELECT * FROM x"), "");
  EXPECT_EQ(WriteTargetOf("ALTER TABLE slice RENAME TO x"), "slice");
  EXPECT_EQ(WriteTargetOf("SELECT 'DELETE FROM slice'"), "");
}

// -------------------------------------------------------------------------------------- macros

absl::StatusOr<std::string> Expand(MacroRegistry& macros, std::string_view sql) {
  return macros.Expand(sql);
}

MacroRegistry MacrosWith(std::initializer_list<const char*> definitions) {
  MacroRegistry macros;
  for (const char* d : definitions) {
    auto st = ParsePerfettoStatement(d);
    EXPECT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->kind, Kind::kCreateMacro);
    EXPECT_TRUE(macros.Define(*st, /*trusted=*/false).ok());
  }
  return macros;
}

TEST(MacroTest, ExpandsArgumentsTextually) {
  MacroRegistry m = MacrosWith({"CREATE PERFETTO MACRO twice(x Expr) RETURNS Expr AS ($x * 2)",
                                "CREATE PERFETTO MACRO pick(t TableOrSubquery, c ColumnName) "
                                "RETURNS TableOrSubquery AS (SELECT $c FROM $t WHERE '$c' != '')"});
  EXPECT_EQ(*Expand(m, "SELECT twice!(1 + 2)"), "SELECT (1 + 2 * 2)");
  EXPECT_EQ(*Expand(m, "SELECT * FROM pick!(slice, name)"),
            "SELECT * FROM (SELECT name FROM slice WHERE '$c' != '')");
  // Commas inside parentheses or strings do not split arguments.
  EXPECT_EQ(*Expand(m, "SELECT * FROM pick!((SELECT a, b FROM t), coalesce(a, ','))"),
            "SELECT * FROM (SELECT coalesce(a, ',') FROM (SELECT a, b FROM t) WHERE '$c' != '')");
}

TEST(MacroTest, NestedAndRecursiveCalls) {
  MacroRegistry m =
      MacrosWith({"CREATE PERFETTO MACRO inc(x Expr) RETURNS Expr AS ($x + 1)",
                  "CREATE PERFETTO MACRO inc2(x Expr) RETURNS Expr AS inc!(inc!($x))"});
  EXPECT_EQ(*Expand(m, "SELECT inc2!(inc!(0))"), "SELECT (((0 + 1) + 1) + 1)");
  MacroRegistry loop =
      MacrosWith({"CREATE PERFETTO MACRO forever(x Expr) RETURNS Expr AS forever!($x)"});
  auto r = Expand(loop, "SELECT forever!(1)");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MacroTest, LeavesNonCallsAlone) {
  MacroRegistry m = MacrosWith({"CREATE PERFETTO MACRO a(x Expr) RETURNS Expr AS $x"});
  for (const char* sql :
       {"SELECT a!=b FROM t", "SELECT 'a!(1)'", "SELECT 1 -- a!(1)", "SELECT \"a!(\""}) {
    EXPECT_EQ(*Expand(m, sql), sql);
  }
}

TEST(MacroTest, CommentsInArgumentsDoNotSwallowText) {
  MacroRegistry m = MacrosWith({"CREATE PERFETTO MACRO add1(x Expr) RETURNS Expr AS $x + 1"});
  EXPECT_EQ(*Expand(m, "SELECT add1!(5 -- five\n)"), "SELECT 5 + 1");
}

TEST(MacroTest, Errors) {
  MacroRegistry m = MacrosWith({"CREATE PERFETTO MACRO two(a Expr, b Expr) RETURNS Expr AS $a"});
  EXPECT_THAT(std::string(Expand(m, "SELECT nope!(1)").status().message()),
              HasSubstr("unknown macro 'nope!'"));
  EXPECT_THAT(std::string(Expand(m, "SELECT two!(1)").status().message()),
              HasSubstr("expects 2 arguments but got 1"));
  EXPECT_THAT(std::string(Expand(m, "SELECT two!(1, 2").status().message()),
              HasSubstr("unterminated"));
  auto again = ParsePerfettoStatement("CREATE PERFETTO MACRO two(a Expr) RETURNS Expr AS $a");
  EXPECT_EQ(m.Define(*again, false).code(), absl::StatusCode::kInvalidArgument);
  auto replace =
      ParsePerfettoStatement("CREATE OR REPLACE PERFETTO MACRO two(a Expr) RETURNS Expr AS $a");
  EXPECT_TRUE(m.Define(*replace, false).ok());
}

TEST(MacroTest, IntrinsicMacros) {
  MacroRegistry m =
      MacrosWith({"CREATE PERFETTO MACRO col(x ColumnName) RETURNS Expr AS t.$x",
                  "CREATE PERFETTO MACRO eq(a Expr, b Expr) RETURNS Expr AS $a = $b"});
  EXPECT_EQ(*Expand(m, "SELECT __intrinsic_stringify!(a + b)"), "SELECT 'a + b'");
  EXPECT_EQ(*Expand(m, "SELECT __intrinsic_token_apply!(col, (a, b))"), "SELECT t.a, t.b");
  EXPECT_EQ(*Expand(m, "SELECT x __intrinsic_token_apply_prefix!(col, (a))"), "SELECT x , t.a");
  EXPECT_EQ(*Expand(m, "WHERE __intrinsic_token_apply_and!(eq, (a, b), (1, 2))"),
            "WHERE a = 1 AND b = 2");
  EXPECT_EQ(*Expand(m, "SELECT __intrinsic_token_apply!(col, ())"), "SELECT ");
}

// ---------------------------------------------------------------------------------- statements

TEST(ParsePerfettoStatementTest, PlainSqlPassesThrough) {
  auto st = ParsePerfettoStatement("CREATE TABLE x AS SELECT 1");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->kind, Kind::kSql);
  EXPECT_EQ(st->sql, "CREATE TABLE x AS SELECT 1");
}

TEST(ParsePerfettoStatementTest, Include) {
  auto st = ParsePerfettoStatement("INCLUDE PERFETTO MODULE android.startup.startups");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->kind, Kind::kInclude);
  EXPECT_EQ(st->name, "android.startup.startups");
  EXPECT_EQ(ParsePerfettoStatement("include perfetto module android.*")->name, "android.*");
  EXPECT_FALSE(ParsePerfettoStatement("INCLUDE PERFETTO MODULE a.'b'").ok());
  EXPECT_FALSE(ParsePerfettoStatement("INCLUDE PERFETTO a.b").ok());
}

TEST(ParsePerfettoStatementTest, TableWithSchemaAndComments) {
  auto st = ParsePerfettoStatement(
      "CREATE OR REPLACE PERFETTO TABLE foo(\n"
      "  -- The id, with a comment (and parentheses, commas).\n"
      "  id ID(slice.id),\n"
      "  /* ts */ ts TIMESTAMP,\n"
      "  utid JOINID(thread.id)\n"
      ") AS SELECT id, ts, utid FROM x");
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->kind, Kind::kCreateTable);
  EXPECT_EQ(st->name, "foo");
  EXPECT_TRUE(st->or_replace);
  ASSERT_EQ(st->columns.size(), 3u);
  EXPECT_EQ(st->columns[0].name, "id");
  EXPECT_EQ(st->columns[0].type, "ID(slice.id)");
  EXPECT_EQ(st->columns[2].type, "JOINID(thread.id)");
  EXPECT_EQ(st->body, "SELECT id, ts, utid FROM x");
  EXPECT_EQ(st->sql, "CREATE TABLE foo AS SELECT id, ts, utid FROM x");
  EXPECT_EQ(st->drop_sql, "DROP TABLE IF EXISTS foo");
}

TEST(ParsePerfettoStatementTest, ViewIndexAndErrors) {
  auto view = ParsePerfettoStatement("CREATE PERFETTO VIEW v AS SELECT 1 AS x");
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->sql, "CREATE VIEW v AS SELECT 1 AS x");
  EXPECT_TRUE(view->drop_sql.empty());
  auto index = ParsePerfettoStatement("CREATE PERFETTO INDEX foo_ts ON foo(ts, dur)");
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->kind, Kind::kCreateIndex);
  EXPECT_EQ(index->sql, "CREATE INDEX foo_ts ON foo(ts, dur)");
  auto drop = ParsePerfettoStatement("DROP PERFETTO INDEX foo_ts ON foo");
  ASSERT_TRUE(drop.ok());
  EXPECT_EQ(drop->sql, "DROP INDEX foo_ts");
  EXPECT_FALSE(ParsePerfettoStatement("CREATE PERFETTO TABLE t(x WIDGET) AS SELECT 1 AS x").ok());
  EXPECT_FALSE(ParsePerfettoStatement("CREATE PERFETTO TABLE t(x) AS SELECT 1 AS x").ok());
  EXPECT_FALSE(ParsePerfettoStatement("CREATE PERFETTO TABLE t SELECT 1").ok());
  EXPECT_FALSE(ParsePerfettoStatement("CREATE PERFETTO GADGET g").ok());
}

TEST(ParsePerfettoStatementTest, Functions) {
  auto scalar = ParsePerfettoStatement(
      "CREATE PERFETTO FUNCTION add(x LONG, y LONG) RETURNS LONG AS SELECT $x + $y");
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(scalar->kind, Kind::kCreateFunction);
  EXPECT_FALSE(scalar->returns_table);
  EXPECT_EQ(scalar->return_type, "LONG");
  ASSERT_EQ(scalar->args.size(), 2u);
  EXPECT_EQ(scalar->args[1].name, "y");
  EXPECT_EQ(scalar->body, "SELECT $x + $y");

  auto table = ParsePerfettoStatement(
      "CREATE PERFETTO FUNCTION f(utid JOINID(thread.id))\n"
      "RETURNS TABLE(ts TIMESTAMP, -- comment\n dur DURATION) AS SELECT 1 AS ts, 2 AS dur");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(table->returns_table);
  ASSERT_EQ(table->columns.size(), 2u);
  EXPECT_EQ(table->columns[1].name, "dur");

  auto delegate = ParsePerfettoStatement(
      "CREATE PERFETTO FUNCTION rev(input STRING) RETURNS STRING DELEGATES TO reverse");
  ASSERT_TRUE(delegate.ok()) << delegate.status();
  EXPECT_EQ(delegate->delegate, "reverse");

  EXPECT_FALSE(
      ParsePerfettoStatement("CREATE PERFETTO FUNCTION f(x BLOBBY) RETURNS LONG AS SELECT 1").ok());
  EXPECT_FALSE(ParsePerfettoStatement("CREATE PERFETTO FUNCTION f() RETURNS LONG SELECT 1").ok());
}

TEST(CheckDeclaredColumnsTest, SameSetOfNames) {
  const std::vector<SqlArgDef> schema = {{"a", "LONG"}, {"b", "STRING"}};
  EXPECT_TRUE(CheckDeclaredColumns("t", schema, {"b", "A"}).ok());
  EXPECT_THAT(std::string(CheckDeclaredColumns("t", schema, {"a"}).message()),
              HasSubstr("declared but not produced by the SELECT: b"));
  EXPECT_THAT(std::string(CheckDeclaredColumns("t", schema, {"a", "b", "c"}).message()),
              HasSubstr("produced by the SELECT but not declared: c"));
  EXPECT_THAT(std::string(CheckDeclaredColumns("t", {}, {"a", "a"}).message()),
              HasSubstr("multiple columns are named a"));
}

// ------------------------------------------------------------------------ through the database

class PerfettoSqlDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = testing::MakeSmallTrace();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
  }
  absl::Status Run(std::string_view sql) { return db_->Execute(sql).status(); }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(PerfettoSqlDbTest, ScalarFunctions) {
  ASSERT_TRUE(
      Run("CREATE PERFETTO FUNCTION add_up(x LONG, y LONG) RETURNS LONG AS SELECT $x + $y").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT add_up(2, 40)"), "42");
  EXPECT_EQ(Scalar(*db_, "SELECT sum(add_up(id, 1)) FROM slice"), "21");
  // No row: NULL.
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION thread_name(utid LONG) RETURNS STRING AS "
                  "SELECT name FROM thread WHERE utid = $utid")
                  .ok());
  EXPECT_EQ(Scalar(*db_, "SELECT thread_name(1)"), "RenderThread");
  EXPECT_EQ(Scalar(*db_, "SELECT thread_name(99)"), "NULL");
  EXPECT_EQ(Scalar(*db_, "SELECT group_concat(thread_name(utid), '|') FROM thread"),
            "main|RenderThread|binder:200_1");
  // Recursion works (a nested call gets its own statement).
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION fact(n LONG) RETURNS LONG AS "
                  "SELECT IIF($n <= 1, 1, $n * fact($n - 1))")
                  .ok());
  EXPECT_EQ(Scalar(*db_, "SELECT fact(10)"), "3628800");
  // DELEGATES TO aliases a function.
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION backwards(s STRING) RETURNS STRING "
                  "DELEGATES TO reverse")
                  .ok());
  EXPECT_EQ(Scalar(*db_, "SELECT backwards('abc')"), "cba");
}

TEST_F(PerfettoSqlDbTest, FunctionDefinitionErrors) {
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION one() RETURNS LONG AS SELECT 1").ok());
  EXPECT_EQ(Run("CREATE PERFETTO FUNCTION one() RETURNS LONG AS SELECT 2").code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(Run("CREATE OR REPLACE PERFETTO FUNCTION one() RETURNS LONG AS SELECT 2").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT one()"), "2");
  // A failed replacement keeps the old definition.
  EXPECT_FALSE(Run("CREATE OR REPLACE PERFETTO FUNCTION one() RETURNS LONG AS SELECT nope").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT one()"), "2");
  // Built-in and native functions cannot be redefined.
  EXPECT_EQ(Run("CREATE OR REPLACE PERFETTO FUNCTION extract_arg(a LONG, k STRING) RETURNS LONG "
                "AS SELECT 1")
                .code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(Run("CREATE OR REPLACE PERFETTO FUNCTION __intrinsic_slice() RETURNS TABLE(x LONG) "
                "AS SELECT 1 AS x")
                .code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(Run("CREATE PERFETTO FUNCTION json_each(x STRING) RETURNS TABLE(x LONG) "
                "AS SELECT 1 AS x")
                .code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(Run("CREATE PERFETTO FUNCTION max(a LONG) RETURNS LONG AS SELECT 1").code(),
            absl::StatusCode::kPermissionDenied);
  auto bad_param = db_->Execute("CREATE PERFETTO FUNCTION f(x LONG) RETURNS LONG AS SELECT $y");
  EXPECT_THAT(std::string(bad_param.status().message()),
              HasSubstr("$y is not one of its arguments"));
  EXPECT_EQ(Run("CREATE PERFETTO FUNCTION two_cols() RETURNS LONG AS SELECT 1, 2").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Run("CREATE PERFETTO FUNCTION writes() RETURNS LONG AS DELETE FROM slice").code(),
            absl::StatusCode::kInvalidArgument);
  // Undefined functions stay undefined after a failed definition.
  EXPECT_EQ(Run("SELECT two_cols()").code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(PerfettoSqlDbTest, TableFunctions) {
  ASSERT_TRUE(
      Run("CREATE PERFETTO FUNCTION thread_slices(utid LONG, min_dur LONG)\n"
          "RETURNS TABLE(id LONG, name STRING, dur DURATION) AS\n"
          "SELECT s.id, s.name, s.dur FROM slice s JOIN thread_track tt ON s.track_id = tt.id\n"
          "WHERE tt.utid = $utid AND s.dur >= $min_dur ORDER BY s.id")
          .ok());
  EXPECT_EQ(Rows(*db_, "SELECT * FROM thread_slices(0, 15)"),
            (std::vector<Strings>{{"0", "doFrame", "50"}, {"1", "measure", "20"}}));
  // Arguments from another table (a lateral join); each call runs with its own bindings.
  EXPECT_EQ(Rows(*db_,
                 "SELECT t.name, count(f.id) FROM thread t "
                 "LEFT JOIN thread_slices(t.utid, 0) f GROUP BY t.utid ORDER BY t.utid"),
            (std::vector<Strings>{{"main", "3"}, {"RenderThread", "1"}, {"binder:200_1", "0"}}));
  // Self-join of the same function: scans do not share a statement.
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM thread_slices(0, 0) a, thread_slices(0, 0) b"), "9");

  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION constant_tab() RETURNS TABLE(ts LONG, dur LONG) AS "
                  "SELECT column1 AS ts, column2 AS dur FROM (VALUES (100, 10), (200, 20))")
                  .ok());
  EXPECT_EQ(Rows(*db_, "SELECT ts + dur FROM constant_tab()"),
            (std::vector<Strings>{{"110"}, {"220"}}));
  EXPECT_EQ(Run("CREATE PERFETTO FUNCTION constant_tab() RETURNS TABLE(ts LONG) AS SELECT 1 AS ts")
                .code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(Run("CREATE OR REPLACE PERFETTO FUNCTION constant_tab() RETURNS TABLE(x LONG) AS "
                  "SELECT 5 AS x")
                  .ok());
  EXPECT_EQ(Rows(*db_, "SELECT * FROM constant_tab()"), (std::vector<Strings>{{"5"}}));
  // Declared columns must match the SELECT's, in order.
  auto bad = db_->Execute(
      "CREATE PERFETTO FUNCTION bad() RETURNS TABLE(a LONG, b LONG) AS "
      "SELECT 1 AS b, 2 AS a");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("column 0 of its SELECT is 'b'"));
}

TEST_F(PerfettoSqlDbTest, TableFunctionErrorsPropagate) {
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION failing(x LONG) RETURNS TABLE(v LONG) AS "
                  "SELECT abs(-9223372036854775807 - $x) AS v")
                  .ok());
  auto r = db_->Execute("SELECT * FROM failing(1)");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("integer overflow"));
}

TEST_F(PerfettoSqlDbTest, TablesAndViewsWithSchemas) {
  EXPECT_TRUE(Run("CREATE PERFETTO TABLE long_slices(id LONG, dur DURATION) AS "
                  "SELECT id, dur FROM slice WHERE dur >= 30")
                  .ok());
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM long_slices"), "2");
  auto mismatch =
      db_->Execute("CREATE PERFETTO TABLE t2(id LONG, nope LONG) AS SELECT id FROM slice");
  EXPECT_EQ(mismatch.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(mismatch.status().message()), HasSubstr("nope"));
  EXPECT_EQ(Run("SELECT * FROM t2").code(), absl::StatusCode::kInvalidArgument);  // not created

  EXPECT_TRUE(
      Run("CREATE PERFETTO VIEW names(name STRING) AS SELECT DISTINCT name FROM thread").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM names"), "3");
  EXPECT_EQ(Run("CREATE PERFETTO VIEW names AS SELECT 1 AS x").code(),
            absl::StatusCode::kInvalidArgument);  // exists
  EXPECT_TRUE(Run("CREATE OR REPLACE PERFETTO VIEW names AS SELECT 1 AS x").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT x FROM names"), "1");
  EXPECT_TRUE(Run("CREATE OR REPLACE PERFETTO TABLE long_slices AS SELECT 7 AS id").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT id FROM long_slices"), "7");
  // Perfetto tables are indexed on id, so id lookups and joins stay cheap.
  const auto plan = Rows(*db_, "EXPLAIN QUERY PLAN SELECT * FROM long_slices WHERE id = 7");
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_THAT(plan[0].back(), HasSubstr("USING COVERING INDEX long_slices_id_index"));
}

TEST_F(PerfettoSqlDbTest, Indexes) {
  ASSERT_TRUE(Run("CREATE PERFETTO TABLE s AS SELECT id, track_id, name FROM slice").ok());
  EXPECT_TRUE(Run("CREATE PERFETTO INDEX s_track ON s(track_id)").ok());
  EXPECT_TRUE(Run("CREATE OR REPLACE PERFETTO INDEX s_track ON s(track_id, name)").ok());
  EXPECT_EQ(Scalar(*db_,
                   "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND "
                   "name = 's_track'"),
            "1");
  EXPECT_TRUE(Run("DROP PERFETTO INDEX s_track ON s").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM sqlite_schema WHERE name = 's_track'"), "0");
}

TEST_F(PerfettoSqlDbTest, MacrosInQueries) {
  ASSERT_TRUE(Run("CREATE PERFETTO MACRO named(t TableOrSubquery, n Expr) "
                  "RETURNS TableOrSubquery AS (SELECT * FROM $t WHERE name = $n)")
                  .ok());
  EXPECT_EQ(Rows(*db_, "SELECT id FROM named!(slice, 'layout')"), (std::vector<Strings>{{"2"}}));
  // Defined and used in the same script.
  EXPECT_EQ(Scalar(*db_, "CREATE PERFETTO MACRO k() RETURNS Expr AS 7; SELECT k!() * 6"), "42");
  auto unknown = db_->Execute("SELECT missing!(1)");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  // Bodies are expanded at each use, not when defined: they may call macros on their arguments.
  ASSERT_TRUE(Run("CREATE PERFETTO MACRO ident(x Expr) RETURNS Expr AS $x;"
                  "CREATE PERFETTO MACRO unparen(list ExprList) RETURNS Expr AS "
                  "  __intrinsic_token_apply!(ident, $list);"
                  "CREATE PERFETTO MACRO row_of(list ExprList) RETURNS TableOrSubquery AS "
                  "  (SELECT unparen!($list))")
                  .ok());
  EXPECT_EQ(Rows(*db_, "SELECT * FROM row_of!((1 + 1, 'a'))"), (std::vector<Strings>{{"2", "a"}}));
  // Prelude macros are reserved.
  EXPECT_EQ(Run("CREATE OR REPLACE PERFETTO MACRO cast_int(x Expr) RETURNS Expr AS $x").code(),
            absl::StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace tw

// SQL written to hurt the engine rather than to ask about the trace (issue #16): attaching or
// writing files, changing the connection, loading code, and runaway recursion or growth. Each
// must end in a clear error (never a crash or an unbounded wait), and the trace must answer
// as before afterwards.

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/trace/query/trace_database.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;
using testing::Scalar;

class HostileSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = testing::MakeSmallTrace();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
  }
  absl::Status Run(const std::string& sql, absl::Duration timeout = absl::Seconds(5)) {
    QueryOptions options;
    options.timeout = timeout;
    return db_->Execute(sql, options).status();
  }
  void ExpectIntact() { EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice"), "6"); }

  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(HostileSqlTest, NoOtherDatabaseNoFileWrites) {
  const std::string file = ::testing::TempDir() + "/tw-hostile-vacuum.db";
  std::filesystem::remove(file);
  for (const std::string& sql : std::vector<std::string>{
           "ATTACH DATABASE '" + file + "' AS evil", "ATTACH ':memory:' AS m",
        "VACUUM INTO '" + file + "'", "SELECT load_extension('libc.so.6')",
        std::string("SELECT load_extension('/tmp/x.so', 'sqlite3_extension_init')")}) {
    absl::Status s = Run(sql);
    EXPECT_FALSE(s.ok()) << sql;
    EXPECT_TRUE(s.code() == absl::StatusCode::kPermissionDenied ||
                s.code() == absl::StatusCode::kInvalidArgument)
        << sql << ": " << s;
  }
  EXPECT_FALSE(std::filesystem::exists(file));
  ExpectIntact();
}

TEST_F(HostileSqlTest, PragmasThatChangeTheConnectionAreDenied) {
  for (const char* sql : {"PRAGMA writable_schema = ON", "PRAGMA query_only = 0",
                          "PRAGMA temp_store_directory = '/tmp'", "PRAGMA journal_mode = WAL",
                          "PRAGMA cache_size = -100000000", "PRAGMA main.locking_mode = EXCLUSIVE",
                          "PRAGMA trusted_schema = 1", "PRAGMA recursive_triggers = 1",
                          "pragma Writable_Schema=1"}) {
    absl::Status s = Run(sql);
    EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << sql << ": " << s;
  }
  ExpectIntact();
}

TEST_F(HostileSqlTest, RunawayRecursionEndsInDeadline) {
  const absl::Time start = absl::Now();
  absl::Status s = Run(
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
      absl::Milliseconds(300));
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  ExpectIntact();
}

TEST_F(HostileSqlTest, RunawayGrowthOfOneValueIsRefused) {
  // Doubling a string each step reaches the value size cap (64 MiB) long before memory runs out.
  absl::Status s = Run(
      "WITH RECURSIVE r(s) AS (SELECT 'xxxxxxxx' UNION ALL SELECT s || s FROM r) "
      "SELECT length(s) FROM r ORDER BY 1 DESC LIMIT 1",
      absl::Seconds(30));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("too big"));
  s = Run("SELECT length(zeroblob(1000000000))");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  // Huge printf widths are refused up front (SQLite's own loop would spin for seconds where no
  // deadline reaches); ordinary formatting is unchanged.
  const absl::Time start = absl::Now();
  for (const char* sql : {"SELECT printf('%1000000000d', 1)", "SELECT printf('%.*s', 1000000000, 'x')",
                          "SELECT format('%*c', 2000000000, 'x')", "SELECT printf('%.999999999f', 1.0)"}) {
    s = Run(sql);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << sql << ": " << s;
  }
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  EXPECT_EQ(Scalar(*db_, "SELECT printf('%-6s|%5.2f|%d%%|%s', 'ab', 3.14159, 42, NULL)"),
            "ab    | 3.14|42%|");
  EXPECT_EQ(Scalar(*db_, "SELECT format('%s-%03d', name, 7) FROM slice ORDER BY id LIMIT 1"),
            Scalar(*db_, "SELECT name || '-007' FROM slice ORDER BY id LIMIT 1"));
  ExpectIntact();
}

TEST_F(HostileSqlTest, SelfCallingPerfettoFunctionFailsInsteadOfOverflowingTheStack) {
  ASSERT_EQ(Run("CREATE PERFETTO FUNCTION forever(x INT) RETURNS INT AS SELECT forever($x + 1);"),
            absl::OkStatus());
  absl::Status s = Run("SELECT forever(1)");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("nested more than"));
  ASSERT_EQ(Run("CREATE PERFETTO FUNCTION forever_rows(x INT) RETURNS TABLE(v INT) AS "
                "SELECT v FROM forever_rows($x + 1);"),
            absl::OkStatus());
  s = Run("SELECT * FROM forever_rows(1)");
  EXPECT_FALSE(s.ok());
  // A bounded recursion still works.
  ASSERT_EQ(Run("CREATE PERFETTO FUNCTION fact(n INT) RETURNS INT AS "
                "SELECT IIF($n <= 1, 1, $n * fact($n - 1));"),
            absl::OkStatus());
  EXPECT_EQ(Scalar(*db_, "SELECT fact(10)"), "3628800");
  ExpectIntact();
}

TEST_F(HostileSqlTest, RecursiveTriggersOnScratchTablesAreBounded) {
  absl::Status s = Run(
      "CREATE TEMP TABLE t(x INT);"
      "CREATE TEMP TRIGGER again AFTER INSERT ON t BEGIN INSERT INTO t VALUES (new.x + 1); END;"
      "INSERT INTO t VALUES (1);");
  // recursive_triggers is off (and may not be turned on): the trigger fires once per statement.
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM t"), "2");
  ExpectIntact();
}

TEST_F(HostileSqlTest, DeepExpressionsAreRefusedByTheParser) {
  std::string deep = "SELECT ";
  for (int i = 0; i < 5000; ++i) deep += "(";
  deep += "1";
  for (int i = 0; i < 5000; ++i) deep += ")";
  absl::Status s = Run(deep);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  ExpectIntact();
}

}  // namespace
}  // namespace tw

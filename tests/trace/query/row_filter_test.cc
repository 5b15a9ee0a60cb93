// Residual constraint checks in the table virtual tables (RowFilter): every WHERE clause must
// select exactly the rows SQLite selects from a plain copy of the same table, whatever mix of
// access plan, residual comparisons, IN lists, NULLs, collations and type conversions it holds.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;

class RowFilterTest : public ::testing::Test {
 protected:
  static constexpr uint32_t kTracks = 40;
  static constexpr uint32_t kSlices = 6000;

  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    TraceStorage& s = *storage_;
    const uint32_t upid = s.process.Insert({.pid = 1});
    for (uint32_t t = 0; t < kTracks; ++t) {
      const uint32_t utid = s.thread.Insert({.tid = 100 + t});
      s.thread.upid.Set(utid, upid);
      testing::AddThreadTrack(s, "t", utid);
    }
    const StringId names[] = {s.Intern("a"), s.Intern("b"), s.Intern("c"), s.Intern("A"),
                              s.Intern("long name")};
    uint64_t x = 88172645463325252ull;  // xorshift: a fixed, irregular mix of values
    auto next = [&] {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      return x;
    };
    for (uint32_t i = 0; i < kSlices; ++i) {
      const uint32_t depth = static_cast<uint32_t>(next() % 4);
      const std::optional<uint32_t> parent =
          depth == 0 || i == 0 ? std::nullopt : std::optional<uint32_t>(i - 1);
      const uint32_t id = s.slice.Insert({.ts = int64_t{i} * 7,
                                          .dur = static_cast<int64_t>(next() % 12),
                                          .track_id = static_cast<uint32_t>(next() % kTracks),
                                          .name = names[next() % 5],
                                          .depth = depth,
                                          .parent_id = parent});
      if (next() % 3 == 0) s.slice.arg_set_id.Set(id, i);
    }
    s.ExtendBounds(0);
    s.ExtendBounds(int64_t{kSlices} * 7);
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
    ASSERT_TRUE(db_->Execute("CREATE TEMP TABLE copy AS SELECT id, ts, dur, track_id, name, depth, "
                             "parent_id, arg_set_id FROM slice")
                    .ok());
  }

  // The ids a WHERE clause selects from `table`, in id order.
  std::string Ids(const std::string& table, const std::string& where) {
    return testing::Scalar(*db_, "SELECT COUNT(*) || ':' || IFNULL(GROUP_CONCAT(id), '') FROM "
                                 "(SELECT id FROM " + table + " WHERE " + where + " ORDER BY id)");
  }

  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(RowFilterTest, EveryClauseSelectsWhatSqliteSelectsFromACopy) {
  const std::vector<std::string> clauses = {
      "track_id = 7 AND name IN ('a', 'b')",
      "track_id = 7 AND name IN ('a', 'no such name')",
      "track_id = 7 AND name IN ('no such name')",
      "track_id = 7 AND name = 'A' COLLATE NOCASE",
      "track_id = 7 AND name IN ('a', 'B') COLLATE NOCASE",
      "name = 'a' AND depth > 1 AND dur >= 5",
      "name = 'long name' AND dur < 3 AND depth <= 2",
      "track_id = 7 AND depth IN (1, 2.0, '3')",
      "track_id = 7 AND depth IN (1.5)",
      "track_id = 7 AND depth IN (NULL, 1)",
      "track_id = 7 AND depth IN (NULL)",
      "track_id = 7 AND parent_id > 10",
      "track_id = 7 AND parent_id = NULL",
      "track_id = 7 AND parent_id IS NULL",
      "track_id = 7 AND arg_set_id >= 100",
      "track_id = 7 AND name IN (1, 'a')",
      "track_id = 7 AND dur = 'x'",
      "track_id = 7 AND dur < 'x'",
      "track_id = 7 AND dur > 2.5 AND dur <= 7.5",
      "depth = '2' AND ts < 1000.5",
      "id > 5 AND id < 400 AND track_id = 3",
      "id IN (1, 2, 3, 50) AND depth >= 1",
      "track_id IN (1, 2, 3) AND name = 'b'",
      "ts >= 100 AND ts < 5000 AND depth = 0",
      "ts >= 100 AND ts < 5000 AND depth = 0 AND name IN ('a', 'c', 'long name')",
      "dur > 9223372036854775807",
      "track_id = 7 AND dur < -9223372036854775808",
      "track_id = 9 AND depth != 2 AND name >= 'b'",
      // arg_set_id is sparse (a third of the rows, values up to 6000): its index is sorted
      // rather than counted.
      "arg_set_id = 300",
      "arg_set_id IN (3, 300, 5997) AND depth >= 0",
      "arg_set_id = 301 AND track_id = 1",
      // GLOB on a string column is decided per distinct string; on integers SQLite decides.
      "name GLOB 'a*'",
      "name GLOB '*name'",
      "name GLOB '[ab]' AND track_id = 7",
      "name GLOB 'A' AND depth >= 1",
      "name GLOB '?' AND name != 'b'",
      "name GLOB 'no such*'",
      "name GLOB NULL",
      "name GLOB 1",
      "name GLOB 'a*' COLLATE NOCASE",
      "name GLOB 'a*' OR name GLOB 'c'",
      "NOT name GLOB 'a*' AND track_id = 3",
      "depth GLOB '1'",
      "id GLOB '1*' AND track_id = 2",
      "track_id IN (1, 2) AND name GLOB 'long *' AND dur > 3",
  };
  for (const std::string& where : clauses) {
    EXPECT_EQ(Ids("slice", where), Ids("copy", where)) << where;
  }
}

// Integer comparisons are omitted from SQLite's re-check, so the filter alone decides them: every
// operator against every kind of operand, on each access plan (id range, sorted ts, the value
// index on track_id, a full scan) and as a residual check, on nullable and non-null columns.
TEST_F(RowFilterTest, IntegerComparisonsDecideLikeSqliteForEveryOperandType) {
  const std::vector<std::string> columns = {"id", "rowid", "ts", "dur", "track_id", "depth",
                                            "parent_id", "arg_set_id"};
  const std::vector<std::string> ops = {"=", "<", "<=", ">", ">="};
  const std::vector<std::string> operands = {
      "NULL",   "5",      "5.0",   "5.5",    "-0.5",  "'5'",     "'5.5'", "' 5 '",
      "'3.0e1'", "'x'",   "''",    "x'05'",  "1e19",  "-1e19",   "9223372036854775807",
      "-9223372036854775808", "'99999999999999999999'", "CAST('7' AS TEXT)"};
  int checked = 0;
  for (const std::string& column : columns) {
    for (const std::string& op : ops) {
      for (const std::string& operand : operands) {
        // The table's rowid is its id (the slice view has none); the copy's rowid is its own,
        // so there it compares id.
        const bool rowid = column == "rowid";
        const std::string table = rowid ? "__intrinsic_slice" : "slice";
        const std::string alone = column + " " + op + " " + operand;
        const std::string alone_in_copy = (rowid ? "id" : column) + " " + op + " " + operand;
        EXPECT_EQ(Ids(table, alone), Ids("copy", alone_in_copy)) << alone;
        const std::string residual = "track_id = 7 AND " + alone;
        EXPECT_EQ(Ids(table, residual), Ids("copy", "track_id = 7 AND " + alone_in_copy))
            << residual;
        checked += 2;
      }
    }
  }
  EXPECT_EQ(checked, 8 * 5 * 18 * 2);
}

TEST_F(RowFilterTest, CorrelatedOperandsOfEveryTypeAndAffinity) {
  // Operands from other tables' columns: no affinity (k) and TEXT affinity (t) both get the
  // integer column's numeric affinity before comparing.
  ASSERT_TRUE(db_->Execute("CREATE TEMP TABLE keys(k, t TEXT)").ok());
  ASSERT_TRUE(db_->Execute("INSERT INTO keys VALUES (7, '7'), ('7', ' 7 '), (7.0, '7.0'), "
                           "(7.5, '7.5'), ('x', 'x'), (NULL, NULL), (x'07', ''), (3, '3e0')")
                  .ok());
  for (const char* key : {"k", "t"}) {
    for (const char* op : {"=", "<", "<=", ">", ">="}) {
      const std::string sql_template = std::string(
          "SELECT GROUP_CONCAT(n, ' ') FROM (SELECT (SELECT COUNT(*) || '/' || IFNULL(SUM(s.id), 0) "
          "FROM TABLE s WHERE s.track_id = keys.") + key + " AND s.dur " + op + " keys." + key +
          ") AS n FROM keys ORDER BY rowid)";
      auto with = [&](const std::string& table) {
        std::string sql = sql_template;
        sql.replace(sql.find("TABLE"), 5, table);
        return testing::Scalar(*db_, sql);
      };
      EXPECT_EQ(with("slice"), with("copy")) << sql_template;
    }
  }
}

TEST_F(RowFilterTest, CorrelatedLookupsAndBoundParameters) {
  const std::string sql_template =
      "SELECT GROUP_CONCAT(n) FROM (SELECT (SELECT COUNT(*) || '/' || IFNULL(SUM(s.dur), 0) "
      "FROM TABLE s WHERE s.track_id = t.id AND s.name IN ('a', 'b') AND s.dur > 3) AS n "
      "FROM track t ORDER BY t.id)";
  auto with = [&](const std::string& table) {
    std::string sql = sql_template;
    sql.replace(sql.find("TABLE"), 5, table);
    return testing::Scalar(*db_, sql);
  };
  EXPECT_EQ(with("slice"), with("copy"));

  QueryOptions options;
  options.params = {{"track", SqlValue::Int(5)}, {"name", SqlValue::String("c")}};
  auto count = [&](const std::string& table) {
    auto r = db_->Execute("SELECT COUNT(*) FROM " + table +
                              " WHERE track_id = :track AND name = :name AND dur >= 6",
                          options);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r->rows[0][0].int_value : -1;
  };
  EXPECT_GT(count("copy"), 0);
  EXPECT_EQ(count("slice"), count("copy"));
}

TEST_F(RowFilterTest, ThePlanDrivesBySelectivityAndChecksTheRestInPlace) {
  // track_id has 40 values, name 5: the index on track_id drives, name IN and dur are checked
  // on each of the track's rows ('r' entries of the plan's argument layout).
  auto rows = db_->Execute(
      "EXPLAIN QUERY PLAN SELECT * FROM __intrinsic_slice "
      "WHERE name IN ('a', 'b') AND track_id = 7 AND dur > 3");
  ASSERT_TRUE(rows.ok()) << rows.status();
  std::string plan;
  for (const auto& row : rows->rows) plan += row.back().string_value + "\n";
  auto column = [&](const char* name) {
    return testing::Scalar(*db_, std::string("SELECT cid FROM pragma_table_info('__intrinsic_slice') "
                                             "WHERE name = '") + name + "'");
  };
  // Upper case: an integer comparison SQLite omits, checked exactly here.
  EXPECT_THAT(plan, HasSubstr("P=" + column("track_id") + ";"));  // drives the value index
  EXPECT_THAT(plan, HasSubstr("ri" + column("name") + ";"));       // IN, all values at once
  EXPECT_THAT(plan, HasSubstr("R>" + column("dur") + ";"));
}

TEST_F(RowFilterTest, GlobIsCheckedInPlaceAndItsSelectivityEstimatedFromASample) {
  auto plan_of = [&](const std::string& sql) {
    auto rows = db_->Execute("EXPLAIN QUERY PLAN " + sql);
    EXPECT_TRUE(rows.ok()) << rows.status();
    std::string plan;
    if (rows.ok()) {
      for (const auto& row : rows->rows) plan += row.back().string_value + "\n";
    }
    return plan;
  };
  const std::string name =
      testing::Scalar(*db_, "SELECT cid FROM pragma_table_info('__intrinsic_slice') "
                            "WHERE name = 'name'");
  // Lower case: a pre-filter, SQLite re-checks the rows it lets through.
  EXPECT_THAT(plan_of("SELECT id FROM __intrinsic_slice WHERE name GLOB 'long*'"),
              HasSubstr("rG" + name + ";"));
  // A rare name pattern makes the slice table the outer loop of a join: the scan of the whole
  // table is cheap once the pattern is checked in place, the join by track per slice is not.
  const std::string join =
      plan_of("SELECT s.id FROM __intrinsic_slice AS s JOIN __intrinsic_track AS t "
              "ON t.id = s.track_id WHERE s.name GLOB 'no such*'");
  ASSERT_NE(join.find("SCAN s "), std::string::npos) << join;
  EXPECT_LT(join.find("SCAN s "), join.find(" t ")) << join;
}

}  // namespace
}  // namespace tw

// SPAN_JOIN / SPAN_LEFT_JOIN / SPAN_OUTER_JOIN: the sweep on its own (span_join_sweep.h), then
// the SQLite modules over our own tables (span_join_table.h), each documented case and error.

#include "libs/trace/query/span_join_sweep.h"

#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Columns;
using testing::Rows;
using Table = std::vector<std::vector<std::string>>;

// ----------------------------------------------------------------------------------- the sweep

SpanJoinInput Input(bool partitioned, std::vector<InputSpan> spans) {
  for (size_t i = 0; i < spans.size(); ++i) spans[i].row = static_cast<uint32_t>(i);
  SortSpans(spans);
  return {partitioned, std::move(spans)};
}

// "ts+dur p L R" per output, L/R the row or '-' for a gap.
std::vector<std::string> Sweep(const SpanJoinInput& l, const SpanJoinInput& r, SpanJoinType t) {
  SpanJoinSweep sweep(&l, &r, t);
  std::vector<std::string> out;
  JoinedSpan s;
  auto row = [](int64_t r) { return r == JoinedSpan::kNoRow ? std::string("-") : std::to_string(r); };
  while (sweep.Next(&s)) {
    out.push_back(std::to_string(s.ts) + "+" + std::to_string(s.dur) + " p" +
                  std::to_string(s.partition) + " " + row(s.left_row) + " " + row(s.right_row));
  }
  return out;
}

TEST(SpanJoinSweepTest, InnerJoinCutsSpansAtEveryBoundary) {
  // left [0,10) [10,20); right [5,15) [15,30)
  auto l = Input(false, {{0, 0, 10}, {0, 10, 10}});
  auto r = Input(false, {{0, 5, 10}, {0, 15, 15}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kInner),
              ElementsAre("5+5 p0 0 0", "10+5 p0 1 0", "15+5 p0 1 1"));
}

TEST(SpanJoinSweepTest, LeftJoinFillsTheRightGapsWithNull) {
  auto l = Input(false, {{0, 0, 100}});
  auto r = Input(false, {{0, 20, 10}, {0, 50, 10}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kLeft),
              ElementsAre("0+20 p0 0 -", "20+10 p0 0 0", "30+20 p0 0 -", "50+10 p0 0 1",
                          "60+40 p0 0 -"));
}

TEST(SpanJoinSweepTest, OuterJoinKeepsBothSidesGapsButNeverTwoGaps) {
  auto l = Input(false, {{0, 0, 10}});
  auto r = Input(false, {{0, 5, 10}, {0, 40, 5}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kOuter),
              ElementsAre("0+5 p0 0 -", "5+5 p0 0 0", "10+5 p0 - 0", "40+5 p0 - 1"));
}

TEST(SpanJoinSweepTest, InstantsMeetTheSpanContainingThemAndNotOneEndingThere) {
  // left: instants at 10 (inside [10,20)) and 20 (where [10,20) ends, so outside it).
  auto l = Input(false, {{0, 10, 0}, {0, 20, 0}});
  auto r = Input(false, {{0, 10, 10}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kInner), ElementsAre("10+0 p0 0 0"));
  // Outer: the instant at 20 meets the right table's gap after 20; the right span is not cut.
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kOuter),
              ElementsAre("10+0 p0 0 0", "10+10 p0 - 0", "20+0 p0 1 -"));
}

TEST(SpanJoinSweepTest, TwoInstantsAtTheSameTimeMeet) {
  auto l = Input(false, {{0, 7, 0}});
  auto r = Input(false, {{0, 7, 0}, {0, 8, 0}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kInner), ElementsAre("7+0 p0 0 0"));
}

TEST(SpanJoinSweepTest, BothPartitionedInnerVisitsSharedPartitionsOnly) {
  auto l = Input(true, {{1, 0, 10}, {2, 0, 10}});
  auto r = Input(true, {{2, 5, 10}, {3, 0, 10}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kInner), ElementsAre("5+5 p2 1 0"));
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kLeft),
              ElementsAre("0+10 p1 0 -", "0+5 p2 1 -", "5+5 p2 1 0"));
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kOuter),
              ElementsAre("0+10 p1 0 -", "0+5 p2 1 -", "5+5 p2 1 0", "10+5 p2 - 0",
                          "0+10 p3 - 1"));
}

TEST(SpanJoinSweepTest, AnUnpartitionedSideAppliesToEveryPartition) {
  auto l = Input(true, {{4, 0, 10}, {9, 20, 10}});
  auto r = Input(false, {{0, 5, 20}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kInner), ElementsAre("5+5 p4 0 0", "20+5 p9 1 0"));
  EXPECT_THAT(Sweep(r, l, SpanJoinType::kInner), ElementsAre("5+5 p4 0 0", "20+5 p9 0 1"));
}

TEST(SpanJoinSweepTest, AnEmptyPartitionedSideEmitsNothingInAMixedJoin) {
  auto empty = Input(true, {});
  auto r = Input(false, {{0, 5, 20}});
  EXPECT_TRUE(Sweep(empty, r, SpanJoinType::kOuter).empty());
  EXPECT_TRUE(Sweep(r, empty, SpanJoinType::kLeft).empty());
  // Both partitioned: the left join still shows every left span.
  auto l = Input(true, {{3, 0, 10}});
  EXPECT_THAT(Sweep(l, empty, SpanJoinType::kLeft), ElementsAre("0+10 p3 0 -"));
}

TEST(SpanJoinSweepTest, InputOrderDoesNotMatter) {
  auto l = Input(true, {{2, 50, 10}, {1, 30, 5}, {2, 0, 10}});
  auto r = Input(true, {{2, 0, 100}, {1, 0, 100}});
  EXPECT_THAT(Sweep(l, r, SpanJoinType::kInner),
              ElementsAre("30+5 p1 1 1", "0+10 p2 2 0", "50+10 p2 0 0"));
}

// The inner join equals the brute-force intersection of every pair, on random data.
TEST(SpanJoinSweepTest, InnerJoinEqualsPairwiseIntersectionOnRandomData) {
  std::mt19937 rng(17);
  for (int round = 0; round < 50; ++round) {
    auto make = [&](bool partitioned) {
      std::vector<InputSpan> spans;
      for (int p = 0; p < 3; ++p) {
        int64_t t = std::uniform_int_distribution<int64_t>(0, 20)(rng);
        for (int i = 0; i < 20; ++i) {
          const int64_t dur = std::uniform_int_distribution<int64_t>(0, 15)(rng);
          spans.push_back({partitioned ? p : 0, t, dur});
          t += dur + std::uniform_int_distribution<int64_t>(dur == 0 ? 1 : 0, 10)(rng);
        }
        if (!partitioned) break;
      }
      return Input(partitioned, spans);
    };
    const SpanJoinInput l = make(true), r = make(round % 2 == 0);
    std::vector<std::string> expected;
    for (const InputSpan& a : l.spans) {
      for (const InputSpan& b : r.spans) {
        if (r.partitioned && a.partition != b.partition) continue;
        const int64_t ts = std::max(a.ts, b.ts), end = std::min(a.ts + a.dur, b.ts + b.dur);
        bool meet;
        if (a.dur == 0 && b.dur == 0) {
          meet = a.ts == b.ts;
        } else if (a.dur == 0) {
          meet = b.ts <= a.ts && a.ts < b.ts + b.dur;
        } else if (b.dur == 0) {
          meet = a.ts <= b.ts && b.ts < a.ts + a.dur;
        } else {
          meet = ts < end;
        }
        if (meet) {
          expected.push_back(std::to_string(ts) + "+" + std::to_string(end - ts) + " p" +
                             std::to_string(a.partition) + " " + std::to_string(a.row) + " " +
                             std::to_string(b.row));
        }
      }
    }
    std::vector<std::string> got = Sweep(l, r, SpanJoinType::kInner);
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected) << "round " << round;
  }
}

// ------------------------------------------------------------------------------ the SQL modules

class SpanJoinTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_TRUE(db_);
    Run("CREATE TABLE cpu_busy(ts INT, dur INT, cpu INT, task TEXT);"
        "INSERT INTO cpu_busy VALUES (0, 100, 0, 'a'), (200, 100, 0, 'b'), (50, 100, 1, 'c');"
        "CREATE TABLE freq(ts INT, dur INT, cpu INT, khz INT);"
        "INSERT INTO freq VALUES (0, 150, 0, 300), (150, 1000, 0, 900), (0, 1000, 2, 500);"
        "CREATE TABLE screen(ts INT, dur INT, state TEXT);"
        "INSERT INTO screen VALUES (100, 150, 'on');");
  }
  void Run(std::string_view sql) {
    auto r = db_->Execute(sql);
    ASSERT_TRUE(r.ok()) << r.status();
  }
  absl::Status Error(std::string_view sql) {
    auto r = db_->Execute(sql);
    return r.ok() ? absl::OkStatus() : r.status();
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(SpanJoinTableTest, ColumnsAreTsDurPartitionThenEachTablesOwn) {
  Run("CREATE VIRTUAL TABLE j USING SPAN_JOIN(cpu_busy PARTITIONED cpu, freq PARTITIONED cpu)");
  EXPECT_THAT(Columns(*db_, "SELECT * FROM j"), ElementsAre("ts", "dur", "cpu", "task", "khz"));
  EXPECT_EQ(Rows(*db_, "SELECT * FROM j"),
            (Table{{"0", "100", "0", "a", "300"},
                   {"200", "100", "0", "b", "900"}}));
}

TEST_F(SpanJoinTableTest, LeftJoinKeepsUncoveredPartsOfTheLeftTable) {
  Run("CREATE VIRTUAL TABLE j USING SPAN_LEFT_JOIN(cpu_busy PARTITIONED cpu, freq PARTITIONED cpu)");
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, cpu, task, khz FROM j"),
            (Table{{"0", "100", "0", "a", "300"},
                   {"200", "100", "0", "b", "900"},
                   {"50", "100", "1", "c", "NULL"}}));
}

TEST_F(SpanJoinTableTest, OuterJoinWithAnUnpartitionedTable) {
  Run("CREATE VIRTUAL TABLE j USING SPAN_OUTER_JOIN(cpu_busy PARTITIONED cpu, screen)");
  EXPECT_THAT(Columns(*db_, "SELECT * FROM j"), ElementsAre("ts", "dur", "cpu", "task", "state"));
  EXPECT_EQ(Rows(*db_, "SELECT * FROM j"),
            (Table{{"0", "100", "0", "a", "NULL"},
                   {"100", "100", "0", "NULL", "on"},
                   {"200", "50", "0", "b", "on"},
                   {"250", "50", "0", "b", "NULL"},
                   {"50", "50", "1", "c", "NULL"},
                   {"100", "50", "1", "c", "on"},
                   {"150", "100", "1", "NULL", "on"}}));
}

TEST_F(SpanJoinTableTest, ReadsTheTablesAgainOnEveryQueryAndWorksOverViews) {
  Run("CREATE VIEW busy_view AS SELECT ts, dur, cpu FROM cpu_busy WHERE task != 'b';"
      "CREATE VIRTUAL TABLE j USING SPAN_JOIN(busy_view PARTITIONED cpu, freq PARTITIONED cpu)");
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, khz FROM j"), (Table{{"0", "100", "300"}}));
  Run("INSERT INTO cpu_busy VALUES (1000, 10, 0, 'd')");
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, khz FROM j WHERE ts > 500"),
            (Table{{"1000", "10", "900"}}));
}

TEST_F(SpanJoinTableTest, RowsWithANullPartitionBelongToNoPartition) {
  Run("INSERT INTO cpu_busy VALUES (0, 1000, NULL, 'x');"
      "CREATE VIRTUAL TABLE j USING SPAN_JOIN(cpu_busy PARTITIONED cpu, freq PARTITIONED cpu)");
  EXPECT_EQ(Rows(*db_, "SELECT count(*) FROM j WHERE task = 'x'"), (Table{{"0"}}));
}

TEST_F(SpanJoinTableTest, ATableWithoutDurHoldsInstants) {
  Run("CREATE TABLE marks(ts INT, cpu INT, label TEXT);"
      "INSERT INTO marks VALUES (10, 0, 'm1'), (150, 0, 'm2'), (2000, 0, 'm3');"
      "CREATE VIRTUAL TABLE j USING SPAN_JOIN(marks PARTITIONED cpu, freq PARTITIONED cpu)");
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, label, khz FROM j"),
            (Table{{"10", "0", "m1", "300"}, {"150", "0", "m2", "900"}}));
}

TEST_F(SpanJoinTableTest, BadDefinitionsAreRejectedWithTheReason) {
  const std::pair<const char*, const char*> cases[] = {
      {"SPAN_JOIN(cpu_busy)", "expected two tables"},
      {"SPAN_JOIN(cpu_busy PARTITION cpu, freq)", "PARTITIONED"},
      {"SPAN_JOIN(nope, freq)", "cannot read table nope"},
      {"SPAN_JOIN(cpu_busy PARTITIONED core, freq)", "no partition column 'core'"},
      {"SPAN_JOIN(cpu_busy PARTITIONED ts, freq)", "cannot be ts or dur"},
      {"SPAN_JOIN(cpu_busy PARTITIONED cpu, freq PARTITIONED khz)", "same column"},
      {"SPAN_JOIN(cpu_busy, freq)", "column cpu is present in both tables"},
  };
  for (const auto& [definition, why] : cases) {
    absl::Status s = Error(std::string("CREATE VIRTUAL TABLE bad USING ") + definition);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << definition;
    EXPECT_THAT(std::string(s.message()), HasSubstr(why)) << definition;
  }
  Run("CREATE TABLE no_ts(start INT, dur INT); CREATE TABLE no_dur(ts INT, x INT)");
  EXPECT_THAT(std::string(Error("CREATE VIRTUAL TABLE bad USING SPAN_JOIN(no_ts, screen)").message()),
              HasSubstr("no_ts has no ts column"));
  EXPECT_THAT(std::string(Error("CREATE VIRTUAL TABLE bad USING SPAN_JOIN(no_dur, no_dur)").message()),
              HasSubstr("has a dur column"));
}

TEST_F(SpanJoinTableTest, AStringPartitionFailsTheQuery) {
  Run("CREATE TABLE named(ts INT, dur INT, cpu TEXT); INSERT INTO named VALUES (0, 10, 'big');"
      "CREATE VIRTUAL TABLE j USING SPAN_JOIN(named PARTITIONED cpu, freq PARTITIONED cpu)");
  absl::Status s = Error("SELECT * FROM j");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("non-integer"));
}

}  // namespace
}  // namespace tw

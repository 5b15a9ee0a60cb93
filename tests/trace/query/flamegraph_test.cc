// The generic flamegraph: the tree builder and the algorithm on trees built here (flamegraph.h
// states each rule tested), then the __intrinsic_flamegraph SQL module (flamegraph_table.h).

#include "libs/trace/query/flamegraph.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/trace/query/flamegraph_tree.h"
#include "tests/trace/query/test_trace.h"

namespace tw::flamegraph {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Row {
  int64_t id;
  std::optional<int64_t> parent;
  std::string name;
  int64_t value;
  std::optional<std::string> group = std::nullopt;  // column "g" when any row sets it
  std::optional<int64_t> extra = std::nullopt;      // column "n" when any row sets it
};

absl::StatusOr<Tree> MakeTree(const std::vector<Row>& rows) {
  bool with_group = false, with_extra = false;
  for (const Row& r : rows) {
    with_group |= r.group.has_value();
    with_extra |= r.extra.has_value();
  }
  std::vector<std::string> names = {"id", "parent_id", "name", "value"};
  if (with_group) names.push_back("g");
  if (with_extra) names.push_back("n");
  TreeBuilder b(names);
  for (const Row& r : rows) {
    b.AddInt(0, r.id);
    if (r.parent) b.AddInt(1, *r.parent); else b.AddNull(1);
    b.AddString(2, r.name);
    b.AddInt(3, r.value);
    size_t c = 4;
    if (with_group) {
      if (r.group) b.AddString(c, *r.group); else b.AddNull(c);
      ++c;
    }
    if (with_extra) {
      if (r.extra) b.AddInt(c, *r.extra); else b.AddNull(c);
    }
  }
  return std::move(b).Finish();
}

std::string Cell(const ResultColumn& c, uint32_t row) {
  if (!c.present[row]) return "NULL";
  switch (c.type) {
    case Column::Type::kInt: return std::to_string(c.ints[row]);
    case Column::Type::kDouble: return absl::StrCat(c.doubles[row]);
    case Column::Type::kString: return std::string(c.strings[row]);
    case Column::Type::kNull: break;
  }
  return "NULL";
}

// "name depth self cumulative x_start" per output row, plus any `extra` columns.
std::vector<std::string> Describe(const Result& r, std::vector<std::string> extra = {}) {
  std::vector<std::string> out;
  const ResultColumn* name = r.Find("name");
  const ResultColumn* self = r.Find("self_value");
  const ResultColumn* cumulative = r.Find("cumulative_value");
  for (uint32_t i = 0; i < r.rows; ++i) {
    std::string line = absl::StrCat(Cell(*name, i), " ", r.depth[i], " ", Cell(*self, i), " ",
                                    Cell(*cumulative, i), " ", r.x_start[i]);
    for (const std::string& e : extra) absl::StrAppend(&line, " ", Cell(*r.Find(e), i));
    out.push_back(line);
  }
  return out;
}

Query TopDown() {
  Query q;
  q.value_columns = {"value"};
  return q;
}

Result BuildOrDie(const std::vector<Row>& rows, const Query& q) {
  auto tree = MakeTree(rows);
  EXPECT_TRUE(tree.ok()) << tree.status();
  static std::vector<std::unique_ptr<Tree>> keep_alive;  // results point into their tree
  keep_alive.push_back(std::make_unique<Tree>(*std::move(tree)));
  auto result = Build(*keep_alive.back(), q);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : Result();
}

TEST(FlamegraphTreeTest, ReordersChildrenListedBeforeTheirParents) {
  auto tree = MakeTree({{7, 9, "leaf", 1}, {9, 3, "mid", 2}, {3, {}, "top", 4}, {5, {}, "x", 0}});
  ASSERT_TRUE(tree.ok()) << tree.status();
  ASSERT_EQ(tree->rows, 4u);
  // From row "leaf": top, mid, leaf are placed root first; then "x".
  EXPECT_THAT(tree->columns[0].ints, ElementsAre(3, 9, 7, 5));
  EXPECT_THAT(tree->parent, ElementsAre(kNoRow, 0u, 1u, kNoRow));
}

TEST(FlamegraphTreeTest, RejectsBrokenTrees) {
  EXPECT_THAT(MakeTree({{1, {}, "a", 1}, {1, {}, "b", 1}}).status().message(),
              HasSubstr("duplicate id"));
  EXPECT_THAT(MakeTree({{1, 4, "a", 1}}).status().message(), HasSubstr("parent_id not found"));
  EXPECT_THAT(MakeTree({{1, 2, "a", 1}, {2, 1, "b", 1}}).status().message(), HasSubstr("cycle"));
  TreeBuilder mixed({"id", "parent_id", "name", "value"});
  mixed.AddInt(0, 1); mixed.AddNull(1); mixed.AddString(2, "a"); mixed.AddString(3, "x");
  mixed.AddInt(0, 2); mixed.AddNull(1); mixed.AddString(2, "b"); mixed.AddInt(3, 4);
  EXPECT_THAT(std::move(mixed).Finish().status().message(), HasSubstr("mixes text and numbers"));
}

TEST(FlamegraphTest, TopDownMergesEqualSiblingsAndPacksWidestFirst) {
  // r(1) -> f(2), g(6), f(3) -> f's child h(5) under the second f only.
  Result r = BuildOrDie({{10, {}, "r", 1},
                         {11, 10, "f", 2},
                         {12, 10, "g", 6},
                         {13, 10, "f", 3},
                         {14, 13, "h", 5}},
                        TopDown());
  EXPECT_THAT(Describe(r), ElementsAre("r 1 1 17 0", "f 2 5 10 0", "g 2 6 6 10", "h 3 5 5 0"));
  EXPECT_THAT(r.parent_row, ElementsAre(kNoRow, 0u, 0u, 1u));
  EXPECT_TRUE(r.geometry_is_int);
}

TEST(FlamegraphTest, NegativeValuesAreRejected) {
  auto tree = MakeTree({{1, {}, "a", -3}});
  ASSERT_TRUE(tree.ok());
  EXPECT_THAT(Build(*tree, TopDown()).status().message(), HasSubstr("must be non-negative"));
}

TEST(FlamegraphTest, NodesWithNoValueAnywhereBelowAreDropped) {
  Result r = BuildOrDie({{1, {}, "a", 0}, {2, 1, "b", 0}, {3, 1, "c", 4}}, TopDown());
  EXPECT_THAT(Describe(r), ElementsAre("a 1 0 4 0", "c 2 4 4 0"));
}

TEST(FlamegraphTest, BottomUpChainsEveryValuedFrameToItsRoots) {
  Query q = TopDown();
  q.view = View::kBottomUp;
  // main(0) -> x(3) -> y(2); main -> y(4): the two y's merge at depth -1.
  Result r = BuildOrDie({{1, {}, "main", 0}, {2, 1, "x", 3}, {3, 2, "y", 2}, {4, 1, "y", 4}}, q);
  EXPECT_THAT(Describe(r), ElementsAre("y -1 6 6 0", "x -1 3 3 6", "main -2 0 4 0",
                                       "x -2 0 2 4", "main -2 0 3 6", "main -3 0 2 4"));
}

TEST(FlamegraphTest, HiddenFramesFoldIntoTheirKeptAncestor) {
  Query q = TopDown();
  q.hide_frame = {{"^glue$", false}};
  // A hidden root loses its value; its child becomes a root.
  Result r = BuildOrDie({{1, {}, "glue", 5}, {2, 1, "app", 1}, {3, 2, "glue", 2},
                         {4, 3, "work", 3}},
                        q);
  EXPECT_THAT(Describe(r), ElementsAre("app 1 3 6 0", "work 2 3 3 0"));
}

TEST(FlamegraphTest, ShowStackNeedsEveryFilterOnThePath) {
  Query q = TopDown();
  q.show_stack = {{"alpha", false}, {"BETA", true}};
  Result r = BuildOrDie({{1, {}, "root", 1},
                         {2, 1, "alpha", 2},
                         {3, 2, "beta", 4},
                         {4, 3, "leaf", 8},
                         {5, 1, "beta", 16}},  // beta without alpha above it: hidden
                        q);
  EXPECT_THAT(Describe(r), ElementsAre("root 1 0 12 0", "alpha 2 0 12 0", "beta 3 4 12 0",
                                       "leaf 4 8 8 0"));
}

TEST(FlamegraphTest, HideStackDropsTheMatchAndEverythingBelow) {
  Query q = TopDown();
  q.hide_stack = {{"^bad", false}};
  Result r = BuildOrDie({{1, {}, "root", 1}, {2, 1, "badger", 2}, {3, 2, "leaf", 4},
                         {4, 1, "good", 8}},
                        q);
  EXPECT_THAT(Describe(r), ElementsAre("root 1 1 9 0", "good 2 8 8 0"));
}

TEST(FlamegraphTest, PivotShowsTheTreesBelowAndTheChainsAboveEachMatch) {
  Query q = TopDown();
  q.view = View::kPivot;
  q.view_pattern = Pattern{"^p$", false};
  // Two p's under different parents merge into one root of each half; their chains part above.
  Result r = BuildOrDie({{1, {}, "root", 1}, {2, 1, "a", 1}, {3, 2, "p", 2}, {4, 3, "c", 3},
                         {5, 1, "b", 1}, {6, 5, "p", 4}},
                        q);
  EXPECT_THAT(Describe(r), ElementsAre("p 1 6 9 0", "p -1 9 9 0", "c 2 3 3 0", "a -2 0 5 0",
                                       "b -2 0 4 5", "root -3 0 5 0", "root -3 0 4 5"));
}

TEST(FlamegraphTest, FromFrameStartsATreeAtEveryMatchNestedOnesToo) {
  Query q = TopDown();
  q.view = View::kFromFrame;
  q.view_pattern = Pattern{"rec", false};
  Result r = BuildOrDie({{1, {}, "main", 1}, {2, 1, "rec", 2}, {3, 2, "rec", 3}}, q);
  // The inner rec starts a tree of its own (not a child of the outer one), merged with the outer
  // root as the same frame.
  EXPECT_THAT(Describe(r), ElementsAre("rec 1 5 5 0"));
}

TEST(FlamegraphTest, GroupingColumnsSplitFramesAndFiltersSeeThem) {
  Query q = TopDown();
  q.grouping_columns = {"g"};
  Result r = BuildOrDie({{1, {}, "r", 1, std::nullopt}, {2, 1, "x", 2, "lib1"},
                         {3, 1, "x", 3, "lib2"}, {4, 1, "x", 4, "lib1"}},
                        q);
  EXPECT_THAT(Describe(r, {"g"}), ElementsAre("r 1 1 10 0 NULL", "x 2 6 6 0 lib1",
                                              "x 2 3 3 6 lib2"));
  q.show_stack = {{"^lib2$", false}};
  Result filtered = BuildOrDie({{1, {}, "r", 1, std::nullopt}, {2, 1, "x", 2, "lib1"},
                                {3, 1, "x", 3, "lib2"}},
                               q);
  EXPECT_THAT(Describe(filtered, {"g"}), ElementsAre("r 1 0 3 0 NULL", "x 2 3 3 0 lib2"));
}

TEST(FlamegraphTest, AggregatesCoverTheNodesOwnRowsOnly) {
  Query q = TopDown();
  q.aggregates = {{Aggregate::kSum, "n", "n"}};
  Result sum = BuildOrDie({{1, {}, "r", 1, std::nullopt, std::nullopt},
                           {2, 1, "x", 1, std::nullopt, 5},
                           {3, 1, "x", 1, std::nullopt, 7},
                           {4, 3, "y", 1, std::nullopt, 100}},
                          q);
  EXPECT_THAT(Describe(sum, {"n"}),
              ElementsAre("r 1 1 4 0 NULL", "x 2 2 3 0 12", "y 3 1 1 0 100"));

  q.aggregates = {{Aggregate::kOneOrSummary, "g", "g"}};
  Result summary = BuildOrDie({{1, {}, "r", 1, "only"}, {2, 1, "x", 1, "u"}, {3, 1, "x", 1, "v"},
                               {4, 1, "x", 1, "u"}},
                              q);
  EXPECT_THAT(Describe(summary, {"g"}), ElementsAre("r 1 1 4 0 only", "x 2 3 3 0 u and 2 others"));

  q.aggregates = {{Aggregate::kConcatWithComma, "g", "g"}};
  Result concat = BuildOrDie({{1, {}, "r", 1, std::nullopt}, {2, 1, "x", 1, "u"},
                              {3, 1, "x", 1, "v"}},
                             q);
  EXPECT_THAT(Describe(concat, {"g"}), ElementsAre("r 1 1 3 0 NULL", "x 2 2 2 0 u,v"));
}

TEST(FlamegraphTest, EverySecondValueColumnKeepsNodesTheFirstDoesNotWeigh) {
  Query q = TopDown();
  q.value_columns = {"value", "n"};
  Result r = BuildOrDie({{1, {}, "r", 0, std::nullopt, 0}, {2, 1, "a", 3, std::nullopt, 0},
                         {3, 1, "b", 0, std::nullopt, 9}},
                        q);
  EXPECT_THAT(Describe(r, {"self_n", "cumulative_n"}),
              ElementsAre("r 1 0 3 0 0 9", "a 2 3 3 0 0 0", "b 2 0 0 3 9 9"));
}

TEST(FlamegraphTest, ConfigurationErrors) {
  auto tree = MakeTree({{1, {}, "a", 1}});
  ASSERT_TRUE(tree.ok());
  Query q = TopDown();
  q.value_columns = {"missing"};
  EXPECT_THAT(Build(*tree, q).status().message(), HasSubstr("'missing' does not exist"));
  q = TopDown();
  q.view = View::kPivot;
  EXPECT_THAT(Build(*tree, q).status().message(), HasSubstr("require a view pattern"));
  q = TopDown();
  q.hide_frame = {{"(", false}};
  EXPECT_THAT(Build(*tree, q).status().message(), HasSubstr("invalid regex"));
}

// ------------------------------------------------------------------------------ the SQL module

class FlamegraphSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    db_ = tw::testing::OpenOrDie(storage_.get());
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(FlamegraphSqlTest, CreatesFromASubqueryAndAnswersEachConfiguration) {
  ASSERT_TRUE(db_->Execute(R"(
    CREATE VIRTUAL TABLE tree_fg USING __intrinsic_flamegraph((
      SELECT 1 AS id, NULL AS parent_id, 'init' AS name, 2 AS value, 'libc' AS lib
      UNION ALL SELECT 2, 1, 'run', 5, 'libapp'
      UNION ALL SELECT 3, 2, 'io', 1.5, 'libc'
    )))").ok());
  EXPECT_THAT(tw::testing::Rows(*db_, R"(
    SELECT _tree_id, _tree_parent_id, depth, name, self_value, cumulative_value,
           parent_cumulative_value, x_start, x_end, lib
    FROM tree_fg(__intrinsic_flamegraph_config('value', 'value', 'view', 'TOP_DOWN')))"),
              ElementsAre(ElementsAre("0", "NULL", "1", "init", "2.000000", "8.500000", "NULL",
                                      "0.000000", "8.500000", "NULL"),
                          ElementsAre("1", "0", "2", "run", "5.000000", "6.500000", "8.500000",
                                      "0.000000", "6.500000", "NULL"),
                          ElementsAre("2", "1", "3", "io", "1.500000", "1.500000", "6.500000",
                                      "0.000000", "1.500000", "NULL")));
  // Another configuration of the same table: bottom-up, frames told apart by library.
  EXPECT_THAT(tw::testing::Rows(*db_, R"(
    SELECT name, depth, lib FROM tree_fg(__intrinsic_flamegraph_config(
      'value', 'value', 'view', 'BOTTOM_UP', 'grouping', 'lib'))
    WHERE depth = -1 ORDER BY name)"),
              ElementsAre(ElementsAre("init", "-1", "libc"), ElementsAre("io", "-1", "libc"),
                          ElementsAre("run", "-1", "libapp")));
  EXPECT_EQ(tw::testing::Scalar(*db_, R"(
    SELECT cumulative_value FROM tree_fg(__intrinsic_flamegraph_config('value', 'value'))
    WHERE __intrinsic_flamegraph_find(_tree_id, 'SUPER_ROOT'))"),
            "8.500000");
}

TEST_F(FlamegraphSqlTest, ClearErrors) {
  EXPECT_THAT(db_->Execute("CREATE VIRTUAL TABLE bad USING __intrinsic_flamegraph(("
                           "SELECT 1 AS id, NULL AS parent_id, 'a' AS title, 1 AS value))")
                  .status()
                  .message(),
              HasSubstr("first source columns must be id, parent_id, name, value"));
  ASSERT_TRUE(db_->Execute("CREATE VIRTUAL TABLE ok USING __intrinsic_flamegraph(("
                           "SELECT 1 AS id, NULL AS parent_id, 'a' AS name, 1 AS value))")
                  .ok());
  EXPECT_THAT(db_->Execute("SELECT * FROM ok(__intrinsic_flamegraph_config('view', 'SIDEWAYS',"
                           " 'value', 'value'))")
                  .status()
                  .message(),
              HasSubstr("unknown value 'SIDEWAYS'"));
  EXPECT_FALSE(db_->Execute("SELECT * FROM ok").ok());  // no configuration
}

// A large tree: every value lands in exactly one node of each half, so the roots' cumulative
// values add up to the input's total whichever way the tree is cut.
TEST(FlamegraphScaleTest, LargeTreesConserveTheirTotal) {
  TreeBuilder b({"id", "parent_id", "name", "value"});
  constexpr int64_t kRows = 200000;
  const std::string names[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"};
  int64_t total = 0;
  // A ternary tree (node k's parent is (k - 1) / 3), listed leaves first so it gets reordered.
  for (int64_t k = kRows - 1; k >= 0; --k) {
    b.AddInt(0, k + 1);
    if (k == 0) b.AddNull(1); else b.AddInt(1, (k - 1) / 3 + 1);
    b.AddString(2, names[(k * 7919) % 7]);
    b.AddInt(3, k % 5);
    total += k % 5;
  }
  auto tree = std::move(b).Finish();
  ASSERT_TRUE(tree.ok()) << tree.status();
  for (View view : {View::kTopDown, View::kBottomUp}) {
    Query q = TopDown();
    q.view = view;
    auto result = Build(*tree, q);
    ASSERT_TRUE(result.ok()) << result.status();
    const ResultColumn* cumulative = result->Find("cumulative_value");
    int64_t roots = 0;
    for (uint32_t i = 0; i < result->rows; ++i) {
      if (result->parent_row[i] == kNoRow) roots += cumulative->ints[i];
    }
    EXPECT_EQ(roots, total);
  }
}

}  // namespace
}  // namespace tw::flamegraph

// directly_connected_flow / following_flow / preceding_flow (module prelude.flow, which the
// query layer loads when a database opens).

#include <gtest/gtest.h>

#include "libs/trace/stdlib/stdlib.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// Slices: 0 "a" > 1 "a1" (track 0); 2 "b" > 3 "b1" (track 1); 4 "c", 5 "d", 6 "e" (own tracks).
// Flows: 0: 1 -> 2, 1: 3 -> 4, 2: 5 -> 0, 3: 6 -> 4.
std::unique_ptr<TraceDatabase> OpenFlowTrace(TraceBuilder& b) {
  const uint32_t t0 = b.GlobalTrack("t0");
  const uint32_t t1 = b.GlobalTrack("t1");
  const uint32_t a = b.Slice(t0, 0, 100, "a");
  const uint32_t a1 = b.Slice(t0, 10, 50, "a1", a);
  const uint32_t bb = b.Slice(t1, 200, 100, "b");
  const uint32_t b1 = b.Slice(t1, 210, 50, "b1", bb);
  const uint32_t c = b.Slice(b.GlobalTrack("t2"), 400, 10, "c");
  const uint32_t d = b.Slice(b.GlobalTrack("t3"), 500, 10, "d");
  const uint32_t e = b.Slice(b.GlobalTrack("t4"), 300, 10, "e");
  b.s.flow.Insert({.slice_out = a1, .slice_in = bb});
  b.s.flow.Insert({.slice_out = b1, .slice_in = c});
  b.s.flow.Insert({.slice_out = d, .slice_in = a});
  b.s.flow.Insert({.slice_out = e, .slice_in = c});
  auto db = b.Open(0, 1000);
  // Until the query layer loads "prelude." modules at open, define the functions here.
  if (db && Scalar(*db, "SELECT COUNT(*) FROM pragma_module_list WHERE name = 'following_flow'") ==
                "0") {
    const SqlModule* m = FindSqlModule("prelude.flow");
    EXPECT_NE(m, nullptr);
    if (m) {
      auto r = db->Execute(m->sql);
      EXPECT_TRUE(r.ok()) << r.status();
    }
  }
  return db;
}

TEST(FlowFunctions, FollowingFlowTakesDescendantsAndOutgoingFlows) {
  TraceBuilder b;
  auto db = OpenFlowTrace(b);
  EXPECT_EQ(Rows(*db, "SELECT id, slice_out, slice_in FROM following_flow(0)"),
            (Table{{"0", "1", "2"}, {"1", "3", "4"}}));
  EXPECT_EQ(Rows(*db, "SELECT slice_out, slice_in FROM following_flow(2)"), (Table{{"3", "4"}}));
  EXPECT_TRUE(Rows(*db, "SELECT * FROM following_flow(4)").empty());
}

TEST(FlowFunctions, PrecedingFlowTakesAncestorsAndIncomingFlows) {
  TraceBuilder b;
  auto db = OpenFlowTrace(b);
  EXPECT_EQ(Rows(*db, "SELECT slice_out, slice_in FROM preceding_flow(3)"),
            (Table{{"1", "2"}, {"5", "0"}}));
  EXPECT_EQ(Rows(*db, "SELECT id, slice_out, slice_in FROM preceding_flow(4)"),
            (Table{{"0", "1", "2"}, {"1", "3", "4"}, {"2", "5", "0"}, {"3", "6", "4"}}));
}

TEST(FlowFunctions, DirectlyConnectedFlowFollowsArrowsOnly) {
  TraceBuilder b;
  auto db = OpenFlowTrace(b);
  EXPECT_EQ(Rows(*db, "SELECT slice_out, slice_in FROM directly_connected_flow(4)"),
            (Table{{"3", "4"}, {"6", "4"}}));
  EXPECT_EQ(Rows(*db, "SELECT slice_out, slice_in FROM directly_connected_flow(1)"),
            (Table{{"1", "2"}}));
  EXPECT_EQ(Rows(*db, "SELECT slice_out, slice_in FROM directly_connected_flow(0)"),
            (Table{{"5", "0"}}));
}

TEST(FlowFunctions, NullOrUnknownSliceGivesNoRows) {
  TraceBuilder b;
  auto db = OpenFlowTrace(b);
  EXPECT_TRUE(Rows(*db, "SELECT * FROM following_flow(NULL)").empty());
  EXPECT_TRUE(Rows(*db, "SELECT * FROM preceding_flow(99)").empty());
  EXPECT_TRUE(Rows(*db, "SELECT * FROM directly_connected_flow(NULL)").empty());
}

}  // namespace
}  // namespace tw::stdlib_testing

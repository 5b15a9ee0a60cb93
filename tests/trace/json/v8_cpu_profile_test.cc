// Chrome JSON's legacy V8 CPU profiles ('P' events "Profile" / "ProfileChunk") loaded end to
// end: the profile's callsite tree, its samples' times and threads, and what is rejected.

#include <gtest/gtest.h>

#include "tests/trace/json/json_test_util.h"

namespace tw {
namespace {

using json_test::Int;
using json_test::Load;
using json_test::Rows;
using json_test::Stat;

TEST(V8CpuProfileTest, SamplesGetTheirTimesFromDeltasAndPointIntoTheCallsiteTree) {
  // V8 style: each node names its parent. Samples are 5 µs, then 2 µs apart from startTime.
  auto t = Load(R"json({"traceEvents":[
    {"ph":"X","name":"task","ts":90,"dur":5,"pid":7,"tid":7},
    {"ph":"P","name":"Profile","id":"0x2","pid":7,"tid":7,"ts":100,
     "args":{"data":{"startTime":100}}},
    {"ph":"P","name":"ProfileChunk","id":"0x2","pid":7,"tid":9,"ts":120,
     "args":{"data":{"cpuProfile":{
       "nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},
                {"id":2,"parent":1,"callFrame":{"functionName":"main","url":"app.js"}},
                {"id":3,"parent":2,"callFrame":{"functionName":"work","url":"app.js"}}],
       "samples":[3,2,3]},
       "timeDeltas":[5,2,2]}}}
  ]})json");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT s.ts, f.name, c.depth, th.tid FROM cpu_profile_stack_sample s "
                     "JOIN stack_profile_callsite c ON c.id = s.callsite_id "
                     "JOIN stack_profile_frame f ON f.id = c.frame_id "
                     "JOIN thread th USING (utid) ORDER BY s.ts"),
            "105000,work,2,9\n107000,main,1,9\n109000,work,2,9\n");
  // The chain from a leaf down to the root.
  EXPECT_EQ(Rows(*t, "SELECT p.depth, pf.name FROM stack_profile_callsite c "
                     "JOIN stack_profile_frame f ON f.id = c.frame_id "
                     "JOIN stack_profile_callsite p ON p.id = c.parent_id "
                     "JOIN stack_profile_frame pf ON pf.id = p.frame_id WHERE f.name = 'work'"),
            "1,main\n");
  EXPECT_EQ(Rows(*t, "SELECT s.name, s.source_file FROM stack_profile_frame f "
                     "JOIN stack_profile_symbol s USING (symbol_set_id) ORDER BY f.id"),
            "(root),[NULL]\nmain,app.js\nwork,app.js\n");
  // One placeholder mapping per profile; the sampled thread joins its process.
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM stack_profile_mapping"), 1);
  EXPECT_EQ(Rows(*t, "SELECT t.tid, p.pid FROM thread t JOIN process p USING (upid) "
                     "WHERE t.tid = 9"),
            "9,7\n");
  // Samples count towards the trace's bounds.
  EXPECT_EQ(Rows(*t, "SELECT start_ts, end_ts FROM trace_bounds"), "90000,109000\n");
}

TEST(V8CpuProfileTest, ChildrenListsParentNodesDefinedLaterOrEarlier) {
  // DevTools style: parents list their children. Node 3 comes before its parent 2, which
  // re-parents it; node 4 comes after and finds its parent through the list.
  auto t = Load(R"json([
    {"ph":"P","name":"Profile","id":5,"pid":1,"tid":1,"ts":0,"args":{"data":{"startTime":0}}},
    {"ph":"P","name":"ProfileChunk","id":5,"pid":1,"tid":1,"ts":1,
     "args":{"data":{"cpuProfile":{"nodes":[
       {"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},
       {"id":3,"callFrame":{"functionName":"leaf"}},
       {"id":2,"callFrame":{"functionName":"mid"},"children":[3,4]},
       {"id":4,"callFrame":{"functionName":"other"}}],
       "samples":[3,4]},"timeDeltas":[1,1]}}}
  ])json");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT f.name, c.depth, pf.name FROM stack_profile_callsite c "
                     "JOIN stack_profile_frame f ON f.id = c.frame_id "
                     "LEFT JOIN stack_profile_callsite p ON p.id = c.parent_id "
                     "LEFT JOIN stack_profile_frame pf ON pf.id = p.frame_id ORDER BY f.name"),
            "(root),0,[NULL]\nleaf,2,mid\nmid,1,(root)\nother,2,mid\n");
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM cpu_profile_stack_sample"), 2);
}

TEST(V8CpuProfileTest, ChunksWithoutTheirProfileAndUnknownNodesAreCounted) {
  auto t = Load(R"json([
    {"ph":"P","name":"ProfileChunk","id":"0x9","pid":1,"tid":1,"ts":1,
     "args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"a"}},
                                            {"id":2,"parent":1,"callFrame":{"functionName":"b"}}],
                                   "samples":[1]},"timeDeltas":[1]}}},
    {"ph":"P","name":"Profile","id":"0x3","pid":1,"tid":1,"ts":0,"args":{"data":{"startTime":0}}},
    {"ph":"P","name":"ProfileChunk","id":"0x3","pid":1,"tid":1,"ts":2,
     "args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"a"}},
                                            {"id":1,"callFrame":{"functionName":"dup"}},
                                            {"id":3,"parent":8,"callFrame":{"functionName":"c"}}],
                                   "samples":[1,7]},"timeDeltas":[1,1]}}},
    {"ph":"P","name":"ProfileChunk","id":"not hex","pid":1,"tid":1,"ts":3,"args":{}},
    {"ph":"P","name":"ProfileChunk","id":"0x3","pid":1,"tid":1,"ts":4,
     "args":{"data":{"cpuProfile":{"samples":[1,1]},"timeDeltas":[1]}}}
  ])json");
  ASSERT_TRUE(t);
  // Two nodes of an unknown profile, a duplicate id and an unknown parent.
  EXPECT_EQ(Stat(*t, "legacy_v8_cpu_profile_invalid_callsite"), 4);
  // The sample of node 7, which no node defined.
  EXPECT_EQ(Stat(*t, "legacy_v8_cpu_profile_invalid_sample"), 1);
  // Samples of an unknown profile, a non-hex id and samples without as many deltas.
  EXPECT_EQ(Stat(*t, "json_tokenizer_failure"), 3);
  EXPECT_EQ(Rows(*t, "SELECT ts FROM cpu_profile_stack_sample"), "1000\n");
}

}  // namespace
}  // namespace tw

// experimental_flamegraph('graph', ts, NULL, upid, NULL, focus): a heap dump's objects under
// the object that first reaches them breadth-first from the roots, merged by class path.

#include <gtest/gtest.h>

#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/heap_graph_trace_writer.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using heap_graph_testing::Graph;
using heap_graph_testing::HeapGraphTraceWriter;
using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kRootJniGlobal = 1, kRootJavaFrame = 3;

std::unique_ptr<LoadedTrace> Load(HeapGraphTraceWriter& w) {
  auto t = LoadTraceBytes(w.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

constexpr const char* kFlamegraph =
    "SELECT id, depth, name, count, cumulative_count, size, cumulative_size, parent_id "
    "FROM experimental_flamegraph('graph', 100, NULL, "
    "(SELECT upid FROM process WHERE pid = 77), NULL, ";

// Two roots, "Activity" then "Zygote" (class names order the roots): Activity holds a list of
// two nodes, Zygote refers to the first node directly — so breadth-first that node is reached
// from Zygote (one hop) before the list is walked. Frames come in object id order, a frame's
// ancestors first.
Graph ListGraph() {
  Graph g{.pid = 77};
  g.objects = {
      {.id = 1, .type_id = 1, .self_size = 100, .field_ids = {1}, .refs = {2}},
      {.id = 2, .type_id = 2, .self_size = 40, .field_ids = {2, 2}, .refs = {3, 4}},
      {.id = 3, .type_id = 3, .self_size = 16},
      {.id = 4, .type_id = 3, .self_size = 24},
      {.id = 5, .type_id = 4, .self_size = 8, .field_ids = {3}, .refs = {3}},
      {.id = 6, .type_id = 3, .self_size = 99},  // garbage: not in the flamegraph
  };
  g.types = {{.id = 1, .name = "Activity"},
             {.id = 2, .name = "java.util.ArrayList"},
             {.id = 3, .name = "Node"},
             {.id = 4, .name = "Zygote"}};
  g.field_names = {{1, "Activity.items"}, {2, "java.util.ArrayList.elementData"},
                   {3, "Zygote.first"}};
  g.roots = {{kRootJavaFrame, {5}}, {kRootJniGlobal, {1}}};
  return g;
}

TEST(HeapGraphFlamegraph, ShortestPathTreeMergedByClass) {
  HeapGraphTraceWriter w;
  w.Process(77, 1, "app");
  w.HeapGraph(1, 100, ListGraph());
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), std::string(kFlamegraph) + "NULL)"),
            (Table{{"0", "0", "Activity [ROOT_JNI_GLOBAL]", "1", "3", "100", "164", "NULL"},
                   {"1", "1", "java.util.ArrayList", "1", "2", "40", "64", "0"},
                   {"2", "0", "Zygote [ROOT_JAVA_FRAME]", "1", "2", "8", "24", "NULL"},
                   {"3", "1", "Node", "1", "1", "16", "16", "2"},
                   {"4", "2", "Node", "1", "1", "24", "24", "1"}}));
}

// Objects of one class under the same path merge into one frame.
TEST(HeapGraphFlamegraph, SameClassSiblingsMerge) {
  HeapGraphTraceWriter w;
  w.Process(77, 1, "app");
  Graph g{.pid = 77};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 40, .field_ids = {1, 1}, .refs = {2, 3}},
               {.id = 2, .type_id = 2, .self_size = 16},
               {.id = 3, .type_id = 2, .self_size = 24}};
  g.types = {{.id = 1, .name = "Holder"}, {.id = 2, .name = "Node"}};
  g.field_names = {{1, "Holder.nodes"}};
  g.roots = {{kRootJavaFrame, {1}}};
  w.HeapGraph(1, 100, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), std::string(kFlamegraph) + "NULL)"),
            (Table{{"0", "0", "Holder [ROOT_JAVA_FRAME]", "1", "3", "40", "80", "NULL"},
                   {"1", "1", "Node", "2", "2", "40", "40", "0"}}));
}

// Focus keeps matching frames, their ancestors and descendants; cumulative values shrink.
TEST(HeapGraphFlamegraph, FocusKeepsMatchesAncestorsAndDescendants) {
  HeapGraphTraceWriter w;
  w.Process(77, 1, "app");
  w.HeapGraph(1, 100, ListGraph());
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), std::string(kFlamegraph) + "'arraylist')"),
            (Table{{"0", "0", "Activity [ROOT_JNI_GLOBAL]", "1", "3", "100", "164", "NULL"},
                   {"1", "1", "java.util.ArrayList", "1", "2", "40", "64", "0"},
                   {"2", "2", "Node", "1", "1", "24", "24", "1"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT name, cumulative_size FROM experimental_flamegraph("
                          "'graph', 100, NULL, (SELECT upid FROM process WHERE pid = 77), NULL, "
                          "'ZYG')"),
            (Table{{"Zygote [ROOT_JAVA_FRAME]", "24"}, {"Node", "16"}}));
}

// Native memory an object keeps alive is a "[native]" child frame.
TEST(HeapGraphFlamegraph, NativeSizesAreChildFrames) {
  HeapGraphTraceWriter w;
  w.Process(77, 1, "app");
  Graph g{.pid = 77};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 8, .field_ids = {1, 2}, .refs = {2, 3}},
               {.id = 2, .type_id = 2, .self_size = 100},
               {.id = 3, .type_id = 3, .self_size = 8, .field_ids = {3}, .refs = {4}},
               {.id = 4, .type_id = 4, .self_size = 8, .native_registry_size = 5000}};
  g.types = {{.id = 1, .name = "sun.misc.Cleaner"},
             {.id = 2, .name = "android.graphics.Bitmap"},
             {.id = 3, .name = "libcore.util.NativeAllocationRegistry$CleanerThunk"},
             {.id = 4, .name = "libcore.util.NativeAllocationRegistry"}};
  g.field_names = {{1, "java.lang.ref.Reference.referent"},
                   {2, "sun.misc.Cleaner.thunk"},
                   {3, "libcore.util.NativeAllocationRegistry$CleanerThunk.this$0"}};
  g.roots = {{kRootJavaFrame, {2}}};
  w.HeapGraph(1, 100, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), std::string(kFlamegraph) + "NULL)"),
            (Table{{"0", "0", "android.graphics.Bitmap [ROOT_JAVA_FRAME]", "1", "2", "100", "5100",
                    "NULL"},
                   {"1", "1", "[native] android.graphics.Bitmap [ROOT_JAVA_FRAME]", "1", "1",
                    "5000", "5000", "0"}}));
}

// A dump without roots has no flamegraph; one that lost packets gets a marker frame.
TEST(HeapGraphFlamegraph, DumpsWithoutRoots) {
  HeapGraphTraceWriter w;
  w.Process(77, 1, "app");
  Graph g{.pid = 77, .index = 1};  // index 0 was lost
  g.objects = {{.id = 1, .type_id = 1, .self_size = 8}};
  g.types = {{.id = 1, .name = "X"}};
  w.HeapGraph(1, 100, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), std::string(kFlamegraph) + "NULL)"),
            (Table{{"0", "0", "ERROR: INCOMPLETE GRAPH (try increasing buffer size)", "1", "1",
                    "1", "1", "NULL"}}));

  HeapGraphTraceWriter complete;
  complete.Process(77, 1, "app");
  g.index = 0;
  complete.HeapGraph(1, 100, g);
  auto t2 = Load(complete);
  ASSERT_TRUE(t2);
  auto r = t2->db().Execute(std::string(kFlamegraph) + "NULL)");
  EXPECT_FALSE(r.ok());
  auto bad = t2->db().Execute("SELECT * FROM experimental_flamegraph('bogus', 1, NULL, 1, NULL, "
                              "NULL)");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("profile type"), std::string::npos);
}

}  // namespace
}  // namespace tw

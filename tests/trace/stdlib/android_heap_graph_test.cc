// android.memory.heap_graph.*: the dominator tree, the class trees (shortest-path and
// dominator), the class summary tree, the per-class aggregation and the per-dump stats, on
// heap dumps written as ART writes them.

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

// Root → A → C → D, Root → B → C, and a second root E → B; Garbage is unreachable.
// Rows: Root 0, A 1, B 2, C 3, D 4, E 5, Garbage 6.
Graph DiamondGraph() {
  Graph g{.pid = 42};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 10, .field_ids = {1, 1}, .refs = {2, 3}},
               {.id = 2, .type_id = 2, .self_size = 20, .field_ids = {1}, .refs = {4}},
               {.id = 3, .type_id = 3, .self_size = 30, .field_ids = {1}, .refs = {4}},
               {.id = 4, .type_id = 4, .self_size = 40, .field_ids = {1}, .refs = {5}},
               {.id = 5, .type_id = 5, .self_size = 50},
               {.id = 6, .type_id = 6, .self_size = 5, .field_ids = {1}, .refs = {3}},
               {.id = 7, .type_id = 7, .self_size = 1000}};
  g.types = {{.id = 1, .name = "Root"}, {.id = 2, .name = "A"}, {.id = 3, .name = "B"},
             {.id = 4, .name = "C"},    {.id = 5, .name = "D"}, {.id = 6, .name = "E"},
             {.id = 7, .name = "Garbage"}};
  g.field_names = {{1, "Object.ref"}};
  g.roots = {{kRootJavaFrame, {1}}, {kRootJniGlobal, {6}}};
  return g;
}

std::unique_ptr<LoadedTrace> LoadDiamond() {
  HeapGraphTraceWriter w;
  w.Process(42, 1, "app");
  w.HeapGraph(1, 100, DiamondGraph());
  return Load(w);
}

TEST(AndroidHeapGraph, DominatorTree) {
  auto t = LoadDiamond();
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  Rows(db, "INCLUDE PERFETTO MODULE android.memory.heap_graph.dominator_tree");
  // B and C are reached from both roots: only the super-root dominates them.
  EXPECT_EQ(Rows(db, "SELECT id, idom_id, dominated_obj_count, dominated_size_bytes, depth "
                     "FROM heap_graph_dominator_tree ORDER BY id"),
            (Table{{"0", "NULL", "2", "30", "1"},
                   {"1", "0", "1", "20", "2"},
                   {"2", "NULL", "1", "30", "1"},
                   {"3", "NULL", "2", "90", "1"},
                   {"4", "3", "1", "50", "2"},
                   {"5", "NULL", "1", "5", "1"}}));
}

// Breadth-first from the roots in class-name order (E before Root): B is reached from E, C
// from B, D from C; Root reaches A only.
TEST(AndroidHeapGraph, ClassTreeAndSummary) {
  auto t = LoadDiamond();
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  Rows(db, "INCLUDE PERFETTO MODULE android.memory.heap_graph.class_summary_tree");
  EXPECT_EQ(Rows(db, "SELECT id, parent_id FROM _heap_graph_object_min_depth_tree ORDER BY id"),
            (Table{{"0", "NULL"}, {"1", "0"}, {"2", "5"}, {"3", "2"}, {"4", "3"}, {"5", "NULL"}}));
  EXPECT_EQ(Rows(db, "SELECT c.name, p.name, c.root_type, c.self_count, c.self_size, "
                     "c.cumulative_count, c.cumulative_size "
                     "FROM android_heap_graph_class_summary_tree c "
                     "LEFT JOIN android_heap_graph_class_summary_tree p ON c.parent_id = p.id "
                     "ORDER BY c.name"),
            (Table{{"A", "Root", "NULL", "1", "20", "1", "20"},
                   {"B", "E", "NULL", "1", "30", "3", "120"},
                   {"C", "B", "NULL", "1", "40", "2", "90"},
                   {"D", "C", "NULL", "1", "50", "1", "50"},
                   {"E", "NULL", "ROOT_JNI_GLOBAL", "1", "5", "4", "125"},
                   {"Root", "NULL", "ROOT_JAVA_FRAME", "1", "10", "2", "30"}}));
}

// Objects of one class in a chain are one step of the path; classes of the same name (two
// class loaders) merge too.
TEST(AndroidHeapGraph, ClassTreesMergeChainsAndSameNamedClasses) {
  HeapGraphTraceWriter w;
  w.Process(42, 1, "app");
  Graph g{.pid = 42};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 1, .field_ids = {1, 1}, .refs = {2, 4}},
               {.id = 2, .type_id = 2, .self_size = 10, .field_ids = {1}, .refs = {3}},
               {.id = 3, .type_id = 2, .self_size = 20},
               {.id = 4, .type_id = 3, .self_size = 30}};
  g.types = {{.id = 1, .name = "Holder"},
             {.id = 2, .name = "Link", .classloader_id = 1},
             {.id = 3, .name = "Link", .classloader_id = 4}};
  g.field_names = {{1, "Object.ref"}};
  g.roots = {{kRootJavaFrame, {1}}};
  w.HeapGraph(1, 100, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  Rows(db, "INCLUDE PERFETTO MODULE android.memory.heap_graph.class_tree");
  Rows(db, "INCLUDE PERFETTO MODULE android.memory.heap_graph.dominator_class_tree");
  const Table expected{{"Holder", "NULL", "1", "1"}, {"Link", "Holder", "3", "60"}};
  for (const char* table : {"_heap_graph_class_tree", "_heap_graph_dominator_class_tree"}) {
    EXPECT_EQ(Rows(db, std::string("SELECT c.name, p.name, c.self_count, c.self_size FROM ") +
                           table + " c LEFT JOIN " + table +
                           " p ON c.parent_id = p.id ORDER BY c.name"),
              expected)
        << table;
  }
}

// What instances of a class dominate counts once: a Link dominated by another Link adds
// nothing more.
TEST(AndroidHeapGraph, ClassAggregationCountsNestedInstancesOnce) {
  HeapGraphTraceWriter w;
  w.Process(42, 1, "app");
  Graph g{.pid = 42};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 1, .field_ids = {1}, .refs = {2}},
               {.id = 2, .type_id = 2, .self_size = 10, .field_ids = {1}, .refs = {3}},
               {.id = 3, .type_id = 2, .self_size = 20, .field_ids = {1}, .refs = {4}},
               {.id = 4, .type_id = 3, .self_size = 100},
               {.id = 5, .type_id = 3, .self_size = 7}};  // garbage
  g.types = {{.id = 1, .name = "Holder"}, {.id = 2, .name = "Link"},
             {.id = 3, .name = "java.lang.String"}};
  g.field_names = {{1, "Object.ref"}};
  g.roots = {{kRootJavaFrame, {1}}};
  w.HeapGraph(1, 100, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  Rows(db, "INCLUDE PERFETTO MODULE android.memory.heap_graph.heap_graph_class_aggregation");
  EXPECT_EQ(Rows(db, "SELECT type_name, is_libcore_or_array, obj_count, size_bytes, "
                     "reachable_obj_count, reachable_size_bytes, dominated_obj_count, "
                     "dominated_size_bytes FROM android_heap_graph_class_aggregation "
                     "ORDER BY type_name"),
            (Table{{"Holder", "0", "1", "1", "1", "1", "4", "131"},
                   {"Link", "0", "2", "30", "2", "30", "3", "130"},
                   {"java.lang.String", "1", "2", "107", "1", "100", "1", "100"}}));
}

TEST(AndroidHeapGraph, StatsPerDump) {
  HeapGraphTraceWriter w;
  w.Process(42, 1, "app");
  w.ArtProcessMetadata(100, 42, "app", 10050, "", /*oome=*/true);
  Graph g = DiamondGraph();
  g.heap_bytes = 4242;
  w.HeapGraph(1, 100, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  Rows(db, "INCLUDE PERFETTO MODULE android.memory.heap_graph.heap_graph_stats");
  EXPECT_EQ(Rows(db, "SELECT graph_sample_ts, total_heap_size, total_obj_count, "
                     "reachable_heap_size, reachable_obj_count, oom_score_adj, "
                     "art_bytes_allocated, is_out_of_memory_error, oome_failing_allocation_size, "
                     "oome_remaining_art_free_bytes FROM android_heap_graph_stats"),
            (Table{{"100", "1155", "7", "155", "6", "NULL", "4242", "1", "4096", "300"}}));
}

}  // namespace
}  // namespace tw

#pragma once
// The heap graph trees (heap_graph_trees.h) as derived tables (derived_tables.h): filled the
// first time a statement uses them, named by the android.memory.heap_graph.* stdlib modules.

#include "libs/trace/storage/table_declaration.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// clang-format off
#define TW_HEAP_GRAPH_SHORTEST_PATH_TREE_TABLE(TABLE, COLUMN)                                    \
  TABLE(HeapGraphShortestPathTreeTable, heap_graph_shortest_path_tree,                           \
        "Every heap object reachable from a GC root, under the object that reaches it first "   \
        "breadth-first from the roots.")                                                         \
  COLUMN(object_id, Uint32, kSorted, {}, "The object (heap_graph_object.id).")                   \
  COLUMN(parent_id, OptUint32, kNone, {}, "The object reaching it first; NULL for a root.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_SHORTEST_PATH_TREE_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_DOMINATOR_TREE_TABLE(TABLE, COLUMN)                                        \
  TABLE(HeapGraphDominatorTreeTable, heap_graph_dominator_tree,                                  \
        "The dominator tree of the heap objects reachable from GC roots.")                       \
  COLUMN(object_id, Uint32, kSorted, {}, "The object (heap_graph_object.id).")                   \
  COLUMN(idom_id, OptUint32, kNone, {},                                                          \
         "Its immediate dominator; NULL when only the super-root above all roots dominates it.") \
  COLUMN(dominated_obj_count, Int64, kNone, {}, "Objects it dominates, itself included.")        \
  COLUMN(dominated_size_bytes, Int64, kNone, {}, "Their self_size.")                             \
  COLUMN(dominated_native_size_bytes, Int64, kNone, {}, "Their native_size.")                    \
  COLUMN(depth, Uint32, kNone, {}, "Depth in the tree; 1 right under the super-root.")           \
  COLUMN(topmost_of_its_class, Uint32, kNone, {},                                                \
         "1 when no dominator above it is of its class (heap_graph_class row).")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_DOMINATOR_TREE_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_CLASS_TREE_COLUMNS(TABLE, COLUMN, Class, sql_name, doc)                    \
  TABLE(Class, sql_name, doc)                                                                    \
  COLUMN(graph_sample_ts, Int64, kNone, {}, "When the dump was taken.")                          \
  COLUMN(upid, Uint32, kNone, {}, "The dumped process.")                                         \
  COLUMN(parent_id, OptUint32, kNone, {}, "The parent node (this table's id); NULL at a root.")  \
  COLUMN(name, String, kNone, {}, "The class name (deobfuscated when known).")                   \
  COLUMN(is_native, Uint32, kNone, {},                                                           \
         "1 for the native memory the parent node's objects keep alive.")                         \
  COLUMN(root_type, String, kNone, {}, "The roots' kind, for a root node.")                      \
  COLUMN(heap_type, String, kNone, {}, "The objects' ART heap (HEAP_TYPE_NATIVE for native).")   \
  COLUMN(self_count, Int64, kNone, {}, "Objects in the node.")                                   \
  COLUMN(self_size, Int64, kNone, {}, "Their bytes.")                                            \
  COLUMN(cumulative_count, Int64, kNone, {}, "Objects in the node and below it.")                \
  COLUMN(cumulative_size, Int64, kNone, {}, "Their bytes.")                                      \
  COLUMN(path_hash, Int64, kNone, {}, "A hash of the node's path of class names.")
#define TW_HEAP_GRAPH_CLASS_TREE_TABLE(TABLE, COLUMN)                                            \
  TW_HEAP_GRAPH_CLASS_TREE_COLUMNS(TABLE, COLUMN, HeapGraphClassTreeTable,                       \
      heap_graph_class_tree, "The shortest-path tree with objects merged by class path.")
#define TW_HEAP_GRAPH_DOMINATOR_CLASS_TREE_TABLE(TABLE, COLUMN)                                  \
  TW_HEAP_GRAPH_CLASS_TREE_COLUMNS(TABLE, COLUMN, HeapGraphDominatorClassTreeTable,              \
      heap_graph_dominator_class_tree, "The dominator tree with objects merged by class path.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_CLASS_TREE_TABLE)
TW_DEFINE_TABLE(TW_HEAP_GRAPH_DOMINATOR_CLASS_TREE_TABLE)

void FillHeapGraphShortestPathTree(const TraceStorage& storage,
                                   HeapGraphShortestPathTreeTable* out);
void FillHeapGraphDominatorTree(const TraceStorage& storage, HeapGraphDominatorTreeTable* out);
// The class trees over the shortest-path tree and over the dominator tree.
void FillHeapGraphClassTree(const TraceStorage& storage, HeapGraphClassTreeTable* out);
void FillHeapGraphDominatorClassTree(const TraceStorage& storage,
                                     HeapGraphDominatorClassTreeTable* out);

}  // namespace tw

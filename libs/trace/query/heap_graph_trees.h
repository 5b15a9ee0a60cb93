#pragma once
// The trees the heap graph analyses stand on, computed in C++ over the heap_graph_* tables
// (trace_processor builds them with graph searches in SQL):
// - the shortest-path tree: every object reachable from a GC root under the object that
//   reaches it first breadth-first (roots in class-name then id order, references in
//   referred-object order, weak / finalizer / phantom referents skipped);
// - the dominator tree: an object's immediate dominator is the last object every path from the
//   roots to it passes through (none when only the super-root above all roots does), with the
//   objects and bytes each object keeps alive (dominates);
// - the class trees: either tree with objects merged by the path of class names from their
//   root (a chain of objects of one class counts as one step), what the class_tree and
//   dominator_class_tree stdlib modules show.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libs/trace/storage/trace_storage.h"

namespace tw {

// (object, parent object) for every object reached from a root, in object id order; a root's
// parent is nullopt. `objects` limits the walk to those objects (one dump); empty: all.
std::vector<std::pair<uint32_t, std::optional<uint32_t>>> HeapGraphShortestPathTree(
    const TraceStorage& storage, const std::vector<uint32_t>& objects = {});

struct DominatorNode {
  uint32_t object = 0;
  std::optional<uint32_t> idom;  // nullopt: dominated by the super-root only
  int64_t dominated_count = 0;   // objects dominated, itself included
  int64_t dominated_size = 0;    // their self_size
  int64_t dominated_native_size = 0;
  uint32_t depth = 1;            // 1 for objects right under the super-root
  // No dominator-tree ancestor is of the same class (heap_graph_class row): its dominated
  // totals count towards its class once (the class aggregation's "marked" objects).
  bool topmost_of_its_class = true;
};

// One node per object reachable from a root, in object id order.
std::vector<DominatorNode> HeapGraphDominatorTree(const TraceStorage& storage);

struct ClassTreeNode {
  int64_t graph_sample_ts = 0;
  uint32_t upid = 0;
  std::optional<uint32_t> parent;  // index of the parent node (parents precede children)
  StringId name = kNullStringId;   // the class name (deobfuscated when known)
  bool is_native = false;          // the native memory of the parent's objects ("[native] name")
  StringId root_type = kNullStringId;
  StringId heap_type = kNullStringId;
  int64_t self_count = 0, self_size = 0;
  int64_t cumulative_count = 0, cumulative_size = 0;
  uint64_t path_hash = 0;
};

// The class tree over an object tree given as (object, parent object) pairs.
std::vector<ClassTreeNode> HeapGraphClassTree(
    const TraceStorage& storage,
    const std::vector<std::pair<uint32_t, std::optional<uint32_t>>>& tree);

}  // namespace tw

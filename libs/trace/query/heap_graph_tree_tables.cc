#include "libs/trace/query/heap_graph_tree_tables.h"

#include "libs/trace/query/heap_graph_trees.h"

namespace tw {
namespace {

template <typename T>
void WriteClassTree(const TraceStorage& storage, const std::vector<ClassTreeNode>& nodes, T* out) {
  for (const ClassTreeNode& n : nodes) {
    out->Insert({.graph_sample_ts = n.graph_sample_ts,
                 .upid = n.upid,
                 .parent_id = n.parent,
                 .name = n.name,
                 .is_native = n.is_native ? 1u : 0u,
                 .root_type = n.root_type,
                 .heap_type = n.heap_type,
                 .self_count = n.self_count,
                 .self_size = n.self_size,
                 .cumulative_count = n.cumulative_count,
                 .cumulative_size = n.cumulative_size,
                 .path_hash = static_cast<int64_t>(n.path_hash)});
  }
}

}  // namespace

void FillHeapGraphShortestPathTree(const TraceStorage& storage,
                                   HeapGraphShortestPathTreeTable* out) {
  for (const auto& [object, parent] : HeapGraphShortestPathTree(storage)) {
    out->Insert({.object_id = object, .parent_id = parent});
  }
}

void FillHeapGraphDominatorTree(const TraceStorage& storage, HeapGraphDominatorTreeTable* out) {
  for (const DominatorNode& d : HeapGraphDominatorTree(storage)) {
    out->Insert({.object_id = d.object,
                 .idom_id = d.idom,
                 .dominated_obj_count = d.dominated_count,
                 .dominated_size_bytes = d.dominated_size,
                 .dominated_native_size_bytes = d.dominated_native_size,
                 .depth = d.depth,
                 .topmost_of_its_class = d.topmost_of_its_class ? 1u : 0u});
  }
}

void FillHeapGraphClassTree(const TraceStorage& storage, HeapGraphClassTreeTable* out) {
  WriteClassTree(storage, HeapGraphClassTree(storage, HeapGraphShortestPathTree(storage)), out);
}

void FillHeapGraphDominatorClassTree(const TraceStorage& storage,
                                     HeapGraphDominatorClassTreeTable* out) {
  std::vector<std::pair<uint32_t, std::optional<uint32_t>>> tree;
  for (const DominatorNode& d : HeapGraphDominatorTree(storage)) tree.emplace_back(d.object, d.idom);
  WriteClassTree(storage, HeapGraphClassTree(storage, tree), out);
}

}  // namespace tw

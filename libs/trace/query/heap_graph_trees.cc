#include "libs/trace/query/heap_graph_trees.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string_view>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/query/fnv1a.h"

namespace tw {
namespace {

constexpr uint32_t kNoNode = UINT32_MAX;

bool IsWeakKind(std::string_view kind) {
  return kind == "KIND_WEAK_REFERENCE" || kind == "KIND_FINALIZER_REFERENCE" ||
         kind == "KIND_PHANTOM_REFERENCE";
}

// Calls fn(owned) for each reference of `object` the collector follows: non-null, and not
// the referent of a weak, finalizer or phantom reference.
template <typename Fn>
void ForEachStrongReference(const TraceStorage& s, StringId referent, uint32_t object, Fn&& fn) {
  const HeapGraphObjectTable& objects = s.heap_graph_object;
  const HeapGraphReferenceTable& refs = s.heap_graph_reference;
  const std::optional<uint32_t> set = objects.reference_set_id.Get(object);
  if (!set) return;
  const bool weak = IsWeakKind(s.Str(s.heap_graph_class.kind[objects.type_id[object]]));
  for (uint32_t r = *set; r < refs.row_count() && refs.reference_set_id[r] == *set; ++r) {
    const std::optional<uint32_t> owned = refs.owned_id.Get(r);
    if (!owned) continue;
    if (weak && referent != kNullStringId && refs.field_name[r] == referent) continue;
    fn(*owned);
  }
}

uint64_t PathHash(std::string_view text) { return static_cast<uint64_t>(Fnv1a64::Of(text)); }

StringId ReferentField(const TraceStorage& s) {
  return s.strings().Find("java.lang.ref.Reference.referent");
}

StringId ReadableClassName(const TraceStorage& s, uint32_t object) {
  const uint32_t cls = s.heap_graph_object.type_id[object];
  const StringId deobfuscated = s.heap_graph_class.deobfuscated_name[cls];
  return deobfuscated != kNullStringId ? deobfuscated : s.heap_graph_class.name[cls];
}

}  // namespace

std::vector<std::pair<uint32_t, std::optional<uint32_t>>> HeapGraphShortestPathTree(
    const TraceStorage& s, const std::vector<uint32_t>& only) {
  const HeapGraphObjectTable& objects = s.heap_graph_object;
  const HeapGraphClassTable& classes = s.heap_graph_class;
  const StringId referent = ReferentField(s);
  std::vector<uint32_t> roots;
  auto consider = [&](uint32_t o) {
    if (objects.root_type[o] != kNullStringId) roots.push_back(o);
  };
  if (only.empty()) {
    for (uint32_t o = 0; o < objects.row_count(); ++o) consider(o);
  } else {
    for (uint32_t o : only) consider(o);
  }
  std::stable_sort(roots.begin(), roots.end(), [&](uint32_t a, uint32_t b) {
    const std::string_view na = s.Str(classes.name[objects.type_id[a]]);
    const std::string_view nb = s.Str(classes.name[objects.type_id[b]]);
    return na != nb ? na < nb : a < b;
  });

  absl::flat_hash_map<uint32_t, std::optional<uint32_t>> parent_of;
  std::deque<uint32_t> queue;
  for (uint32_t r : roots) {
    if (parent_of.try_emplace(r, std::nullopt).second) queue.push_back(r);
  }
  std::vector<uint32_t> children;
  while (!queue.empty()) {
    const uint32_t o = queue.front();
    queue.pop_front();
    children.clear();
    ForEachStrongReference(s, referent, o, [&](uint32_t owned) { children.push_back(owned); });
    std::stable_sort(children.begin(), children.end());
    for (uint32_t c : children) {
      if (parent_of.try_emplace(c, o).second) queue.push_back(c);
    }
  }
  std::vector<std::pair<uint32_t, std::optional<uint32_t>>> tree(parent_of.begin(),
                                                                 parent_of.end());
  std::sort(tree.begin(), tree.end());
  return tree;
}

std::vector<DominatorNode> HeapGraphDominatorTree(const TraceStorage& s) {
  // Lengauer-Tarjan over the objects plus a super-root (index n) above every root; edges are
  // the strong references of reachable objects.
  const HeapGraphObjectTable& objects = s.heap_graph_object;
  const uint32_t n = objects.row_count();
  const uint32_t super_root = n;
  const StringId referent = ReferentField(s);
  std::vector<uint32_t> succ_start(n + 2, 0);
  std::vector<uint32_t> succ;
  for (uint32_t o = 0; o < n; ++o) {
    succ_start[o] = static_cast<uint32_t>(succ.size());
    if (!objects.reachable[o]) continue;
    ForEachStrongReference(s, referent, o, [&](uint32_t owned) { succ.push_back(owned); });
  }
  succ_start[super_root] = static_cast<uint32_t>(succ.size());
  for (uint32_t o = 0; o < n; ++o) {
    if (objects.root_type[o] != kNullStringId) succ.push_back(o);
  }
  succ_start[super_root + 1] = static_cast<uint32_t>(succ.size());

  // Depth-first numbering from the super-root (iterative).
  std::vector<uint32_t> dfnum(n + 1, kNoNode), vertex, dfs_parent;
  vertex.reserve(n + 1);
  dfs_parent.reserve(n + 1);
  {
    std::vector<std::pair<uint32_t, uint32_t>> stack;  // (node, next successor position)
    dfnum[super_root] = 0;
    vertex.push_back(super_root);
    dfs_parent.push_back(kNoNode);
    stack.push_back({super_root, succ_start[super_root]});
    while (!stack.empty()) {
      auto& [node, pos] = stack.back();
      if (pos == succ_start[node + 1]) {
        stack.pop_back();
        continue;
      }
      const uint32_t next = succ[pos++];
      if (dfnum[next] != kNoNode) continue;
      dfnum[next] = static_cast<uint32_t>(vertex.size());
      dfs_parent.push_back(dfnum[node]);
      vertex.push_back(next);
      stack.push_back({next, succ_start[next]});
    }
  }
  const uint32_t count = static_cast<uint32_t>(vertex.size());
  // Predecessors of reached nodes, in depth-first numbers.
  std::vector<std::vector<uint32_t>> preds(count);
  for (uint32_t v = 0; v < count; ++v) {
    const uint32_t node = vertex[v];
    for (uint32_t p = succ_start[node]; p < succ_start[node + 1]; ++p) {
      const uint32_t w = dfnum[succ[p]];
      if (w != kNoNode) preds[w].push_back(v);
    }
  }
  std::vector<uint32_t> semi(count), idom(count, 0), ancestor(count, kNoNode), label(count);
  std::vector<std::vector<uint32_t>> bucket(count);
  for (uint32_t v = 0; v < count; ++v) semi[v] = label[v] = v;
  std::vector<uint32_t> path;
  auto eval = [&](uint32_t v) {
    if (ancestor[v] == kNoNode) return v;
    // Path compression, iteratively: the chain of v's ancestors that have ancestors.
    path.clear();
    for (uint32_t x = v; ancestor[ancestor[x]] != kNoNode; x = ancestor[x]) path.push_back(x);
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const uint32_t x = *it;
      if (semi[label[ancestor[x]]] < semi[label[x]]) label[x] = label[ancestor[x]];
      ancestor[x] = ancestor[ancestor[x]];
    }
    return label[v];
  };
  for (uint32_t w = count - 1; w >= 1; --w) {
    for (uint32_t v : preds[w]) {
      const uint32_t u = eval(v);
      if (semi[u] < semi[w]) semi[w] = semi[u];
    }
    bucket[semi[w]].push_back(w);
    const uint32_t p = dfs_parent[w];
    ancestor[w] = p;
    for (uint32_t v : bucket[p]) {
      const uint32_t u = eval(v);
      idom[v] = semi[u] < semi[v] ? u : p;
    }
    bucket[p].clear();
  }
  for (uint32_t w = 1; w < count; ++w) {
    if (idom[w] != semi[w]) idom[w] = idom[idom[w]];
  }

  // Totals up the dominator tree (a dominator precedes what it dominates in depth-first
  // order), depths down it, and each object's first same-class dominator.
  std::vector<int64_t> dom_count(count, 1), dom_size(count, 0), dom_native(count, 0);
  for (uint32_t v = 1; v < count; ++v) {
    dom_size[v] = objects.self_size[vertex[v]];
    dom_native[v] = objects.native_size[vertex[v]];
  }
  for (uint32_t v = count - 1; v >= 1; --v) {
    if (idom[v] == 0) continue;
    dom_count[idom[v]] += dom_count[v];
    dom_size[idom[v]] += dom_size[v];
    dom_native[idom[v]] += dom_native[v];
  }
  std::vector<uint32_t> depth(count, 0);
  for (uint32_t v = 1; v < count; ++v) depth[v] = depth[idom[v]] + 1;
  std::vector<std::vector<uint32_t>> dom_children(count);
  for (uint32_t v = 1; v < count; ++v) dom_children[idom[v]].push_back(v);
  std::vector<bool> topmost(count, true);
  {
    absl::flat_hash_map<uint32_t, uint32_t> open_of_class;  // class row → open ancestors
    std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == dom_children[v].size()) {
        if (v != 0) --open_of_class[objects.type_id[vertex[v]]];
        stack.pop_back();
        continue;
      }
      const uint32_t child = dom_children[v][next++];
      uint32_t& open = open_of_class[objects.type_id[vertex[child]]];
      topmost[child] = open == 0;
      ++open;
      stack.push_back({child, 0});
    }
  }

  std::vector<DominatorNode> out;
  out.reserve(count - 1);
  for (uint32_t v = 1; v < count; ++v) {
    DominatorNode d;
    d.object = vertex[v];
    if (idom[v] != 0) d.idom = vertex[idom[v]];
    d.dominated_count = dom_count[v];
    d.dominated_size = dom_size[v];
    d.dominated_native_size = dom_native[v];
    d.depth = depth[v];
    d.topmost_of_its_class = topmost[v];
    out.push_back(d);
  }
  std::sort(out.begin(), out.end(),
            [](const DominatorNode& a, const DominatorNode& b) { return a.object < b.object; });
  return out;
}

std::vector<ClassTreeNode> HeapGraphClassTree(
    const TraceStorage& s, const std::vector<std::pair<uint32_t, std::optional<uint32_t>>>& tree) {
  const HeapGraphObjectTable& objects = s.heap_graph_object;
  absl::flat_hash_map<uint32_t, uint32_t> index_of;  // object → position in `tree`
  for (uint32_t i = 0; i < tree.size(); ++i) index_of[tree[i].first] = i;

  // Each object's class-tree node, objects visited ancestors first.
  std::vector<uint32_t> node_of(tree.size(), kNoNode);
  std::vector<StringId> names(tree.size());
  std::vector<ClassTreeNode> nodes;
  std::vector<int64_t> native_count, native_size;
  // (parent node or -1, name, heap type, upid, ts, root type) → node.
  std::map<std::tuple<int64_t, StringId, StringId, uint32_t, int64_t, StringId>, uint32_t>
      node_of_path;
  std::vector<uint32_t> chain;
  for (uint32_t start = 0; start < tree.size(); ++start) {
    chain.clear();
    for (uint32_t i = start; i != kNoNode && node_of[i] == kNoNode;) {
      chain.push_back(i);
      const std::optional<uint32_t> parent = tree[i].second;
      i = parent ? index_of.at(*parent) : kNoNode;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const uint32_t i = *it;
      const uint32_t object = tree[i].first;
      names[i] = ReadableClassName(s, object);
      const std::optional<uint32_t> parent_object = tree[i].second;
      const uint32_t parent = parent_object ? index_of.at(*parent_object) : kNoNode;
      uint32_t node;
      if (parent != kNoNode && names[parent] == names[i]) {
        node = node_of[parent];  // a chain of one class is one step of the path
      } else {
        const bool is_root = parent == kNoNode;
        const StringId heap_type = objects.heap_type[object];
        auto key = std::make_tuple(
            is_root ? -1 : static_cast<int64_t>(node_of[parent]), names[i], heap_type,
            is_root ? objects.upid[object] : 0u, is_root ? objects.graph_sample_ts[object] : 0,
            is_root ? objects.root_type[object] : kNullStringId);
        auto [it2, inserted] = node_of_path.try_emplace(key, 0);
        if (inserted) {
          it2->second = static_cast<uint32_t>(nodes.size());
          ClassTreeNode n;
          n.graph_sample_ts = objects.graph_sample_ts[object];
          n.upid = objects.upid[object];
          n.name = names[i];
          n.root_type = objects.root_type[object];
          n.heap_type = heap_type;
          if (!is_root) n.parent = node_of[parent];
          const uint64_t base = is_root ? PathHash(std::to_string(n.upid) + "|" +
                                                  std::to_string(n.graph_sample_ts) + "|" +
                                                  std::string(s.Str(n.root_type)))
                                        : nodes[node_of[parent]].path_hash;
          n.path_hash = PathHash(std::to_string(base) + "|" + std::string(s.Str(n.name)) + "|" +
                                std::string(s.Str(heap_type)));
          nodes.push_back(std::move(n));
          native_count.push_back(0);
          native_size.push_back(0);
        }
        node = it2->second;
      }
      node_of[i] = node;
      ClassTreeNode& n = nodes[node];
      ++n.self_count;
      // -1 marks an object referred to but never described (a lost packet): no size known.
      if (objects.self_size[object] != -1) n.self_size += objects.self_size[object];
      const int64_t native = objects.native_size[object];
      if (native > 0) ++native_count[node];
      native_size[node] += native;
    }
  }
  // Native memory an object keeps alive: a "[native]" child of its node.
  const size_t class_nodes = nodes.size();
  const StringId native_heap = s.strings().Find("HEAP_TYPE_NATIVE");
  for (uint32_t i = 0; i < class_nodes; ++i) {
    if (native_size[i] <= 0) continue;
    ClassTreeNode n;
    n.graph_sample_ts = nodes[i].graph_sample_ts;
    n.upid = nodes[i].upid;
    n.parent = i;
    n.name = nodes[i].name;
    n.is_native = true;
    n.root_type = nodes[i].root_type;
    n.heap_type = native_heap;
    n.self_count = native_count[i];
    n.self_size = native_size[i];
    n.path_hash = PathHash(std::to_string(nodes[i].path_hash) + "|native");
    nodes.push_back(std::move(n));
  }
  for (ClassTreeNode& n : nodes) {
    n.cumulative_count = n.self_count;
    n.cumulative_size = n.self_size;
  }
  for (size_t i = nodes.size(); i-- > 0;) {
    if (!nodes[i].parent) continue;
    nodes[*nodes[i].parent].cumulative_count += nodes[i].cumulative_count;
    nodes[*nodes[i].parent].cumulative_size += nodes[i].cumulative_size;
  }
  return nodes;
}

}  // namespace tw

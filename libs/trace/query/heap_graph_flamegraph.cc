#include "libs/trace/query/heap_graph_flamegraph.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "libs/trace/query/heap_graph_trees.h"

namespace tw {
namespace {

constexpr std::string_view kIncompleteGraph =
    "ERROR: INCOMPLETE GRAPH (try increasing buffer size)";

// One input frame: an object, or the native memory of one.
struct Frame {
  std::string name;
  int64_t size = 0;
  std::optional<uint32_t> parent;  // index into the frame list
};

// Frames in the order trace_processor feeds them to its flamegraph: object frames by object
// id, then native frames.
std::vector<Frame> FramesOf(const TraceStorage& s,
                            const std::vector<std::pair<uint32_t, std::optional<uint32_t>>>& tree) {
  const HeapGraphObjectTable& objects = s.heap_graph_object;
  const HeapGraphClassTable& classes = s.heap_graph_class;
  absl::flat_hash_map<uint32_t, uint32_t> frame_of_object;
  std::vector<std::string> names;
  for (const auto& [object, parent] : tree) {
    const uint32_t cls = objects.type_id[object];
    const StringId readable = classes.deobfuscated_name[cls] != kNullStringId
                                  ? classes.deobfuscated_name[cls]
                                  : classes.name[cls];
    std::string name(s.Str(readable));
    const StringId root = objects.root_type[object];
    if (root != kNullStringId) name += " [" + std::string(s.Str(root)) + "]";
    frame_of_object[object] = static_cast<uint32_t>(names.size());
    names.push_back(std::move(name));
  }
  std::vector<Frame> frames;
  frames.reserve(tree.size());
  for (size_t i = 0; i < tree.size(); ++i) {
    Frame f{names[i], objects.self_size[tree[i].first], std::nullopt};
    if (tree[i].second) f.parent = frame_of_object.at(*tree[i].second);
    frames.push_back(std::move(f));
  }
  for (size_t i = 0; i < tree.size(); ++i) {
    const int64_t native = objects.native_size[tree[i].first];
    if (native == 0) continue;
    frames.push_back(Frame{"[native] " + names[i], native, static_cast<uint32_t>(i)});
  }
  return frames;
}

// Each frame after its ancestors: walking frames in order, a frame whose ancestors are not out
// yet brings them first, outermost first.
std::vector<uint32_t> ParentsFirst(const std::vector<Frame>& frames) {
  std::vector<uint32_t> order;
  order.reserve(frames.size());
  std::vector<bool> done(frames.size(), false);
  std::vector<uint32_t> chain;
  for (uint32_t i = 0; i < frames.size(); ++i) {
    chain.clear();
    for (std::optional<uint32_t> f = i; f && !done[*f]; f = frames[*f].parent) {
      done[*f] = true;
      chain.push_back(*f);
    }
    order.insert(order.end(), chain.rbegin(), chain.rend());
  }
  return order;
}

void AccumulateCumulatives(std::vector<FlamegraphNode>* nodes) {
  for (FlamegraphNode& n : *nodes) {
    n.cumulative_count = n.count;
    n.cumulative_size = n.size;
  }
  for (size_t i = nodes->size(); i-- > 0;) {
    const FlamegraphNode& n = (*nodes)[i];
    if (!n.parent) continue;
    (*nodes)[*n.parent].cumulative_count += n.cumulative_count;
    (*nodes)[*n.parent].cumulative_size += n.cumulative_size;
  }
}

}  // namespace

std::vector<FlamegraphNode> BuildHeapGraphFlamegraph(const TraceStorage& s, uint32_t upid,
                                                     int64_t ts) {
  const HeapGraphObjectTable& objects = s.heap_graph_object;
  std::vector<uint32_t> dump_objects;
  bool has_roots = false;
  for (uint32_t o = 0; o < objects.row_count(); ++o) {
    if (objects.upid[o] != upid || objects.graph_sample_ts[o] != ts) continue;
    dump_objects.push_back(o);
    has_roots = has_roots || objects.root_type[o] != kNullStringId;
  }
  std::vector<FlamegraphNode> nodes;
  if (!has_roots) {
    // Without roots nothing is reachable; a dump that lost packets says so in a marker node.
    const HeapGraphTable& graphs = s.heap_graph;
    for (uint32_t g = 0; g < graphs.row_count(); ++g) {
      if (graphs.upid[g] == upid && graphs.ts[g] == ts && graphs.truncated[g]) {
        nodes.push_back({.depth = 0, .name = std::string(kIncompleteGraph), .map_name = "JAVA",
                         .count = 1, .cumulative_count = 1, .size = 1, .cumulative_size = 1});
        break;
      }
    }
    return nodes;
  }
  const std::vector<Frame> frames = FramesOf(s, HeapGraphShortestPathTree(s, dump_objects));
  // Frames merge by their path of names: (parent node, name) → node.
  std::map<std::pair<int64_t, std::string_view>, uint32_t> node_of_path;
  std::vector<uint32_t> node_of_frame(frames.size());
  for (uint32_t f : ParentsFirst(frames)) {
    const Frame& frame = frames[f];
    std::optional<uint32_t> parent;
    if (frame.parent) parent = node_of_frame[*frame.parent];
    const int64_t parent_key = parent ? static_cast<int64_t>(*parent) : -1;
    auto [it, inserted] = node_of_path.try_emplace({parent_key, frame.name}, 0);
    if (inserted) {
      it->second = static_cast<uint32_t>(nodes.size());
      FlamegraphNode n;
      n.depth = parent ? nodes[*parent].depth + 1 : 0;
      n.name = frame.name;
      n.map_name = "JAVA";
      n.parent = parent;
      nodes.push_back(std::move(n));
    }
    node_of_frame[f] = it->second;
    nodes[it->second].count += 1;
    nodes[it->second].size += frame.size;
  }
  AccumulateCumulatives(&nodes);
  return nodes;
}

std::vector<FlamegraphNode> FocusFlamegraph(const std::vector<FlamegraphNode>& nodes,
                                            const std::string& focus) {
  if (nodes.empty() || focus.empty()) return nodes;
  enum State : uint8_t { kOut, kMatchedOrBelow, kAboveMatch };
  const std::string needle = absl::AsciiStrToLower(focus);
  std::vector<State> state(nodes.size(), kOut);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const FlamegraphNode& n = nodes[i];
    if (absl::AsciiStrToLower(n.name).find(needle) != std::string::npos) {
      state[i] = kMatchedOrBelow;
      for (std::optional<uint32_t> p = n.parent; p && state[*p] == kOut; p = nodes[*p].parent) {
        state[*p] = kAboveMatch;
      }
    } else if (n.parent && state[*n.parent] == kMatchedOrBelow) {
      state[i] = kMatchedOrBelow;  // everything under a match is in focus
    }
  }
  std::vector<FlamegraphNode> out;
  std::vector<uint32_t> new_index(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (state[i] == kOut) continue;
    FlamegraphNode n = nodes[i];
    if (n.parent) n.parent = new_index[*n.parent];
    new_index[i] = static_cast<uint32_t>(out.size());
    out.push_back(std::move(n));
  }
  AccumulateCumulatives(&out);
  return out;
}

}  // namespace tw

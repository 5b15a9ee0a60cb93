#pragma once
// The flamegraph of one Java heap dump, as trace_processor's experimental_flamegraph('graph')
// builds it: every object reachable from a GC root hangs under the object that reaches it first
// in a breadth-first walk from the roots (roots in class-name then id order, references in
// referred-object order, weak / finalizer / phantom referents skipped); objects become frames
// named by their (deobfuscated) class — plus " [ROOT_KIND]" for roots — with a "[native] ..."
// child frame for native memory they keep alive; frames with the same name under the same
// path merge into one node. A dump with no roots gives no nodes, except a marker node when
// its packets were lost. `focus` keeps the nodes whose name contains it (case-insensitively),
// their ancestors and their descendants, with cumulative values recomputed over what is kept.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct FlamegraphNode {
  uint32_t depth = 0;
  std::string name;
  std::string map_name;
  int64_t count = 0, cumulative_count = 0;
  int64_t size = 0, cumulative_size = 0;
  std::optional<uint32_t> parent;  // index of the parent node (parents precede children)
};

// The nodes of the dump of process `upid` taken at `ts`, in trace_processor's order.
std::vector<FlamegraphNode> BuildHeapGraphFlamegraph(const TraceStorage& storage, uint32_t upid,
                                                     int64_t ts);

// The nodes of `nodes` in focus (see above), renumbered.
std::vector<FlamegraphNode> FocusFlamegraph(const std::vector<FlamegraphNode>& nodes,
                                            const std::string& focus);

}  // namespace tw

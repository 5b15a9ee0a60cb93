#pragma once
// The merged nodes of one half of a flamegraph: a node is (parent node, frame); interning the
// same pair twice returns the same node, so equal frames under one parent merge. Nodes are
// numbered in creation order, which puts every parent before its children.

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/query/flamegraph_tree.h"

namespace tw::flamegraph {

class NodeTree {
 public:
  // The node for `frame` under `parent` (kNoRow: a root); `row` names it when it is new.
  uint32_t Intern(uint32_t parent, uint32_t frame, uint32_t row) {
    const uint64_t key = (uint64_t{static_cast<uint32_t>(parent + 1)} << 32) | frame;
    auto [it, inserted] = index_.emplace(key, static_cast<uint32_t>(parent_.size()));
    if (inserted) {
      parent_.push_back(parent);
      representative_.push_back(row);
    }
    return it->second;
  }
  uint32_t size() const { return static_cast<uint32_t>(parent_.size()); }
  uint32_t parent(uint32_t node) const { return parent_[node]; }
  uint32_t representative(uint32_t node) const { return representative_[node]; }

 private:
  absl::flat_hash_map<uint64_t, uint32_t> index_;
  std::vector<uint32_t> parent_;
  std::vector<uint32_t> representative_;
};

}  // namespace tw::flamegraph

#include "libs/trace/importers/proto/surfaceflinger_layer_order.h"

#include <algorithm>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace tw::winscope {

std::vector<size_t> LayersTopToBottom(const std::vector<LayerFacts>& layers) {
  absl::flat_hash_map<int32_t, size_t> by_id;  // the first layer with an id wins
  std::vector<int32_t> roots;
  absl::flat_hash_map<int32_t, std::vector<int32_t>> children_by_z_parent;
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerFacts& l = layers[i];
    if (!l.id) continue;
    by_id.emplace(*l.id, i);
    const int32_t z_parent = l.z_order_relative_of.value_or(0);
    if (l.IsRoot() && z_parent <= 0) {
      roots.push_back(*l.id);
    } else if (z_parent > 0) {
      children_by_z_parent[z_parent].push_back(*l.id);
    } else if (l.parent.value_or(0) > 0) {
      children_by_z_parent[*l.parent].push_back(*l.id);
    }
  }
  auto by_z_then_id = [&](std::vector<int32_t>* ids) {
    std::sort(ids->begin(), ids->end(), [&](int32_t a, int32_t b) {
      return std::make_tuple(layers[by_id[a]].z, a) < std::make_tuple(layers[by_id[b]].z, b);
    });
  };

  std::vector<size_t> bottom_to_top;
  absl::flat_hash_set<int32_t> placed;  // a relative-z cycle must not loop forever
  // Depth first with an explicit stack: (layer, whether its children are expanded).
  struct Step {
    int32_t id;
    bool expanded;
  };
  by_z_then_id(&roots);
  for (int32_t root : roots) {
    std::vector<Step> stack = {{root, false}};
    while (!stack.empty()) {
      const Step step = stack.back();
      stack.pop_back();
      if (step.expanded) {
        bottom_to_top.push_back(by_id[step.id]);
        continue;
      }
      if (!placed.insert(step.id).second) continue;
      std::vector<int32_t> kids;
      if (auto it = children_by_z_parent.find(step.id); it != children_by_z_parent.end()) {
        kids = it->second;
        by_z_then_id(&kids);
      }
      // Pushed in reverse of drawing: the last pushed is drawn first.
      for (auto k = kids.rbegin(); k != kids.rend(); ++k) {
        if (layers[by_id[*k]].z >= 0) stack.push_back({*k, false});
      }
      stack.push_back({step.id, true});
      for (auto k = kids.rbegin(); k != kids.rend(); ++k) {
        if (layers[by_id[*k]].z < 0) stack.push_back({*k, false});
      }
    }
  }
  std::reverse(bottom_to_top.begin(), bottom_to_top.end());
  return bottom_to_top;
}

}  // namespace tw::winscope

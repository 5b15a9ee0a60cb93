#include "libs/trace/query/slice_layout.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace tw {
namespace {

constexpr int64_t kForever = std::numeric_limits<int64_t>::max();

int64_t EndOf(const LayoutSlice& s) {
  if (s.dur < 0) return kForever;
  const int64_t length = std::max<int64_t>(s.dur, 1);
  return s.ts > kForever - length ? kForever : s.ts + length;
}

struct Block {
  int64_t start = 0;
  int64_t end = 0;
  int64_t height = 1;
  int64_t root_id = 0;
  int64_t layout_depth = 0;
};

// The blocks placed so far, found by time: finite ones by start (a block overlapping [s, e)
// starts within [s - longest, e)), the never-ending ones always checked.
class PlacedBlocks {
 public:
  int64_t LowestFreeDepth(const Block& b) const {
    std::vector<std::pair<int64_t, int64_t>> taken;  // [depth, depth + height) of overlappers
    auto consider = [&](const Block& other) {
      if (other.start < b.end && b.start < other.end) {
        taken.emplace_back(other.layout_depth, other.layout_depth + other.height);
      }
    };
    const int64_t from = b.start < std::numeric_limits<int64_t>::min() + longest_
                             ? std::numeric_limits<int64_t>::min()
                             : b.start - longest_;
    for (auto it = by_start_.lower_bound(from); it != by_start_.end() && it->first < b.end; ++it) {
      consider(*it->second);
    }
    for (const Block* other : forever_) consider(*other);
    std::sort(taken.begin(), taken.end());
    int64_t depth = 0;
    for (const auto& [top, bottom] : taken) {
      if (top >= depth + b.height) break;  // the gap above this one fits the block
      depth = std::max(depth, bottom);
    }
    return depth;
  }

  void Add(const Block* b) {
    if (b->end == kForever) {
      forever_.push_back(b);
      return;
    }
    by_start_.emplace(b->start, b);
    longest_ = std::max(longest_, b->end - b->start);
  }

 private:
  std::multimap<int64_t, const Block*> by_start_;
  std::vector<const Block*> forever_;
  int64_t longest_ = 0;
};

}  // namespace

std::vector<LayoutDepth> ComputeSliceLayout(const std::vector<LayoutSlice>& slices) {
  const size_t n = slices.size();
  absl::flat_hash_map<int64_t, size_t> by_id;
  by_id.reserve(n);
  for (size_t i = 0; i < n; ++i) by_id.emplace(slices[i].id, i);

  // The root of each slice, following parents within the given slices (a chain that loops is
  // cut where it does: its first repeated slice counts as the root).
  constexpr size_t kUnknown = std::numeric_limits<size_t>::max();
  std::vector<size_t> root(n, kUnknown);
  std::vector<size_t> chain;
  std::vector<bool> on_chain(n, false);
  for (size_t i = 0; i < n; ++i) {
    chain.clear();
    size_t at = i;
    while (root[at] == kUnknown && !on_chain[at]) {
      on_chain[at] = true;
      chain.push_back(at);
      auto parent = by_id.find(slices[at].parent_id);
      if (slices[at].parent_id < 0 || parent == by_id.end()) break;
      at = parent->second;
    }
    const size_t top = root[at] != kUnknown ? root[at] : at;
    for (size_t c : chain) {
      root[c] = top;
      on_chain[c] = false;
    }
  }

  absl::flat_hash_map<size_t, size_t> block_of_root;
  std::vector<Block> blocks;
  for (size_t i = 0; i < n; ++i) {
    auto [it, inserted] = block_of_root.try_emplace(root[i], blocks.size());
    if (inserted) {
      const LayoutSlice& r = slices[root[i]];
      blocks.push_back({r.ts, EndOf(r), 1, r.id, 0});
    }
    Block& b = blocks[it->second];
    const int64_t below_root = std::max<int64_t>(0, slices[i].depth - slices[root[i]].depth);
    b.height = std::max(b.height, below_root + 1);
    b.end = std::max(b.end, EndOf(slices[i]));
  }

  std::vector<Block*> order;
  order.reserve(blocks.size());
  for (Block& b : blocks) order.push_back(&b);
  std::sort(order.begin(), order.end(), [](const Block* a, const Block* b) {
    if (a->height != b->height) return a->height > b->height;
    if (a->start != b->start) return a->start < b->start;
    return a->root_id < b->root_id;
  });
  PlacedBlocks placed;
  for (Block* b : order) {
    b->layout_depth = placed.LowestFreeDepth(*b);
    placed.Add(b);
  }

  std::vector<LayoutDepth> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const Block& b = blocks[block_of_root[root[i]]];
    const int64_t below_root = std::max<int64_t>(0, slices[i].depth - slices[root[i]].depth);
    out.push_back({slices[i].id, b.layout_depth + below_root});
  }
  std::sort(out.begin(), out.end(),
            [](const LayoutDepth& a, const LayoutDepth& b) { return a.id < b.id; });
  return out;
}

}  // namespace tw

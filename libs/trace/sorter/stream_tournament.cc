#include "libs/trace/sorter/stream_tournament.h"

#include <algorithm>
#include <climits>

namespace tw {

StreamTournament::StreamTournament(const std::vector<int64_t>& heads) {
  while (width_ < heads.size()) width_ *= 2;
  // Play every match bottom-up: node n's children are 2n and 2n+1, leaf i sits at width_ + i.
  // Padding leaves start exhausted.
  std::vector<Key> winners(2 * width_);
  for (uint32_t i = 0; i < width_; ++i) {
    winners[width_ + i] = i < heads.size() ? Key{heads[i], i} : Key{INT64_MAX, i + width_};
  }
  tree_.assign(width_, Key{INT64_MAX, 0});
  for (uint32_t node = width_ - 1; node >= 1; --node) {
    Key a = winners[2 * node];
    Key b = winners[2 * node + 1];
    if (Less(b, a)) std::swap(a, b);
    winners[node] = a;
    tree_[node] = b;
  }
  tree_[0] = winners[1];  // the root's winner (with one leaf, the leaf itself)
}

// The others' earliest heads are exactly the losers stored on the winner's path: each is the
// winner of the subtree the winner met at that node.
int64_t StreamTournament::RunnerUpTs() const {
  int64_t earliest = INT64_MAX;
  for (uint32_t node = (width_ + tree_[0].leaf(width_)) / 2; node >= 1; node /= 2) {
    earliest = std::min(earliest, tree_[node].ts);
  }
  return earliest;
}

void StreamTournament::ExhaustWinner() {
  const uint32_t leaf = tree_[0].leaf(width_);
  ReplayFrom({INT64_MAX, leaf + width_});
}

// Only the winner's key changed, so only its path's matches can change outcome. Each match
// picks with selects rather than a branch: which side wins is data the predictor cannot learn.
void StreamTournament::ReplayFrom(Key key) {
  Key current = key;
  for (uint32_t node = (width_ + key.leaf(width_)) / 2; node >= 1; node /= 2) {
    const Key stored = tree_[node];
    // All ones when the stored key wins: then the two keys trade places. (Written as masks
    // because compilers turn the equivalent ?: back into branches.)
    const uint64_t swap = 0 - static_cast<uint64_t>(Less(stored, current));
    const uint64_t ts_diff = (static_cast<uint64_t>(stored.ts) ^ static_cast<uint64_t>(current.ts)) & swap;
    const uint32_t rank_diff = (stored.rank ^ current.rank) & static_cast<uint32_t>(swap);
    tree_[node] = {static_cast<int64_t>(static_cast<uint64_t>(stored.ts) ^ ts_diff),
                   stored.rank ^ rank_diff};
    current = {static_cast<int64_t>(static_cast<uint64_t>(current.ts) ^ ts_diff),
               current.rank ^ rank_diff};
  }
  tree_[0] = current;
}

}  // namespace tw

#include "libs/trace/sorter/stream_tournament.h"

#include <algorithm>
#include <climits>

namespace tw {

StreamTournament::StreamTournament(const std::vector<int64_t>& heads) {
  while (width_ < heads.size()) width_ *= 2;
  ts_.assign(width_, INT64_MAX);
  rank_.resize(width_);
  for (uint32_t i = 0; i < width_; ++i) {
    // Padding leaves start exhausted.
    rank_[i] = i < heads.size() ? i : i + width_;
    if (i < heads.size()) ts_[i] = heads[i];
  }
  // Play every match bottom-up: node n's children are 2n and 2n+1, leaf i sits at width_ + i.
  std::vector<uint32_t> winners(2 * width_);
  for (uint32_t i = 0; i < width_; ++i) winners[width_ + i] = i;
  tree_.assign(width_, 0);
  for (uint32_t node = width_ - 1; node >= 1; --node) {
    uint32_t a = winners[2 * node];
    uint32_t b = winners[2 * node + 1];
    if (Less(b, a)) std::swap(a, b);
    winners[node] = a;
    tree_[node] = b;
  }
  tree_[0] = width_ == 1 ? 0 : winners[1];
}

// The others' earliest heads are exactly the losers stored on the winner's path: each is the
// winner of the subtree the winner met at that node.
int64_t StreamTournament::RunnerUpTs() const {
  int64_t earliest = INT64_MAX;
  for (uint32_t node = (width_ + tree_[0]) / 2; node >= 1; node /= 2) {
    earliest = std::min(earliest, ts_[tree_[node]]);
  }
  return earliest;
}

void StreamTournament::AdvanceWinner(int64_t ts) {
  const uint32_t leaf = tree_[0];
  ts_[leaf] = ts;
  ReplayFrom(leaf);
}

void StreamTournament::ExhaustWinner() {
  const uint32_t leaf = tree_[0];
  ts_[leaf] = INT64_MAX;
  rank_[leaf] = leaf + width_;
  ReplayFrom(leaf);
}

// Only the winner's key changed, so only its path's matches can change outcome. Each match
// picks with selects rather than a branch: which side wins is data the predictor cannot learn.
void StreamTournament::ReplayFrom(uint32_t leaf) {
  uint32_t current = leaf;
  for (uint32_t node = (width_ + leaf) / 2; node >= 1; node /= 2) {
    const uint32_t stored = tree_[node];
    // All ones when the stored leaf wins: then it moves up and `current` stays as the loser.
    const uint32_t swap = (stored ^ current) & (0u - static_cast<uint32_t>(Less(stored, current)));
    tree_[node] = stored ^ swap;
    current ^= swap;
  }
  tree_[0] = current;
}

}  // namespace tw

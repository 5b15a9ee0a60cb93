#pragma once
// A loser (tournament) tree over the head timestamps of the sorter's streams: which stream holds
// the earliest head (equal timestamps: the lowest leaf, i.e. the stream created first), and the
// earliest head among the others, which bounds how far the winner may run on its own.
//
// Why not a binary heap: on a trace whose streams interleave finely (each cpu's compact
// switches, compact wakings and plain ftrace are three streams), nearly every event ends a run,
// and a heap's sift-down costs two data-dependent comparisons and a swap per level, which the
// branch predictor cannot learn. Here a new head replays one leaf-to-root path with one
// comparison per level, decided without branches, and the tree keeps no pointers.

#include <cstdint>
#include <vector>

namespace tw {

class StreamTournament {
 public:
  // `heads[i]`: leaf i's first timestamp. Leaves rank by index on equal timestamps.
  explicit StreamTournament(const std::vector<int64_t>& heads);

  // Every leaf is exhausted.
  bool done() const { return rank_[tree_[0]] >= width_; }
  // The leaf with the earliest head, the lowest index among equal heads. Not valid when done().
  uint32_t winner() const { return tree_[0]; }
  int64_t winner_ts() const { return ts_[tree_[0]]; }
  // The earliest head of every leaf but the winner (INT64_MAX if there is none).
  int64_t RunnerUpTs() const;

  // The winner's head moved on to `ts` (>= its previous head), or it has none left.
  void AdvanceWinner(int64_t ts);
  void ExhaustWinner();

 private:
  // (ts, rank) order; an exhausted leaf ranks after every live one at the same ts.
  // Bitwise, not short-circuit: one branch-free expression.
  bool Less(uint32_t a, uint32_t b) const {
    return (ts_[a] < ts_[b]) | ((ts_[a] == ts_[b]) & (rank_[a] < rank_[b]));
  }
  void ReplayFrom(uint32_t leaf);

  uint32_t width_ = 1;          // leaves, rounded up to a power of two
  std::vector<int64_t> ts_;     // per leaf: its head (INT64_MAX once exhausted)
  std::vector<uint32_t> rank_;  // per leaf: its index, or index + width_ once exhausted
  std::vector<uint32_t> tree_;  // [0]: the winner; [1, width_): the loser of each match
};

}  // namespace tw

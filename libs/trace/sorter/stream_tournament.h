#pragma once
// A loser (tournament) tree over the head timestamps of the sorter's streams: which stream holds
// the earliest head (equal timestamps: the lowest leaf, i.e. the stream created first), and the
// earliest head among the others, which bounds how far the winner may run on its own.
//
// Why not a binary heap: on a trace whose streams interleave finely (each cpu's compact
// switches, compact wakings and plain ftrace are three streams), nearly every event ends a run,
// and a heap's sift-down costs two data-dependent comparisons and a swap per level, which the
// branch predictor cannot learn. Here a new head replays one leaf-to-root path with one
// comparison per level, decided without branches. Each node holds its loser's key itself, so
// the loads of a replay do not wait on one another: only the comparisons form a chain.

#include <cstdint>
#include <vector>

namespace tw {

class StreamTournament {
 public:
  // `heads[i]`: leaf i's first timestamp. Leaves rank by index on equal timestamps.
  explicit StreamTournament(const std::vector<int64_t>& heads);

  // Every leaf is exhausted.
  bool done() const { return tree_[0].rank >= width_; }
  // The leaf with the earliest head, the lowest index among equal heads. Not valid when done().
  uint32_t winner() const { return tree_[0].rank; }
  int64_t winner_ts() const { return tree_[0].ts; }
  // The earliest head of every leaf but the winner (INT64_MAX if there is none).
  int64_t RunnerUpTs() const;

  // The winner's head moved on to `ts` (>= its previous head), or it has none left.
  void AdvanceWinner(int64_t ts) { ReplayFrom({ts, tree_[0].rank}); }
  void ExhaustWinner();

 private:
  // A leaf's key: its head, then its rank, which is its index while it has events and
  // index + width_ once exhausted (after every live leaf, INT64_MAX heads included).
  struct Key {
    int64_t ts;
    uint32_t rank;
    uint32_t leaf(uint32_t width) const { return rank & (width - 1); }
  };
  // Bitwise, not short-circuit: one branch-free expression.
  static bool Less(const Key& a, const Key& b) {
    return (a.ts < b.ts) | ((a.ts == b.ts) & (a.rank < b.rank));
  }
  // Replays the matches on the path of `key`'s leaf, which must be the winner's.
  void ReplayFrom(Key key);

  uint32_t width_ = 1;     // leaves, rounded up to a power of two
  std::vector<Key> tree_;  // [0]: the winner; [1, width_): the loser of each match
};

}  // namespace tw

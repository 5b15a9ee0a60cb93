#include "libs/trace/sorter/stream_tournament.h"

#include <gtest/gtest.h>

#include <climits>
#include <random>
#include <vector>

namespace tw {
namespace {

TEST(StreamTournamentTest, WinnerIsTheEarliestHeadAndTheLowestLeafOnATie) {
  StreamTournament t({30, 10, 20, 10, 50});
  ASSERT_FALSE(t.done());
  EXPECT_EQ(t.winner(), 1u);
  EXPECT_EQ(t.winner_ts(), 10);
  EXPECT_EQ(t.RunnerUpTs(), 10);  // leaf 3
  t.AdvanceWinner(40);
  EXPECT_EQ(t.winner(), 3u);
  EXPECT_EQ(t.RunnerUpTs(), 20);
}

TEST(StreamTournamentTest, ExhaustedLeavesNeverWinEvenAgainstTheLatestTimestamp) {
  StreamTournament t({INT64_MAX, 5});
  EXPECT_EQ(t.winner(), 1u);
  EXPECT_EQ(t.RunnerUpTs(), INT64_MAX);
  t.ExhaustWinner();
  ASSERT_FALSE(t.done());
  EXPECT_EQ(t.winner(), 0u);  // a live head at INT64_MAX still beats the exhausted leaf 1
  EXPECT_EQ(t.winner_ts(), INT64_MAX);
  t.ExhaustWinner();
  EXPECT_TRUE(t.done());
}

TEST(StreamTournamentTest, OneLeafAndNoLeaf) {
  StreamTournament one({7});
  EXPECT_EQ(one.winner(), 0u);
  EXPECT_EQ(one.RunnerUpTs(), INT64_MAX);
  one.AdvanceWinner(9);
  EXPECT_EQ(one.winner_ts(), 9);
  one.ExhaustWinner();
  EXPECT_TRUE(one.done());
  EXPECT_TRUE(StreamTournament({}).done());
}

// Against a linear scan: the winner and the runner-up after every step, for leaf counts that
// are and are not powers of two, with many equal timestamps.
TEST(StreamTournamentTest, AgreesWithALinearScan) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + rng() % 37;
    std::vector<int64_t> heads(n);
    for (int64_t& h : heads) h = rng() % 8;
    std::vector<bool> live(n, true);
    StreamTournament t(heads);
    for (int step = 0; step < 400; ++step) {
      size_t best = n;
      for (size_t i = 0; i < n; ++i) {
        if (live[i] && (best == n || heads[i] < heads[best])) best = i;
      }
      if (best == n) {
        EXPECT_TRUE(t.done());
        break;
      }
      ASSERT_FALSE(t.done());
      ASSERT_EQ(t.winner(), best);
      int64_t runner_up = INT64_MAX;
      for (size_t i = 0; i < n; ++i) {
        if (live[i] && i != best) runner_up = std::min(runner_up, heads[i]);
      }
      ASSERT_EQ(t.RunnerUpTs(), runner_up);
      if (rng() % 6 == 0) {
        live[best] = false;
        t.ExhaustWinner();
      } else {
        heads[best] += rng() % 3;
        t.AdvanceWinner(heads[best]);
      }
    }
  }
}

}  // namespace
}  // namespace tw

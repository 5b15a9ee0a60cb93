// Rendezvous hashing and replica targets: owners spread evenly, rankings agree across calls and
// processes (fixed function of the bytes), removing a replica moves only its own keys, and
// `--trace-query` specs parse (lists, dns targets) or fail with a clear message.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "libs/rpc/rendezvous.h"
#include "libs/rpc/replica_target.h"
#include "libs/trace/store/sha256.h"

namespace tw::rpc {
namespace {

std::string TraceId(int i) {
  Sha256 h;
  h.Update(absl::StrCat("trace ", i));
  return h.HexDigest();
}

const std::vector<std::string> kReplicas = {"10.0.0.11:7001", "10.0.0.12:7001", "10.0.0.13:7001"};

TEST(RendezvousTest, ScoresAreAFixedFunctionOfTheBytes) {
  // Pinned values: another process, build or machine must compute the same owners.
  EXPECT_EQ(RendezvousScore("127.0.0.1:7001", "abc"), RendezvousScore("127.0.0.1:7001", "abc"));
  EXPECT_NE(RendezvousScore("127.0.0.1:7001", "abc"), RendezvousScore("127.0.0.1:7002", "abc"));
  EXPECT_NE(RendezvousScore("ab", "c"), RendezvousScore("a", "bc"));
  EXPECT_EQ(RendezvousScore("127.0.0.1:7001", "abc"), 0xff07669c615fed52ull);
  EXPECT_EQ(RendezvousScore("10.0.0.11:7001", std::string(64, '0')), 0x340b417bdbe6106bull);
}

TEST(RendezvousTest, OwnersSpreadEvenlyOverReplicas) {
  std::map<size_t, int> owned;
  const int n = 3000;
  for (int i = 0; i < n; ++i) owned[RendezvousRank(kReplicas, TraceId(i)).front()]++;
  ASSERT_EQ(owned.size(), 3u);
  for (const auto& [replica, count] : owned) {
    EXPECT_GT(count, n / 3 * 0.9) << kReplicas[replica];
    EXPECT_LT(count, n / 3 * 1.1) << kReplicas[replica];
  }
}

TEST(RendezvousTest, RankIsAPermutationWithTheOwnerFirst) {
  for (int i = 0; i < 50; ++i) {
    const auto rank = RendezvousRank(kReplicas, TraceId(i));
    ASSERT_EQ(rank.size(), 3u);
    EXPECT_EQ(std::set<size_t>(rank.begin(), rank.end()).size(), 3u);
    EXPECT_GE(RendezvousScore(kReplicas[rank[0]], TraceId(i)),
              RendezvousScore(kReplicas[rank[1]], TraceId(i)));
    EXPECT_GE(RendezvousScore(kReplicas[rank[1]], TraceId(i)),
              RendezvousScore(kReplicas[rank[2]], TraceId(i)));
  }
  EXPECT_TRUE(RendezvousRank({}, "x").empty());
}

TEST(RendezvousTest, LosingAReplicaMovesOnlyItsKeysToTheirNextRanked) {
  const std::vector<std::string> two = {kReplicas[0], kReplicas[2]};  // .12 is gone
  int moved = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto before = RendezvousRank(kReplicas, TraceId(i));
    const std::string& owner_before = kReplicas[before[0]];
    const std::string& owner_after = two[RendezvousRank(two, TraceId(i)).front()];
    if (owner_before != kReplicas[1]) {
      EXPECT_EQ(owner_after, owner_before) << "a key of a surviving replica moved";
    } else {
      ++moved;
      EXPECT_EQ(owner_after, kReplicas[before[1]]) << "failover target differs from the rank";
    }
  }
  EXPECT_GT(moved, 250);
  // Adding a fourth replica takes about a quarter of the keys, each from its old owner.
  std::vector<std::string> four = kReplicas;
  four.push_back("10.0.0.14:7001");
  int taken = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::string& before = kReplicas[RendezvousRank(kReplicas, TraceId(i)).front()];
    const std::string& after = four[RendezvousRank(four, TraceId(i)).front()];
    if (after != before) {
      EXPECT_EQ(after, four[3]);
      ++taken;
    }
  }
  EXPECT_GT(taken, 180);
  EXPECT_LT(taken, 320);
}

TEST(ReplicaTargetTest, ParsesListsAndDnsTargets) {
  auto one = ParseReplicaTarget("127.0.0.1:7001");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->static_endpoints, std::vector<std::string>{"127.0.0.1:7001"});
  auto list = ParseReplicaTarget(" a:1, b:2 ,a:1,[::1]:3 ");
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->static_endpoints, (std::vector<std::string>{"a:1", "b:2", "[::1]:3"}));
  EXPECT_FALSE(list->is_dns());
  for (const char* spec : {"dns:///tracewise-trace-query-headless:7001",
                           "dns://10.96.0.10/tracewise-trace-query-headless:7001",
                           "dns:tracewise-trace-query-headless:7001"}) {
    auto dns = ParseReplicaTarget(spec);
    ASSERT_TRUE(dns.ok()) << spec << ": " << dns.status();
    EXPECT_TRUE(dns->is_dns());
    EXPECT_EQ(dns->dns_name, "tracewise-trace-query-headless");
    EXPECT_EQ(dns->dns_port, "7001");
    EXPECT_EQ(dns->Describe(), "dns:///tracewise-trace-query-headless:7001");
  }
}

TEST(ReplicaTargetTest, RejectsSpecsWithoutPorts) {
  for (const char* spec : {"", " , ", "localhost", "a:1,b", "a:x", "dns:///name", "dns://x",
                           "dns:///a:1,b:2"}) {
    auto t = ParseReplicaTarget(spec);
    EXPECT_FALSE(t.ok()) << spec;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << spec;
  }
  EXPECT_NE(ParseReplicaTarget("a:1,b").status().message().find("'b' has no port"),
            absl::string_view::npos);
}

TEST(ReplicaTargetTest, ResolvesNamesToSortedAddresses) {
  auto local = ResolveEndpoints("localhost", "7001");
  ASSERT_TRUE(local.ok()) << local.status();
  ASSERT_FALSE(local->empty());
  for (const std::string& e : *local) {
    EXPECT_TRUE(e == "127.0.0.1:7001" || e == "[::1]:7001") << e;
  }
  auto literal = ResolveEndpoints("127.0.0.7", "9");
  ASSERT_TRUE(literal.ok());
  EXPECT_EQ(*literal, std::vector<std::string>{"127.0.0.7:9"});
  auto missing = ResolveEndpoints("no-such-host.invalid", "7001");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace tw::rpc

#include "libs/rpc/rendezvous.h"

#include <algorithm>
#include <numeric>

namespace tw::rpc {
namespace {

constexpr uint64_t kFnvOffset = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

uint64_t Fnv1a(std::string_view bytes, uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= kFnvPrime;
  }
  return h;
}

// MurmurHash3's 64-bit finaliser: FNV alone leaves the high bits weakly mixed for keys that
// share long prefixes (replica addresses differ in a digit or two).
uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

}  // namespace

uint64_t RendezvousScore(std::string_view replica, std::string_view key) {
  // The separator keeps ("ab", "c") and ("a", "bc") apart.
  uint64_t h = Fnv1a(replica, kFnvOffset);
  h = Fnv1a(std::string_view("\0", 1), h);
  return Mix(Fnv1a(key, h));
}

std::vector<size_t> RendezvousRank(const std::vector<std::string>& replicas, std::string_view key) {
  std::vector<uint64_t> scores(replicas.size());
  for (size_t i = 0; i < replicas.size(); ++i) scores[i] = RendezvousScore(replicas[i], key);
  std::vector<size_t> order(replicas.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return scores[a] > scores[b]; });
  return order;
}

}  // namespace tw::rpc

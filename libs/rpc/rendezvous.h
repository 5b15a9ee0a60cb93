#pragma once
// Rendezvous (highest-random-weight) hashing: every replica gets a pseudo-random score for a
// key, and the key belongs to the replica with the highest score; the next-highest is where it
// fails over. Adding or removing a replica moves only the keys that replica wins or held
// (about 1/N of them), and every client computes the same ranking without coordination.
//
// The scores are a fixed function of the bytes (FNV-1a mixed through a 64-bit finaliser), never
// a per-process seeded hash: two processes, or two builds, must agree on every owner.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tw::rpc {

uint64_t RendezvousScore(std::string_view replica, std::string_view key);

// Indices into `replicas`, highest score for `key` first (ties, which need equal names, by index).
std::vector<size_t> RendezvousRank(const std::vector<std::string>& replicas, std::string_view key);

}  // namespace tw::rpc

#pragma once
// splitmix64 with our own distributions, so a seed gives the same trace on every platform
// (std:: distributions are implementation-defined). Shared by the synthetic trace generators.

#include <cmath>
#include <cstdint>

namespace tw::synth {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t Next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(Uniform() * n); }
  bool Chance(double p) { return Uniform() < p; }
  double Exponential(double mean) { return -std::log(1.0 - Uniform()) * mean; }
  // Uniform in [lo, hi).
  double Between(double lo, double hi) { return lo + (hi - lo) * Uniform(); }

 private:
  uint64_t s_;
};

}  // namespace tw::synth

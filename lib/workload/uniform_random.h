#pragma once
// Uniform draws from a caller's std::mt19937_64, the same on every standard library.
//
// Why not std::uniform_real_distribution / std::uniform_int_distribution: their algorithms are
// implementation-defined, so libstdc++ and libc++ turn the same seed into different workloads.
// The engine's output is fixed by the standard ([rand.predef]: the 10000th value of a
// default-constructed mt19937_64 is 9981545732273789042), so everything built from its raw bits
// here is reproducible anywhere.

#include <cstdint>
#include <random>

namespace fcswitch::workload {

// A double in [0, 1) from the top 53 bits of one draw (every value a multiple of 2^-53).
inline double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// An integer in [0, n), n ≥ 1, without modulo bias: draws above the largest multiple of n
// are redrawn (at most half the draws for any n, almost none for small n).
inline uint64_t uniform_index(std::mt19937_64& rng, uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t draw = rng();
  while (draw >= limit) draw = rng();
  return draw % n;
}

}  // namespace fcswitch::workload

#include "topology/flow_hash.h"

#include <array>

namespace fcswitch::topology {

namespace {

// MurmurHash3_x86_32's constants and steps (Appleby, public domain reference code).
constexpr uint32_t kC1 = 0xcc9e2d51;
constexpr uint32_t kC2 = 0x1b873593;
constexpr uint32_t kGolden = 0x9e3779b9;  // 2³² / φ: spreads consecutive switch numbers

constexpr uint32_t rotl(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}

constexpr uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

}  // namespace

uint32_t flow_hash(const FiveTuple& tuple, uint32_t seed) {
  const std::array<uint32_t, 4> words = {
      tuple.src_addr, tuple.dst_addr,
      (static_cast<uint32_t>(tuple.src_port) << 16) | tuple.dst_port, tuple.protocol};
  uint32_t h = seed;
  for (uint32_t k : words) {
    k *= kC1;
    k = rotl(k, 15);
    k *= kC2;
    h ^= k;
    h = rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  constexpr uint32_t kLengthBytes = 16;
  return fmix32(h ^ kLengthBytes);
}

int ecmp_member(uint32_t hash, int group_size) {
  if (group_size < 1) return -1;
  return static_cast<int>((static_cast<uint64_t>(hash) * static_cast<uint64_t>(group_size)) >> 32);
}

int ecmp_port(const PortGroup& group, const FiveTuple& tuple, uint32_t seed) {
  if (group.empty()) return -1;
  if (group.size() == 1) return group.front();
  return group[ecmp_member(flow_hash(tuple, seed), static_cast<int>(group.size()))];
}

std::vector<uint32_t> switch_seeds(int switches, uint32_t base) {
  std::vector<uint32_t> seeds(switches);
  for (int sw = 0; sw < switches; ++sw)
    seeds[sw] = fmix32(base + kGolden * static_cast<uint32_t>(sw + 1));
  return seeds;
}

}  // namespace fcswitch::topology

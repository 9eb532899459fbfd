#pragma once
// The L2 forwarding table: MAC → port, in an rte_hash. Static entries come from the config
// and are never overwritten by learning. Only FWD reads and writes it (single thread), so
// the hash needs no locks.
//
// FWD asks it once per input burst (learn_and_look_up): an exact-match cache in front of the
// hash answers the addresses seen lately, as OVS's exact-match cache does for flows, and the
// rest go to the hash in one rte_hash_lookup_bulk_data. The cache holds what the hash holds,
// absent addresses included: every change to the hash goes through store() or clear(), which
// write the cache through, so a cached answer is the hash's answer.

#include <array>
#include <cstdint>
#include <string>

#include "wire/mac_address.h"

struct rte_hash;

namespace fcswitch {

class L2Fib {
 public:
  static constexpr int kUnknown = -1;
  // lookup() returns a port, or kGroupBase + g for ECMP group g (FwdTask picks the member).
  static constexpr int kGroupBase = 1 << 20;
  static bool is_group(int target) { return target >= kGroupBase; }

  L2Fib(const std::string& name, uint32_t capacity);  // throws std::runtime_error
  ~L2Fib();
  L2Fib(const L2Fib&) = delete;
  L2Fib& operator=(const L2Fib&) = delete;

  bool add_static(wire::MacAddress mac, int port);
  bool add_static_group(wire::MacAddress mac, int group) {
    return add_static(mac, kGroupBase + group);
  }
  int lookup(wire::MacAddress mac) const;
  // Learns (or moves) `mac` to `port` unless it is static. False when the table is full.
  bool learn(wire::MacAddress mac, int port);

  // The FIB work of one input burst, up to kMaxBurst packets that all came in on `port`. The
  // result is the same as packet by packet, in order: learn(sources[i], port) when bit i of
  // learn_mask is set, then targets[i] = lookup(destinations[i]) when bit i of lookup_mask is
  // set (kUnknown when it is not): a destination sees the learning of every packet up to its
  // own. Returns how many learnings the full table refused.
  static constexpr unsigned kMaxBurst = 32;
  unsigned learn_and_look_up(int port, const wire::MacAddress* sources, uint32_t learn_mask,
                             const wire::MacAddress* destinations, uint32_t lookup_mask,
                             unsigned count, int* targets);
  int32_t size() const;
  void clear();  // every entry, static or learned

  // Of the addresses learn_and_look_up was asked about, how many the cache answered and how
  // many went to the hash (FWD's thread; for tests and benchmarks).
  uint64_t cache_hits() const { return cache_hits_; }
  uint64_t cache_misses() const { return cache_misses_; }

 private:
  // What the hash stores per key (port + 1 and a static flag, 0: absent), by address.
  struct CacheEntry {
    uint64_t tag = 0;    // the address | kCacheValid; 0: empty
    uintptr_t data = 0;  // as stored in the hash; 0: not in the table
  };
  // 256 entries (4 KiB, in L1 beside the burst): a port's hosts and the destinations of its
  // flows. Direct-mapped: two addresses that collide take turns, each still answered right.
  static constexpr int kCacheBits = 8;
  static constexpr uint64_t kCacheValid = uint64_t{1} << 63;  // above the 48 address bits
  static constexpr uint64_t kNoAddress = ~uint64_t{0};        // no 48-bit address is this

  static unsigned cache_index(uint64_t mac) {
    // Fibonacci hashing: the multiply spreads the address's low bytes (a host's) to the top.
    return static_cast<unsigned>((mac * 0x9E37'79B9'7F4A'7C15ull) >> (64 - kCacheBits));
  }
  // True when the cache knows `mac`: then `data` is what the hash holds for it.
  bool cached(uint64_t mac, uintptr_t& data) const {
    const CacheEntry& e = cache_[cache_index(mac)];
    data = e.data;
    return e.tag == (mac | kCacheValid);
  }
  void remember(uint64_t mac, uintptr_t data) {
    cache_[cache_index(mac)] = {mac | kCacheValid, data};
  }
  bool store(wire::MacAddress mac, int port, bool is_static);
  // The cache knows `mac` behind `port`, or static: learning it there stores nothing.
  bool settled_in_cache(uint64_t mac, int port) const;
  // The cache knows what the table holds for `mac`: its target, or kUnknown when nothing.
  bool cached_target(uint64_t mac, int& target) const;
  // answer_from_cache's burst of one `source` (kNoAddress: none learns) and one
  // `destination` (kNoAddress: none is looked up).
  bool answer_one_pair(int port, uint64_t source, uint64_t destination, uint32_t lookup_mask,
                       unsigned count, int* targets);
  // learn_and_look_up's common burst, from the cache alone: every source is settled behind
  // `port` and every destination cached. False (and nothing done) otherwise.
  bool answer_from_cache(int port, const wire::MacAddress* sources, uint32_t learn_mask,
                         const wire::MacAddress* destinations, uint32_t lookup_mask, unsigned count,
                         int* targets);

  rte_hash* hash_;
  std::array<CacheEntry, 1u << kCacheBits> cache_{};
  uint64_t cache_hits_ = 0;
  uint64_t cache_misses_ = 0;
};

}  // namespace fcswitch

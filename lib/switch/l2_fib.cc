#include "switch/l2_fib.h"

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_jhash.h>

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace fcswitch {

namespace {
// The hash stores a void* per key: port + 1 (so that 0 means nothing) and a static flag.
constexpr uintptr_t kStaticFlag = uintptr_t{1} << 31;

int target_of(uintptr_t data) {
  return static_cast<int>((data & ~kStaticFlag) - 1);
}

static_assert(2 * L2Fib::kMaxBurst <= RTE_HASH_LOOKUP_BULK_MAX,
              "a burst's sources and destinations in one bulk lookup");

// The bits of a burst of `count` packets.
uint32_t burst_mask(unsigned count) {
  return count >= 32 ? ~uint32_t{0} : (uint32_t{1} << count) - 1;
}

// Nonzero when an address of `macs` with its bit set in `mask` (a subset of `burst`, the bits
// of `count` packets) is not `mac`. Inlined: a call costs the lab's bursts of one more than
// the loop.
[[gnu::always_inline]] inline uint64_t differs_from(const wire::MacAddress* macs, uint32_t mask,
                                                    uint32_t burst, uint64_t mac, unsigned count) {
  uint64_t differs = 0;
  if (mask == burst) {
    // Every packet's (a burst of unicast frames): no mask to apply a packet.
    for (unsigned i = 0; i < count; ++i) differs |= macs[i].value ^ mac;
  } else if (mask) {
    for (unsigned i = 0; i < count; ++i)
      differs |= (macs[i].value ^ mac) & (0 - uint64_t{mask >> i & 1});
  }
  return differs;
}
}  // namespace

L2Fib::L2Fib(const std::string& name, uint32_t capacity) {
  rte_hash_parameters params{};
  params.name = name.c_str();
  params.entries = capacity;
  params.key_len = sizeof(uint64_t);
  params.hash_func = rte_jhash;
  params.socket_id = SOCKET_ID_ANY;
  hash_ = rte_hash_create(&params);
  if (!hash_) throw std::runtime_error(fmt::format("fib {}: {}", name, rte_strerror(rte_errno)));
}

L2Fib::~L2Fib() {
  rte_hash_free(hash_);
}

bool L2Fib::store(wire::MacAddress mac, int port, bool is_static) {
  const uintptr_t data = static_cast<uintptr_t>(port + 1) | (is_static ? kStaticFlag : 0);
  if (rte_hash_add_key_data(hash_, &mac.value, reinterpret_cast<void*>(data)) != 0) return false;
  remember(mac.value, data);  // write-through: the cache never answers from before a change
  return true;
}

bool L2Fib::add_static(wire::MacAddress mac, int port) {
  return store(mac, port, true);
}

int L2Fib::lookup(wire::MacAddress mac) const {
  void* data = nullptr;
  if (rte_hash_lookup_data(hash_, &mac.value, &data) < 0) return kUnknown;
  return target_of(reinterpret_cast<uintptr_t>(data));
}

bool L2Fib::learn(wire::MacAddress mac, int port) {
  void* data = nullptr;
  if (rte_hash_lookup_data(hash_, &mac.value, &data) >= 0) {
    const auto value = reinterpret_cast<uintptr_t>(data);
    if ((value & kStaticFlag) || static_cast<int>(value - 1) == port) return true;
  }
  return store(mac, port, false);
}

bool L2Fib::settled_in_cache(uint64_t mac, int port) const {
  uintptr_t data;
  return cached(mac, data) && data && ((data & kStaticFlag) || target_of(data) == port);
}

bool L2Fib::cached_target(uint64_t mac, int& target) const {
  uintptr_t data;
  if (!cached(mac, data)) return false;
  target = data ? target_of(data) : kUnknown;
  return true;
}

bool L2Fib::answer_from_cache(int port, const wire::MacAddress* sources, uint32_t learn_mask,
                              const wire::MacAddress* destinations, uint32_t lookup_mask,
                              unsigned count, int* targets) {
  // Every source already maps to `port` (or is static): learning stores nothing, so no
  // answer depends on the packets' order, and a run of one address asks the cache once.
  const uint32_t burst = burst_mask(count);
  learn_mask &= burst;
  lookup_mask &= burst;
  // One source and one destination (one flow, or one pair of hosts: a benchmark's burst, or
  // a busy link's): found in one pass without a branch a packet, then two cache reads.
  const uint64_t source = learn_mask ? sources[__builtin_ctz(learn_mask)].value : kNoAddress;
  const uint64_t destination =
      lookup_mask ? destinations[__builtin_ctz(lookup_mask)].value : kNoAddress;
  const uint64_t others = differs_from(sources, learn_mask, burst, source, count) |
                          differs_from(destinations, lookup_mask, burst, destination, count);
  if (!others) {
    if (!answer_one_pair(port, source, destination, lookup_mask, count, targets)) return false;
    cache_hits_ +=
        static_cast<unsigned>(__builtin_popcount(learn_mask) + __builtin_popcount(lookup_mask));
    return true;
  }
  uint64_t last = kNoAddress;
  for (uint32_t mask = learn_mask; mask; mask &= mask - 1) {
    const uint64_t mac = sources[__builtin_ctz(mask)].value;
    if (mac == last) continue;
    if (!settled_in_cache(mac, port)) return false;
    last = mac;
  }
  last = kNoAddress;
  int last_target = kUnknown;
  for (uint32_t mask = lookup_mask; mask; mask &= mask - 1) {
    const int i = __builtin_ctz(mask);
    const uint64_t mac = destinations[i].value;
    if (mac != last) {
      if (!cached_target(mac, last_target)) return false;
      last = mac;
    }
    targets[i] = last_target;
  }
  for (uint32_t rest = burst & ~lookup_mask; rest; rest &= rest - 1)
    targets[__builtin_ctz(rest)] = kUnknown;
  cache_hits_ +=
      static_cast<unsigned>(__builtin_popcount(learn_mask) + __builtin_popcount(lookup_mask));
  return true;
}

bool L2Fib::answer_one_pair(int port, uint64_t source, uint64_t destination, uint32_t lookup_mask,
                            unsigned count, int* targets) {
  if (source != kNoAddress && !settled_in_cache(source, port)) return false;
  int target = kUnknown;
  if (destination != kNoAddress && !cached_target(destination, target)) return false;
  if (lookup_mask == burst_mask(count)) {
    std::fill_n(targets, count, target);  // every packet's (no mask a packet)
  } else {
    for (unsigned i = 0; i < count; ++i) targets[i] = lookup_mask >> i & 1 ? target : kUnknown;
  }
  return true;
}

unsigned L2Fib::learn_and_look_up(int port, const wire::MacAddress* sources, uint32_t learn_mask,
                                  const wire::MacAddress* destinations, uint32_t lookup_mask,
                                  unsigned count, int* targets) {
  if (answer_from_cache(port, sources, learn_mask, destinations, lookup_mask, count, targets))
    return 0;
  // What the table holds for each address asked about, from the cache or else from the hash:
  // one bulk lookup for all the cache did not know.
  uintptr_t source_data[kMaxBurst], destination_data[kMaxBurst];
  const void* keys[2 * kMaxBurst];
  uintptr_t* answers[2 * kMaxBurst];
  unsigned n_keys = 0;
  // A run of packets from one source, or to one destination (a burst of one flow), asks the
  // cache once: the address the cache last answered is compared first (VPP's l2 input keeps
  // its last key likewise).
  auto ask = [&](uint32_t mask, const wire::MacAddress* macs, uintptr_t* data) {
    uint64_t last = kNoAddress;
    uintptr_t last_data = 0;
    for (; mask; mask &= mask - 1) {
      const int i = __builtin_ctz(mask);
      const uint64_t mac = macs[i].value;
      if (mac == last) {
        data[i] = last_data;
      } else if (cached(mac, data[i])) {
        last = mac;
        last_data = data[i];
      } else {
        keys[n_keys] = &macs[i].value;
        answers[n_keys++] = &data[i];
      }
    }
  };
  ask(learn_mask, sources, source_data);
  ask(lookup_mask, destinations, destination_data);
  const unsigned asked =
      static_cast<unsigned>(__builtin_popcount(learn_mask) + __builtin_popcount(lookup_mask));
  cache_misses_ += n_keys;
  cache_hits_ += asked - n_keys;
  if (n_keys) {
    void* data[2 * kMaxBurst];
    uint64_t hits = 0;
    rte_hash_lookup_bulk_data(hash_, keys, n_keys, &hits, data);
    // Into the cache now, before the stores below write theirs through: an answer from
    // before a store must not overwrite it.
    for (unsigned k = 0; k < n_keys; ++k) {
      *answers[k] = hits >> k & 1 ? reinterpret_cast<uintptr_t>(data[k]) : 0;
      remember(*static_cast<const uint64_t*>(keys[k]), *answers[k]);
    }
  }

  // In packet order. Every source this burst stored now maps to `port`, which the answers
  // above (all taken before any store) cannot know: a later packet's destination or source
  // among them is answered from this list instead. It stays empty unless a host is new or has
  // moved.
  uint64_t stored[kMaxBurst];
  unsigned n_stored = 0;
  auto stored_here = [&](uint64_t mac) {
    for (unsigned s = 0; s < n_stored; ++s)
      if (stored[s] == mac) return true;
    return false;
  };
  unsigned refused = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (learn_mask >> i & 1) {
      const uintptr_t data = source_data[i];
      const bool settled = data && ((data & kStaticFlag) || target_of(data) == port);
      if (!settled && !(n_stored && stored_here(sources[i].value))) {
        if (store(sources[i], port, false)) {
          stored[n_stored++] = sources[i].value;
        } else {
          ++refused;
        }
      }
    }
    int target = kUnknown;
    if (lookup_mask >> i & 1) {
      if (n_stored && stored_here(destinations[i].value)) {
        target = port;
      } else if (destination_data[i]) {
        target = target_of(destination_data[i]);
      }
    }
    targets[i] = target;
  }
  return refused;
}

void L2Fib::clear() {
  rte_hash_reset(hash_);
  cache_.fill(CacheEntry{});
}

int32_t L2Fib::size() const {
  return rte_hash_count(hash_);
}

}  // namespace fcswitch

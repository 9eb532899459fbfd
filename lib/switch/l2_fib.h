#pragma once
// The L2 forwarding table: MAC → port, in an rte_hash. Static entries come from the config
// and are never overwritten by learning. Only FWD reads and writes it (single thread), so
// the hash needs no locks.

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
  int32_t size() const;
  void clear();  // every entry, static or learned

 private:
  bool store(wire::MacAddress mac, int port, bool is_static);

  rte_hash* hash_;
};

}  // namespace fcswitch

#pragma once
// A congestion root, `switch-id:port-id` (Pyrrha §4.1): the egress port of one switch whose
// output queue is the most downstream hotspot of a congestion tree. The same pair names one hop
// of a packet's predicted onward path (the switch it reaches and the port it leaves by).

#include <compare>
#include <cstddef>
#include <cstdint>

namespace fcswitch::pyrrha {

struct RootId {
  uint32_t switch_id = 0;
  uint16_t port = 0;

  friend auto operator<=>(const RootId&, const RootId&) = default;
};

// One hop of a packet's onward path: the switch it reaches and the egress port it leaves by.
using PathHop = RootId;

struct RootIdHash {
  // splitmix64's finaliser over the packed pair: roots of neighbouring ports spread over the
  // index and over the isolation queues they hash onto when those run out.
  size_t operator()(RootId id) const {
    uint64_t x = (uint64_t{id.switch_id} << 16) | id.port;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return static_cast<size_t>(x);
  }
};

}  // namespace fcswitch::pyrrha

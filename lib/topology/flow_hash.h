#pragma once
// ECMP: the one place a flow is mapped onto a member of an equal-cost group. The lab's
// switches forward with it and Pyrrha's path oracle predicts a packet's onward path with it
// (path_prediction.h), so both must call these functions and nothing else.

#include <cstdint>
#include <vector>

#include "topology/route_table.h"

namespace fcswitch::topology {

// Addresses are 32-bit: IPv4, or any host number a lab flow carries.
struct FiveTuple {
  uint32_t src_addr = 0;
  uint32_t dst_addr = 0;
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint8_t protocol = 0;
};

// MurmurHash3 x86_32 (Appleby) over the tuple as four 32-bit words, then its fmix32
// finaliser: every input bit flips each output bit with probability close to 1/2, so
// consecutive ports or addresses spread evenly. `seed` differs per switch: with one hash
// everywhere, the flows one switch sent to a member all hash alike at the next switch and
// crowd onto one of its members (polarisation).
uint32_t flow_hash(const FiveTuple& tuple, uint32_t seed);

// The member of a group of `group_size` a hash selects: ⌊hash · size / 2³²⌋ (Lemire's
// multiply-shift), which uses the hash's high bits and no division. -1 when group_size < 1.
// Per packet: no exception, no allocation.
int ecmp_member(uint32_t hash, int group_size);

// The port of `group` a flow leaves by at a switch hashing with `seed`; -1 for an empty group.
int ecmp_port(const PortGroup& group, const FiveTuple& tuple, uint32_t seed);

// A seed per switch derived from one `base` (a lab run's seed): distinct, well mixed.
std::vector<uint32_t> switch_seeds(int switches, uint32_t base);

}  // namespace fcswitch::topology

#pragma once
// Pyrrha §4.2: a switch predicts the onward path of each packet — the switches it will reach
// and the port each will send it out of — from the downstream switches' forwarding tables and
// ECMP hash seeds, with the one ECMP function the switches forward with
// (topology/flow_hash.h). A network that knows its routes implements it (the lab:
// lab/lab_path_oracle.h); a mismatch with what the switches do silently breaks isolation, so
// the implementation must call the same functions the switches forward with.

#include <cstddef>
#include <span>

#include "params/pyrrha_params.h"
#include "pyrrha/root_id.h"
#include "topology/flow_hash.h"
#include "wire/mac_address.h"

namespace fcswitch {

class PyrrhaPathOracle {
 public:
  // Longest onward path FWD keeps per packet: a fat-tree's is at most 4 switches past the first.
  static constexpr size_t kMaxHops = config::kMaxPyrrhaPathHops;

  virtual ~PyrrhaPathOracle() = default;
  // The hops after this switch of a packet to `dst` with `tuple` leaving by `egress`, near to
  // far (out[0]: the next switch and its egress port), at most out.size(); returns how many.
  // 0 when the next hop is the destination host, or the destination is unknown.
  virtual size_t onward_path(int egress, const wire::MacAddress& dst,
                             const topology::FiveTuple& tuple,
                             std::span<pyrrha::PathHop> out) const = 0;
  // Port `port` of this switch faces a host (the table's leaf rule: hosts send no DEALLOC).
  virtual bool faces_host(int port) const = 0;
};

}  // namespace fcswitch

#pragma once
// Pyrrha's path oracle in the lab (switch/fwd/pyrrha_path_oracle.h): a switch predicts where each
// packet goes after it from the tables every switch forwards with, as they are now (they
// change when [[events]] reroute), and the switches' ECMP seeds, through
// topology::predict_onward, which calls the same ECMP function the switches do.

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "params/switch_params.h"
#include "scenario/lab_routing.h"
#include "switch/fwd/pyrrha_path_oracle.h"
#include "topology/route_table.h"

namespace fcswitch::lab {

// What every switch's oracle shares: the network, its hosts by MAC, and the forwarding as it
// is now — the computed routes with each switch's own routes laid over them, as its FIB has
// them (LabNetwork::reinstall_routes), so that the prediction is what the switches do.
struct LabPathIndex {
  explicit LabPathIndex(const LabRouting& routing);
  // After every change of the routes or of a switch's own routes. `static_fib`: per lab node.
  void refresh(const std::optional<topology::RouteTable>& routes,
               const std::vector<std::vector<config::FibEntry>>& static_fib);

  const LabRouting& routing;
  std::unordered_map<uint64_t, topology::HostId> host_of_mac;
  std::optional<topology::RouteTable> table;  // none: static routing, no prediction
};

class LabPathOracle : public PyrrhaPathOracle {
 public:
  // Switch `sw` of the lab's topology (LabRouting::topology_switch of its node).
  LabPathOracle(std::shared_ptr<const LabPathIndex> index, int sw)
      : index_(std::move(index)), sw_(sw) {}

  size_t onward_path(int egress, const wire::MacAddress& dst, const topology::FiveTuple& tuple,
                     std::span<pyrrha::PathHop> out) const override;
  bool faces_host(int port) const override;

 private:
  std::shared_ptr<const LabPathIndex> index_;
  int sw_;
};

}  // namespace fcswitch::lab

#pragma once
// Pyrrha's path oracle (switch/fwd/pyrrha_path_oracle.h) from fcswitch's own config: the onward
// paths [[pyrrha.paths]] gives per (egress port, destination MAC), and the ports host_ports
// marks as facing hosts. On a testbed whose paths past the first hop are fixed (a leaf-spine:
// a core reaches a host through one ToR) the table says what the downstream switches do; where
// a downstream switch spreads a destination over ECMP members it cannot, and a pair it does
// not list is matched against this switch's own roots only (the lab predicts from every
// switch's table and hash instead: lab/lab_path_oracle.h).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "params/pyrrha_params.h"
#include "switch/fwd/pyrrha_path_oracle.h"

namespace fcswitch {

class ConfigPathOracle final : public PyrrhaPathOracle {
 public:
  ConfigPathOracle(const config::PyrrhaSettings& settings, int ports);

  size_t onward_path(int egress, const wire::MacAddress& dst, const topology::FiveTuple& tuple,
                     std::span<pyrrha::PathHop> out) const override;
  bool faces_host(int port) const override {
    return port >= 0 && static_cast<size_t>(port) < host_ports_.size() && host_ports_[port];
  }
  size_t paths() const { return paths_.size(); }

 private:
  static uint64_t key(int egress, const wire::MacAddress& dst) {
    return (static_cast<uint64_t>(egress) << 48) | dst.value;  // a MAC has 48 bits
  }
  std::unordered_map<uint64_t, std::vector<pyrrha::PathHop>> paths_;
  std::vector<bool> host_ports_;
};

}  // namespace fcswitch

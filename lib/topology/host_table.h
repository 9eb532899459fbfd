#pragma once
// The hosts of a topology, numbered: routes, ECMP predictions and failure checks name a
// destination by this number. Hosts are numbered in switch order, then port order, which for
// fat_tree(k) is the GFC paper's H_0…H_(k³/4−1) (see fat_tree()).

#include <string>
#include <string_view>
#include <vector>

#include "topology/topology.h"

namespace fcswitch::topology {

using HostId = int;

struct HostAttachment {
  std::string name;
  int sw = -1;    // the switch the host hangs off
  int port = -1;  // the switch's port facing the host
};

class HostTable {
 public:
  explicit HostTable(const Topology& topo);

  int size() const { return static_cast<int>(hosts_.size()); }
  const HostAttachment& at(HostId host) const { return hosts_[host]; }
  const std::vector<HostAttachment>& all() const { return hosts_; }
  HostId find(std::string_view name) const;  // -1 when absent

 private:
  std::vector<HostAttachment> hosts_;
};

}  // namespace fcswitch::topology

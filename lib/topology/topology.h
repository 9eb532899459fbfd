#pragma once
// A network as Tagger sees it (Tagger §5, Table 2): switches with numbered ports, each port
// leading to another switch's port, to a host, or nowhere. Every switch port is also the
// ingress A_i of the tagged graph; every host-facing port has a host NIC on its far side,
// which is where a path's last hop arrives. Pure: std only.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fcswitch::topology {

// Global ids of the places a packet arrives at: switch ingress ports [0, switch_ports()), then
// one "hosts of switch s" endpoint per switch with hosts [switch_ports(), endpoints()). The
// hosts of a switch are one sink in the tagged graph: a host never forwards, so which of them
// a packet reaches changes no buffer dependency (rules to them cover every host port).
using EndpointId = int32_t;

enum class PeerKind : uint8_t { kNone, kSwitch, kHost };

struct TopologyPort {
  std::string name;
  PeerKind peer = PeerKind::kNone;
  int peer_switch = -1;  // kSwitch
  int peer_port = -1;    // kSwitch: port index on peer_switch
  std::string host;      // kHost: the host's name
};

struct TopologySwitch {
  std::string name;
  int tier = -1;  // Clos: 0 ToR, 1 leaf/aggregation, 2 spine/core; -1 when not layered
  std::vector<TopologyPort> ports;
  EndpointId first_endpoint = 0;  // the ingress id of port 0
  EndpointId hosts = -1;          // the hosts' endpoint; -1 without hosts
  std::vector<int> host_ports;    // ports facing hosts, ascending
};

class Topology {
 public:
  int add_switch(std::string name, int tier = -1);
  int add_port(int sw, std::string name);  // unconnected; returns the port index
  // Connects two free ports (each must exist).
  void link(int switch_a, int port_a, int switch_b, int port_b);
  // A new port on each switch, linked; names are the peers' names unless given.
  void link_new_ports(int switch_a, int switch_b);
  // A host on a port of `sw` (a new port named after the host unless `port` is given).
  int attach_host(int sw, std::string host, int port = -1);

  // Assigns endpoint ids; called once the topology is complete (generators do it).
  void finish();

  int switches() const { return static_cast<int>(switches_.size()); }
  const TopologySwitch& at(int sw) const { return switches_[sw]; }
  const std::vector<TopologySwitch>& all() const { return switches_; }
  int switch_index(std::string_view name) const;  // -1 when absent
  int port_index(int sw, std::string_view name) const;

  int switch_ports() const { return switch_ports_; }
  int endpoints() const { return switch_ports_ + host_groups_; }
  EndpointId ingress(int sw, int port) const { return switches_[sw].first_endpoint + port; }
  bool is_hosts(EndpointId e) const { return e >= switch_ports_; }
  // For a switch ingress endpoint: its switch and port.
  int switch_of(EndpointId e) const { return endpoint_switch_[e]; }
  int port_of(EndpointId e) const { return endpoint_port_[e]; }
  // Where a packet sent out of (sw, port) arrives: the peer switch's ingress or the switch's
  // hosts endpoint; -1 when the port leads nowhere.
  EndpointId far_end(int sw, int port) const;
  // For a switch ingress endpoint: the (switch, port) that sends into it (-1 from a host); for
  // a hosts endpoint: the switch whose hosts it is.
  int sender_switch(EndpointId e) const { return sender_switch_[e]; }
  int sender_port(EndpointId e) const { return sender_port_[e]; }
  bool faces_host(EndpointId e) const {
    return !is_hosts(e) && at(switch_of(e)).ports[port_of(e)].peer == PeerKind::kHost;
  }
  std::string endpoint_name(EndpointId e) const;  // "A:3", or "hosts of A"
  int links() const;                              // switch-to-switch links
  int host_ports() const;
  std::vector<int> ports_per_switch() const;

 private:
  std::vector<TopologySwitch> switches_;
  int switch_ports_ = 0;
  int host_groups_ = 0;
  std::vector<int> endpoint_switch_, endpoint_port_, sender_switch_, sender_port_;
};

}  // namespace fcswitch::topology

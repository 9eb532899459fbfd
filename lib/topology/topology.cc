#include "topology/topology.h"

#include <stdexcept>
#include <string_view>

namespace fcswitch::topology {

int Topology::add_switch(std::string name, int tier) {
  TopologySwitch s;
  s.name = std::move(name);
  s.tier = tier;
  switches_.push_back(std::move(s));
  return static_cast<int>(switches_.size()) - 1;
}

int Topology::add_port(int sw, std::string name) {
  TopologyPort port;
  port.name = std::move(name);
  switches_.at(sw).ports.push_back(std::move(port));
  return static_cast<int>(switches_[sw].ports.size()) - 1;
}

void Topology::link(int switch_a, int port_a, int switch_b, int port_b) {
  TopologyPort& a = switches_.at(switch_a).ports.at(port_a);
  TopologyPort& b = switches_.at(switch_b).ports.at(port_b);
  if (a.peer != PeerKind::kNone || b.peer != PeerKind::kNone)
    throw std::invalid_argument("topology: port linked twice: " + switches_[switch_a].name + ":" +
                                a.name + " or " + switches_[switch_b].name + ":" + b.name);
  a.peer = b.peer = PeerKind::kSwitch;
  a.peer_switch = switch_b;
  a.peer_port = port_b;
  b.peer_switch = switch_a;
  b.peer_port = port_a;
}

void Topology::link_new_ports(int switch_a, int switch_b) {
  const int pa = add_port(switch_a, switches_[switch_b].name);
  const int pb = add_port(switch_b, switches_[switch_a].name);
  link(switch_a, pa, switch_b, pb);
}

int Topology::attach_host(int sw, std::string host, int port) {
  if (port < 0) port = add_port(sw, host);
  TopologyPort& p = switches_.at(sw).ports.at(port);
  if (p.peer != PeerKind::kNone)
    throw std::invalid_argument("topology: host on a linked port " + switches_[sw].name + ":" +
                                p.name);
  p.peer = PeerKind::kHost;
  p.host = std::move(host);
  return port;
}

void Topology::finish() {
  switch_ports_ = 0;
  for (auto& s : switches_) {
    s.first_endpoint = switch_ports_;
    switch_ports_ += static_cast<int>(s.ports.size());
  }
  endpoint_switch_.assign(switch_ports_, -1);
  endpoint_port_.assign(switch_ports_, -1);
  sender_switch_.assign(switch_ports_, -1);
  sender_port_.assign(switch_ports_, -1);
  host_groups_ = 0;
  for (int sw = 0; sw < switches(); ++sw) {
    TopologySwitch& s = switches_[sw];
    s.host_ports.clear();
    for (int p = 0; p < static_cast<int>(s.ports.size()); ++p) {
      const EndpointId e = ingress(sw, p);
      endpoint_switch_[e] = sw;
      endpoint_port_[e] = p;
      const TopologyPort& port = s.ports[p];
      if (port.peer == PeerKind::kSwitch) {
        sender_switch_[e] = port.peer_switch;
        sender_port_[e] = port.peer_port;
      } else if (port.peer == PeerKind::kHost) {
        s.host_ports.push_back(p);
      }
    }
    s.hosts = -1;
    if (!s.host_ports.empty()) {
      s.hosts = switch_ports_ + host_groups_++;
      endpoint_switch_.push_back(sw);
      endpoint_port_.push_back(-1);
      sender_switch_.push_back(sw);
      sender_port_.push_back(-1);
    }
  }
}

int Topology::switch_index(std::string_view name) const {
  for (int i = 0; i < switches(); ++i)
    if (switches_[i].name == name) return i;
  return -1;
}

int Topology::port_index(int sw, std::string_view name) const {
  const auto& ports = switches_.at(sw).ports;
  for (int i = 0; i < static_cast<int>(ports.size()); ++i)
    if (ports[i].name == name) return i;
  return -1;
}

EndpointId Topology::far_end(int sw, int port) const {
  const TopologyPort& p = switches_[sw].ports[port];
  if (p.peer == PeerKind::kSwitch) return ingress(p.peer_switch, p.peer_port);
  if (p.peer == PeerKind::kHost) return switches_[sw].hosts;
  return -1;
}

std::string Topology::endpoint_name(EndpointId e) const {
  const TopologySwitch& s = switches_[endpoint_switch_[e]];
  if (is_hosts(e)) return "hosts of " + s.name;
  return s.name + ":" + s.ports[endpoint_port_[e]].name;
}

std::vector<int> Topology::ports_per_switch() const {
  std::vector<int> out;
  for (const auto& s : switches_) out.push_back(static_cast<int>(s.ports.size()));
  return out;
}

int Topology::host_ports() const {
  int n = 0;
  for (const auto& s : switches_) n += static_cast<int>(s.host_ports.size());
  return n;
}

int Topology::links() const {
  int ends = 0;
  for (const auto& s : switches_)
    for (const auto& p : s.ports) ends += p.peer == PeerKind::kSwitch;
  return ends / 2;
}

}  // namespace fcswitch::topology

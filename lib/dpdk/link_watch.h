#pragma once
// Watches the links of a program's ethdev ports from its control thread: says when a link
// goes down or comes back (with its speed), and calls `on_restored(port)` when one comes back,
// so that engines which speak only on change say their state again (a stage sent while the
// link was down is lost; the peer may be a new process: fc::FeedbackGenerator::link_restored).
// Polled now and then (rte_eth_link_get_nowait does not wait for the PHY).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fcswitch::dpdk {

class LinkWatch {
 public:
  struct Port {
    uint16_t eth_id;
    std::string name;
  };
  LinkWatch(std::vector<Port> ports, std::function<void(size_t port)> on_restored);

  // Reads each link; logs and acts on changes. The first poll only logs what it finds.
  void poll();
  uint64_t restores(size_t port) const { return restores_[port]; }

 private:
  std::vector<Port> ports_;
  std::function<void(size_t)> on_restored_;
  std::vector<int> up_;  // -1 not read yet, 0 down, 1 up
  std::vector<uint64_t> restores_;
};

}  // namespace fcswitch::dpdk

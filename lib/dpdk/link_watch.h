#pragma once
// Watches the links of a program's ethdev ports from its control thread: says when a link
// goes down or comes back (with its speed), and calls `on_restored(port)` when one comes back,
// so that engines which speak only on change say their state again (a stage sent while the
// link was down is lost; the peer may be a new process: fc::FeedbackGenerator::link_restored).
//
// Polled now and then (rte_eth_link_get_nowait does not wait for the PHY). Where the driver
// raises link-status-change interrupts (dpdk/eth_port.cc turns them on where it declares
// them), the EAL's interrupt thread counts each change as it happens: a flap shorter than the
// polls is still seen, counted and answered, and changed() tells the control thread to poll
// at once. In Debian's DPDK 22.11, ixgbe, virtio and vhost raise them; memif and tap declare
// them but never raise one; ring, null, pcap and af_packet have none.
//
// A memif client whose link goes down dials its server again until it answers (MemifRedial).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dpdk/memif_redial.h"

namespace fcswitch::dpdk {

class LinkWatch {
 public:
  struct Port {
    uint16_t eth_id;
    std::string name;
    bool redials = false;  // a memif client (EthPort::redials)
  };
  LinkWatch(std::vector<Port> ports, std::function<void(size_t port)> on_restored);
  ~LinkWatch();  // no interrupt callback outlives it
  LinkWatch(const LinkWatch&) = delete;
  LinkWatch& operator=(const LinkWatch&) = delete;

  // Reads each link; logs and acts on changes. The first poll only logs what it finds.
  void poll();
  // An interrupt said a link changed since the last poll.
  bool changed() const;
  uint64_t restores(size_t port) const { return restores_[port]; }
  // Times the link went down after the first poll, seen by a poll or by an interrupt.
  uint64_t downs(size_t port) const { return downs_[port]; }

  // A port's link interrupts: written by the EAL's interrupt thread, read by poll().
  struct Interrupts {
    std::atomic<uint64_t> changes{0};
    std::atomic<uint64_t> downs{0};
  };

 private:
  std::vector<Port> ports_;
  std::function<void(size_t)> on_restored_;
  std::unique_ptr<Interrupts[]> interrupts_;
  std::vector<uint64_t> changes_seen_, downs_seen_;  // interrupts_ as of the last poll
  std::vector<int> up_;                              // -1 not read yet, 0 down, 1 up
  std::vector<uint64_t> restores_, downs_;
  std::vector<std::unique_ptr<MemifRedial>> redials_;  // null where the port does not redial
};

}  // namespace fcswitch::dpdk

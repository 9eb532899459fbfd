#pragma once
// A SwitchNode on plain rte_rings that the test feeds and drains, every task polled once a step
// in the layout's order: what one switch does with given frames, with no ethdev, no clock and
// no thread. Each port's MAC is `mac_base` + its index.

#include <rte_mempool.h>
#include <rte_ring.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "node/switch_node.h"
#include "switch/fwd/pyrrha_path_oracle.h"

namespace fcswitch::test_beds {

// What left by a port: the frame's bytes and the pool its mbuf came from.
struct SentFrame {
  std::vector<uint8_t> bytes;
  rte_mempool* pool = nullptr;
};

class RingNodeBed {
 public:
  // `frame_mbufs`: the pool the test's frames come from; `ring_frames`: each port's two rings.
  RingNodeBed(const std::string& name, const config::SwitchConfig& config, uint64_t mac_base,
              std::shared_ptr<const PyrrhaPathOracle> oracle = nullptr, unsigned frame_mbufs = 63,
              unsigned ring_frames = 64);
  ~RingNodeBed();
  RingNodeBed(const RingNodeBed&) = delete;
  RingNodeBed& operator=(const RingNodeBed&) = delete;

  SwitchNode& node() { return *node_; }
  rte_mempool* control_pool() const { return control_pool_; }

  // `frame` arrives at `port`.
  void send(int port, const std::vector<uint8_t>& frame);
  // Every task polled once, `times` times over.
  void step(int times = 1);
  // What `port` sent since the last drain.
  std::vector<SentFrame> drain(int port);

 private:
  rte_mempool* control_pool_ = nullptr;
  rte_mempool* frame_pool_ = nullptr;
  std::vector<rte_ring*> in_, out_;
  std::unique_ptr<SwitchNode> node_;
  uint64_t now_ = 0;
};

}  // namespace fcswitch::test_beds

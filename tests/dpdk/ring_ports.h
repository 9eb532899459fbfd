#pragma once
// Three net_ring ports a test feeds and drains by hand, and a switch's tasks found by name:
// for tests that poll one SwitchNode's tasks themselves, one at a time.

#include <gtest/gtest.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "node/switch_node.h"

namespace fcswitch {

// Three net_ring ports (h0, h1, sink) the test feeds and drains by hand. The switch closes
// the devices when it goes; the rings are freed here, after it.
class RingPorts {
 public:
  explicit RingPorts(const std::string& name) {
    pool_ =
        rte_pktmbuf_pool_create((name + "_pool").c_str(), 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
    if (!pool_) throw std::runtime_error("pool");
    for (int p = 0; p < 3; ++p) {
      const std::string base = fmt::format("{}_{}", name, p);
      rte_ring* in = rte_ring_create((base + "_in").c_str(), 256, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
      rte_ring* out =
          rte_ring_create((base + "_out").c_str(), 256, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
      if (!in || !out) throw std::runtime_error("rings");
      const int id = rte_eth_from_rings(("r" + base).c_str(), &in, 1, &out, 1, 0);
      char device[RTE_ETH_NAME_MAX_LEN];
      if (id < 0 || rte_eth_dev_get_name_by_port(static_cast<uint16_t>(id), device) != 0)
        throw std::runtime_error("rte_eth_from_rings " + base);
      in_.push_back(in);
      out_.push_back(out);
      devices_.push_back(device);
    }
  }
  ~RingPorts() {
    for (size_t p = 0; p < in_.size(); ++p) {
      drain(static_cast<int>(p));
      rte_mbuf* m;
      while (rte_ring_dequeue(in_[p], reinterpret_cast<void**>(&m)) == 0) rte_pktmbuf_free(m);
      rte_ring_free(in_[p]);
      rte_ring_free(out_[p]);
    }
    rte_mempool_free(pool_);
  }

  const std::string& device(int port) const { return devices_[port]; }
  void send(int port, const std::vector<uint8_t>& frame) {
    rte_mbuf* m = rte_pktmbuf_alloc(pool_);
    ASSERT_NE(m, nullptr);
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
                frame.size());
    ASSERT_EQ(rte_ring_sp_enqueue(in_[port], m), 0);
  }
  // What the switch sent out of `port`, in order.
  std::vector<std::vector<uint8_t>> drain(int port) {
    std::vector<std::vector<uint8_t>> frames;
    rte_mbuf* m;
    while (rte_ring_sc_dequeue(out_[port], reinterpret_cast<void**>(&m)) == 0) {
      const auto* data = rte_pktmbuf_mtod(m, const uint8_t*);
      frames.emplace_back(data, data + rte_pktmbuf_data_len(m));
      rte_pktmbuf_free(m);
    }
    return frames;
  }
  unsigned mbufs_in_use() const { return rte_mempool_in_use_count(pool_); }
  // Fills what `port` sends into (the switch's TX finds no room) with empty mbufs, which
  // drain() takes back: a link that takes nothing, as a memif whose peer is not there.
  void fill_out(int port) {
    rte_mbuf* m = nullptr;
    while (!rte_ring_full(out_[port]) && (m = rte_pktmbuf_alloc(pool_)) != nullptr)
      ASSERT_EQ(rte_ring_sp_enqueue(out_[port], m), 0);
  }

 private:
  rte_mempool* pool_ = nullptr;
  std::vector<rte_ring*> in_, out_;
  std::vector<std::string> devices_;
};

// The switch's tasks by name (lcore_tasks() holds them in the layout's order).
inline Task& task(const SwitchNode& node, const std::string& name) {
  for (const auto& lcore : node.lcore_tasks())
    for (Task* t : lcore)
      if (t->name() == name) return *t;
  throw std::runtime_error("no task " + name);
}

}  // namespace fcswitch

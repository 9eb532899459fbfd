#include "ring_node_bed.h"

#include <rte_mbuf.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "core/tick_rate.h"
#include "switch/control_pool.h"
#include "switch/ring_port_io.h"

namespace fcswitch::test_beds {

RingNodeBed::RingNodeBed(const std::string& name, const config::SwitchConfig& config,
                         uint64_t mac_base, std::shared_ptr<const PyrrhaPathOracle> oracle,
                         unsigned frame_mbufs, unsigned ring_frames) {
  control_pool_ = create_control_pool(name + "_ctl", 63, 0);
  frame_pool_ = rte_pktmbuf_pool_create((name + "_hp").c_str(), frame_mbufs, 0, 0,
                                        RTE_MBUF_DEFAULT_BUF_SIZE, 0);
  if (!control_pool_ || !frame_pool_) throw std::runtime_error("pools");
  std::vector<NodePort> ports;
  for (size_t p = 0; p < config.ports.size(); ++p) {
    in_.push_back(rte_ring_create(fmt::format("{}_i{}", name, p).c_str(), ring_frames, 0,
                                  RING_F_SP_ENQ | RING_F_SC_DEQ));
    out_.push_back(rte_ring_create(fmt::format("{}_o{}", name, p).c_str(), ring_frames, 0,
                                   RING_F_SP_ENQ | RING_F_SC_DEQ));
    if (!in_.back() || !out_.back()) throw std::runtime_error("rings");
    ports.push_back(NodePort{std::make_unique<RingPortIo>(in_.back(), out_.back()),
                             wire::MacAddress{mac_base + p}});
  }
  node_ = std::make_unique<SwitchNode>(config, kNsPerSecond, std::move(ports), control_pool_,
                                       std::move(oracle));
}

RingNodeBed::~RingNodeBed() {
  for (size_t p = 0; p < out_.size(); ++p) drain(static_cast<int>(p));
  node_->flush();
  node_.reset();
  for (rte_ring* ring : in_) {
    rte_mbuf* m;
    while (rte_ring_sc_dequeue(ring, reinterpret_cast<void**>(&m)) == 0) rte_pktmbuf_free(m);
    rte_ring_free(ring);
  }
  for (rte_ring* ring : out_) rte_ring_free(ring);
  rte_mempool_free(frame_pool_);
  rte_mempool_free(control_pool_);
}

void RingNodeBed::send(int port, const std::vector<uint8_t>& frame) {
  rte_mbuf* m = rte_pktmbuf_alloc(frame_pool_);
  ASSERT_NE(m, nullptr);
  std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
              frame.size());
  ASSERT_EQ(rte_ring_sp_enqueue(in_[static_cast<size_t>(port)], m), 0);
}

void RingNodeBed::step(int times) {
  for (int i = 0; i < times; ++i)
    for (const auto& lcore : node_->lcore_tasks())
      for (Task* task : lcore) task->run_once(now_++);
}

std::vector<SentFrame> RingNodeBed::drain(int port) {
  std::vector<SentFrame> frames;
  rte_mbuf* m;
  while (rte_ring_sc_dequeue(out_[static_cast<size_t>(port)], reinterpret_cast<void**>(&m)) == 0) {
    const auto* data = rte_pktmbuf_mtod(m, const uint8_t*);
    frames.push_back(SentFrame{{data, data + rte_pktmbuf_data_len(m)}, m->pool});
    rte_pktmbuf_free(m);
  }
  return frames;
}

}  // namespace fcswitch::test_beds

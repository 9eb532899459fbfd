#pragma once
// A switch on ring-backed ethdevs (net_ring), stepped by the test in virtual nanoseconds:
// at each step every task of the SwitchNode is polled once, and LinkEnds play the far end
// of each link through the port's two rings — hosts that send paced traffic and obey the
// switch's feedback with the same engines the switch runs, and a sink draining at line rate.
// Deterministic: no thread, no clock, no sleep.

#include <rte_mempool.h>
#include <rte_ring.h>

#include <memory>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "fc/engine.h"
#include "frame_builder.h"
#include "node/switch_node.h"

namespace fcswitch::testbed {

// A data stream of a LinkEnd: frames built from `spec`, held back by the end's gate when
// `gated` (its lossless priority).
struct Stream {
  traffic::FrameSpec spec;
  bool gated = false;
};

class LinkEnd {
 public:
  LinkEnd(rte_ring* to_switch, rte_ring* from_switch, rte_mempool* pool, uint64_t rate_bps);
  ~LinkEnd();

  void add_stream(const Stream& stream) { streams_.push_back(stream); }
  // The end's own engine for the gated streams (its priority = `priority`); PFC-layout frames
  // with `stage_opcode` are accepted too (buffer-based GFC).
  void set_engine(fc::EngineInstance engine, int priority, uint16_t stage_opcode = 0x0101);
  // Take what the switch sends at most at the link rate (a sink); 0: take all at once.
  void drain_at(uint64_t rate_bps) { drain_rate_bps_ = rate_bps; }
  // Send a PFC pause of `quanta` for `priority` every `period_ns` (a misbehaving neighbour).
  void storm(int priority, uint16_t quanta, uint64_t period_ns);
  void stop_sending() { sending_ = false; }
  // Every n-th gated frame is lost on the wire: counted as sent by the gate (FCTBS), never
  // delivered.
  void lose_every(uint64_t n) { lose_every_ = n; }

  void step(uint64_t now_ns);

  uint64_t sent(int priority) const { return sent_[priority]; }
  uint64_t received(int priority) const { return received_[priority]; }
  uint64_t pauses_received() const { return pauses_received_; }
  uint64_t resumes_received() const { return resumes_received_; }
  uint64_t credit_frames_received() const { return credit_frames_received_; }
  uint32_t last_credit_limit() const {
    return last_credit_limit_;
  }  // FCCL of the engine's priority
  uint64_t lost() const { return lost_; }
  // Every time value (pause quanta or GFC stage) received for the engine's priority, in order.
  const std::vector<uint16_t>& class_times() const { return class_times_; }
  const fc::EngineInstance& engine() const { return engine_; }

 private:
  void receive(uint64_t now);
  void send_feedback(uint64_t now);
  void enqueue(const std::vector<uint8_t>& frame);

  rte_ring* to_switch_;
  rte_ring* from_switch_;
  rte_mempool* pool_;
  TickRate ns_;
  uint64_t rate_bps_;
  uint64_t drain_rate_bps_ = 0;
  std::vector<Stream> streams_;
  size_t next_stream_ = 0;
  uint32_t sequence_ = 0;
  bool sending_ = true;
  uint64_t tx_busy_until_ = 0;
  uint64_t rx_busy_until_ = 0;
  fc::EngineInstance engine_;
  int engine_priority_ = 0;
  uint16_t stage_opcode_ = 0x0101;
  std::vector<uint16_t> class_times_;
  int storm_priority_ = -1;
  uint16_t storm_quanta_ = 0;
  uint64_t storm_period_ns_ = 0;
  uint64_t next_storm_ = 0;
  uint64_t sent_[8] = {};
  uint64_t received_[8] = {};
  uint64_t pauses_received_ = 0;
  uint64_t resumes_received_ = 0;
  uint64_t credit_frames_received_ = 0;
  uint32_t last_credit_limit_ = 0;
  uint64_t lose_every_ = 0;
  uint64_t gated_sent_ = 0;
  uint64_t lost_ = 0;
};

class RingTestbed {
 public:
  // `tx_ring_packets`: what the switch's TX may hand to each port before the far end takes
  // it (the NIC TX ring: small, as the 82599 profile has it).
  RingTestbed(const std::string& name, int ports, unsigned tx_ring_packets);
  ~RingTestbed();

  // The ethdev name of port p, for [[ports]] device.
  std::string device(int port) const;
  void start(const config::SwitchConfig& config);
  SwitchNode& node() { return *node_; }

  LinkEnd& end(int port) { return *ends_[port]; }
  void step(uint64_t now_ns);
  // Steps until the switch holds nothing and every task has polled twice since; returns the
  // virtual time reached.
  uint64_t settle(uint64_t now_ns, uint64_t step_ns);
  void stop();  // destroys the switch (ports closed, pools freed)
  unsigned host_mbufs_in_use() const;

 private:
  void drain_rings();

  std::string name_;
  std::vector<rte_ring*> to_switch_, from_switch_;
  std::vector<std::string> devices_;
  rte_mempool* host_pool_ = nullptr;
  std::vector<std::unique_ptr<LinkEnd>> ends_;
  std::unique_ptr<SwitchNode> node_;
  std::vector<Task*> tasks_;
};

}  // namespace fcswitch::testbed

#include "ring_testbed.h"

#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <cstring>
#include <stdexcept>

#include "core/units.h"
#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/ether_type.h"
#include "wire/frame_header.h"
#include "wire/pfc_frame.h"

namespace fcswitch::testbed {

namespace {
constexpr uint64_t kTestbedHostMac = 0x02'00'00'00'FF'00ull;
}

LinkEnd::LinkEnd(rte_ring* to_switch, rte_ring* from_switch, rte_mempool* pool, uint64_t rate_bps)
    : to_switch_(to_switch), from_switch_(from_switch), pool_(pool), rate_bps_(rate_bps) {}

LinkEnd::~LinkEnd() = default;

void LinkEnd::set_engine(fc::EngineInstance engine, int priority, uint16_t stage_opcode) {
  engine_ = std::move(engine);
  engine_priority_ = priority;
  stage_opcode_ = stage_opcode;
}

void LinkEnd::storm(int priority, uint16_t quanta, uint64_t period_ns) {
  storm_priority_ = priority;
  storm_quanta_ = quanta;
  storm_period_ns_ = period_ns;
}

void LinkEnd::enqueue(const std::vector<uint8_t>& frame) {
  rte_mbuf* m = rte_pktmbuf_alloc(pool_);
  if (!m) throw std::runtime_error("host pool empty");
  std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
              frame.size());
  if (rte_ring_sp_enqueue(to_switch_, m) != 0) {
    rte_pktmbuf_free(m);
    throw std::runtime_error("switch RX ring full: the test paces too fast");
  }
}

void LinkEnd::receive(uint64_t now) {
  rte_mbuf* m;
  while (true) {
    if (drain_rate_bps_ && now < rx_busy_until_) break;
    if (rte_ring_sc_dequeue(from_switch_, reinterpret_cast<void**>(&m)) != 0) break;
    const auto* data = rte_pktmbuf_mtod(m, const uint8_t*);
    const uint32_t length = rte_pktmbuf_data_len(m);
    if (drain_rate_bps_)
      rx_busy_until_ =
          std::max(rx_busy_until_, now) +
          ns_.for_bits((length + kEthernetOverheadBytes) * kBitsPerByte, drain_rate_bps_);
    const auto kind = wire::control_frame_kind(data, length, wire::kEtherTypeMacControl);
    if (kind == wire::ControlFrameKind::kMacControl) {
      const auto pfc = wire::decode_pfc(data, length, stage_opcode_);
      for (int i = 0; i < 8; ++i) {
        if (pfc.status != wire::ControlDecodeStatus::kOk ||
            !has_priority(pfc.frame.class_enable, i))
          continue;
        (pfc.frame.time[i] ? pauses_received_ : resumes_received_)++;
        if (i == engine_priority_) class_times_.push_back(pfc.frame.time[i]);
        if (engine_.gate && i == engine_priority_)
          engine_.gate->on_message(fc::ControlMessage{now, fc::ControlKind::kClassTime,
                                                      static_cast<uint8_t>(i), pfc.frame.opcode,
                                                      pfc.frame.time[i]});
      }
    } else if (kind == wire::ControlFrameKind::kCredit) {
      const auto credit = wire::decode_credit(data, length);
      ++credit_frames_received_;
      if (has_priority(credit.frame.entry_mask, engine_priority_))
        last_credit_limit_ = credit.frame.entry[engine_priority_].fccl;
      if (engine_.gate && has_priority(credit.frame.entry_mask, engine_priority_))
        engine_.gate->on_message(fc::ControlMessage{now, fc::ControlKind::kCreditLimit,
                                                    static_cast<uint8_t>(engine_priority_), 0,
                                                    credit.frame.entry[engine_priority_].fccl});
    } else {
      const auto header = wire::parse_frame_header(data, length);
      ++received_[header.dscp >> 3];
    }
    rte_pktmbuf_free(m);
  }
}

void LinkEnd::send_feedback(uint64_t now) {
  if (engine_.generator) {
    // A host receives no lossless traffic: its generator only carries its FCTBS (CBFC).
    fc::FeedbackOut out;
    engine_.generator->poll(now, fc::IngressView{0, 0}, out);
    if (out.credit_enable) {
      std::vector<uint8_t> frame(wire::kCreditFrameBytes);
      wire::encode_credit(
          wire::CreditFrame{wire::MacAddress{kTestbedHostMac}, out.credit_enable, out.credit},
          frame.data());
      enqueue(frame);
    }
  }
  if (storm_priority_ >= 0 && now >= next_storm_) {
    wire::PfcFrame pause{
        wire::MacAddress{kTestbedHostMac}, static_cast<uint8_t>(1u << storm_priority_), {}};
    pause.time[storm_priority_] = storm_quanta_;
    std::vector<uint8_t> frame(wire::kPfcFrameBytes);
    wire::encode_pfc(pause, wire::kEtherTypeMacControl, frame.data());
    enqueue(frame);
    next_storm_ = now + storm_period_ns_;
  }
}

void LinkEnd::step(uint64_t now) {
  receive(now);
  if (engine_.gate) engine_.gate->poll(now);
  if (!sending_) storm_priority_ = -1;
  send_feedback(now);
  if (!sending_ || streams_.empty() || now < tx_busy_until_) return;
  // Round robin over the streams the gate lets go.
  for (size_t tried = 0; tried < streams_.size(); ++tried) {
    Stream& stream = streams_[next_stream_];
    next_stream_ = (next_stream_ + 1) % streams_.size();
    if (stream.gated && engine_.gate && !engine_.gate->may_send(now, stream.spec.size)) continue;
    traffic::FrameSpec spec = stream.spec;
    spec.sequence = sequence_++;
    if (stream.gated && engine_.gate) engine_.gate->on_dequeue(now, spec.size);
    if (stream.gated && lose_every_ && ++gated_sent_ % lose_every_ == 0) {
      ++lost_;
    } else {
      enqueue(traffic::build_frame(spec));
      ++sent_[spec.dscp >> 3];
    }
    tx_busy_until_ =
        now + ns_.for_bits((spec.size + kEthernetOverheadBytes) * kBitsPerByte, rate_bps_);
    return;
  }
}

RingTestbed::RingTestbed(const std::string& name, int ports, unsigned tx_ring_packets)
    : name_(name) {
  host_pool_ =
      rte_pktmbuf_pool_create((name + "_hosts").c_str(), 8191, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
  if (!host_pool_) throw std::runtime_error("host pool");
  for (int p = 0; p < ports; ++p) {
    const std::string base = name + "_" + std::to_string(p);
    rte_ring* in = rte_ring_create((base + "_in").c_str(), 4096, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
    rte_ring* out = rte_ring_create((base + "_out").c_str(), tx_ring_packets, 0,
                                    RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
    if (!in || !out) throw std::runtime_error("rings");
    const int id = rte_eth_from_rings(("r" + base).c_str(), &in, 1, &out, 1, 0);
    char device[RTE_ETH_NAME_MAX_LEN];
    if (id < 0 || rte_eth_dev_get_name_by_port(static_cast<uint16_t>(id), device) != 0)
      throw std::runtime_error("rte_eth_from_rings " + base);
    to_switch_.push_back(in);
    from_switch_.push_back(out);
    devices_.push_back(device);
    ends_.push_back(std::make_unique<LinkEnd>(in, out, host_pool_, 10'000'000'000));
  }
}

RingTestbed::~RingTestbed() {
  stop();
  ends_.clear();
  drain_rings();
  for (size_t p = 0; p < to_switch_.size(); ++p) {
    rte_ring_free(to_switch_[p]);
    rte_ring_free(from_switch_[p]);
  }
  rte_mempool_free(host_pool_);
}

std::string RingTestbed::device(int port) const {
  return devices_[port];
}

void RingTestbed::start(const config::SwitchConfig& config) {
  node_ = std::make_unique<SwitchNode>(config, kNsPerSecond);  // ticks are virtual ns
  tasks_.clear();
  for (const auto& lcore : node_->lcore_tasks())
    for (Task* t : lcore) tasks_.push_back(t);
}

void RingTestbed::step(uint64_t now) {
  for (auto& end : ends_) end->step(now);
  for (Task* t : tasks_) t->run_once(now);
}

uint64_t RingTestbed::settle(uint64_t now, uint64_t step_ns) {
  for (auto& end : ends_) end->stop_sending();
  SwitchProgress before = node_->progress();
  for (int i = 0; i < 1'000'000; ++i) {
    for (int polls = 0; polls < 2; ++polls) step(now += step_ns);
    const SwitchProgress after = node_->progress();
    bool links_empty = true;  // the far ends have taken everything sent to them
    for (rte_ring* r : from_switch_) links_empty &= rte_ring_empty(r) != 0;
    if (links_empty && SwitchNode::settled(before, after)) return now;
    before = after;
  }
  throw std::runtime_error("switch did not settle: work " + std::to_string(before.work) +
                           (before.empty ? " empty" : " not empty"));
}

void RingTestbed::drain_rings() {
  rte_mbuf* m;
  for (size_t p = 0; p < to_switch_.size(); ++p) {
    while (rte_ring_dequeue(to_switch_[p], reinterpret_cast<void**>(&m)) == 0) rte_pktmbuf_free(m);
    while (rte_ring_dequeue(from_switch_[p], reinterpret_cast<void**>(&m)) == 0)
      rte_pktmbuf_free(m);
  }
}

void RingTestbed::stop() {
  if (!node_) return;
  node_->flush();
  drain_rings();  // the switch's own frames go back to its pool before the pool goes
  tasks_.clear();
  node_.reset();
}

unsigned RingTestbed::host_mbufs_in_use() const {
  return rte_mempool_in_use_count(host_pool_);
}

}  // namespace fcswitch::testbed

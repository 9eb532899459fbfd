#include "switch/rx_task.h"

#include <rte_mbuf.h>
#include <rte_ring_elem.h>

#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {

RxTask::RxTask(std::string name, int port, PortIo& io, const RxSettings& settings,
               SwitchState& state)
    : Task(std::move(name)),
      port_(port),
      io_(io),
      settings_(settings),
      state_(state),
      drops_(state.ports) {}

bool RxTask::post(const fc::ControlMessage* messages, unsigned count) {
  // All of a frame or none of it: a gate never sees half a frame.
  if (count == 0) return true;
  if (rte_ring_sp_enqueue_bulk_elem(state_.control_rings[port_].get(), messages,
                                    sizeof(fc::ControlMessage), count, nullptr) != count)
    return false;
  state_.control_posted[port_].messages.add(count);
  state_.tx_wakes.mark(port_);
  return true;
}

bool RxTask::take_control(rte_mbuf* m, wire::ControlFrameKind kind, uint64_t now) {
  const uint8_t* data = rte_pktmbuf_mtod(m, const uint8_t*);
  const uint32_t length = rte_pktmbuf_data_len(m);
  fc::ControlMessage messages[kNumPriorities];
  unsigned count = 0;
  wire::ControlDecodeStatus status;
  if (kind == wire::ControlFrameKind::kMacControl) {
    const auto decoded = wire::decode_pfc(data, length, settings_.stage_opcode);
    status = decoded.status;
    for (int i = 0; i < kNumPriorities; ++i)
      if (has_priority(decoded.frame.class_enable, i))
        messages[count++] =
            fc::ControlMessage{now, fc::ControlKind::kClassTime, static_cast<uint8_t>(i),
                               decoded.frame.opcode, decoded.frame.time[i]};
  } else if (kind == wire::ControlFrameKind::kPyrrha) {
    // Checked here; where Pyrrha runs the port's consumer acts on it (FWD's congestion-root
    // table, a host's paused roots). It is never forwarded as data.
    status = wire::decode_pyrrha(data, length).status;
  } else {
    const auto decoded = wire::decode_credit(data, length);
    status = decoded.status;
    for (int i = 0; i < kNumPriorities; ++i)
      if (has_priority(decoded.frame.entry_mask, i))
        messages[count++] =
            fc::ControlMessage{now, fc::ControlKind::kCreditLimit, static_cast<uint8_t>(i), 0,
                               decoded.frame.entry[i].fccl};
  }
  DropReason refused = DropReason::kCount;
  if (status != wire::ControlDecodeStatus::kOk) {
    decode_errors_[static_cast<int>(status)].increment();
    refused = DropReason::kControlInvalid;
  } else if (!settings_.trust) {
    refused = DropReason::kControlUntrusted;
  } else if (!post(messages, count)) {
    refused = DropReason::kControlRingFull;
  }
  if (refused != DropReason::kCount) {
    drops_.add(port_, refused);
    to_free_[to_free_count_++] = m;
    return false;
  }
  // On to FWD, in order with the data: the ABR resync, and Pyrrha's table.
  if (kind == wire::ControlFrameKind::kCredit ||
      (kind == wire::ControlFrameKind::kPyrrha && settings_.pass_pyrrha))
    return true;
  control_frames_.increment();
  to_free_[to_free_count_++] = m;
  return false;
}

bool RxTask::poll(uint64_t now_tsc) {
  // After the stop (shutdown) the port is still read, so that the downstream's pauses,
  // credits, stages and Pyrrha's messages keep reaching the gates and FWD while TX drains: a
  // gate that heard nothing more would send its queues into a downstream that holds it paused
  // (its last word an XON, old credits) and overflow its lossless buffer. Data is not
  // admitted any more: freed as after_stop.
  const bool stopped = state_.rx_stopped.load(std::memory_order_relaxed);
  // Handing over directly, take no more than FWD has room for (all of a burst: FWD empties
  // the handoff each poll); the NIC keeps the rest, as it does when the ring is full.
  const uint16_t room = handoff_ ? handoff_->room() : kBurstSize;
  if (room == 0) return false;
  rte_mbuf* pkts[kBurstSize];
  const uint16_t n = io_.rx_burst(pkts, room);
  if (n == 0) return false;

  rte_mbuf* ring_burst[kBurstSize];
  rte_mbuf** to_fwd = handoff_ ? handoff_->pkts + handoff_->held() : ring_burst;
  uint16_t n_fwd = 0, n_data = 0, after_stop = 0;
  uint64_t bytes = 0;
  for (uint16_t i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    bytes += rte_pktmbuf_pkt_len(m);
    const auto kind = wire::control_frame_kind(
        rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), settings_.control_ether_type);
    if (kind == wire::ControlFrameKind::kData && stopped) {
      ++after_stop;
      to_free_[to_free_count_++] = m;
    } else if (kind == wire::ControlFrameKind::kData) {
      state_.meta.rx_ticks(m) = now_tsc;  // TX reads it: the frame's time inside the switch
      ++n_data;
      to_fwd[n_fwd++] = m;
    } else if (take_control(m, kind, now_tsc)) {
      to_fwd[n_fwd++] = m;
    }
  }
  packets_.add(n);
  bytes_.add(bytes);
  data_packets_.add(n_data);
  if (after_stop) drops_.add(port_, DropReason::kAfterStop, after_stop);
  if (to_free_count_) {
    rte_pktmbuf_free_bulk(to_free_, to_free_count_);
    to_free_count_ = 0;
  }
  if (n_fwd) state_.fwd_inputs.mark(port_);
  if (handoff_) {
    handoff_->count.store(static_cast<uint16_t>(handoff_->held() + n_fwd),
                          std::memory_order_relaxed);
  } else if (n_fwd) {
    const unsigned sent = rte_ring_sp_enqueue_burst(
        state_.fwd_rings[port_].get(), reinterpret_cast<void**>(to_fwd), n_fwd, nullptr);
    if (sent < n_fwd) {
      drops_.add(port_, DropReason::kFwdRingFull, n_fwd - sent);
      rte_pktmbuf_free_bulk(to_fwd + sent, n_fwd - sent);
    }
  }
  return true;
}

}  // namespace fcswitch

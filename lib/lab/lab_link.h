#pragma once
// One direction of a link in the lab (docs/architecture.md): it takes frames from the TX ring of a
// port — what the NIC's TX descriptor ring is on a real port — puts each on the wire when the
// wire is free, at the link rate with the Ethernet overhead counted (a port pacer with no
// line rate of its own), and delivers it into the RX ring of the far port
// after the propagation delay. Frames are never reordered. A frame that finds the far RX ring
// full is dropped and counted, as a NIC counts rx_missed.
//
// Time is in ticks of the lab's clock, virtual or TSC; next_event_ticks() says when the link
// will next act by itself, so a virtual clock can jump there.
//
// Its two ends may be polled by two threads (fclab --threads: the link joins two partitions):
// the sending end (take: the TX ring, the wire's pacing) by one, the receiving end (deliver:
// the far RX ring) by the other. The frames on the wire between them are a single-producer,
// single-consumer ring; what else either end touches is its own, and the rest (up, the
// counters' totals) changes or is read only while neither end runs.

#include <rte_mbuf.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/owned_counter.h"
#include "core/tick_rate.h"
#include "lab/link_fifo.h"
#include "shaping/port_pacer.h"

namespace fcswitch::lab {

struct LabLinkParams {
  uint64_t rate_bps = 10'000'000'000;
  uint64_t delay_ns = 0;  // propagation
  shaping::WireFraming framing{};
  uint64_t catch_up_ticks = 0;  // wall clock: how late a poll may be (rate_limiter.h)
  // The flows' frames come from this pool: their losses are counted apart from the control
  // frames' (PFC, credits), for the lab's frame conservation.
  const rte_mempool* data_pool = nullptr;
  // How far behind the sending end the receiving end may run (another thread's window of the
  // lab's lookahead): frames it has not delivered yet still take room on the wire.
  uint64_t receiver_lag_ticks = 0;
};

class LabLink {
 public:
  LabLink(LinkFifo* from, LinkFifo* to, const LabLinkParams& params, const TickRate& ticks);
  ~LabLink();
  LabLink(const LabLink&) = delete;
  LabLink& operator=(const LabLink&) = delete;

  // Delivers what has arrived and starts what the wire can take. Returns whether a frame moved.
  bool poll(uint64_t now_ticks) {
    const bool delivered = deliver(now_ticks);
    return take(now_ticks) || delivered;
  }
  // The receiving end's half of a poll: what has arrived into the far RX ring. Whether it put
  // frames there (or dropped them there), which wakes the far node on a virtual clock.
  bool deliver(uint64_t now_ticks);
  // The sending end's half: frames from the TX ring onto the wire, as its pacing allows.
  // Whether it took any: room for the near end's TX task.
  bool take(uint64_t now_ticks);
  // The next arrival, or when the wire frees while frames wait; kNeverTicks when idle.
  uint64_t next_event_ticks() const { return std::min(next_delivery_ticks(), next_take_ticks()); }
  // Each end's own: the next arrival; when the wire frees while frames wait.
  uint64_t next_delivery_ticks() const;
  uint64_t next_take_ticks() const;
  // The sending end's: when the first frame its last take put on the wire arrives
  // (kNeverTicks: none).
  uint64_t first_taken_arrival_ticks() const { return first_taken_arrival_ticks_; }

  uint64_t frames_delivered() const { return frames_delivered_.read(); }
  uint64_t bytes_delivered() const { return bytes_delivered_.read(); }
  uint64_t rx_missed() const { return rx_missed_.read(); }
  // A cut cable ([[events]] fail): the frames on the wire are lost, and so is every frame
  // the port sends until the link comes back (set_up(true)). Both counted here.
  void set_up(bool up);
  bool up() const { return up_; }
  uint64_t frames_lost_down() const { return lost_down_.read(); }
  // The flows' frames among rx_missed and frames_lost_down.
  uint64_t data_frames_lost() const { return data_lost_.read(); }
  unsigned in_flight() const { return on_wire(head_.load(std::memory_order_acquire)); }
  // Shutdown, clock stopped: frees the frames on the wire; returns how many.
  unsigned discard_in_flight();

 private:
  struct OnWire {
    rte_mbuf* frame;
    uint64_t arrival_ticks;
  };

  LinkFifo* from_;
  LinkFifo* to_;
  uint64_t delay_ticks_;
  shaping::PortPacer wire_;
  // Circular, one slot always empty: sized for a full delay of minimum frames (and the
  // receiving end's lag). The receiving end owns head_, the sending end tail_; each publishes
  // its own with release and reads the other's with acquire.
  std::vector<OnWire> wire_frames_;
  std::atomic<uint32_t> head_{0};  // the oldest frame on the wire
  std::atomic<uint32_t> tail_{0};  // where the next frame goes
  uint64_t first_taken_arrival_ticks_ = kNeverTicks;
  // The slot after `slot`, round the circle: a compare, not a division (two a frame a hop,
  // each a 64-bit divide by the vector's size).
  uint32_t next_slot(uint32_t slot) const { return slot + 1 == wire_frames_.size() ? 0 : slot + 1; }
  // Frames between `head` and the tail.
  unsigned on_wire(uint32_t head) const {
    const uint32_t tail = tail_.load(std::memory_order_acquire);
    return tail >= head ? tail - head : tail + static_cast<uint32_t>(wire_frames_.size()) - head;
  }
  OwnedCounter frames_delivered_;
  OwnedCounter bytes_delivered_;
  OwnedCounter rx_missed_;
  OwnedCounter lost_down_;
  OwnedCounter data_lost_;
  const rte_mempool* data_pool_;
  bool up_ = true;
  void count_data_loss(const rte_mbuf* m) {
    if (m->pool == data_pool_) data_lost_.increment();
  }
};

}  // namespace fcswitch::lab

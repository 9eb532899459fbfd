#pragma once
// What TX(p)'s feedback generators would act on, for a caller that runs all of a switch's
// tasks on one thread and polls a TX task only when its port is marked in
// SwitchState::tx_wakes (the lab's virtual clock, lab/lab_schedule.h). A charge or a release
// of ingress occupancy marks TX(p) only when it leaves the band in which the generator of
// that (port, priority) would do nothing (fc::FeedbackGenerator::quiet_band); a burst from
// port p marks it only where some generator of p may act on any change (CBFC's received
// blocks and its resynchronisation included). Under PFC below XOFF, the port a frame came in
// by is then not polled for it, at its arrival or its departure: at fat-tree k = 16 under the
// enterprise workload, TX polls went from 3.5 to 2.3 a packet-hop, each a dozen or more
// misses of the core's cache.
//
// TX(p) (its PortFeedback) publishes the bands each time it notes its input, after which its
// generators act only on what it noted; the others read them at the switch's charges and
// releases. One thread only, as PortWakeSet: read only while tx_wakes is enabled. Until TX(p)
// publishes, every change of a priority with a generator wakes it.

#include <cstdint>
#include <memory>

#include "core/traffic_class.h"
#include "fc/occupancy_band.h"

namespace fcswitch {

class FeedbackWakeBands {
 public:
  explicit FeedbackWakeBands(int ports)
      : bands_(std::make_unique<fc::OccupancyBand[]>(static_cast<size_t>(ports) * kNumPriorities)),
        any_change_(std::make_unique<PriorityMask[]>(static_cast<size_t>(ports))) {
    for (int p = 0; p < ports; ++p) any_change_[p] = static_cast<PriorityMask>(~0u);
  }

  // TX(port): the band of its generator at `priority`; its PortFeedback, as it is built,
  // any_occupancy() where it has none.
  void publish(int port, int priority, fc::OccupancyBand band) {
    bands_[slot(port, priority)] = band;
    const auto bit = static_cast<PriorityMask>(1u << priority);
    any_change_[port] = band.empty() ? static_cast<PriorityMask>(any_change_[port] | bit)
                                     : static_cast<PriorityMask>(any_change_[port] & ~bit);
  }
  // Whether an ingress occupancy of `occupancy_bytes` at `slot` (SwitchState::occupancy_slot:
  // port * 8 + priority) is news to TX(port).
  bool leaves_band(int slot, uint64_t occupancy_bytes) const {
    return !bands_[static_cast<size_t>(slot)].contains(occupancy_bytes);
  }
  // Whether any frame from `port` may be news to TX(port), whatever it does to occupancy.
  bool wakes_on_any_input(int port) const { return any_change_[port] != 0; }

 private:
  static size_t slot(int port, int priority) {
    return static_cast<size_t>(port) * kNumPriorities + static_cast<size_t>(priority);
  }

  std::unique_ptr<fc::OccupancyBand[]> bands_;  // [port * 8 + priority]
  std::unique_ptr<PriorityMask[]> any_change_;  // [port]: the priorities with empty bands
};

}  // namespace fcswitch

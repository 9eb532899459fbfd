#pragma once
// Pyrrha's messages out of one port (Pyrrha §4.4, "Congestion information propagation"): what
// FWD's congestion-root table sends out of port p (SwitchState::pyrrha_rings[p]) becomes one
// 60-byte frame each (wire/pyrrha_frame.h), from the control pool, never the data pool, sent
// ahead of any data as the feedback frames are (switch/feedback_framer.h; docs/architecture.md), in
// the order FWD produced them. PAUSE, RESUME and MERGE are hop by hop: a RESUME that passed
// its PAUSE, or a MERGE that passed the PAUSE of the root it replaces, would leave the upstream
// in the wrong state, so nothing here reorders, drops or merges messages.
// TX(p)'s thread only; other threads read the counters.

#include <array>
#include <atomic>
#include <cstdint>

#include "core/alloc_failure_count.h"
#include "core/owned_counter.h"
#include "pyrrha/pyrrha_message.h"
#include "switch/burst.h"
#include "switch/port_io.h"
#include "wire/mac_address.h"

struct rte_mbuf;
struct rte_mempool;
struct rte_ring;

namespace fcswitch {

struct PyrrhaFramerSettings {
  wire::MacAddress mac;         // source of the frames we send
  uint8_t priority = 0;         // the class Pyrrha controls, carried in every frame
  rte_mempool* pool = nullptr;  // frames we originate; never the data pool
  std::atomic<uint64_t>* node_alloc_failures = nullptr;  // bumped too (SwitchState's)
};

class PyrrhaFramer {
 public:
  // `messages`: FWD's ring of pyrrha::Message for this port; we are its only consumer.
  PyrrhaFramer(const PyrrhaFramerSettings& settings, rte_ring* messages);
  PyrrhaFramer(const PyrrhaFramer&) = delete;
  PyrrhaFramer& operator=(const PyrrhaFramer&) = delete;

  // Messages not yet framed, or frames not yet taken by the port: TX has work.
  bool pending() const;
  // Messages in FWD's ring that build() could frame now: nothing built waits for the port and
  // the last build got every mbuf it asked for. The lab's virtual clock polls TX again for
  // them (TxTask::next_action_ticks); a port that is full or a pool that ran dry wakes TX
  // by other means (the link taking frames, the lab's starved nodes).
  bool ready() const;
  // Frames the messages at the head of the ring, as many as there are free slots and mbufs,
  // behind those still waiting. A message the control pool has no mbuf for stays in the ring,
  // first in line for the next try (control_alloc_failures). True if it framed any.
  bool build();
  // Hands the built frames to the port in order; what it does not take stays first for the
  // next poll. True if it took any.
  bool send(PortIo& io);
  // Frames built and not yet taken by the port: data must wait behind them.
  uint16_t waiting() const { return count_; }
  // Control thread, after the lcores have stopped: the frames built and not sent.
  unsigned take_held(rte_mbuf** out, unsigned max);

  // Frames the port took, per kind (pyrrha::MessageKind order).
  uint64_t frames_sent(pyrrha::MessageKind kind) const {
    return sent_[static_cast<size_t>(kind)].read();
  }
  // Builds that left a message in the ring for lack of a control mbuf.
  uint64_t control_alloc_failures() const { return control_alloc_failures_.read(); }

 private:
  // At most a burst built ahead of the port: the ring behind holds the rest in order.
  static constexpr uint16_t kMaxFrames = kBurstSize;

  PyrrhaFramerSettings settings_;
  rte_ring* messages_;
  rte_mbuf* frames_[kMaxFrames];
  pyrrha::MessageKind kinds_[kMaxFrames];  // of frames_[i], counted when the port takes it
  uint16_t count_ = 0;
  bool starved_ = false;  // the last build found the control pool short

  std::array<OwnedCounter, pyrrha::kMessageKinds> sent_;
  AllocFailureCount control_alloc_failures_{settings_.node_alloc_failures};
};

}  // namespace fcswitch

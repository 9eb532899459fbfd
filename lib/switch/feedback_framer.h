#pragma once
// The frames a port sends upstream for its feedback generators (docs/architecture.md): what the
// generators asked for and is not yet sent (merged, the latest level per priority counts),
// turned into at most one frame of each format — PFC, GFC stages with their own opcode, a
// credit frame — from the control pool, never the data pool, and sent ahead of any data.
// TX(p)'s thread only; other threads read the counters.

#include <array>
#include <atomic>
#include <cstdint>

#include "core/alloc_failure_count.h"
#include "core/owned_counter.h"
#include "core/traffic_class.h"
#include "fc/feedback_out.h"
#include "switch/port_io.h"
#include "wire/mac_address.h"
#include "wire/pfc_frame.h"

struct rte_mbuf;
struct rte_mempool;

namespace fcswitch {

struct FeedbackFramerSettings {
  wire::MacAddress mac;                  // source of the frames we send
  uint16_t control_ether_type = 0x8808;  // for PFC frames
  uint16_t stage_opcode = 0x0101;        // GFC stage frames: one frame with PFC if the same
  rte_mempool* pool = nullptr;           // frames we originate; never the data pool
  std::atomic<uint64_t>* node_alloc_failures = nullptr;  // bumped too (SwitchState's)
};

class FeedbackFramer {
 public:
  explicit FeedbackFramer(const FeedbackFramerSettings& settings) : settings_(settings) {}
  FeedbackFramer(const FeedbackFramer&) = delete;
  FeedbackFramer& operator=(const FeedbackFramer&) = delete;

  void add(const fc::FeedbackOut& fresh) { unsent_.merge(fresh); }
  // A credit frame is due: build() then needs the blocks of data already picked but not yet
  // taken by the port, per priority (they follow the frame on the wire).
  bool wants_pending_blocks() const { return unsent_.credit_enable && !count_; }
  // Turns what is unsent into frames, once the previous ones have gone. A frame the control
  // pool cannot give stays unsent, tried again next time (control_alloc_failures).
  void build(const std::array<uint32_t, kNumPriorities>& pending_blocks);
  // Hands the built frames to the port; true if it took any.
  bool send(PortIo& io);
  // Frames built and not yet taken by the port: data must wait behind them.
  uint16_t waiting() const { return count_; }
  // Nothing built and nothing left to build.
  bool idle() const { return !count_ && unsent_.empty(); }
  // Control thread, after the lcores have stopped.
  unsigned take_held(rte_mbuf** out, unsigned max);

  uint64_t pause_frames_sent(int priority) const { return pause_sent_[priority].read(); }
  uint64_t resume_frames_sent(int priority) const { return resume_sent_[priority].read(); }
  uint64_t credit_frames_sent() const { return credit_frames_sent_.read(); }
  uint64_t pfc_frames_sent() const { return pfc_frames_sent_.read(); }
  uint64_t control_alloc_failures() const { return control_alloc_failures_.read(); }

 private:
  static constexpr int kMaxFrames = 3;  // PFC, GFC stage (own opcode), credit

  bool add_pfc_layout_frame(const wire::PfcFrame& frame);

  FeedbackFramerSettings settings_;
  fc::FeedbackOut unsent_;  // feedback not yet turned into frames
  rte_mbuf* frames_[kMaxFrames];
  uint16_t count_ = 0;

  std::array<OwnedCounter, kNumPriorities> pause_sent_;
  std::array<OwnedCounter, kNumPriorities> resume_sent_;
  OwnedCounter pfc_frames_sent_;
  OwnedCounter credit_frames_sent_;
  AllocFailureCount control_alloc_failures_{settings_.node_alloc_failures};
};

}  // namespace fcswitch

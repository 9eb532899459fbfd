#include "switch/fwd_task.h"

#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include <algorithm>
#include <bit>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/units.h"
#include "switch/burst.h"
#include "switch/flow_key.h"
#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/ecn_mark.h"
#include "wire/frame_header.h"
#include "wire/pabo_shim.h"
#include "wire/pyrrha_frame.h"
#include "wire/ttl_decrement.h"

namespace fcswitch {

namespace {
// How far ahead of the packet being parsed its successors' data is prefetched: a few
// packets' work (~100 ns) covers a memory access, as DPDK's l3fwd (PREFETCH_OFFSET 3).
constexpr unsigned kPrefetchPackets = 4;
static_assert(kBurstSize <= L2Fib::kMaxBurst, "a burst's FIB work is one bulk call");
static_assert(std::is_trivially_destructible_v<wire::FrameHeader>);
}  // namespace

struct FwdTask::Stage {
  uint16_t count = 0;
  // What the egress ring had room for when read in this burst (up to a burst). FWD is the
  // ring's only producer, so its free space only grows meanwhile: a lower bound.
  uint16_t room = 0;
  // queued_bytes_seen's view of the queue, valid in the burst `seen_burst` (a normal
  // sub-queue's stage keeps it for the whole egress queue): on the line enqueue writes.
  uint64_t seen_bytes = 0;
  uint64_t seen_burst = 0;
  rte_mbuf* pkts[kBurstSize];
};

[[gnu::always_inline]] inline uint64_t FwdTask::queued_bytes_seen(int out_port, int queue,
                                                                  bool exact) {
  Stage& stage = stages_[out_port * kNumEgressQueues + queue];
  if (exact || stage.seen_burst != burst_) {
    stage.seen_bytes = queued_bytes(out_port, queue);
    stage.seen_burst = burst_;
  }
  return stage.seen_bytes;
}

FwdTask::FwdTask(const FwdSettings& settings, SwitchState& state, L2Fib& fib)
    : Task("fwd"),
      state_(state),
      fib_(fib),
      classifier_(settings.priority_maps),
      buffer_(settings.buffer),
      lossless_(settings.lossless_priorities),
      mac_learning_(settings.mac_learning),
      tagger_(settings.tagger),
      ecmp_groups_(settings.ecmp_groups),
      ecmp_seed_(settings.ecmp_seed),
      decrement_ttl_(settings.decrement_ttl),
      input_turns_(settings.input_turns),
      max_frame_bytes_(settings.max_frame_bytes),
      stages_(static_cast<size_t>(state.ports) * kNumEgressQueues *
              (settings.pabo_priorities ? 2 : 1)),
      bounce_stage_base_(state.ports * kNumEgressQueues),
      pabo_priorities_(settings.pabo_priorities),
      admitted_packets_(std::make_unique<OwnedCounter[]>(state.ports * kNumPriorities)),
      admitted_bytes_(std::make_unique<OwnedCounter[]>(state.ports * kNumPriorities)),
      max_occupancy_(std::make_unique<OwnedGauge[]>(state.ports * kNumPriorities)),
      credit_frames_(std::make_unique<OwnedCounter[]>(state.ports)),
      drops_(state.ports),
      pabo_counters_(state.ports),
      ecn_counters_(state.ports) {
  if (pabo_priorities_) bounce_policy_.emplace(settings.pabo, settings.pabo_seed);
  for (size_t p = 0; p < settings.ecn.size(); ++p) {
    const config::PortEcn& port = settings.ecn[p];
    if (!port.queues) continue;
    if (p >= 64 || static_cast<int>(p) >= state.ports)
      throw std::invalid_argument("ECN marking on port " + std::to_string(p) +
                                  ": FWD marks on ports 0-63 of this switch only");
    ecn_profiles_.resize(static_cast<size_t>(state.ports) * kNumEgressQueues);
    for (int q = 0; q < kNumPriorities; ++q) {
      if (!has_priority(port.queues, q)) continue;
      ecn_ports_by_queue_[q] |= uint64_t{1} << p;
      ecn_profiles_[p * kNumEgressQueues + q].emplace(port.profile.k_min_bytes,
                                                      port.profile.k_max_bytes, port.profile.p_max);
    }
  }
  if (!ecn_profiles_.empty()) ecn_marker_.emplace(settings.ecn_seed);
  if (settings.pyrrha) {
    if (settings.input_queued || has_priority(settings.pabo_priorities, settings.pyrrha->priority))
      throw std::invalid_argument("Pyrrha needs output queueing and a priority without PABO");
    pyrrha_ = std::make_unique<PyrrhaQueues>(*settings.pyrrha, settings.pyrrha_oracle,
                                             settings.host_ports, state);
    pyrrha_queue_ = settings.pyrrha->priority;
  }
  handoffs_.resize(state.ports);
  for (int in = 0; in < state.ports; ++in)
    flood_last_.push_back(in == state.ports - 1 ? state.ports - 2 : state.ports - 1);
  touched_stages_.reserve(stages_.size());
  if (settings.input_queued) {
    inputs_ = std::make_unique<InputQueues>(state.ports);
    room_.resize(stages_.size());
    room_poll_.resize(stages_.size(), 0);
    grant_.resize(stages_.size(), -1);
    grant_rank_.resize(stages_.size(), 0);
    last_granted_.resize(stages_.size(), state.ports - 1);
    requested_.reserve(stages_.size());
  }
  // A burst of floods can drop at most one copy per packet per port.
  to_free_.reserve(static_cast<size_t>(kBurstSize) * (state.ports + 1));
  runs_ = !tagger_ && !decrement_ttl_ && !pabo_priorities_ && !pyrrha_ && !ecn_marker_;
  plain_ = runs_ && !inputs_;
}

FwdTask::~FwdTask() = default;

bool FwdTask::poll(uint64_t now_tsc) {
  now_ = now_tsc;
  bool busy = false;
  // Every input once per poll, starting from a different one each time: its ring, or what
  // its RX handed over on this lcore (a burst at most either way).
  // A caller on one thread says which inputs RX filled (SwitchState::fwd_inputs): the others
  // are empty, and not looked at.
  PortWakeSet& marked = state_.fwd_inputs;
  if (marked.enabled()) {
    marked.for_each_from(next_input_, state_.ports, [&](int in_port) {
      marked.clear(in_port);
      busy |= take_input(in_port, true);
    });
  } else {
    for (int i = 0, in_port = next_input_; i < state_.ports;
         ++i, in_port = in_port + 1 == state_.ports ? 0 : in_port + 1)
      busy |= take_input(in_port, false);
  }
  if (inputs_) busy |= serve_inputs();
  if (pyrrha_) busy |= pyrrha_->serve();
  if (inputs_ || pyrrha_)
    held_.set((inputs_ ? inputs_->packets() : 0) + (pyrrha_ ? pyrrha_->held_packets() : 0));
  next_input_ = next_input_ + 1 == state_.ports ? 0 : next_input_ + 1;
  return busy;
}

bool FwdTask::take_input(int in_port, bool marked) {
  BurstHandoff* handoff = handoffs_[in_port].get();
  rte_mbuf* ring_burst[kBurstSize];
  rte_mbuf** pkts = handoff ? handoff->pkts : ring_burst;
  const unsigned n =
      handoff ? handoff->held()
              : rte_ring_sc_dequeue_burst(state_.fwd_rings[in_port].get(),
                                          reinterpret_cast<void**>(pkts), kBurstSize, nullptr);
  // A full burst may have left more behind it.
  if (marked && !handoff && n == kBurstSize) state_.fwd_inputs.mark(in_port);
  if (n == 0) return false;
  input_ = in_port;  // stages hold this input's packets until flush()
  forward_burst(pkts, n, in_port, handoff == nullptr);
  if (handoff) handoff->count.store(0, std::memory_order_relaxed);
  processed_.add(n);
  // Stages hold at most one input burst: a packet is copied at most once per port.
  flush();
  return true;
}

[[gnu::always_inline]] inline bool FwdTask::take_room(int stage_index) {
  if (room_poll_[stage_index] != serve_poll_) {
    room_poll_[stage_index] = serve_poll_;
    const unsigned free = rte_ring_free_count(
        state_.egress_ring(stage_index / kNumEgressQueues, stage_index % kNumEgressQueues, input_));
    room_[stage_index] = static_cast<uint16_t>(std::min<unsigned>(free, kBurstSize));
  }
  if (room_[stage_index] == 0) return false;
  --room_[stage_index];
  return true;
}

uint64_t FwdTask::egress_dequeued() const {
  uint64_t sum = 0;
  for (int port = 0; port < state_.ports; ++port) sum += state_.egress_dequeued[port].read();
  return sum;
}

bool FwdTask::serve_inputs() {
  if (inputs_->packets() == 0) return false;
  // Read before the pass: room a TX task makes during it differs at the next poll.
  const uint64_t dequeued = egress_dequeued();
  if (serve_stuck_ && inputs_->pushes() == stuck_pushes_ && dequeued == stuck_dequeued_)
    return false;
  ++serve_poll_;
  const int only_slot = inputs_->only_backlogged_slot();
  const bool moved_any = only_slot >= 0 ? drain_only_input(only_slot)
                         : input_turns_ ? match_input_turns()
                                        : match_egress_round_robin();
  flush();
  serve_stuck_ = !moved_any;
  stuck_pushes_ = inputs_->pushes();
  stuck_dequeued_ = dequeued;
  return moved_any;
}

[[gnu::always_inline]] inline void FwdTask::move_head(int slot, int stage_index) {
  Stage& stage = stages_[stage_index];
  if (stage.count == 0) touched_stages_.push_back(stage_index);
  stage.pkts[stage.count++] = inputs_->front(slot).packet;
  inputs_->pop(slot);
}

[[gnu::always_inline]] inline int FwdTask::head_stage(int slot) const {
  const InputQueues::Head head = inputs_->front(slot);
  return head.egress_port * kNumEgressQueues + head.egress_queue;
}

bool FwdTask::drain_only_input(int slot) {
  // A pass of either crossbar has this head alone to move: one head a pass, until its egress
  // ring has no room (no FIFO gains a packet meanwhile). The egress round robin's grant goes
  // to this input each time. So the heads bound for one egress move as a run, as many as its
  // room takes, in the order those passes would move them.
  const int port = slot / kNumPriorities;
  bool moved = false;
  while (!inputs_->empty(slot)) {
    const int stage_index = head_stage(slot);
    if (!take_room(stage_index)) break;
    Stage& stage = stages_[stage_index];
    if (stage.count == 0) touched_stages_.push_back(stage_index);
    // take_room took one place of the room: the run may take the rest.
    const unsigned n = inputs_->pop_run(slot, room_[stage_index] + 1u, stage.pkts + stage.count);
    stage.count = static_cast<uint16_t>(stage.count + n);
    room_[stage_index] = static_cast<uint16_t>(room_[stage_index] + 1u - n);
    if (!input_turns_) last_granted_[stage_index] = port;
    moved = true;
  }
  return moved;
}

bool FwdTask::match_input_turns() {
  bool moved_any = false;
  for (bool moved = true; moved;) {
    moved = false;
    for (int i = 0; i < state_.ports; ++i) {
      const int port = (next_input_ + i) % state_.ports;
      for_each_set_descending(inputs_->backlogged(port), [&](int prio) {
        const int slot = InputQueues::slot(port, prio);
        const int stage_index = head_stage(slot);
        if (!take_room(stage_index)) return;  // head-of-line: this FIFO waits
        move_head(slot, stage_index);
        moved = true;
      });
    }
    moved_any |= moved;
  }
  return moved_any;
}

bool FwdTask::match_egress_round_robin() {
  bool moved_any = false;
  // A crossbar, matched pass by pass: each head requests its egress queue; each egress queue
  // with room grants one request, to the input next after the one it granted last (round
  // robin), and the granted heads move. An input whose head is not granted waits, and so
  // does everything behind it. Granting at the egress, not taking turns at the inputs, gives
  // every input that requests an egress an equal share of it however many of its packets go
  // elsewhere (input turns would shortchange an input whose packets are mixed).
  for (;;) {
    for (int i = 0; i < state_.ports; ++i) {
      for_each_set(inputs_->backlogged(i), [&](int prio) {
        const int slot = InputQueues::slot(i, prio);
        const int stage_index = head_stage(slot);
        // Rank by distance after the last granted input; a higher priority first within one.
        const int rank = ((i - last_granted_[stage_index] - 1 + 2 * state_.ports) % state_.ports) *
                             kNumPriorities +
                         (kNumPriorities - 1 - prio);
        if (grant_[stage_index] < 0) {
          requested_.push_back(stage_index);
        } else if (rank >= grant_rank_[stage_index]) {
          return;
        }
        grant_[stage_index] = slot;
        grant_rank_[stage_index] = rank;
      });
    }
    bool moved = false;
    for (int stage_index : requested_) {
      const int slot = grant_[stage_index];
      grant_[stage_index] = -1;
      if (!take_room(stage_index)) continue;
      move_head(slot, stage_index);
      last_granted_[stage_index] = slot / kNumPriorities;
      moved = true;
    }
    requested_.clear();
    if (!moved) break;
    moved_any = true;
  }
  return moved_any;
}

unsigned FwdTask::take_held(rte_mbuf** out, unsigned max) {
  unsigned n = 0;
  for (int port = 0; port < state_.ports && n < max; ++port) {
    BurstHandoff* handoff = handoffs_[port].get();
    if (!handoff) continue;
    unsigned left = handoff->held();
    for (; left && n < max; ++n) {
      out[n] = handoff->pkts[--left];
      // Not yet forwarded, so no metadata: the flush counts its drop by this.
      state_.meta(out[n]).ingress_port = static_cast<uint8_t>(port);
    }
    handoff->count.store(static_cast<uint16_t>(left), std::memory_order_relaxed);
  }
  if (pyrrha_ && n < max) n += pyrrha_->take_held(out + n, max - n);
  if (inputs_ && n < max) n += inputs_->take(out + n, max - n);
  held_.set((inputs_ ? inputs_->packets() : 0) + (pyrrha_ ? pyrrha_->held_packets() : 0));
  return n;
}

BurstHandoff& FwdTask::handoff_from(int port) {
  if (!handoffs_[port]) handoffs_[port] = std::make_unique<BurstHandoff>();
  return *handoffs_[port];
}

uint64_t FwdTask::handed_over() const {
  uint64_t sum = 0;
  for (const auto& handoff : handoffs_)
    if (handoff) sum += handoff->held();
  return sum;
}

void FwdTask::forward_burst(rte_mbuf** pkts, unsigned n, int in_port, bool cold) {
  // First pass: parse every header. When the burst is `cold` (it came through a ring: RX
  // wrote the mbufs on another core), the packets kPrefetchPackets ahead are on their way
  // into the cache meanwhile (docs/architecture.md), and their mbufs a further kPrefetchPackets
  // ahead, since the data address is read from them. A burst RX handed over on this lcore
  // was just touched by it (~12 instructions a packet saved).
  uint32_t learn_mask = 0, lookup_mask = 0;
  released_read_ = 0;
  ++burst_;
  // Its received blocks and credit resynchronisation are input to TX(in_port)'s generators
  // that act on any change; its charges mark TX(in_port) where they are news to it
  // (SwitchState::charge).
  if (state_.tx_wakes.enabled() && state_.feedback_bands.wakes_on_any_input(in_port))
    state_.tx_wakes.mark(in_port);
  const uint32_t max_frame_bytes = max_frame_bytes_of(in_port);
  for (unsigned i = 0; i < n; ++i) {
    if (cold) {
      if (i + 2 * kPrefetchPackets < n) rte_prefetch0(pkts[i + 2 * kPrefetchPackets]);
      if (i + kPrefetchPackets < n) {
        rte_mbuf* ahead = pkts[i + kPrefetchPackets];
        rte_prefetch0(rte_pktmbuf_mtod(ahead, const void*));
        rte_prefetch0(&state_.meta(ahead));  // written when admitted
      }
    }
    rte_mbuf* m = pkts[i];
    // Parsed straight into the array (a prvalue initialising the object: no copy, which an
    // assignment would make); FrameHeader is trivially destructible.
    const wire::FrameHeader& header = *new (&headers_[i]) wire::FrameHeader(
        wire::parse_frame_header(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m)));
    fates_[i] = inspect(m, max_frame_bytes, header);
    if (fates_[i] != Fate::kForward) continue;
    sources_[i] = header.src;
    destinations_[i] = header.dst;
    // A bounced frame came from downstream: its source is not behind this port (PABO §III).
    // Set without a branch a packet; learning off clears the mask after the loop.
    learn_mask |= uint32_t{!header.src.is_multicast() && !header.has_pabo_shim()} << i;
    lookup_mask |= uint32_t{!header.dst.is_multicast()} << i;
  }
  if (!mac_learning_) learn_mask = 0;
  // The burst's learning and lookups, in one bulk call, as if done packet by packet.
  if (learn_mask | lookup_mask) {
    if (const unsigned refused = fib_.learn_and_look_up(in_port, sources_, learn_mask,
                                                        destinations_, lookup_mask, n, targets_))
      fib_full_.add(refused);
  }
  if (plain_) {
    take_fates<true>(pkts, n, in_port, lookup_mask);
  } else {
    take_fates<false>(pkts, n, in_port, lookup_mask);
  }
  end_charge_run();
  count_burst_received(in_port);
  count_burst_admitted(in_port);
}

template <bool kPlain>
void FwdTask::take_fates(rte_mbuf** pkts, unsigned n, int in_port, uint32_t lookup_mask) {
  // In order: what a packet does to shared state (ABR, the buffer) happens in the order the
  // packets arrived.
  // Not plain but runs_: input-queued, and nothing else.
  const bool runs = kPlain || runs_;
  PlainRun run;
  // An input-queued run's packets after its first, pushed into their FIFO together when the
  // run closes: before any other packet of the burst is taken, so the FIFO's order is theirs.
  rte_mbuf* followers[kBurstSize];
  unsigned n_followers = 0;
  // Inlined (push_run's copies made it a call): the lab's bursts of one close no run.
  auto close_run = [&]() __attribute__((always_inline)) {
    if (n_followers)
      inputs_->push_run(run.slot, followers, n_followers, static_cast<uint16_t>(run.out_port),
                        run.priority);
    n_followers = 0;
    run.stage = nullptr;
  };
  for (unsigned i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    const int target = lookup_mask >> i & 1 ? targets_[i] : L2Fib::kUnknown;
    if (runs && run.stage) {
      if (fates_[i] == Fate::kForward && target == run.out_port &&
          classifier_.classify(headers_[i]) == run.priority &&
          (kPlain ? follow_run<false>(m, run) : follow_run<true>(m, run))) {
        if constexpr (!kPlain) followers[n_followers++] = m;
        continue;
      }
      close_run();
    }
    switch (fates_[i]) {
      case Fate::kForward:
        // The burst's last packet has none to follow it (a lab burst is often one packet).
        if (runs && i + 1 < n) {
          run = open_run(in_port, target, headers_[i]);
          forward<kPlain>(m, in_port, headers_[i], target);
          // Open only if forward() took it into the run (its stage, or an input FIFO): then
          // the charge run is this packet's, and its admission read the views the run's
          // packets are admitted on.
          if (run.stage && run_mark(run) != run.mark_before + 1) run.stage = nullptr;
        } else {
          forward<kPlain>(m, in_port, headers_[i], target);
        }
        break;
      case Fate::kCredit:
        resynchronise(m, in_port);
        break;
      case Fate::kPyrrha:
        take_pyrrha(m, in_port);
        break;
      case Fate::kRunt:
        drop(m, in_port, DropReason::kRunt);
        break;
      case Fate::kMalformed:
        drop(m, in_port, DropReason::kMalformed);
        break;
      case Fate::kOversize:
        drop(m, in_port, DropReason::kOversize);
        break;
      case Fate::kLinkLocal:
        drop(m, in_port, DropReason::kLinkLocal);
        break;
    }
  }
  close_run();
}

inline uint64_t FwdTask::run_mark(const PlainRun& run) const {
  return inputs_ ? inputs_->pushes() : run.stage->count;
}

FwdTask::PlainRun FwdTask::open_run(int in_port, int target, const wire::FrameHeader& header) {
  if (target == L2Fib::kUnknown || L2Fib::is_group(target) || target == in_port) return {};
  // As forward() and admit() take them without Tagger: the queue is the priority's.
  const uint8_t priority = classifier_.classify(header);
  const bool lossless = has_priority(lossless_, priority);
  PlainRun run{
      .stage = &stages_[target * kNumEgressQueues + priority],
      .out_port = target,
      .slot = SwitchState::occupancy_slot(in_port, priority),
      .priority = priority,
      .lossless = lossless,
      .meta = std::bit_cast<uint64_t>(make_packet_meta(
          static_cast<uint8_t>(in_port), priority, priority, !lossless, PaboSubqueue::kNone, 0))};
  run.mark_before = run_mark(run);
  return run;
}

template <bool kInputQueued>
[[gnu::always_inline]] inline bool FwdTask::follow_run(rte_mbuf* m, const PlainRun& run) {
  Stage& stage = *run.stage;
  // admit() and enqueue() on the views the run's first packet read in this burst (the
  // ingress's, or the queue's and the lossy pool's), raised since by the run's charges. What
  // they would refuse, or where a ring's room or a new peak must be read, they decide. (An
  // input FIFO takes every admitted packet: its head waits for the ring's room.)
  if (!kInputQueued && stage.count >= stage.room) return false;
  const uint32_t bytes = rte_pktmbuf_pkt_len(m);
  if (run.lossless) {
    const uint64_t occupancy = ingress_seen_[run.priority];
    if (buffer_.admit_lossless(occupancy, bytes) != Admission::kAdmit ||
        occupancy + bytes > max_occupancy_[run.slot].read())
      return false;
    ingress_seen_[run.priority] = occupancy + bytes;
  } else {
    if (buffer_.admit_lossy(stage.seen_bytes, lossy_pool_seen_, bytes) != Admission::kAdmit)
      return false;
    lossy_pool_seen_ += bytes;
  }
  state_.meta(m) = std::bit_cast<PacketMeta>(run.meta | uint64_t{bytes} << 32);
  // The charge run is the run's (its first packet's charges), as charge() would find it.
  charge_run_.meta.charged_bytes += bytes;
  ++charge_run_.packets;
  stage.seen_bytes += bytes;
  burst_received_.blocks[run.priority] += wire::credit_blocks(bytes);
  // An input FIFO takes the run's packets when it closes (take_fates).
  if constexpr (!kInputQueued) stage.pkts[stage.count++] = m;
  return true;
}

void FwdTask::count_burst_received(int in_port) {
  for_each_set(burst_received_.priorities, [&](int prio) {
    const int slot = SwitchState::occupancy_slot(in_port, prio);
    state_.received_blocks[slot].add(burst_received_.blocks[prio]);
    burst_received_.blocks[prio] = 0;
    // Read by the τ meter of PFC's generator, which only lossless priorities have.
    if (has_priority(lossless_, prio)) state_.last_arrival_ticks[slot].set(now_);
  });
  burst_received_.priorities = 0;
}

[[gnu::always_inline]] inline void FwdTask::charge(const PacketMeta& meta, int out_port) {
  if (out_port == charge_run_.out_port && same_charges(meta, charge_run_.meta)) {
    charge_run_.meta.charged_bytes += meta.charged_bytes;
    ++charge_run_.packets;
    return;
  }
  end_charge_run();
  charge_run_ = {.meta = meta, .out_port = out_port, .packets = 1};
}

void FwdTask::end_charge_run() {
  if (charge_run_.out_port < 0) return;
  state_.charge(charge_run_.meta, charge_run_.out_port, charge_run_.packets);
  const int priority = charge_run_.meta.priority;
  burst_admitted_.priorities |= static_cast<PriorityMask>(1u << priority);
  burst_admitted_.packets[priority] += charge_run_.packets;
  burst_admitted_.bytes[priority] += charge_run_.meta.charged_bytes;
  charge_run_ = {};
}

void FwdTask::count_burst_admitted(int in_port) {
  for_each_set(burst_admitted_.priorities, [&](int prio) {
    const int slot = SwitchState::occupancy_slot(in_port, prio);
    admitted_packets_[slot].add(burst_admitted_.packets[prio]);
    admitted_bytes_[slot].add(burst_admitted_.bytes[prio]);
    burst_admitted_.packets[prio] = 0;
    burst_admitted_.bytes[prio] = 0;
  });
  burst_admitted_.priorities = 0;
}

FwdTask::Fate FwdTask::link_local_fate(rte_mbuf* m) const {
  // RX passes on, of the link-constrained frames, only the credit frames it accepted, and
  // Pyrrha's where the switch runs it.
  const auto kind =
      wire::control_frame_kind(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), 0);
  if (kind == wire::ControlFrameKind::kCredit) return Fate::kCredit;
  if (kind == wire::ControlFrameKind::kPyrrha && pyrrha_) return Fate::kPyrrha;
  return Fate::kLinkLocal;
}

// forward() and admit() are inlined into take_fates (one call each per packet was ~25
// instructions of calls, saves and restores).
template <bool kPlain>
[[gnu::always_inline]] inline void FwdTask::forward(rte_mbuf* m, int in_port,
                                                    const wire::FrameHeader& header, int target) {
  // With Tagger this is its step 1 (§7): the DSCP map holds the tags' priorities.
  const uint8_t priority = classifier_.classify(header);
  // Received, whatever becomes of it: a block dropped here is a block freed (CBFC's ABR).
  burst_received_.priorities |= static_cast<PriorityMask>(1u << priority);
  burst_received_.blocks[priority] += wire::credit_blocks(rte_pktmbuf_pkt_len(m));

  if constexpr (!kPlain) {
    if (decrement_ttl_ &&
        wire::decrement_ttl(rte_pktmbuf_mtod(m, uint8_t*), header) == wire::TtlResult::kExpired)
      return drop(m, in_port, DropReason::kTtlExpired);
  }
  int out_port = target;
  if (L2Fib::is_group(out_port)) {
    const auto& group = ecmp_groups_[out_port - L2Fib::kGroupBase];
    const auto key = flow_key(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), header);
    out_port = group[topology::ecmp_member(topology::flow_hash(key, ecmp_seed_),
                                           static_cast<int>(group.size()))];
  }
  if constexpr (!kPlain) {
    if (has_priority(pabo_priorities_, priority) && out_port != L2Fib::kUnknown)
      return admit_pabo(m, in_port, out_port, priority, header);  // back where it came from too
  }
  if (out_port == in_port) return drop(m, in_port, DropReason::kSamePort);
  if (out_port != L2Fib::kUnknown) return admit<kPlain>(m, in_port, out_port, priority, header);

  // Broadcast, multicast and unknown unicast: every port but the one it came in on. Each
  // copy is a full copy, so a later per-port rewrite (Tagger) cannot touch another copy.
  const int last = flood_last_[in_port];
  if (last < 0) return drop(m, in_port, DropReason::kNoEgressPort);
  for (int p = 0; p < last; ++p) {
    if (p == in_port) continue;
    rte_mbuf* copy = rte_pktmbuf_copy(m, m->pool, 0, UINT32_MAX);
    if (!copy) {
      drops_.add(in_port, DropReason::kCopyFailed);
      continue;
    }
    copy->port = m->port;
    flood_copies_.increment();
    admit<kPlain>(copy, in_port, p, priority, header);
  }
  admit<kPlain>(m, in_port, last, priority, header);
}

template <bool kPlain>
[[gnu::always_inline]] inline void FwdTask::admit(rte_mbuf* m, int in_port, int out_port,
                                                  uint8_t priority,
                                                  const wire::FrameHeader& header) {
  // Tagger §7 steps 2 and 3: rewrite the tag for this egress, queue by the new tag. A
  // packet's ingress class (what it is charged to, lossless or not) stays that of its arrival.
  int queue = priority;
  if constexpr (!kPlain) {
    if (tagger_ && header.l3 != wire::L3Kind::kOther)
      queue = tagger_->rewrite(rte_pktmbuf_mtod(m, uint8_t*), header, in_port, out_port);
  }
  const uint32_t bytes = rte_pktmbuf_pkt_len(m);
  const int slot = SwitchState::occupancy_slot(in_port, priority);
  const bool lossless = has_priority(lossless_, priority);

  // Admission on FWD's view of the buffer (lossy_pool_bytes, ingress_bytes, and the egress
  // queue's queued_bytes_seen), which is never below the true occupancy: what it admits, the true
  // occupancy admits too, so the pool's and B_m's bounds hold. What it would refuse is decided
  // again on a fresh read of the releasers, so a packet is refused only if a read at that moment
  // refuses it, as when every packet read them all (O(ports) loads each: 64 on a 64-port lab
  // switch). Lossy packets are not held to an ingress limit: no occupancy read for them.
  uint64_t occupancy = 0;
  Admission verdict;
  if (lossless) {
    occupancy = ingress_bytes(slot, priority, false);
    verdict = buffer_.admit_lossless(occupancy, bytes);
    if (verdict != Admission::kAdmit) {
      occupancy = ingress_bytes(slot, priority, true);
      verdict = buffer_.admit_lossless(occupancy, bytes);
    }
  } else {
    verdict = buffer_.admit_lossy(queued_bytes_seen(out_port, queue, false),
                                  lossy_pool_bytes(false), bytes);
    if (verdict != Admission::kAdmit)
      verdict = buffer_.admit_lossy(queued_bytes_seen(out_port, queue, true),
                                    lossy_pool_bytes(true), bytes);
  }
  if (verdict == Admission::kLosslessOverflow)
    return drop(m, in_port, DropReason::kLosslessOverflow);
  if (verdict == Admission::kLossyBufferFull) return drop(m, in_port, DropReason::kLossyBufferFull);
  // A new peak is taken on a fresh read (before this packet's charge), so that the view's
  // lag does not raise it.
  if (lossless && occupancy + bytes > max_occupancy_[slot].read())
    occupancy = ingress_bytes(slot, priority, true);

  enqueue<kPlain>(m, in_port, out_port, priority, queue, lossless, occupancy, PaboSubqueue::kNone,
                  &header);
}

template <bool kPlain>
[[gnu::always_inline]] inline bool FwdTask::enqueue(rte_mbuf* m, int in_port, int out_port,
                                                    uint8_t priority, int queue, bool lossless,
                                                    uint64_t occupancy, PaboSubqueue pabo,
                                                    const wire::FrameHeader* ecn_header) {
  // `kPlain` (take_fates): no PABO, Pyrrha, input queues or ECN, each test folded away.
  const bool bounce_subqueue = !kPlain && pabo == PaboSubqueue::kBounce;
  const int stage_index =
      (bounce_subqueue ? bounce_stage_base_ : 0) + out_port * kNumEgressQueues + queue;
  Stage& stage = stages_[stage_index];
  // The ring's room is read when the stage is first used in the burst, and again only when
  // that says full: a packet is refused only if a read at that moment refuses it. (An
  // input-queued switch holds the packet in its input FIFO until the ring has room.)
  // Pyrrha's queue: held in its OQ or an IQ (switch/pyrrha_queues.h), moved on by serve().
  const bool pyrrha = !kPlain && queue == pyrrha_queue_;
  const bool input_queued = !kPlain && inputs_;
  if (!input_queued && !pyrrha && (stage.count == 0 || stage.count >= stage.room)) {
    rte_ring* ring = bounce_subqueue ? state_.bounce_rings[out_port][queue].get()
                                     : state_.egress_ring(out_port, queue, in_port);
    stage.room = static_cast<uint16_t>(std::min<unsigned>(rte_ring_free_count(ring), kBurstSize));
    if (stage.count >= stage.room) {
      drop(m, in_port, DropReason::kEgressRingFull);
      return false;
    }
  }

  // Marked on enqueue (DCQCN §3.1: on the egress queue a packet joins), once it is sure to join.
  // Pyrrha's class is marked by the OQ or IQ it joins, once held (below).
  const bool marks = !kPlain && ecn_header && (ecn_ports_by_queue_[queue] >> out_port & 1);
  if (marks && !pyrrha) [[unlikely]]
    mark_ecn(m, *ecn_header, out_port, queue, queued_bytes(out_port, queue));

  const uint32_t bytes = rte_pktmbuf_pkt_len(m);
  const int slot = SwitchState::occupancy_slot(in_port, priority);
  // Composed in a register and stored whole (make_packet_meta). Built field by field on the
  // stack and copied, it was loaded as 8 bytes just after its narrow stores, a load the CPU
  // cannot forward from them: it waited for them to reach the cache, a third of FWD's time.
  const PacketMeta meta =
      make_packet_meta(static_cast<uint8_t>(in_port), priority, static_cast<uint8_t>(queue),
                       !lossless && pabo == PaboSubqueue::kNone, pabo, bytes);
  state_.meta(m) = meta;
  charge(meta, out_port);
  // What FWD has seen of those counts rises with its charges (a stale view too: it is unread).
  (bounce_subqueue ? stages_[out_port * kNumEgressQueues + queue] : stage).seen_bytes +=
      meta.charged_bytes;
  // Only a lossless priority's ingress count is read. Asked of the priority, not of
  // `lossless`, which PABO's paths pass as false whatever the class (pabo_config.cc refuses
  // PABO on a lossless priority today; were that lifted, the view would still rise).
  if (has_priority(lossless_, priority)) {
    ingress_seen_[priority] += meta.charged_bytes;  // (in_port, priority): the burst's input
  } else if (meta.lossy) {
    lossy_pool_seen_ += meta.charged_bytes;
  }
  if (lossless && occupancy + bytes > max_occupancy_[slot].read())
    max_occupancy_[slot].set(occupancy + bytes);
  if (input_queued) {
    inputs_->push(slot, m, static_cast<uint16_t>(out_port), static_cast<uint8_t>(queue));
    return true;
  }
  if (pyrrha) [[unlikely]] {
    // Every Pyrrha packet comes through admit(), which passes its header.
    const uint64_t ahead_bytes = pyrrha_->hold(m, in_port, out_port, *ecn_header);
    if (marks) mark_ecn(m, *ecn_header, out_port, queue, ahead_bytes);
    return true;
  }
  if (stage.count == 0) touched_stages_.push_back(stage_index);
  stage.pkts[stage.count++] = m;
  return true;
}

void FwdTask::mark_ecn(rte_mbuf* m, const wire::FrameHeader& header, int out_port, int queue,
                       uint64_t depth_bytes) {
  const ecn::MarkingProbability& profile = *ecn_profiles_[out_port * kNumEgressQueues + queue];
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  const wire::EcnCodepoint codepoint = wire::read_ecn(frame, header);
  if (codepoint == wire::EcnCodepoint::kCe)
    return ecn_counters_.increment(EcnCounters::kCeArrived, out_port, queue);
  // q: the bytes ahead of it in the queue, before its own charge.
  if (!ecn_marker_->marks(profile, depth_bytes)) return;
  // RFC 3168 §5: a Not-ECT packet is not marked, and congestion alone never drops it here
  // (the buffer's admission does that, for its own reasons).
  if (codepoint == wire::EcnCodepoint::kNotEct)
    return ecn_counters_.increment(EcnCounters::kNotEct, out_port, queue);
  wire::mark_ce(frame, header);
  ecn_counters_.increment(EcnCounters::kMarked, out_port, queue);
}

pabo::SubqueueDepth FwdTask::pabo_depth(int port, int queue, bool bounce_subqueue) const {
  const ChargeReleaseCounters& depth = *state_.pabo_depth[port];
  pabo::SubqueueDepth sub{depth.value(SwitchState::pabo_slot(queue, bounce_subqueue, false)),
                          depth.value(SwitchState::pabo_slot(queue, bounce_subqueue, true))};
  const auto subqueue = bounce_subqueue ? PaboSubqueue::kBounce : PaboSubqueue::kNormal;
  if (charge_run_.out_port == port && charge_run_.meta.egress_queue == queue &&
      charge_run_.meta.pabo == static_cast<uint8_t>(subqueue)) {
    sub.packets += charge_run_.packets;
    sub.bytes += charge_run_.meta.charged_bytes;
  }
  return sub;
}

void FwdTask::admit_pabo(rte_mbuf* m, int in_port, int out_port, uint8_t priority,
                         const wire::FrameHeader& header) {
  // PABO's queues are admitted by their sub-queues' capacities, not by the shared buffer;
  // their queue is their priority (no Tagger with PABO: the config refuses it).
  const int queue = priority;
  const uint32_t bytes = rte_pktmbuf_pkt_len(m);
  const bool bounced_before = header.bounces > 0;
  if (bounced_before) pabo_counters_.increment(PaboCounters::kArrivedBounced, in_port, priority);
  // The sub-queue it would join: the bounce one once it has been bounced (the authors' code).
  const pabo::SubqueueDepth depth = pabo_depth(out_port, queue, bounced_before);
  if (bounce_policy_->bounces(depth, bytes, header.bounces))
    return bounce(m, in_port, priority, header);
  if (bounce_policy_->full(depth, bytes, bounced_before)) {
    pabo_counters_.increment(bounced_before ? PaboCounters::kBounceFull : PaboCounters::kNormalFull,
                             out_port, priority);
    return drop(m, in_port, DropReason::kQueueCapacity);
  }
  if (out_port == in_port && !header.has_pabo_shim())
    return drop(m, in_port,
                DropReason::kSamePort);  // only a bounced frame goes back the way it came
  if (header.has_pabo_shim()) {
    uint8_t* shim = rte_pktmbuf_mtod(m, uint8_t*) + header.pabo_offset;
    wire::write_pabo_shim(shim, wire::forwarded(wire::read_pabo_shim(shim)));
  }
  if (bounced_before) pabo_counters_.increment(PaboCounters::kReforwarded, out_port, priority);
  enqueue<false>(m, in_port, out_port, priority, queue, false, 0,
                 bounced_before ? PaboSubqueue::kBounce : PaboSubqueue::kNormal, nullptr);
}

void FwdTask::bounce(rte_mbuf* m, int in_port, uint8_t priority, const wire::FrameHeader& header) {
  const int queue = priority;
  // Back by the FIB's port for its source, not the arrival port: after a second bounce the
  // arrival port leads downstream (the authors' code). Unknown: the way it came.
  int back = header.src.is_multicast() ? L2Fib::kUnknown : fib_.lookup(header.src);
  if (L2Fib::is_group(back)) {
    const auto& group = ecmp_groups_[back - L2Fib::kGroupBase];
    const auto key = flow_key(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), header);
    back = group[topology::ecmp_member(topology::flow_hash(key, ecmp_seed_),
                                       static_cast<int>(group.size()))];
  }
  if (back == L2Fib::kUnknown) back = in_port;
  const uint32_t bytes = rte_pktmbuf_pkt_len(m) +
                         (header.has_pabo_shim() ? 0 : static_cast<uint32_t>(wire::kPaboShimBytes));
  // No Eq. 4 there: it goes back if it fits (PABO §II-D; the authors' code).
  if (bounce_policy_->full(pabo_depth(back, queue, true), bytes, true)) {
    pabo_counters_.increment(PaboCounters::kBounceFull, back, priority);
    return drop(m, in_port, DropReason::kQueueCapacity);
  }
  if (header.has_pabo_shim()) {
    uint8_t* shim = rte_pktmbuf_mtod(m, uint8_t*) + header.pabo_offset;
    wire::write_pabo_shim(shim, wire::bounced(wire::read_pabo_shim(shim)));
  } else {
    // The shim goes where the frame's EtherType was, behind any VLAN tags.
    const size_t shim_offset = header.l3_offset - 2u;
    if (!rte_pktmbuf_prepend(m, static_cast<uint16_t>(wire::kPaboShimBytes)))
      return drop(m, in_port, DropReason::kNoHeadroom);
    wire::insert_pabo_shim(rte_pktmbuf_mtod(m, uint8_t*) + wire::kPaboShimBytes, shim_offset,
                           wire::bounced(wire::PaboShim{}));
  }
  pabo_counters_.increment(PaboCounters::kBounced, back, priority);
  enqueue<false>(m, in_port, back, priority, queue, false, 0, PaboSubqueue::kBounce, nullptr);
}

void FwdTask::read_lossy_pool() {
  const uint64_t released = state_.lossy_pool.released(0);  // first: see ChargeReleaseCounters
  lossy_pool_seen_ = state_.lossy_pool.charged(0) - released +
                     (charge_run_.meta.lossy ? charge_run_.meta.charged_bytes : 0);
  released_read_ |= kLossyRead;
}

void FwdTask::read_ingress(int slot, int priority) {
  const uint64_t released = state_.ingress_occupancy.released(slot);
  const bool in_run =
      SwitchState::occupancy_slot(charge_run_.meta.ingress_port, charge_run_.meta.priority) == slot;
  ingress_seen_[priority] = state_.ingress_occupancy.charged(slot) - released +
                            (in_run ? charge_run_.meta.charged_bytes : 0);
  released_read_ |= static_cast<uint16_t>(1u << priority);
}

void FwdTask::resynchronise(rte_mbuf* m, int in_port) {
  // IBA: ABR := FCTBS. Every packet the upstream sent before this frame has been counted
  // above, since the frame came through the same ring (or handoff) behind them.
  const auto decoded =
      wire::decode_credit(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m));
  count_burst_received(in_port);  // the burst's packets before it, as counted one by one
  state_.resynchronise(in_port, decoded.frame);
  credit_frames_[in_port].increment();
  to_free_.push_back(m);
}

void FwdTask::take_pyrrha(rte_mbuf* m, int in_port) {
  // RX checked it (decode_pyrrha); it came behind the data the sender sent before it.
  const auto decoded =
      wire::decode_pyrrha(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m));
  pyrrha_->received(in_port, decoded.frame);
  to_free_.push_back(m);
}

void FwdTask::drop(rte_mbuf* m, int in_port, DropReason reason) {
  drops_.add(in_port, reason);
  to_free_.push_back(m);
}

void FwdTask::flush() {
  for (int index : touched_stages_) {
    Stage& stage = stages_[index];
    const bool bounce = index >= bounce_stage_base_;
    const int port = (bounce ? index - bounce_stage_base_ : index) / kNumEgressQueues;
    const int queue = index % kNumEgressQueues;  // bounce_stage_base_ is whole ports of queues
    rte_ring* ring =
        bounce ? state_.bounce_rings[port][queue].get() : state_.egress_ring(port, queue, input_);
    // Always fits: admit() checked the free space.
    rte_ring_sp_enqueue_bulk(ring, reinterpret_cast<void**>(stage.pkts), stage.count, nullptr);
    state_.egress_enqueued[port].add(stage.count);
    state_.tx_wakes.mark(port);
    stage.count = 0;
  }
  touched_stages_.clear();
  if (!to_free_.empty()) {
    rte_pktmbuf_free_bulk(to_free_.data(), static_cast<unsigned>(to_free_.size()));
    to_free_.clear();
  }
}

}  // namespace fcswitch

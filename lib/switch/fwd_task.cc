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
#include "dpdk/frame_room.h"
#include "switch/burst.h"
#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/frame_header.h"
#include "wire/pabo_shim.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {

namespace {
// How far ahead of the packet being parsed its successors' data is prefetched: a few
// packets' work (~100 ns) covers a memory access, as DPDK's l3fwd (PREFETCH_OFFSET 3).
constexpr unsigned kPrefetchPackets = 4;
static_assert(kBurstSize <= L2Fib::kMaxBurst, "a burst's FIB work is one bulk call");
static_assert(std::is_trivially_destructible_v<wire::FrameHeader>);

}  // namespace

[[gnu::always_inline]] inline uint64_t FwdTask::queued_bytes_seen(int out_port, int queue,
                                                                  bool exact) {
  EgressStages::Stage& stage = stages_[EgressStages::index(out_port, queue)];
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
      next_hop_(settings.next_hop),
      tagger_(settings.tagger),
      max_frame_bytes_(settings.max_frame_bytes),
      stages_(state.ports, settings.pabo.priorities != 0),
      pabo_(settings.pabo, state.ports, fib, next_hop_),
      ecn_(settings.ecn, state.ports),
      admitted_packets_(std::make_unique<OwnedCounter[]>(state.ports * kNumPriorities)),
      admitted_bytes_(std::make_unique<OwnedCounter[]>(state.ports * kNumPriorities)),
      max_occupancy_(std::make_unique<OwnedGauge[]>(state.ports * kNumPriorities)),
      credit_frames_(std::make_unique<OwnedCounter[]>(state.ports)),
      drops_(state.ports) {
  if (settings.pyrrha) {
    const PyrrhaStageSettings& py = *settings.pyrrha;
    if (settings.input_queued || pabo_.applies(py.pyrrha.priority))
      throw std::invalid_argument("Pyrrha needs output queueing and a priority without PABO");
    pyrrha_ = std::make_unique<PyrrhaQueues>(py.pyrrha, py.oracle, py.host_ports, state);
    pyrrha_queue_ = py.pyrrha.priority;
  }
  handoffs_.resize(state.ports);
  for (int in = 0; in < state.ports; ++in)
    flood_last_.push_back(in == state.ports - 1 ? state.ports - 2 : state.ports - 1);
  if (settings.input_queued)
    crossbar_ = std::make_unique<InputCrossbar>(*settings.input_queued, state, stages_);
  // A burst of floods can drop at most one copy per packet per port.
  to_free_.reserve(static_cast<size_t>(kBurstSize) * (state.ports + 1));
  // ECN marks and Tagger rewrites a run's packets one by one as they follow it, and PABO
  // lets them follow while its sub-queue is below θ (follow_run): runs still pay.
  if (!next_hop_.decrements_ttl() && !pyrrha_)
    runs_mode_ = (tagger_ ? kRunsTagger : 0) | (ecn_.enabled() ? kRunsEcn : 0) |
                 (pabo_.priorities() ? kRunsPabo : 0) | (crossbar_ ? kRunsCrossbar : 0);
  // One feature alone, or none, has a loop of its own; the rest share the loop of all.
  take_fates_ =
      loop_for<kRunsPlain, kRunsTagger, kRunsEcn, kRunsPabo, kRunsCrossbar, kNoRuns>(runs_mode_);
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
  if (crossbar_) busy |= serve_inputs();
  if (pyrrha_) busy |= pyrrha_->serve();
  if (crossbar_ || pyrrha_)
    held_.set((crossbar_ ? crossbar_->fifos().packets() : 0) +
              (pyrrha_ ? pyrrha_->held_packets() : 0));
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
  if (!handoff) state_.rewind_if_emptied(state_.fwd_rings[in_port].get());
  input_ = in_port;  // stages hold this input's packets until flush()
  forward_burst(pkts, n, in_port, handoff == nullptr);
  if (handoff) handoff->count.store(0, std::memory_order_relaxed);
  processed_.add(n);
  // Stages hold at most one input burst: a packet is copied at most once per port.
  flush();
  return true;
}

bool FwdTask::serve_inputs() {
  const bool moved_any = crossbar_->serve(next_input_, input_);
  flush();
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
  if (crossbar_ && n < max) n += crossbar_->fifos().take(out + n, max - n);
  held_.set((crossbar_ ? crossbar_->fifos().packets() : 0) +
            (pyrrha_ ? pyrrha_->held_packets() : 0));
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
        // The data only: the meta FWD writes lies in the mbuf's first line, prefetched above.
        rte_prefetch0(rte_pktmbuf_mtod(pkts[i + kPrefetchPackets], const void*));
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
  (this->*take_fates_)(pkts, n, in_port, lookup_mask);
  end_charge_run();
  count_burst_received(in_port);
  count_burst_admitted(in_port);
}

template <unsigned kMode>
void FwdTask::take_fates(rte_mbuf** pkts, unsigned n, int in_port, uint32_t lookup_mask) {
  // In order: what a packet does to shared state (ABR, the buffer) happens in the order the
  // packets arrived.
  constexpr bool kPlain = kMode == kRunsPlain;
  constexpr bool runs = kMode != kNoRuns;
  constexpr bool kCrossbar = kMode & kRunsCrossbar;
  // Tagger and ECN count a run's followers when it closes; no other loop counts them.
  constexpr bool kCountsRuns = kMode & (kRunsTagger | kRunsEcn);
  PlainRun run;
  // An input-queued run's packets after its first, pushed into their FIFO together when the
  // run closes: before any other packet of the burst is taken, so the FIFO's order is theirs.
  rte_mbuf* followers[kBurstSize];
  unsigned n_followers = 0;
  // Inlined (push_run's copies made it a call): the lab's bursts of one close no run.
  auto close_run = [&]() __attribute__((always_inline)) {
    if (kCrossbar && n_followers)
      crossbar_->fifos().push_run(run.slot, followers, n_followers,
                                  static_cast<uint16_t>(run.out_port), run.queue);
    n_followers = 0;
    if (kCountsRuns && run.followed) {
      if ((kMode & kRunsTagger) && run.tag < kNoTag)
        tagger_->count_run(run.tagging, static_cast<uint8_t>(run.tag), run.followed);
      if ((kMode & kRunsEcn) && run.marks) ecn_.add_run(run.ecn_counts, run.out_port, run.queue);
      run.followed = 0;
      run.ecn_counts = {};
    }
    run.stage = nullptr;
  };
  for (unsigned i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    const int target = lookup_mask >> i & 1 ? targets_[i] : L2Fib::kUnknown;
    if (runs && run.stage) {
      if (fates_[i] == Fate::kForward && target == run.out_port &&
          classifier_.classify(headers_[i]) == run.priority &&
          (!(kMode & kRunsTagger) || run_tag(headers_[i]) == run.tag) &&
          follow_run<kMode>(m, headers_[i], run)) {
        if constexpr (kCountsRuns) ++run.followed;
        if constexpr (kCrossbar) followers[n_followers++] = m;
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
          if (run.stage && run_mark(run) != run.mark_before + 1) {
            run.stage = nullptr;
          } else if (!kPlain && run.stage) {
            read_run_depths(run);
          }
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

void FwdTask::read_run_depths(PlainRun& run) const {
  if (run.pabo) {
    const ChargeReleaseCounters& depth = *state_.pabo_depth[run.out_port];
    run.pabo_base = {depth.value(SwitchState::pabo_slot(run.queue, false, false)),
                     depth.value(SwitchState::pabo_slot(run.queue, false, true))};
  }
  if (run.marks) {
    run.queued_base_bytes = state_.egress_depth[run.out_port]->value(run.queue);
    run.ecn_profile = &ecn_.profile(run.out_port, run.queue);
  }
}

inline uint64_t FwdTask::run_mark(const PlainRun& run) const {
  return crossbar_ ? crossbar_->fifos().pushes() : run.stage->count;
}

FwdTask::PlainRun FwdTask::open_run(int in_port, int target, const wire::FrameHeader& header) {
  if (target == L2Fib::kUnknown || L2Fib::is_group(target) || target == in_port) return {};
  // As forward() and admit() take them: the queue is the priority's, or Tagger's for the tag.
  const uint8_t priority = classifier_.classify(header);
  const bool lossless = has_priority(lossless_, priority);
  PlainRun run{.out_port = target,
               .slot = SwitchState::occupancy_slot(in_port, priority),
               .priority = priority,
               .queue = priority,
               .lossless = lossless,
               .tag = run_tag(header),
               .tagging = {}};
  if (run.tag < kNoTag) {
    run.tagging = tagger_->decide(static_cast<uint8_t>(run.tag), in_port, target);
    run.queue = run.tagging.queue;
  }
  run.stage = &stages_[EgressStages::index(target, run.queue)];
  run.marks = ecn_.marks(target, run.queue);
  run.meta = std::bit_cast<uint64_t>(make_packet_meta(
      static_cast<uint8_t>(in_port), priority, run.queue, !lossless, PaboSubqueue::kNone, 0));
  if (pabo_.applies(priority)) {
    // A PABO run joins the normal sub-queue, as admit_pabo() places a packet never bounced:
    // not charged to the shared buffer (lossy = 0), never ECN-marked (PABO's paths do not).
    // A bounced frame (its shim) has its fate drawn on its own.
    if (header.has_pabo_shim()) return {};
    run.pabo = true;
    run.marks = false;
    run.meta = std::bit_cast<uint64_t>(make_packet_meta(
        static_cast<uint8_t>(in_port), priority, run.queue, false, PaboSubqueue::kNormal, 0));
  }
  run.mark_before = run_mark(run);
  return run;
}

template <unsigned kMode>
[[gnu::always_inline]] inline bool FwdTask::follow_run(rte_mbuf* m, const wire::FrameHeader& header,
                                                       PlainRun& run) {
  constexpr bool kInputQueued = kMode & kRunsCrossbar;
  EgressStages::Stage& stage = *run.stage;
  // admit() and enqueue() on the views the run's first packet read in this burst (the
  // ingress's, or the queue's and the lossy pool's), raised since by the run's charges. What
  // they would refuse, or where a ring's room or a new peak must be read, they decide. (An
  // input FIFO takes every admitted packet: its head waits for the ring's room.)
  if (!kInputQueued && stage.count >= stage.room) return false;
  const uint32_t bytes = rte_pktmbuf_pkt_len(m);
  if ((kMode & kRunsPabo) && run.pabo) {
    // PABO's sub-queue, not the shared buffer: on the counts as read when the run opened
    // (never below the true ones, TX's releases since unseen) and the run's charges. P = 0
    // there and room there is P = 0 and room at the true depth: place()'s answer, no draw.
    // Anything else (a shim, u_q past θ, the guard, full) place() decides on a fresh read.
    if (header.has_pabo_shim() ||
        !pabo_.passes({run.pabo_base.packets + charge_run_.packets,
                       run.pabo_base.bytes + charge_run_.meta.charged_bytes},
                      bytes))
      return false;
  } else if (run.lossless) {
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
  // Rewritten as admit() rewrites it (the run's decision: the same tag, ingress and egress),
  // once it is sure to be admitted, so that a packet left to forward() is not rewritten twice.
  if ((kMode & kRunsTagger) && run.tag < kNoTag)
    tagger_->rewrite_in_run(run.tagging, rte_pktmbuf_mtod(m, uint8_t*), header);
  // Drawn where enqueue() draws: once it is sure to join, on the depth before its charge.
  if ((kMode & kRunsEcn) && run.marks)
    ecn_.mark_in_run(m, header, *run.ecn_profile,
                     run.queued_base_bytes + charge_run_.meta.charged_bytes, run.ecn_counts);
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
    if (next_hop_.decrements_ttl() && next_hop_.ttl_expired(m, header))
      return drop(m, in_port, DropReason::kTtlExpired);
  }
  const int out_port = next_hop_.out_port(target, m, header);
  if constexpr (!kPlain) {
    if (pabo_.applies(priority) && out_port != L2Fib::kUnknown)
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
    rte_mbuf* copy = dpdk::copy_frame(m);
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
  const int stage_index = bounce_subqueue ? stages_.bounce_index(out_port, queue)
                                          : EgressStages::index(out_port, queue);
  EgressStages::Stage& stage = stages_[stage_index];
  // The ring's room is read when the stage is first used in the burst, and again only when
  // that says full: a packet is refused only if a read at that moment refuses it. (An
  // input-queued switch holds the packet in its input FIFO until the ring has room.)
  // Pyrrha's queue: held in its OQ or an IQ (switch/fwd/pyrrha_queues.h), moved on by serve().
  const bool pyrrha = !kPlain && queue == pyrrha_queue_;
  const bool input_queued = !kPlain && crossbar_;
  if (!input_queued && !pyrrha && (stage.count == 0 || stage.count >= stage.room)) {
    rte_ring* ring = bounce_subqueue ? state_.bounce_rings[out_port][queue].get()
                                     : state_.egress_ring_to_fill(out_port, queue, in_port);
    stage.room = static_cast<uint16_t>(std::min<unsigned>(rte_ring_free_count(ring), kBurstSize));
    if (stage.count >= stage.room) {
      drop(m, in_port, DropReason::kEgressRingFull);
      return false;
    }
  }

  // Marked on enqueue (DCQCN §3.1: on the egress queue a packet joins), once it is sure to join.
  // Pyrrha's class is marked by the OQ or IQ it joins, once held (below).
  const bool marks = !kPlain && ecn_header && ecn_.marks(out_port, queue);
  if (marks && !pyrrha) [[unlikely]]
    ecn_.mark(m, *ecn_header, out_port, queue, queued_bytes(out_port, queue));

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
  (bounce_subqueue ? stages_[EgressStages::index(out_port, queue)] : stage).seen_bytes +=
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
    crossbar_->fifos().push(slot, m, static_cast<uint16_t>(out_port), static_cast<uint8_t>(queue));
    return true;
  }
  if (pyrrha) [[unlikely]] {
    // Every Pyrrha packet comes through admit(), which passes its header.
    const uint64_t ahead_bytes = pyrrha_->hold(m, in_port, out_port, *ecn_header);
    if (marks) ecn_.mark(m, *ecn_header, out_port, queue, ahead_bytes);
    return true;
  }
  stages_.put(stage_index, m);
  return true;
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
  const PaboPlacement place = pabo_.place(
      m, in_port, out_port, priority, header,
      [&](int port, bool bounce_subqueue) { return pabo_depth(port, queue, bounce_subqueue); });
  if (place.port < 0) return drop(m, in_port, place.reason);
  enqueue<false>(m, in_port, place.port, priority, queue, false, 0, place.subqueue, nullptr);
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
  stages_.flush(state_, input_);
  if (!to_free_.empty()) {
    rte_pktmbuf_free_bulk(to_free_.data(), static_cast<unsigned>(to_free_.size()));
    to_free_.clear();
  }
}

}  // namespace fcswitch

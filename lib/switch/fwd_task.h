#pragma once
// FWD: for every data frame from the RX rings — parse, classify to a priority, learn the
// source, look up the destination (or flood), admit to the shared buffer, and append to the
// egress queue (port, priority). Charges the ingress occupancy the packet will release when
// it leaves the switch.
//
// The unit is an input's burst: its headers parsed in a first pass, its learning and
// lookups in one L2Fib call, then each packet acted on in order. An RX on FWD's own lcore
// hands its burst over directly (switch/burst_handoff.h) instead of through its ring; FWD
// takes every input in turn either way.
//
// In an input-queued switch (FwdSettings::input_queued) an admitted packet joins its input's
// FIFO instead (switch/fwd/input_queues.h), and FWD then moves the heads of the FIFOs to their
// egress queues, one packet per FIFO in turn, while the egress queue has room: test-pipeline's
// worker, with head-of-line blocking per (input, priority) rather than for the whole switch.

#include <rte_mbuf.h>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "core/owned_counter.h"
#include "core/task.h"
#include "core/traffic_class.h"
#include "core/units.h"
#include "params/pyrrha_params.h"
#include "switch/burst.h"
#include "switch/burst_handoff.h"
#include "switch/drop_counters.h"
#include "switch/fwd/ecn_marking.h"
#include "switch/fwd/egress_stages.h"
#include "switch/fwd/input_crossbar.h"
#include "switch/fwd/next_hop.h"
#include "switch/fwd/pabo_stage.h"
#include "switch/fwd/pyrrha_path_oracle.h"
#include "switch/fwd/pyrrha_queues.h"
#include "switch/fwd/tagger_stage.h"
#include "switch/l2_fib.h"
#include "switch/priority_classifier.h"
#include "switch/shared_buffer_policy.h"
#include "switch/switch_state.h"
#include "wire/frame_header.h"
#include "wire/pabo_shim.h"

namespace fcswitch {

// Pyrrha (Pyrrha §4) on one priority: its table and queues (fwd/pyrrha_queues.h), the onward
// paths of packets, and which ports face hosts.
struct PyrrhaStageSettings {
  config::PyrrhaSettings pyrrha;
  std::shared_ptr<const PyrrhaPathOracle> oracle;
  std::vector<bool> host_ports;
};

// What FWD does to every packet (classify, learn, look up, admit to the shared buffer), then
// each feature's settings (lib/switch/fwd/): a feature left at its default is off, and its
// checks are compiled out of the path of a switch that does not run it (FwdTask::take_fates).
struct FwdSettings {
  PriorityMaps priority_maps;
  PriorityMask lossless_priorities = 0;
  SharedBufferConfig buffer;
  bool mac_learning = true;
  // Per ingress port: the longest untagged frame its MTU allows (a VLAN tag adds 4 bytes).
  std::vector<uint32_t> max_frame_bytes = {};
  NextHopSettings next_hop;             // ECMP groups and TTL
  std::shared_ptr<TaggerStage> tagger;  // null: no Tagger; classify by [classify] alone
  std::optional<InputCrossbarSettings> input_queued;  // [switch] queueing = "input-hol"
  PaboStageSettings pabo;                             // PABO (PABO §II) on its priorities
  EcnMarkingSettings ecn;                             // ECN marking (RFC 3168; DCQCN §3.1)
  std::optional<PyrrhaStageSettings> pyrrha;
};

class FwdTask : public Task {
 public:
  FwdTask(const FwdSettings& settings, SwitchState& state, L2Fib& fib);
  ~FwdTask() override;
  // The groups the FIB's group entries point at, replaced with the FIB (SwitchNode::replace_fib).
  void set_ecmp_groups(std::vector<std::vector<uint16_t>> groups) {
    next_hop_.set_ecmp_groups(std::move(groups));
  }

  // Per (ingress port, priority): admitted packets and bytes (each flooded copy counts).
  uint64_t admitted_packets(int port, int priority) const {
    return admitted_packets_[SwitchState::occupancy_slot(port, priority)].read();
  }
  uint64_t admitted_bytes(int port, int priority) const {
    return admitted_bytes_[SwitchState::occupancy_slot(port, priority)].read();
  }
  // The highest ingress occupancy of lossless (port, priority) so far: FWD is its only
  // charger, so each peak is seen right after a charge.
  uint64_t max_ingress_occupancy(int port, int priority) const {
    return max_occupancy_[SwitchState::occupancy_slot(port, priority)].read();
  }
  // Before the lcores start, for an RX on FWD's lcore: where it hands its bursts over
  // instead of the fwd ring (switch/burst_handoff.h).
  BurstHandoff& handoff_from(int port);
  // Packets handed over and not yet taken (any thread).
  uint64_t handed_over() const;

  uint64_t processed() const { return processed_.read(); }
  uint64_t packets_moved() const override { return processed(); }
  // Packets admitted and waiting in the input FIFOs (input-queued) or Pyrrha's queues.
  uint64_t held() const { return held_.read(); }
  // Whether it ever holds any (held() is 0 otherwise): set up before the lcores start.
  bool may_hold() const { return crossbar_ || pyrrha_; }
  // Control thread, after the lcores have stopped: hands back what the input FIFOs hold, and
  // what RX handed over that FWD did not take (with its ingress port in the metadata).
  unsigned take_held(rte_mbuf** out, unsigned max);
  // Credit frames RX passed on for the ABR resynchronisation, consumed here.
  uint64_t credit_frames(int port) const { return credit_frames_[port].read(); }
  uint64_t flood_copies() const { return flood_copies_.read(); }
  uint64_t fib_full() const { return fib_full_.read(); }
  const DropCounters& drops() const { return drops_; }
  const PaboCounters& pabo() const { return pabo_.counters(); }
  const EcnCounters& ecn() const { return ecn_.counters(); }
  const TaggerStage* tagger() const { return tagger_.get(); }
  // Pyrrha's table and queues; null when the switch does not run Pyrrha.
  const PyrrhaQueues* pyrrha() const { return pyrrha_.get(); }
  // FWD's thread (the lab's one thread): port `port`'s link went down or came back.
  void link_changed(int port, bool up) {
    if (pyrrha_) pyrrha_->port_changed(port, up);
  }

 protected:
  bool poll(uint64_t now_tsc) override;

 private:
  // What the first pass over a burst found a packet to be.
  enum class Fate : uint8_t {
    kForward,
    kCredit,
    kPyrrha,
    kRunt,
    kMalformed,
    kOversize,
    kLinkLocal
  };

  // Forwards what input `in_port` holds (a burst at most); false when it held nothing.
  // `marked`: the poll walks the marked inputs (SwitchState::fwd_inputs), and a full ring
  // marks its input again.
  bool take_input(int in_port, bool marked);
  // `cold`: the burst came through a ring (from another lcore): prefetch it as it is parsed.
  void forward_burst(rte_mbuf** pkts, unsigned n, int in_port, bool cold);
  // `max_frame_bytes`: the input port's MTU as a frame length (max_frame_bytes_of).
  Fate inspect(rte_mbuf* m, uint32_t max_frame_bytes, const wire::FrameHeader& header) const {
    if (header.status != wire::FrameStatus::kOk) [[unlikely]]
      return header.status == wire::FrameStatus::kRunt ? Fate::kRunt : Fate::kMalformed;
    // A VLAN tag, and PABO's shim on a bounced frame, are on top of what the MTU allows
    // (looked at only for a frame over it).
    if (rte_pktmbuf_pkt_len(m) > max_frame_bytes &&
        rte_pktmbuf_pkt_len(m) > max_frame_bytes + (header.has_vlan ? kVlanTagBytes : 0) +
                                     (header.has_pabo_shim() ? wire::kPaboShimBytes : 0))
      return Fate::kOversize;
    if (header.dst.is_link_local()) return link_local_fate(m);
    return Fate::kForward;
  }
  // The largest frame `in_port` takes without its tags and shim; no limit when none was set.
  uint32_t max_frame_bytes_of(int in_port) const {
    return max_frame_bytes_.empty() ? UINT32_MAX - kVlanTagBytes - wire::kPaboShimBytes
                                    : max_frame_bytes_[in_port];
  }
  Fate link_local_fate(rte_mbuf* m) const;
  // The features a burst's runs (PlainRun) may meet, fixed at construction (runs_mode_): each
  // combination the switch can have is a take_fates of its own, the others' checks compiled
  // out of its packets' path. kRunsPlain: none of them (nor TTL or Pyrrha); kNoRuns: TTL or
  // Pyrrha, which take every packet one by one.
  static constexpr unsigned kRunsPlain = 0, kRunsTagger = 1, kRunsEcn = 2, kRunsPabo = 4,
                            kRunsCrossbar = 8, kNoRuns = 16;
  // The burst's second pass: each packet's fate, in arrival order. kRunsPlain is the plain
  // switch, every check for a feature compiled out of the packet's path (the common
  // case of a forwarding benchmark); a switch with one feature pays only that one's checks
  // (each feature ≤ 10 % of plain forwarding: docs/benchmarks.md).
  template <unsigned kMode>
  void take_fates(rte_mbuf** pkts, unsigned n, int in_port, uint32_t lookup_mask);
  using TakeFates = void (FwdTask::*)(rte_mbuf**, unsigned, int, uint32_t);
  // take_fates<mode> when `mode` is one of kModes, else the loop of every feature (with the
  // input FIFOs or without: an input-queued switch's runs go into them).
  template <unsigned... kModes>
  static TakeFates loop_for(unsigned mode) {
    constexpr unsigned kAll = kRunsTagger | kRunsEcn | kRunsPabo;
    TakeFates loop = mode & kRunsCrossbar ? &FwdTask::take_fates<kAll | kRunsCrossbar>
                                          : &FwdTask::take_fates<kAll>;
    ((loop = mode == kModes ? &FwdTask::take_fates<kModes> : loop), ...);
    return loop;
  }
  // In a plain burst, the packets after one that forward() staged for a port and priority,
  // bound for the same, follow it on follow_run's few checks: the target, charges and views
  // that packet settled are theirs too (a burst of one flow is one run). Compact plain
  // forwarding: FWD 46–50 → 39 cycles a packet, 16.2 → 17.6 Mpps (three alternating runs).
  // A switch that is input-queued, marks ECN, runs Tagger or PABO (runs_mode_ not kNoRuns)
  // follows runs likewise: into its input FIFO; each packet drawn for its mark; each rewritten
  // by the decision the run's tag, ingress and egress got once; into PABO's normal sub-queue
  // while Eq. 4 gives 0. FWD cycles a packet on hugepages, before and after runs with a loop
  // per feature: ECN marking every frame 41 → 30, Tagger's rewrite 35 → 31, PABO's check
  // 45 → 26, against plain forwarding's 23.
  static constexpr int kNoTag = 256;
  struct PlainRun {
    EgressStages::Stage* stage = nullptr;  // where its packets are staged; null: no run open
    int out_port = L2Fib::kUnknown;
    int slot = 0;          // (input, priority)
    uint8_t priority = 0;  // the ingress class its packets are charged to
    uint8_t queue = 0;     // the egress queue they join: the priority's, or Tagger's
    bool lossless = false;
    bool marks = false;             // its queue marks ECN (fwd/ecn_marking.h): each packet is drawn
    int tag = kNoTag;               // run_tag() of its packets
    TaggerStage::Decision tagging;  // Tagger's, for that tag (tag < kNoTag)
    uint64_t mark_before = 0;       // run_mark() before the packet that opened it
    uint64_t meta = 0;              // its packets' PacketMeta but their charged_bytes
    // PABO's priority: its packets join the normal sub-queue while PaboStage::passes, on the
    // sub-queue's counts read after its first packet (pabo_base) and the charge run (its
    // packets).
    bool pabo = false;
    pabo::SubqueueDepth pabo_base{};
    // Marking: the queue's bytes as read when it opened; with the charge run's, the bytes
    // ahead of each packet (queued_bytes). One read a run, not a chain of loads a packet;
    // with TX on another lcore, what it released meanwhile goes unseen for the burst's
    // microsecond (the lab, and a switch on one lcore, see exactly queued_bytes).
    uint64_t queued_base_bytes = 0;
    const ecn::MarkingProbability* ecn_profile = nullptr;  // its queue's, when it marks
    // The packets that followed its first, and what marking counted of them: counted once
    // when it closes (Tagger's and ECN's counters), not a read-modify-write a packet.
    uint32_t followed = 0;
    EcnMarking::RunCounts ecn_counts{};
  };
  // After the run's first packet took its place (its charges are the charge run's): the
  // counts of its sub-queue (PABO) or queue (marking) without the run, read once.
  void read_run_depths(PlainRun& run) const;
  // The run a packet bound for `target` would open (no stage: one it cannot open).
  // What a run's packets share for Tagger (its rewrite depends on the tag alone, given the
  // ports): the DSCP of an IP packet where Tagger runs; kNoTag where it does not apply.
  int run_tag(const wire::FrameHeader& header) const {
    return tagger_ && header.l3 != wire::L3Kind::kOther ? header.dscp : kNoTag;
  }
  PlainRun open_run(int in_port, int target, const wire::FrameHeader& header);
  // What grows by one when forward() takes a packet into the run's stage (its count), or into
  // an input FIFO (their pushes).
  uint64_t run_mark(const PlainRun& run) const;
  // Stages `m` as the run's packet, or admits it for its input FIFO (kRunsCrossbar: the
  // caller pushes the run's packets when the run closes): admission, charges, views, as
  // forward() would; false, having changed nothing, when forward() must decide (a refusal, a
  // full stage, a new peak, a PABO draw). `kMode`: the features the switch may run.
  template <unsigned kMode>
  bool follow_run(rte_mbuf* m, const wire::FrameHeader& header, PlainRun& run);
  // `target`: what the FIB said of the destination (L2Fib::learn_and_look_up).
  template <bool kPlain>
  void forward(rte_mbuf* m, int in_port, const wire::FrameHeader& header, int target);
  template <bool kPlain>
  void admit(rte_mbuf* m, int in_port, int out_port, uint8_t priority,
             const wire::FrameHeader& header);
  // Charges a packet admitted to (out_port, queue) and stages it for that egress ring, or for
  // the queue's bounce sub-queue; false when the ring had no room (dropped). `ecn_header`: the
  // packet's parsed header where the queue may mark it (null on PABO's paths, which do not).
  template <bool kPlain>
  bool enqueue(rte_mbuf* m, int in_port, int out_port, uint8_t priority, int queue, bool lossless,
               uint64_t occupancy, PaboSubqueue pabo, const wire::FrameHeader* ecn_header);
  // PABO: its sub-queues' admission (fwd/pabo_stage.h), then the packet's enqueue or drop.
  void admit_pabo(rte_mbuf* m, int in_port, int out_port, uint8_t priority,
                  const wire::FrameHeader& header);
  // u_q of Eq. 4: the packets and bytes in that sub-queue, the charge run's included.
  pabo::SubqueueDepth pabo_depth(int port, int queue, bool bounce_subqueue) const;
  // The bytes in the lossy pool, and in (the burst's input, `priority`): charged (FWD's own
  // count) minus what the TX tasks had released when last read, an upper bound of the true
  // value (releases only grow). The releasers' rows are read once per burst, or again when
  // `exact`.
  // Both count the charges of the run not yet made (charge_run_).
  uint64_t lossy_pool_bytes(bool exact) {
    if (exact || !(released_read_ & kLossyRead)) read_lossy_pool();
    return lossy_pool_seen_;
  }
  uint64_t ingress_bytes(int slot, int priority, bool exact) {
    if (exact || !(released_read_ >> priority & 1)) read_ingress(slot, priority);
    return ingress_seen_[priority];
  }
  // The bytes waiting in (out_port, queue), the run's included, as FWD sees them in this
  // burst: read once (queued_bytes) when the burst first asks, then raised by what FWD
  // charges to that queue. Never below the true depth (TX's releases meanwhile go unseen),
  // so what it admits the true depth admits too; a refusal is decided again on a fresh read.
  // One read a queue a burst instead of a chain of six loads a packet (~8 % of FWD's cycles).
  // `exact`: read again now, and keep that as the burst's view (as lossy_pool_bytes does).
  uint64_t queued_bytes_seen(int out_port, int queue, bool exact);
  // The bytes waiting in (out_port, queue), the run's included.
  uint64_t queued_bytes(int out_port, int queue) const {
    return state_.egress_depth[out_port]->value(queue) +
           (charge_run_.out_port == out_port && charge_run_.meta.egress_queue == queue
                ? charge_run_.meta.charged_bytes
                : 0);
  }
  // An admitted packet's charges (SwitchState::charge): added to the run when they are its
  // charges, else made after the run's, which a new run with this packet replaces.
  void charge(const PacketMeta& meta, int out_port);
  void end_charge_run();
  void read_lossy_pool();
  void read_ingress(int slot, int priority);
  void drop(rte_mbuf* m, int in_port, DropReason reason);
  void resynchronise(rte_mbuf* m, int in_port);
  void take_pyrrha(rte_mbuf* m, int in_port);
  void flush();
  bool serve_inputs();

  SwitchState& state_;
  L2Fib& fib_;
  PriorityClassifier classifier_;
  SharedBufferPolicy buffer_;
  PriorityMask lossless_;
  bool mac_learning_;
  NextHop next_hop_;
  std::shared_ptr<TaggerStage> tagger_;
  std::vector<uint32_t> max_frame_bytes_;
  std::vector<int> flood_last_;  // [ingress port]: the highest other port, -1 if none
  int next_input_ = 0;
  uint64_t now_ = 0;  // this poll's time
  int input_ = 0;     // the input port whose burst the stages hold

  // The burst being forwarded: each packet's parsed header and fate (first pass).
  wire::FrameHeader headers_[kBurstSize];
  Fate fates_[kBurstSize];
  // Set when the view below of (input, priority) was read in this burst (bit 8: the lossy
  // pool's); cleared at each burst's start, so the first ask of a burst reads the releasers.
  static constexpr uint16_t kLossyRead = 1u << kNumPriorities;
  // The lossy pool's and (input, priority)'s bytes as last read (charged − released, the
  // run's included), raised by what FWD charges to them since: the chain of loads to the
  // charged count once a burst, not a packet. Equal to charged − the releases read.
  uint64_t lossy_pool_seen_ = 0;
  uint64_t ingress_seen_[kNumPriorities] = {};
  uint16_t released_read_ = 0;
  uint64_t burst_ = 1;  // counts forward_burst's bursts: a Stage's view of another is stale
  wire::MacAddress sources_[kBurstSize];
  wire::MacAddress destinations_[kBurstSize];
  int targets_[kBurstSize];

  EgressStages stages_;
  PaboStage pabo_;
  EcnMarking ecn_;
  std::vector<rte_mbuf*> to_free_;           // dropped in this burst, freed together
  std::unique_ptr<InputCrossbar> crossbar_;  // input-queued only
  std::unique_ptr<PyrrhaQueues> pyrrha_;
  // Which take_fates its bursts take: the features it runs (kRunsTagger …), or kNoRuns.
  unsigned runs_mode_ = kNoRuns;
  TakeFates take_fates_ = nullptr;
  int pyrrha_queue_ = -1;  // the egress queue Pyrrha holds; -1: none
  // [port]: RX(port)'s bursts, when it runs on FWD's lcore; null: through the fwd ring.
  std::vector<std::unique_ptr<BurstHandoff>> handoffs_;

  std::unique_ptr<OwnedCounter[]> admitted_packets_;
  std::unique_ptr<OwnedCounter[]> admitted_bytes_;
  // A burst's admissions per priority (its packets share an input), added to the counters
  // above once at its end: two read-modify-writes a packet, each waiting on the last packet's
  // store to the same counter, cost about 5 % of plain forwarding (median of 6 runs each).
  // Summed from its charge runs (charge_run_), which are its admitted packets.
  struct BurstAdmitted {
    PriorityMask priorities = 0;
    std::array<uint32_t, kNumPriorities> packets{};
    std::array<uint64_t, kNumPriorities> bytes{};
  } burst_admitted_;
  void count_burst_admitted(int in_port);
  // Likewise what a burst's packets add to CBFC's ABR of their input (received blocks, per
  // priority), and the priorities whose latest arrival time (last_arrival_ticks) is this
  // poll's: added once at the end of the burst, or before a credit frame sets the ABR.
  struct BurstReceived {
    PriorityMask priorities = 0;
    std::array<uint64_t, kNumPriorities> blocks{};
  } burst_received_;
  void count_burst_received(int in_port);
  // A run of admitted packets with the same charges (one input, priority, egress port and
  // queue, lossy or not, PABO sub-queue): typically a whole burst. Its packets and bytes are
  // charged to the buffer's counts once, when the run ends, not per packet: four or more
  // read-modify-writes through as many pointers, each waiting on the packet before's store to
  // the same counter. A run ends at a packet with other charges and at the end of its burst,
  // before flush() lets a TX task see any packet of it; FWD's reads of those counts meanwhile
  // (ingress_bytes, lossy_pool_bytes, queued_bytes, pabo_depth) add the run's, so every
  // decision is the one per-packet charges gave. Compact plain forwarding: 413 → 408
  // instructions a packet in FWD and no measurable change in Mpps (the CPU overlapped those
  // stores); with PABO on the traffic's priority (two more counts a packet) 13.1 → 14.1 Mpps.
  // `charged_bytes`: the run's bytes, at most a burst of frames (no overflow).
  struct ChargeRun {
    PacketMeta meta{};  // no run: no bytes
    int out_port = -1;  // -1: no run
    uint32_t packets = 0;
  } charge_run_;
  std::unique_ptr<OwnedGauge[]> max_occupancy_;
  std::unique_ptr<OwnedCounter[]> credit_frames_;
  OwnedCounter processed_;
  OwnedGauge held_;
  OwnedCounter flood_copies_;
  OwnedCounter fib_full_;
  DropCounters drops_;
};

}  // namespace fcswitch

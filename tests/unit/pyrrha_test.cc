// Pyrrha's congestion-root table (Pyrrha §4, Fig. 5, Fig. 6) driven by hand: PAUSE/RESUME,
// self-nomination with hysteresis, the false-positive merge of Fig. 5(a), soft-merge drain and
// release, DEALLOC down a three-switch tree, the loop guard, IQ exhaustion, the hierarchical
// re-match of Fig. 5(b)/(c) and a failed port. Thresholds: K_pause 2000 B, K_resume 1000 B.

#include <gtest/gtest.h>

#include <vector>

#include "params/pyrrha_params.h"
#include "pyrrha/congestion_root_table.h"
#include "pyrrha/root_index.h"

namespace fcswitch::pyrrha {
namespace {

constexpr uint64_t kPauseBytes = 2000;
constexpr uint64_t kResumeBytes = 1000;

config::PyrrhaParams params(uint16_t iqs = 4) {
  config::PyrrhaParams p;
  p.k_pause_bytes = kPauseBytes;
  p.k_resume_bytes = kResumeBytes;
  p.max_isolation_queues = iqs;
  p.max_roots = 16;
  return p;
}

Message pause(RootId root, uint16_t hop) {
  return {MessageKind::kPause, root, {}, hop, 0};
}
Message resume(RootId root) {
  return {MessageKind::kResume, root, {}, 0, 0};
}
Message merge(RootId root, RootId old_root, uint16_t hop) {
  return {MessageKind::kMerge, root, old_root, hop, 0};
}
Message dealloc(RootId root) {
  return {MessageKind::kDealloc, root, {}, 0, 0};
}

std::vector<Message> copy(std::span<const Message> m) {
  return {m.begin(), m.end()};
}

// `root` learned by a PAUSE on `egress`, and `bytes` from `ingress` held in its IQ there.
QueueChoice hold(CongestionRootTable& t, RootId root, uint16_t egress, uint16_t ingress,
                 uint32_t bytes) {
  const std::vector<PathHop> path{root};
  t.received(egress, pause(root, 1));
  const QueueChoice q = t.classify(egress, path);
  t.enqueued(egress, q, ingress, bytes, path);
  return q;
}

TEST(PyrrhaParams, RejectsWhatTheTableCannotRun) {
  EXPECT_EQ(config::pyrrha_params_problem(params()), nullptr);
  config::PyrrhaParams p = params();
  p.k_resume_bytes = p.k_pause_bytes;
  EXPECT_NE(config::pyrrha_params_problem(p), nullptr);
  p = params(0);
  EXPECT_NE(config::pyrrha_params_problem(p), nullptr);
  // Built anyway, the table still isolates with one IQ rather than dividing by zero.
  CongestionRootTable t(1, 2, p);
  t.received(0, pause({7, 1}, 1));
  t.received(0, pause({7, 2}, 1));
  EXPECT_EQ(t.iq_of({7, 2}, 0), 0);
  EXPECT_EQ(t.counters().iq_exhaustion, 1u);
  // 10 Gb/s over a 1 µs link, no reaction time: 10e9 × 2e-6 / 8 = 2500 bytes.
  EXPECT_EQ(config::one_hop_bdp_bytes(10'000'000'000, 2 * 1000 + 0), 2500u);
  // §6: 100 Gb/s, base RTT 5.1 µs → 63 750 bytes, the paper's "BDP 64 KB".
  EXPECT_EQ(config::one_hop_bdp_bytes(100'000'000'000, 2 * 2550 + 0), 63750u);
}

TEST(RootIndex, EraseKeepsTheOthersFindable) {
  RootIndex index(16);
  bool inserted = false;
  for (uint16_t p = 0; p < 16; ++p) EXPECT_NE(index.insert({3, p}, inserted), RootIndex::kNone);
  EXPECT_EQ(index.insert({4, 0}, inserted), RootIndex::kNone);  // full
  for (uint16_t p = 1; p < 16; p += 2) index.erase({3, p});
  EXPECT_EQ(index.size(), 8u);
  for (uint16_t p = 0; p < 16; ++p) {
    EXPECT_EQ(index.find({3, p}) != RootIndex::kNone, p % 2 == 0) << p;
  }
  EXPECT_NE(index.insert({4, 0}, inserted), RootIndex::kNone);
  EXPECT_TRUE(inserted);
}

// Fig. 6: unassigned → paused on PAUSE; the IQ on that egress holds the root's packets only.
TEST(PyrrhaTable, PauseAllocatesAPausedIq) {
  CongestionRootTable t(1, 4, params());
  const RootId root{7, 3};
  EXPECT_TRUE(t.received(2, pause(root, 1)).empty());
  EXPECT_EQ(t.state(root, 2), IqState::kPaused);
  ASSERT_EQ(t.iq_of(root, 2), 0);
  EXPECT_EQ(t.hop_of(root), 1);
  EXPECT_FALSE(t.may_dequeue(2, 0));
  const std::vector<PathHop> through_root{{7, 3}};
  const std::vector<PathHop> past_root{{7, 4}};
  EXPECT_EQ(t.classify(2, through_root), (QueueChoice{0, 1}));
  EXPECT_TRUE(t.classify(2, past_root).output());
  // Learned through port 2: traffic leaving by port 1 is not held for it.
  EXPECT_TRUE(t.classify(1, through_root).output());
  EXPECT_EQ(t.counters().received[0], 1u);
  EXPECT_EQ(t.gauges().iqs_paused, 1u);
  EXPECT_EQ(t.gauges().roots_active, 1u);
}

// Fig. 6: paused → resumed on RESUME; the IQ may send again and, empty, is released.
TEST(PyrrhaTable, ResumeLetsTheIqSendAndReleasesItEmpty) {
  CongestionRootTable t(1, 4, params());
  const RootId root{7, 3};
  const std::vector<PathHop> path{root};
  const QueueChoice q = hold(t, root, 2, 0, 500);
  EXPECT_TRUE(t.received(2, resume(root)).empty());  // not empty: nothing to release yet
  EXPECT_EQ(t.state(root, 2), IqState::kResumed);
  EXPECT_TRUE(t.may_dequeue(2, q.iq));
  const auto out = t.dequeued(2, q, 0, 500, path);
  EXPECT_TRUE(out.next.output());
  // A leaf with its IQ empty and resumed tells its parent, and forgets the root.
  ASSERT_EQ(out.messages.size(), 1u);
  EXPECT_EQ(out.messages[0], (Message{MessageKind::kDealloc, root, {}, 0, 2}));
  EXPECT_FALSE(t.knows(root));
  EXPECT_EQ(t.pool().in_use(2), 0);
}

// §4.5 "OQs never get paused": every PAUSE lands on an IQ, even with none left to give.
TEST(PyrrhaTable, OutputQueueIsNeverPaused) {
  CongestionRootTable t(1, 4, params(1));
  t.received(2, pause({7, 3}, 1));
  t.received(2, pause({8, 3}, 1));  // no IQ left: shares IQ 0
  const std::vector<PathHop> victim{{7, 4}, {9, 1}};
  EXPECT_TRUE(t.classify(2, victim).output());
  EXPECT_EQ(t.iq_of({8, 3}, 2), 0);
  // The OQ's bytes only ever drive self-nomination, which pauses upstream, not the OQ.
  const auto m = copy(t.enqueued(2, t.classify(2, victim), 0, 5000, victim));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].kind, MessageKind::kPause);
  EXPECT_EQ(m[0].root, (RootId{1, 2}));
}

// §4.1 self-nomination: OQ strictly above K_pause pauses each ingress once; below K_resume
// resumes them all; in between nothing changes (hysteresis).
TEST(PyrrhaTable, SelfNominationAtKPauseAndResumeAtKResume) {
  CongestionRootTable t(1, 4, params());
  const std::vector<PathHop> path{{2, 0}};
  const QueueChoice oq{};
  EXPECT_TRUE(t.enqueued(3, oq, 0, 1000, path).empty());
  EXPECT_TRUE(t.enqueued(3, oq, 0, 1000, path).empty());  // = K_pause: not above
  auto m = copy(t.enqueued(3, oq, 0, 1, path));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], (Message{MessageKind::kPause, RootId{1, 3}, {}, 1, 0}));
  EXPECT_TRUE(t.enqueued(3, oq, 0, 100, path).empty());  // once per ingress
  m = copy(t.enqueued(3, oq, 1, 100, path));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].port, 1);
  EXPECT_EQ(t.oq_bytes(3), 2201u);
  EXPECT_TRUE(t.dequeued(3, oq, 0, 1201, path).messages.empty());  // 1000 = K_resume
  m = copy(t.dequeued(3, oq, 0, 1, path).messages);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0], (Message{MessageKind::kResume, RootId{1, 3}, {}, 1, 0}));
  EXPECT_EQ(m[1].port, 1);
  EXPECT_EQ(t.self_upstream(3, 0), UpstreamState::kResumed);
  EXPECT_EQ(t.counters().sent[0], 2u);
  EXPECT_EQ(t.counters().sent[1], 2u);
}

// §4.4 and the authors' iport_counter: a non-root pauses the ingress whose bytes for the root
// exceed K_pause, with the hop one further, and resumes it below K_resume; ingresses apart.
TEST(PyrrhaTable, NonRootPausesPerRootAndIngress) {
  CongestionRootTable t(1, 4, params());
  const RootId root{7, 3};
  const std::vector<PathHop> path{root};
  t.received(2, pause(root, 1));
  const QueueChoice q = t.classify(2, path);
  EXPECT_TRUE(t.enqueued(2, q, 1, 1500, path).empty());
  EXPECT_TRUE(t.enqueued(2, q, 0, 2000, path).empty());
  auto m = copy(t.enqueued(2, q, 0, 1, path));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], (Message{MessageKind::kPause, root, {}, 2, 0}));
  EXPECT_EQ(t.root_ingress_bytes(root, 0), 2001u);
  EXPECT_EQ(t.root_ingress_bytes(root, 1), 1500u);
  EXPECT_EQ(t.upstream(root, 0), UpstreamState::kPaused);
  EXPECT_EQ(t.upstream(root, 1), UpstreamState::kNone);
  t.received(2, resume(root));
  EXPECT_TRUE(t.dequeued(2, q, 0, 1001, path).messages.empty());  // 1000: not below
  m = copy(t.dequeued(2, q, 0, 1, path).messages);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], (Message{MessageKind::kResume, root, {}, 0, 0}));
}

// Fig. 5(a), at P1's switch: a self-nominated root hears PAUSE from P5 beyond it, is a false
// positive, and sends MERGE{P5, P1} to every upstream it controlled.
TEST(PyrrhaTable, FalsePositiveRootMergesIntoTheRealOne) {
  CongestionRootTable t(1, 4, params());
  const RootId p1{1, 3};
  const RootId p5{5, 1};
  const std::vector<PathHop> path{p5};
  t.enqueued(3, {}, 0, 2001, path);
  t.enqueued(3, {}, 2, 100, path);
  ASSERT_EQ(t.self_upstream(3, 2), UpstreamState::kPaused);
  const auto m = copy(t.received(3, pause(p5, 1)));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0], (Message{MessageKind::kMerge, p5, p1, 2, 0}));
  EXPECT_EQ(m[1], (Message{MessageKind::kMerge, p5, p1, 2, 2}));
  EXPECT_EQ(t.counters().false_positive_roots, 1u);
  EXPECT_EQ(t.self_upstream(3, 0), UpstreamState::kNone);
  EXPECT_EQ(t.upstream(p5, 0), UpstreamState::kResumed);  // now P5's children
  EXPECT_EQ(t.state(p5, 3), IqState::kPaused);
  EXPECT_EQ(t.classify(3, path), (QueueChoice{0, 1}));
  EXPECT_EQ(t.gauges().self_nominated_ports, 0u);
  // A second PAUSE for P5 is no news: no second MERGE.
  EXPECT_TRUE(t.received(3, pause(p5, 1)).empty());
}

// Fig. 5(a)/Fig. 6 one hop further up: MERGE turns the old IQ soft-merging (it sends again and
// pauses no one), gives the new root a resumed IQ, and goes on to the old tree's children.
// Packets in the soft-merging IQ, and those that arrive after the MERGE behind them, pass into
// the new root's IQ in order; the old IQ is released when empty.
TEST(PyrrhaTable, MergeSoftMergesTheOldIqDrainsThenReleases) {
  CongestionRootTable t(9, 4, params());
  const RootId p1{1, 3};
  const RootId p5{5, 1};
  const std::vector<PathHop> path{p1, p5};
  t.received(1, pause(p1, 1));
  const QueueChoice old_q = t.classify(1, path);
  ASSERT_EQ(old_q, (QueueChoice{0, 1}));
  t.enqueued(1, old_q, 0, 2001, path);  // pauses ingress 0 for P1
  ASSERT_EQ(t.upstream(p1, 0), UpstreamState::kPaused);

  const auto m = copy(t.received(1, merge(p5, p1, 2)));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], (Message{MessageKind::kMerge, p5, p1, 3, 0}));
  EXPECT_EQ(t.state(p1, 1), IqState::kSoftMerging);
  EXPECT_TRUE(t.may_dequeue(1, old_q.iq));
  EXPECT_EQ(t.state(p5, 1), IqState::kResumed);
  EXPECT_EQ(t.hop_of(p5), 2);
  EXPECT_EQ(t.upstream(p5, 0), UpstreamState::kResumed);
  EXPECT_EQ(t.upstream(p1, 0), UpstreamState::kNone);
  EXPECT_EQ(t.gauges().iqs_soft_merging, 1u);

  // After the MERGE the flow still joins the soft-merging IQ, behind its earlier packets.
  EXPECT_EQ(t.classify(1, path), old_q);
  t.enqueued(1, old_q, 0, 100, path);
  // A soft-merging IQ pauses and resumes no one.
  EXPECT_TRUE(t.enqueued(1, old_q, 0, 3000, path).empty());
  const QueueChoice new_q{*t.iq_of(p5, 1), 2};
  auto out = t.dequeued(1, old_q, 0, 2001, path);
  EXPECT_EQ(out.next, new_q);
  EXPECT_TRUE(out.messages.empty());
  t.enqueued(1, out.next, 0, 2001, path);
  out = t.dequeued(1, old_q, 0, 100, path);
  EXPECT_EQ(out.next, new_q);
  EXPECT_TRUE(t.knows(p1));  // still holds 3000 bytes
  out = t.dequeued(1, old_q, 0, 3000, path);
  EXPECT_EQ(out.next, new_q);
  EXPECT_FALSE(t.knows(p1));  // drained: IQ released and the old root forgotten
  EXPECT_EQ(t.pool().in_use(1), 1);
  EXPECT_EQ(t.classify(1, path), new_q);
}

// A MERGE reaching a leaf whose IQs hold nothing: the sender now counts it as a resumed child
// of the new root and waits for its DEALLOC, and no packet will pass through the empty IQs to
// release them, so the leaf releases both roots and sends DEALLOC{new root} at once. (Without
// this the trees stayed up after the traffic had gone: thousands of IQs at the end of a k = 12
// fat-tree run.)
TEST(PyrrhaTable, AMergeReachingAnEmptyLeafReleasesTheTreeAtOnce) {
  CongestionRootTable t(9, 4, params());
  const RootId p1{1, 3};
  const RootId p5{5, 1};
  t.received(1, pause(p1, 1));
  ASSERT_EQ(t.state(p1, 1), IqState::kPaused);
  const auto out = copy(t.received(1, merge(p5, p1, 2)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (Message{MessageKind::kDealloc, p5, {}, 0, 1}));
  EXPECT_FALSE(t.knows(p1));
  EXPECT_FALSE(t.knows(p5));
  EXPECT_EQ(t.pool().in_use(1), 0);
  // With packets for the new root's tree still in the old IQ, the leaf waits for them.
  t.received(2, pause(p1, 1));
  const std::vector<PathHop> path{p1, p5};
  const QueueChoice q = t.classify(2, path);
  t.enqueued(2, q, 0, 500, path);
  EXPECT_TRUE(t.received(2, merge(p5, p1, 2)).empty());
  EXPECT_TRUE(t.knows(p5));
  // Its last packet leaves the old IQ for the new root's: the new root is not released under
  // it, and releases once the packet has gone on.
  const auto left = t.dequeued(2, q, 0, 500, path);
  const QueueChoice next = left.next;
  ASSERT_EQ(next.level, 2);
  EXPECT_TRUE(left.messages.empty());
  EXPECT_FALSE(t.knows(p1));
  ASSERT_TRUE(t.knows(p5));
  t.enqueued(2, next, 0, 500, path);
  const auto gone = copy(t.dequeued(2, next, 0, 500, path).messages);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0], (Message{MessageKind::kDealloc, p5, {}, 0, 2}));
  EXPECT_FALSE(t.knows(p5));
}

// The old IQ that a new root waited on stops draining into it: paused again as its own root's
// (a PAUSE for the old root came after the MERGE). The new root's IQ here is left empty with
// no packet of its own to come, so the leaf releases it then (DEALLOC), not never.
TEST(PyrrhaTable, ANewRootLeftWithNothingWhenTheOldIqIsPausedAgainIsReleased) {
  CongestionRootTable t(9, 4, params());
  const RootId p1{1, 3};
  const RootId p5{5, 1};
  const std::vector<PathHop> path{p1, p5};
  t.received(1, pause(p1, 1));
  t.enqueued(1, t.classify(1, path), 0, 500, path);
  EXPECT_TRUE(t.received(1, merge(p5, p1, 2)).empty());  // the old IQ drains into p5's
  ASSERT_EQ(t.state(p5, 1), IqState::kResumed);
  const auto out = copy(t.received(1, pause(p1, 1)));
  EXPECT_EQ(t.state(p1, 1), IqState::kPaused);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (Message{MessageKind::kDealloc, p5, {}, 0, 1}));
  EXPECT_FALSE(t.knows(p5));
}

// A root's RESUME to a host leaves it no child of the tree: hosts never send DEALLOC (the
// authors' ToR rule), so the port stops counting as a root once its OQ has drained.
TEST(PyrrhaTable, AResumedHostIsNoChildOfASelfNominatedRoot) {
  CongestionRootTable t(1, 4, params(), {true, false, false, false});
  t.enqueued(3, {}, 0, 2001, {});  // host port 0
  t.enqueued(3, {}, 2, 100, {});   // switch port 2
  ASSERT_EQ(t.gauges().self_nominated_ports, 1u);
  const auto out = copy(t.dequeued(3, {}, 0, 2001, {}).messages);
  ASSERT_EQ(out.size(), 2u);  // RESUME to both
  EXPECT_EQ(t.self_upstream(3, 0), UpstreamState::kNone);
  EXPECT_EQ(t.self_upstream(3, 2), UpstreamState::kResumed);  // waits for its DEALLOC
  t.received(2, dealloc({1, 3}));
  EXPECT_EQ(t.gauges().self_nominated_ports, 0u);
}

// §4.3 "the congestion tree eliminates starting from the leaf switches": U → M → R, with R's
// port 1 the root. RESUMEs travel up; DEALLOCs travel down from the leaf once its IQ is empty
// and resumed, and each parent releases only after its last child has.
TEST(PyrrhaTable, DeallocReleasesTheTreeFromTheLeaves) {
  CongestionRootTable u(9, 4, params(), {false, false, false, true});
  CongestionRootTable m(2, 4, params());
  CongestionRootTable r(5, 4, params());
  const RootId root{5, 1};
  const std::vector<PathHop> from_m{root};
  const std::vector<PathHop> from_u{{2, 1}, root};

  auto out = copy(r.enqueued(1, {}, 2, 2001, {}));
  ASSERT_EQ(out.size(), 1u);
  out = copy(m.received(1, out[0]));
  EXPECT_TRUE(out.empty());
  const QueueChoice mq = m.classify(1, from_m);
  out = copy(m.enqueued(1, mq, 0, 2001, from_m));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].hop, 2);
  u.received(1, out[0]);
  const QueueChoice uq = u.classify(1, from_u);
  ASSERT_EQ(uq.level, 2);
  EXPECT_TRUE(u.enqueued(1, uq, 3, 500, from_u).empty());
  // A DEALLOC from a child M still holds paused crossed a PAUSE: ignored.
  EXPECT_TRUE(m.received(0, dealloc(root)).empty());
  EXPECT_EQ(m.upstream(root, 0), UpstreamState::kPaused);

  out = copy(r.dequeued(1, {}, 2, 1500, {}).messages);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(m.received(1, out[0]).empty());
  out = copy(m.dequeued(1, mq, 0, 2001, from_m).messages);
  ASSERT_EQ(out.size(), 1u);  // RESUME to U; no DEALLOC: U is still a child
  EXPECT_EQ(out[0].kind, MessageKind::kResume);
  EXPECT_TRUE(m.knows(root));
  EXPECT_TRUE(u.received(1, out[0]).empty());  // U's IQ still holds 500 bytes
  out = copy(u.dequeued(1, uq, 3, 500, from_u).messages);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (Message{MessageKind::kDealloc, root, {}, 0, 1}));
  EXPECT_FALSE(u.knows(root));
  out = copy(m.received(0, out[0]));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (Message{MessageKind::kDealloc, root, {}, 0, 1}));
  EXPECT_FALSE(m.knows(root));
  EXPECT_TRUE(r.received(2, out[0]).empty());
  EXPECT_EQ(r.self_upstream(1, 2), UpstreamState::kNone);
  EXPECT_EQ(r.gauges().self_nominated_ports, 0u);
}

// §4.5: a PAUSE (or MERGE) naming this switch as the root came round a routing loop.
TEST(PyrrhaTable, LoopGuardIgnoresOurOwnRoot) {
  CongestionRootTable t(1, 4, params());
  EXPECT_TRUE(t.received(3, pause({1, 2}, 4)).empty());
  EXPECT_TRUE(t.received(3, merge({1, 0}, {6, 6}, 4)).empty());
  EXPECT_FALSE(t.knows({1, 2}));
  EXPECT_FALSE(t.knows({1, 0}));
  EXPECT_EQ(t.counters().loop_guard_ignored, 2u);
  EXPECT_EQ(t.gauges().iqs_in_use, 0u);
}

// §4.5: with no IQ left, a root hashes onto one in use (counted); a shared IQ moves only when
// none of its roots has it paused.
TEST(PyrrhaTable, ExhaustedIqsAreSharedByHash) {
  CongestionRootTable t(1, 4, params(2));
  const RootId a{7, 1}, b{7, 2}, c{7, 3};
  t.received(0, pause(a, 1));
  t.received(0, pause(b, 1));
  EXPECT_EQ(t.counters().iq_exhaustion, 0u);
  t.received(0, pause(c, 1));
  EXPECT_EQ(t.counters().iq_exhaustion, 1u);
  const uint16_t shared = static_cast<uint16_t>(RootIdHash{}(c) % 2);
  ASSERT_EQ(t.iq_of(c, 0), shared);
  EXPECT_EQ(t.pool().users(0, shared), 2);
  EXPECT_EQ(t.pool().in_use(0), 2);
  const RootId other = shared == 0 ? a : b;
  const std::vector<PathHop> via_c{c};
  t.enqueued(0, t.classify(0, via_c), 1, 100, via_c);
  t.received(0, resume(c));
  EXPECT_FALSE(t.may_dequeue(0, shared));  // `other` still holds it
  t.received(0, resume(other));
  EXPECT_TRUE(t.may_dequeue(0, shared));
  EXPECT_EQ(t.gauges().iqs_in_use, 2u);
}

// Fig. 7's question, counted exactly: the most roots and IQs in use at once, over the switch
// and on its busiest port, stay at their peak after a root has gone; a root sharing an IQ
// (exhaustion) takes no new one.
TEST(PyrrhaTable, HighWaterMarksOfRootsAndIqsStayAtTheirPeak) {
  CongestionRootTable t(1, 4, params(2));
  hold(t, {7, 1}, 0, 3, 100);
  hold(t, {7, 2}, 0, 3, 100);
  hold(t, {7, 3}, 0, 3, 100);  // port 0 has no IQ left: shares one
  hold(t, {8, 1}, 1, 3, 100);
  PyrrhaGauges g = t.gauges();
  EXPECT_EQ(g.roots_active, 4u);
  EXPECT_EQ(g.iqs_in_use, 3u);
  EXPECT_EQ(g.max_roots_active, 4u);
  EXPECT_EQ(g.max_iqs_in_use, 3u);
  EXPECT_EQ(g.max_iqs_on_a_port, 2u);
  const RootId gone{8, 1};
  const std::vector<PathHop> path{gone};
  t.received(1, resume(gone));
  t.dequeued(1, QueueChoice{*t.iq_of(gone, 1), 1}, 3, 100, path);
  g = t.gauges();
  EXPECT_EQ(g.roots_active, 3u);
  EXPECT_EQ(g.iqs_in_use, 2u);
  EXPECT_EQ(g.max_roots_active, 4u);
  EXPECT_EQ(g.max_iqs_in_use, 3u);
  EXPECT_EQ(g.max_iqs_on_a_port, 2u);
}

// §4.5's shared IQs: a root that hashed onto another's IQ is released with it when the other
// root's packet empties it, though none of its own passes: each root a leaf, resumed, nothing
// held. Without that the sharing root stayed in the table for good.
TEST(PyrrhaTable, RootsSharingAnIqAreReleasedWhenItEmpties) {
  CongestionRootTable t(1, 4, params(1));
  const RootId a{7, 1}, c{7, 3};
  const QueueChoice q = hold(t, a, 0, 3, 100);
  t.received(0, pause(c, 1));  // no IQ left: shares a's
  ASSERT_EQ(t.iq_of(c, 0), q.iq);
  EXPECT_EQ(t.counters().iq_exhaustion, 1u);
  t.received(0, resume(c));
  t.received(0, resume(a));
  EXPECT_TRUE(t.knows(c));  // the queue still holds a's packet
  const std::vector<PathHop> path{a};
  const auto out = copy(t.dequeued(0, q, 3, 100, path).messages);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (Message{MessageKind::kDealloc, a, {}, 0, 0}));
  EXPECT_EQ(out[1], (Message{MessageKind::kDealloc, c, {}, 0, 0}));
  EXPECT_FALSE(t.knows(a));
  EXPECT_FALSE(t.knows(c));
  EXPECT_EQ(t.pool().in_use(0), 0);
}

// Fig. 5(b)/(c): a flow through P6 then P5 waits in IQ_P6, then, leaving it, in IQ_P5: it goes
// on only when both have resumed. A flow through P5 alone skips IQ_P6.
TEST(PyrrhaTable, LeavingAnIqMatchesTheFartherRoots) {
  CongestionRootTable t(1, 4, params());
  const RootId p6{6, 2}, p5{5, 1};
  t.received(0, pause(p6, 1));
  t.received(0, pause(p5, 2));
  const std::vector<PathHop> both{p6, p5};
  const std::vector<PathHop> p5_only{{6, 3}, p5};
  const QueueChoice q6 = t.classify(0, both);
  const QueueChoice q5{*t.iq_of(p5, 0), 2};
  EXPECT_EQ(q6, (QueueChoice{*t.iq_of(p6, 0), 1}));
  EXPECT_EQ(t.classify(0, p5_only), q5);
  t.enqueued(0, q6, 1, 100, both);
  t.received(0, resume(p6));
  ASSERT_TRUE(t.may_dequeue(0, q6.iq));
  auto out = t.dequeued(0, q6, 1, 100, both);
  EXPECT_EQ(out.next, q5);
  t.enqueued(0, out.next, 1, 100, both);
  EXPECT_FALSE(t.may_dequeue(0, q5.iq));
  t.received(0, resume(p5));
  out = t.dequeued(0, q5, 1, 100, both);
  EXPECT_TRUE(out.next.output());
}

// A failed port: as a self-nominated root its upstreams are resumed; as the way to a learned
// root, the IQ is released (silently: the link is down) and the upstreams held for it resumed.
TEST(PyrrhaTable, FailedPortResumesWhatItHeld) {
  CongestionRootTable t(1, 4, params());
  t.enqueued(3, {}, 0, 2001, {});
  t.enqueued(3, {}, 1, 1, {});
  const RootId root{7, 3};
  const std::vector<PathHop> path{root};
  const QueueChoice q = hold(t, root, 2, 0, 2001);
  ASSERT_EQ(t.upstream(root, 0), UpstreamState::kPaused);

  auto out = copy(t.port_failed(3));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (Message{MessageKind::kResume, RootId{1, 3}, {}, 0, 0}));
  EXPECT_EQ(out[1].port, 1);
  EXPECT_EQ(t.self_upstream(3, 0), UpstreamState::kNone);

  out = copy(t.port_failed(2));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (Message{MessageKind::kResume, root, {}, 0, 0}));
  EXPECT_EQ(t.state(root, 2), IqState::kResumed);  // still holds 2001 bytes to drain
  EXPECT_TRUE(t.may_dequeue(2, q.iq));
  // Drained, and the child leaves: released with no DEALLOC out of the dead port.
  EXPECT_TRUE(t.dequeued(2, q, 0, 2001, path).messages.empty());
  EXPECT_TRUE(t.received(0, dealloc(root)).empty());
  EXPECT_FALSE(t.knows(root));
  EXPECT_EQ(t.pool().in_use(2), 0);
}

// A failed port behind which the only child of a root sat: as if that child had sent DEALLOC,
// the leaf releases its empty resumed IQ and tells its parent.
TEST(PyrrhaTable, FailedChildPortMakesUsALeaf) {
  CongestionRootTable t(1, 4, params());
  const RootId root{7, 3};
  const std::vector<PathHop> path{root};
  const QueueChoice q = hold(t, root, 2, 0, 2001);
  t.received(2, resume(root));
  ASSERT_EQ(t.dequeued(2, q, 0, 2001, path).messages.size(), 1u);  // RESUME to port 0
  ASSERT_EQ(t.upstream(root, 0), UpstreamState::kResumed);
  ASSERT_TRUE(t.knows(root));
  const auto out = copy(t.port_failed(0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (Message{MessageKind::kDealloc, root, {}, 0, 2}));
  EXPECT_FALSE(t.knows(root));
}

}  // namespace
}  // namespace fcswitch::pyrrha

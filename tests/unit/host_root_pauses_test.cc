// An end-host's paused congestion roots (Pyrrha §4.4, lib/pyrrha/host_root_pauses.h) driven by
// hand-made messages: which paths a PAUSE holds, RESUME, two roots at once, MERGE, a PAUSE of a
// root on no path of ours, DEALLOC, and a full table.

#include <gtest/gtest.h>

#include <vector>

#include "params/pyrrha_params.h"
#include "pyrrha/host_root_pauses.h"

namespace fcswitch::pyrrha {
namespace {

// Two flows from one host through its ToR (switch 0, uplink 4): A reaches switch 1 and leaves
// by port 2, B reaches switch 2 and leaves by port 3.
const std::vector<RootId> kPathA{{0, 4}, {1, 2}};
const std::vector<RootId> kPathB{{0, 4}, {2, 3}};
constexpr RootId kTorUplink{0, 4};
constexpr RootId kRootA{1, 2};
constexpr RootId kRootB{2, 3};

config::PyrrhaParams params(uint32_t max_roots = 16) {
  config::PyrrhaParams p;
  p.k_pause_bytes = 2000;
  p.k_resume_bytes = 1000;
  p.max_roots = max_roots;
  return p;
}

Message pause(RootId root, uint16_t hop = 1) {
  return {MessageKind::kPause, root, {}, hop, 0};
}
Message resume(RootId root) {
  return {MessageKind::kResume, root, {}, 0, 0};
}
Message merge(RootId root, RootId old_root) {
  return {MessageKind::kMerge, root, old_root, 1, 0};
}

TEST(HostRootPauses, NothingPausedBlocksNothing) {
  const HostRootPauses host(params());
  EXPECT_FALSE(host.blocks(kPathA));
  EXPECT_FALSE(host.blocks({}));
  EXPECT_EQ(host.roots_paused(), 0u);
  EXPECT_EQ(host.generation(), 0u);
}

TEST(HostRootPauses, PauseHoldsExactlyThePathsThatCrossTheRoot) {
  HostRootPauses host(params());
  EXPECT_TRUE(host.apply(pause(kRootA, 2)));
  EXPECT_TRUE(host.blocks(kPathA));
  EXPECT_FALSE(host.blocks(kPathB));  // shares the ToR uplink, not the root
  EXPECT_FALSE(host.blocks({}));      // no predicted path: never held
  // The same switch, another port; another switch, the same port: not the root.
  EXPECT_FALSE(host.blocks(std::vector<RootId>{{1, 3}, {0, 2}}));
  EXPECT_EQ(host.roots_paused(), 1u);
  EXPECT_EQ(host.received(MessageKind::kPause), 1u);
}

TEST(HostRootPauses, ResumeLetsThePathGoAgain) {
  HostRootPauses host(params());
  host.apply(pause(kRootA));
  const uint64_t paused_at = host.generation();
  EXPECT_TRUE(host.apply(resume(kRootA)));
  EXPECT_FALSE(host.blocks(kPathA));
  EXPECT_EQ(host.roots_paused(), 0u);
  EXPECT_EQ(host.generation(), paused_at + 1);
  EXPECT_EQ(host.received(MessageKind::kResume), 1u);
}

TEST(HostRootPauses, RepeatsAndUnknownRootsChangeNothing) {
  HostRootPauses host(params());
  host.apply(pause(kRootA));
  const uint64_t generation = host.generation();
  EXPECT_FALSE(host.apply(pause(kRootA)));   // refreshed, still one root
  EXPECT_FALSE(host.apply(resume(kRootB)));  // never paused here
  EXPECT_EQ(host.generation(), generation);  // cached verdicts stay valid
  EXPECT_EQ(host.roots_paused(), 1u);
  EXPECT_EQ(host.received(MessageKind::kPause), 2u);
  EXPECT_EQ(host.received(MessageKind::kResume), 1u);
}

TEST(HostRootPauses, TwoRootsEachHoldTheirOwnFlow) {
  HostRootPauses host(params());
  host.apply(pause(kRootA));
  host.apply(pause(kRootB));
  EXPECT_TRUE(host.blocks(kPathA));
  EXPECT_TRUE(host.blocks(kPathB));
  EXPECT_EQ(host.roots_paused(), 2u);
  host.apply(resume(kRootB));
  EXPECT_TRUE(host.blocks(kPathA));  // B's resume is not A's
  EXPECT_FALSE(host.blocks(kPathB));
}

TEST(HostRootPauses, ARootUpstreamHoldsEveryPathThroughIt) {
  HostRootPauses host(params());
  host.apply(pause(kTorUplink));
  EXPECT_TRUE(host.blocks(kPathA));
  EXPECT_TRUE(host.blocks(kPathB));
}

TEST(HostRootPauses, PauseOfARootOnNoPathHoldsNothing) {
  HostRootPauses host(params());
  EXPECT_TRUE(host.apply(pause(RootId{7, 1})));
  EXPECT_FALSE(host.blocks(kPathA));
  EXPECT_FALSE(host.blocks(kPathB));
  EXPECT_EQ(host.roots_paused(), 1u);  // remembered: a flow may take that path later
}

// Pyrrha §4.1, Fig. 5(a): the ToR uplink was a false-positive root; the real one is further
// down. MERGE voids the old root's pause and the new root starts resumed.
TEST(HostRootPauses, MergeClearsTheOldRootAndStartsTheNewOneResumed) {
  HostRootPauses host(params());
  host.apply(pause(kTorUplink));
  ASSERT_TRUE(host.blocks(kPathB));
  EXPECT_TRUE(host.apply(merge(kRootA, kTorUplink)));
  EXPECT_FALSE(host.blocks(kPathA));
  EXPECT_FALSE(host.blocks(kPathB));
  EXPECT_EQ(host.roots_paused(), 0u);
  EXPECT_EQ(host.received(MessageKind::kMerge), 1u);
  // The relaying switch pauses the new root when its share of that root's IQ is too much.
  host.apply(pause(kRootA, 2));
  EXPECT_TRUE(host.blocks(kPathA));
  EXPECT_FALSE(host.blocks(kPathB));
}

TEST(HostRootPauses, MergeLeavesOtherRootsPaused) {
  HostRootPauses host(params());
  host.apply(pause(kTorUplink));
  host.apply(pause(kRootB));
  host.apply(merge(kRootA, kTorUplink));
  EXPECT_FALSE(host.blocks(kPathA));
  EXPECT_TRUE(host.blocks(kPathB));
  EXPECT_EQ(host.roots_paused(), 1u);
}

TEST(HostRootPauses, DeallocIsCountedAndIgnored) {
  HostRootPauses host(params());
  host.apply(pause(kRootA));
  EXPECT_FALSE(host.apply({MessageKind::kDealloc, kRootA, {}, 0, 0}));
  EXPECT_TRUE(host.blocks(kPathA));
  EXPECT_EQ(host.received(MessageKind::kDealloc), 1u);
}

TEST(HostRootPauses, APauseBeyondTheTableIsCountedAndIgnored) {
  HostRootPauses host(params(2));
  host.apply(pause(kTorUplink));
  host.apply(pause(kRootB));
  EXPECT_FALSE(host.apply(pause(kRootA)));
  EXPECT_FALSE(host.paused(kRootA));
  EXPECT_EQ(host.table_full_ignored(), 1u);
  EXPECT_EQ(host.roots_paused(), 2u);
  // A slot freed: the next PAUSE is taken.
  host.apply(resume(kRootB));
  EXPECT_TRUE(host.apply(pause(kRootA)));
  EXPECT_TRUE(host.paused(kRootA));
}

}  // namespace
}  // namespace fcswitch::pyrrha

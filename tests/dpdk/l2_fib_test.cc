#include "switch/l2_fib.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace fcswitch {
namespace {

const wire::MacAddress kA{0x02000000000Aull};
const wire::MacAddress kB{0x02000000000Bull};
const wire::MacAddress kC{0x02000000000Cull};
const wire::MacAddress kX{0x020000000099ull};

// One input burst for learn_and_look_up: every packet learns its source and looks up its
// destination.
struct Burst {
  std::vector<wire::MacAddress> sources, destinations;
  std::vector<int> targets;
  uint32_t all() const { return static_cast<uint32_t>((uint64_t{1} << sources.size()) - 1); }
  unsigned run(L2Fib& fib, int port) {
    targets.assign(sources.size(), -2);
    return fib.learn_and_look_up(port, sources.data(), all(), destinations.data(), all(),
                                 static_cast<unsigned>(sources.size()), targets.data());
  }
};

TEST(L2Fib, UnknownUntilLearnedAndFollowsAMove) {
  L2Fib fib("fib_learn", 64);
  EXPECT_EQ(fib.lookup(kA), L2Fib::kUnknown);
  EXPECT_TRUE(fib.learn(kA, 2));
  EXPECT_EQ(fib.lookup(kA), 2);
  EXPECT_TRUE(fib.learn(kA, 3));  // the host moved
  EXPECT_EQ(fib.lookup(kA), 3);
  EXPECT_EQ(fib.size(), 1);
}

TEST(L2Fib, StaticEntriesAreNeverOverwrittenByLearning) {
  L2Fib fib("fib_static", 64);
  ASSERT_TRUE(fib.add_static(kB, 1));
  EXPECT_TRUE(fib.learn(kB, 0));
  EXPECT_EQ(fib.lookup(kB), 1);
}

TEST(L2Fib, PortZeroIsAPortNotAMiss) {
  L2Fib fib("fib_zero", 64);
  fib.learn(kA, 0);
  EXPECT_EQ(fib.lookup(kA), 0);
}

TEST(L2Fib, FullTableRefusesNewEntriesButKeepsOld) {
  L2Fib fib("fib_full", 8);
  int learned = 0;
  for (uint64_t i = 1; i <= 64; ++i)
    learned += fib.learn(wire::MacAddress{0x020000000000ull + i}, 1);
  EXPECT_LT(learned, 64);
  EXPECT_GE(learned, 8);
  EXPECT_EQ(fib.lookup(wire::MacAddress{0x020000000001ull}), 1);
}

// A's first frame to B and B's reply, both behind port 1, in one burst: the reply's lookup
// sees A learned by the packet before it (and is a same-port frame), as packet by packet.
TEST(L2FibBurst, ADestinationSeesTheLearningOfEveryEarlierPacket) {
  L2Fib fib("fib_order", 64);
  Burst burst{{kA, kB}, {kB, kA}, {}};
  EXPECT_EQ(burst.run(fib, 1), 0u);
  EXPECT_EQ(burst.targets[0], L2Fib::kUnknown);  // B not yet learned: flooded
  EXPECT_EQ(burst.targets[1], 1);                // A, learned by packet 0
  EXPECT_EQ(fib.lookup(kA), 1);
  EXPECT_EQ(fib.lookup(kB), 1);
}

TEST(L2FibBurst, AFrameToItsOwnSourceSeesItsOwnLearning) {
  L2Fib fib("fib_self", 64);
  Burst burst{{kA}, {kA}, {}};
  burst.run(fib, 3);
  EXPECT_EQ(burst.targets[0], 3);
}

// A known at port 2 moves to port 1 in the middle of a burst: the destinations before the
// move still go to 2, those after to 1.
TEST(L2FibBurst, AHostThatMovesMidBurstIsFollowedFromThatPacketOn) {
  L2Fib fib("fib_move", 64);
  ASSERT_TRUE(fib.learn(kA, 2));
  Burst burst{{kC, kA, kC}, {kA, kX, kA}, {}};
  burst.run(fib, 1);
  EXPECT_EQ(burst.targets[0], 2);
  EXPECT_EQ(burst.targets[1], L2Fib::kUnknown);
  EXPECT_EQ(burst.targets[2], 1);
  EXPECT_EQ(fib.lookup(kA), 1);
}

TEST(L2FibBurst, StaticEntriesStayWhateverTheBurstLearns) {
  L2Fib fib("fib_bstatic", 64);
  ASSERT_TRUE(fib.add_static(kB, 4));
  ASSERT_TRUE(fib.add_static_group(kC, 0));
  Burst burst{{kB, kC, kA}, {kB, kC, kB}, {}};
  EXPECT_EQ(burst.run(fib, 1), 0u);
  EXPECT_EQ(burst.targets[0], 4);
  EXPECT_EQ(burst.targets[1], L2Fib::kGroupBase);
  EXPECT_EQ(burst.targets[2], 4);
  EXPECT_EQ(fib.lookup(kB), 4);
}

// A burst of one flow (one source, one destination) is answered from two cache reads once
// both are known; its source moving to another port, or its destination moving, is followed
// all the same, and the cache's hits count every address asked.
TEST(L2FibBurst, ABurstOfOneFlowFollowsItsSourceAndDestination) {
  L2Fib fib("fib_oneflow", 64);
  Burst burst{std::vector<wire::MacAddress>(32, kA), std::vector<wire::MacAddress>(32, kB), {}};
  ASSERT_TRUE(fib.learn(kB, 4));
  EXPECT_EQ(burst.run(fib, 1), 0u);  // A learned: the cache did not know it
  EXPECT_EQ(burst.targets, std::vector<int>(32, 4));
  const uint64_t hits = fib.cache_hits();
  EXPECT_EQ(burst.run(fib, 1), 0u);  // all from the cache now
  EXPECT_EQ(fib.cache_hits(), hits + 64);
  EXPECT_EQ(burst.targets, std::vector<int>(32, 4));
  EXPECT_EQ(burst.run(fib, 2), 0u);  // A moved to port 2
  EXPECT_EQ(fib.lookup(kA), 2);
  ASSERT_TRUE(fib.learn(kB, 6));  // B moved to port 6
  EXPECT_EQ(burst.run(fib, 2), 0u);
  EXPECT_EQ(burst.targets, std::vector<int>(32, 6));
  Burst to_self{std::vector<wire::MacAddress>(8, kA), std::vector<wire::MacAddress>(8, kA), {}};
  EXPECT_EQ(to_self.run(fib, 3), 0u);  // A moved again: each packet's lookup sees it
  EXPECT_EQ(to_self.targets, std::vector<int>(8, 3));
}

// Only the masked packets learn or are looked up; a packet that is not looked up is kUnknown.
TEST(L2FibBurst, MasksSayWhichPacketsLearnAndWhichAreLookedUp) {
  L2Fib fib("fib_masks", 64);
  ASSERT_TRUE(fib.learn(kB, 5));
  const wire::MacAddress sources[3] = {kA, kC, kX};
  const wire::MacAddress destinations[3] = {kB, kB, kB};
  int targets[3];
  fib.learn_and_look_up(1, sources, 0b101, destinations, 0b110, 3, targets);
  EXPECT_EQ(targets[0], L2Fib::kUnknown);
  EXPECT_EQ(targets[1], 5);
  EXPECT_EQ(targets[2], 5);
  EXPECT_EQ(fib.lookup(kA), 1);
  EXPECT_EQ(fib.lookup(kC), L2Fib::kUnknown);
  EXPECT_EQ(fib.lookup(kX), 1);
}

// 32 new sources and 32 unknown destinations: 64 keys, the most one bulk lookup takes.
TEST(L2FibBurst, AFullBurstOfUnknownAddressesIsOneBulkLookup) {
  L2Fib fib("fib_64", 1024);
  Burst burst;
  for (uint64_t i = 0; i < L2Fib::kMaxBurst; ++i) {
    burst.sources.push_back(wire::MacAddress{0x020000001000ull + i});
    burst.destinations.push_back(wire::MacAddress{0x020000002000ull + i});
  }
  EXPECT_EQ(burst.run(fib, 7), 0u);
  for (int t : burst.targets) EXPECT_EQ(t, L2Fib::kUnknown);
  EXPECT_EQ(fib.cache_misses(), 64u);
  EXPECT_EQ(fib.size(), 32);
  // The same burst again: every address is known to the cache now, unknown ones included.
  EXPECT_EQ(burst.run(fib, 7), 0u);
  EXPECT_EQ(fib.cache_hits(), 64u);
  EXPECT_EQ(fib.cache_misses(), 64u);
}

// The burst call against the same operations packet by packet, on random bursts over more
// addresses than the table holds (so some learnings are refused) and than the cache has
// entries (so cache entries collide), with hosts moving between ports, static entries added
// and the table cleared between bursts, every other burst repeating the sources of the one
// before it, and a fifth of them of one flow: every target, every refusal and the final table
// agree.
TEST(L2FibBurst, AgreesWithPacketByPacketOnRandomBursts) {
  L2Fib burst_fib("fib_rand_b", 128);
  L2Fib reference("fib_rand_r", 128);
  std::mt19937 rng(21);
  std::vector<wire::MacAddress> macs;
  for (uint64_t i = 0; i < 600; ++i)
    macs.push_back(wire::MacAddress{0x02'00'00'00'00'00ull + i * 7919});
  auto any_mac = [&] { return macs[rng() % (rng() % 4 == 0 ? macs.size() : 24)]; };
  uint64_t refused = 0;
  int port = 0;
  unsigned n = 0;
  wire::MacAddress sources[L2Fib::kMaxBurst], destinations[L2Fib::kMaxBurst];
  for (int round = 0; round < 3000; ++round) {
    if (round % 1000 == 999) {
      burst_fib.clear();
      reference.clear();
    }
    if (round % 97 == 0) {
      const wire::MacAddress mac = any_mac();
      const int port = static_cast<int>(rng() % 8);
      EXPECT_EQ(burst_fib.add_static(mac, port), reference.add_static(mac, port));
    }
    // Every other burst again from the last one's port and sources, now learned there: the
    // common burst, answered from the cache alone unless a destination is not in it.
    const bool again = round % 2 == 1;
    if (!again) {
      port = static_cast<int>(rng() % 4);
      n = 1 + rng() % L2Fib::kMaxBurst;
    }
    // A fifth of the bursts are of one flow: one source, one destination.
    const bool one_flow = rng() % 5 == 0;
    for (unsigned i = 0; i < n; ++i) {
      if (!again) sources[i] = one_flow && i ? sources[0] : any_mac();
      destinations[i] = one_flow && i    ? destinations[0]
                        : rng() % 3 == 0 ? sources[rng() % (i + 1)]
                                         : any_mac();
    }
    const uint32_t learn_mask = static_cast<uint32_t>(rng());
    const uint32_t lookup_mask = static_cast<uint32_t>(rng());
    int targets[L2Fib::kMaxBurst];
    const unsigned burst_refused = burst_fib.learn_and_look_up(
        port, sources, learn_mask, destinations, lookup_mask, n, targets);
    unsigned reference_refused = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (learn_mask >> i & 1) reference_refused += !reference.learn(sources[i], port);
      const int expected =
          lookup_mask >> i & 1 ? reference.lookup(destinations[i]) : L2Fib::kUnknown;
      ASSERT_EQ(targets[i], expected) << "round " << round << " packet " << i;
    }
    ASSERT_EQ(burst_refused, reference_refused) << "round " << round;
    refused += burst_refused;
  }
  EXPECT_GT(refused, 0u);  // the table did fill
  EXPECT_GT(burst_fib.cache_hits(), burst_fib.cache_misses());
  EXPECT_EQ(burst_fib.size(), reference.size());
  for (const wire::MacAddress& mac : macs) EXPECT_EQ(burst_fib.lookup(mac), reference.lookup(mac));
}

}  // namespace
}  // namespace fcswitch

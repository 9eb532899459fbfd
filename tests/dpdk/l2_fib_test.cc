#include "switch/l2_fib.h"

#include <gtest/gtest.h>

namespace fcswitch {
namespace {

const wire::MacAddress kA{0x02000000000Aull};
const wire::MacAddress kB{0x02000000000Bull};

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

}  // namespace
}  // namespace fcswitch

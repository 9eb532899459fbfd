// [ecn] and [ports.ecn]: each key of a port's profile from the most specific table that has
// it; the defaults (no marking; k_max = k_min, a step; p_max = 1). The refusals are in
// tests/configs/bad/ecn_*.toml.
#include <gtest/gtest.h>

#include "config/switch_config.h"

namespace fcswitch::config {
namespace {

TEST(EcnConfig, PortTablesOverrideEcnKeyByKey) {
  const SwitchConfig c = parse_switch_config(R"(
[ecn]
queues = [3]
k_min = "40KB"
k_max = "200KB"
p_max = 0.1
seed = 7
[[ports]]
name = "p0"
device = "net_null0"
[[ports]]
name = "p1"
device = "net_null1"
[ports.ecn]
queues = [3, 5]
k_max = "100KB"
[[ports]]
name = "p2"
device = "net_null2"
[ports.ecn]
queues = []
[[ports]]
name = "p3"
device = "net_null3"
[ports.ecn]
k_min = "50KiB"
p_max = 1
)",
                                             "ecn.toml");
  EXPECT_EQ(c.ecn.seed, 7u);
  const PortEcn& p0 = c.ports[0].ecn;  // [ecn] as it stands
  EXPECT_EQ(p0.queues, 1u << 3);
  EXPECT_EQ(p0.profile.k_min_bytes, 40'000u);
  EXPECT_EQ(p0.profile.k_max_bytes, 200'000u);
  EXPECT_DOUBLE_EQ(p0.profile.p_max, 0.1);
  const PortEcn& p1 = c.ports[1].ecn;  // its own queues and K_max, [ecn]'s K_min and P_max
  EXPECT_EQ(p1.queues, (1u << 3) | (1u << 5));
  EXPECT_EQ(p1.profile.k_min_bytes, 40'000u);
  EXPECT_EQ(p1.profile.k_max_bytes, 100'000u);
  EXPECT_DOUBLE_EQ(p1.profile.p_max, 0.1);
  EXPECT_EQ(c.ports[2].ecn.queues, 0u) << "an empty list turns marking off on that port";
  const PortEcn& p3 = c.ports[3].ecn;
  EXPECT_EQ(p3.queues, 1u << 3);
  EXPECT_EQ(p3.profile.k_min_bytes, 51'200u);
  EXPECT_EQ(p3.profile.k_max_bytes, 200'000u);
  EXPECT_DOUBLE_EQ(p3.profile.p_max, 1.0);
}

TEST(EcnConfig, NoSectionMarksNothingAndAMissingKMaxIsAStep) {
  const SwitchConfig none =
      parse_switch_config("[[ports]]\nname = \"a\"\ndevice = \"net_null0\"\n", "none.toml");
  EXPECT_EQ(none.ports[0].ecn.queues, 0u);
  EXPECT_EQ(none.ecn.seed, 0u);
  const SwitchConfig step = parse_switch_config(R"(
[ecn]
queues = [3]
k_min = "40KB"
[[ports]]
name = "a"
device = "net_null0"
)",
                                                "step.toml");
  EXPECT_EQ(step.ports[0].ecn.queues, 1u << 3);
  EXPECT_EQ(step.ports[0].ecn.profile.k_min_bytes, 40'000u);
  EXPECT_EQ(step.ports[0].ecn.profile.k_max_bytes, 40'000u) << "DCTCP: one threshold K";
  EXPECT_DOUBLE_EQ(step.ports[0].ecn.profile.p_max, 1.0);
}

}  // namespace
}  // namespace fcswitch::config

#include "switch/priority_classifier.h"

#include <gtest/gtest.h>

namespace fcswitch {
namespace {

wire::FrameHeader header(wire::L3Kind l3, uint8_t dscp, bool vlan, uint8_t pcp) {
  wire::FrameHeader h;
  h.status = wire::FrameStatus::kOk;
  h.l3 = l3;
  h.dscp = dscp;
  h.has_vlan = vlan;
  h.pcp = pcp;
  return h;
}

TEST(PriorityClassifier, StandardMapsAreClassSelectorAndIdentity) {
  PriorityClassifier c(PriorityMaps::standard());
  EXPECT_EQ(c.classify(header(wire::L3Kind::kIpv4, 46, false, 0)), 5);  // EF → CS5
  EXPECT_EQ(c.classify(header(wire::L3Kind::kIpv6, 26, false, 0)), 3);  // AF31 → CS3
  EXPECT_EQ(c.classify(header(wire::L3Kind::kOther, 0, true, 6)), 6);
  EXPECT_EQ(c.classify(header(wire::L3Kind::kOther, 0, false, 0)), 0);
}

TEST(PriorityClassifier, TrustModeDecidesBetweenDscpAndPcp) {
  PriorityMaps maps = PriorityMaps::standard();
  maps.default_priority = 1;
  const auto tagged_ip = header(wire::L3Kind::kIpv4, 26, true, 6);
  EXPECT_EQ(PriorityClassifier(maps).classify(tagged_ip), 3);
  maps.trust = TrustMode::kPcp;
  EXPECT_EQ(PriorityClassifier(maps).classify(tagged_ip), 6);
  // PCP trust, untagged IP: falls back to DSCP; untagged non-IP: the default.
  EXPECT_EQ(PriorityClassifier(maps).classify(header(wire::L3Kind::kIpv4, 26, false, 0)), 3);
  EXPECT_EQ(PriorityClassifier(maps).classify(header(wire::L3Kind::kOther, 0, false, 0)), 1);
}

TEST(PriorityClassifier, OverriddenMapsAreUsed) {
  PriorityMaps maps = PriorityMaps::standard();
  maps.dscp_to_priority[26] = 4;
  maps.pcp_to_priority[1] = 7;
  PriorityClassifier c(maps);
  EXPECT_EQ(c.classify(header(wire::L3Kind::kIpv4, 26, false, 0)), 4);
  EXPECT_EQ(c.classify(header(wire::L3Kind::kIpv4, 27, false, 0)), 3);
  EXPECT_EQ(c.classify(header(wire::L3Kind::kOther, 0, true, 1)), 7);
}

}  // namespace
}  // namespace fcswitch

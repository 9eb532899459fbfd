// The selftests' probes (wire/selftest_probes.h): each copy of each kind is told apart on
// arrival, from whichever source, padded or not; a frame with a byte changed, or cut short, is
// none of them. A probe that matched a wrong copy, or a damaged frame that matched, would pass a
// link that loses or mangles the frames the switch relies on.
#include "wire/selftest_probes.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcswitch::selftest {
namespace {

const wire::MacAddress kSource{0x02'00'00'00'0A'01ull};

TEST(SelftestProbes, KindsFollowThePortsControlEtherType) {
  const std::vector<ProbeKind> standard = probe_kinds(0x8808);
  ASSERT_EQ(standard.size(), 3u);
  EXPECT_TRUE(standard[0].required);  // PFC under 0x8808: the port relies on it
  const std::vector<ProbeKind> moved = probe_kinds(0x88B6);
  ASSERT_EQ(moved.size(), 4u);
  EXPECT_FALSE(moved[0].required);  // 0x8808 is sent, but a NIC may eat it
  EXPECT_EQ(moved[3].name, "PFC layout, control_ether_type 0x88B6");
  EXPECT_TRUE(moved[3].required);
}

TEST(SelftestProbes, EveryCopyOfEveryKindIsToldApart) {
  const std::vector<ProbeKind> kinds = probe_kinds(0x88B6);
  for (size_t k = 0; k < kinds.size(); ++k)
    for (int copy = 0; copy < kCopies; ++copy)
      for (const bool heard : {false, true}) {
        if (heard && kinds[k].layout != ProbeLayout::kData) continue;
        Frame f = probe_frame(kinds[k], kSource, copy, heard);
        const auto match = match_probe(kinds, f.data(), f.size());
        ASSERT_TRUE(match) << kinds[k].name << " copy " << copy;
        EXPECT_EQ(match->kind, k);
        EXPECT_EQ(match->copy, copy);
        EXPECT_EQ(match->heard, heard);
        EXPECT_EQ(match->source, kSource);
        f.resize(f.size() + 4, 0);  // a NIC's padding: still the probe
        EXPECT_TRUE(match_probe(kinds, f.data(), f.size()));
      }
}

TEST(SelftestProbes, AFrameChangedOrCutShortIsNoProbe) {
  const std::vector<ProbeKind> kinds = probe_kinds(0x8808);
  for (const ProbeKind& kind : kinds) {
    const Frame f = probe_frame(kind, kSource, 3);
    EXPECT_FALSE(match_probe(kinds, f.data(), f.size() - 1)) << kind.name;
    for (size_t byte : {size_t{0}, size_t{12}, f.size() - 1}) {
      Frame changed = f;
      changed[byte] ^= 0x40;
      EXPECT_FALSE(match_probe(kinds, changed.data(), changed.size())) << kind.name << " " << byte;
    }
  }
  EXPECT_FALSE(match_probe(kinds, nullptr, 0));
}

}  // namespace
}  // namespace fcswitch::selftest

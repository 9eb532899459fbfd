// What a τ measured on a running link breaks of each engine's thresholds
// (fc::EngineParams::tau_breaks), with hand-made numbers: PFC's headroom above XOFF against C·τ,
// buffer-based GFC's B_1 against Theorem 4.1, time-based GFC's B_0 against Theorem 5.1;
// credits (CBFC) are lossless at any τ.

#include <gtest/gtest.h>

#include "fc/cbfc_engine.h"
#include "fc/gfc_buffer_engine.h"
#include "fc/gfc_time_engine.h"
#include "fc/pfc_engine.h"

namespace fcswitch::fc {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
// The GFC testbed's link (§6.1.1): 1 MB of buffer, τ budgeted at 90 µs.
const LinkParams kLink{k10G, 90'000, 1'000'000};

TEST(TauBreaks, PfcHeadroomAgainstCTau) {
  PfcParams p;
  p.xoff_bytes = 800'000;  // 200 KB of headroom: C·τ at 10 Gb/s up to τ = 160 µs
  EXPECT_EQ(p.tau_breaks(kLink, 90'000), "");
  EXPECT_EQ(p.tau_breaks(kLink, 160'000), "");
  EXPECT_EQ(p.tau_breaks(kLink, 161'000),
            "XOFF's headroom lossless_ingress − xoff = 1000000 − 800000 = 200000 bytes is less "
            "than C·τ = 201250 bytes (10000 Mb/s × 161000 ns)");
}

TEST(TauBreaks, GfcBufferB1AgainstTheorem41) {
  GfcBufferParams p;
  p.b1_bytes = 600'000;  // B_m − B_1 = 400 KB: 2Cτ = 250 KB at 100 µs, 500 KB at 200 µs
  EXPECT_EQ(p.tau_breaks(kLink, 100'000), "");
  const std::string broken = p.tau_breaks(kLink, 200'000);
  EXPECT_EQ(broken.rfind("B_1 = 600000 bytes breaks Theorem 4.1: B_1 ≤ B_m − 2Cτ", 0), 0u)
      << broken;
  EXPECT_NE(broken.find("τ = 200000 ns"), std::string::npos) << broken;
}

TEST(TauBreaks, GfcTimeB0AgainstTheorem51) {
  GfcTimeParams p;
  p.period_ns = cbfc_default_period_ns(k10G);  // T = 52.4 µs: C·T = 65 535 bytes
  p.b0_bytes = 500'000;
  // τ = 10 µs: (√(τ/T) + 1)²·C·T = 2.06 × 65 535 ≈ 135 KB ≤ B_m − B_0 = 500 KB.
  EXPECT_EQ(p.tau_breaks(kLink, 10'000), "");
  // τ = 1 ms: (√19.07 + 1)² × 65 535 ≈ 1.89 MB.
  const std::string broken = p.tau_breaks(kLink, 1'000'000);
  EXPECT_EQ(broken.rfind("B_0 = 500000 bytes breaks Theorem 5.1: ", 0), 0u) << broken;
}

TEST(TauBreaks, CreditsHoldAtAnyTau) {
  CbfcParams p;
  p.period_ns = cbfc_default_period_ns(k10G);
  EXPECT_EQ(p.tau_breaks(kLink, 10'000'000), "");
}

}  // namespace
}  // namespace fcswitch::fc

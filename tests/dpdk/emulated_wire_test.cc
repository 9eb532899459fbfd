// A port with emulate_wire (memif, ring, tap: no wire of its own) is paced by TX as a cable
// would send. A NIC's cable goes on sending what TX committed to its ring while the process
// waits for a CPU; the pacer makes that wire time up after a late poll, up to the port's
// committed frames. With only limiter_catch_up (20 µs here) it lost every late poll's time,
// and processes that wait milliseconds for a CPU ran their links well below their rate.

#include <gtest/gtest.h>

#include <vector>

#include "config/switch_config.h"
#include "core/tick_rate.h"
#include "node/port_engines.h"

namespace fcswitch {
namespace {

constexpr uint64_t kRateBps = 100'000'000;
constexpr uint32_t kFullFrameBytes = 1514;  // a full frame, as DPDK counts it
// Its time on the wire at 100 Mb/s, the port's 24 bytes of framing (preamble, FCS, gap) on.
constexpr uint64_t kFrameNs = (kFullFrameBytes + 24) * 8 * 1'000'000'000ull / kRateBps;  // 123 µs

TxFlowControl emulated_wire_port(uint16_t tx_burst) {
  config::PortConfig port;
  port.name = "p0";
  port.rate_bps = kRateBps;
  port.emulate_wire = true;
  port.tx_burst = tx_burst;
  port.flow_control.limiter_catch_up_ns = 20'000;
  return make_tx_flow_control(port, 1'000'000, TickRate{1'000'000'000}, wire::MacAddress{}, nullptr,
                              "test");
}

// Frames the pacer lets start at `late_ns` after one sent at 0, of `waiting` queued.
unsigned admitted_after_late_poll(TxFlowControl& flow, uint64_t late_ns, unsigned waiting) {
  const std::vector<uint32_t> frames(waiting, kFullFrameBytes);
  EXPECT_EQ(flow.pacer->admit(0, frames.data(), 1), 1u);
  return flow.pacer->admit(late_ns, frames.data(), waiting);
}

TEST(EmulatedWire, MakesUpTheWireTimeOfItsCommittedFramesAfterALatePoll) {
  // tx_burst 32: c = 33 frames committed (PortConfig::committed_frames), at the largest frame
  // (1522 bytes with a VLAN tag) 4.1 ms of wire. A poll 10 ms late lets the frames of those
  // 4.1 ms go at once, as a NIC would have sent them meanwhile: 34 (33 full, and the one due
  // now), not the 1 that 20 µs of catch-up allowed.
  TxFlowControl flow = emulated_wire_port(32);
  ASSERT_TRUE(flow.pacer.has_value());
  const unsigned admitted = admitted_after_late_poll(flow, 10'000'000, 64);
  EXPECT_GE(admitted, 33u);
  EXPECT_LE(admitted, 35u);
}

TEST(EmulatedWire, CatchesUpNoMoreThanItsCommittedFrames) {
  // A smaller burst commits fewer frames: tx_burst 4, c = 5, 0.6 ms of wire. The catch-up is
  // what the NIC ring would hold, not the whole time lost.
  TxFlowControl flow = emulated_wire_port(4);
  const unsigned admitted = admitted_after_late_poll(flow, 10'000'000, 64);
  EXPECT_GE(admitted, 5u);
  EXPECT_LE(admitted, 6u);
}

TEST(EmulatedWire, PacesAtItsRateWhenPolledOnTime) {
  // Polled every frame time, one frame a poll: the catch-up adds nothing to the rate.
  TxFlowControl flow = emulated_wire_port(32);
  const uint32_t frame = kFullFrameBytes;
  unsigned sent = 0;
  for (uint64_t now = 0; now < 100 * kFrameNs; now += kFrameNs / 4)
    sent += flow.pacer->admit(now, &frame, 1);
  EXPECT_GE(sent, 99u);
  EXPECT_LE(sent, 101u);
}

}  // namespace
}  // namespace fcswitch

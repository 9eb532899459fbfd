// A lab link in virtual ns: frames arrive one wire time (with Ethernet overhead) plus the
// propagation delay after the wire took them, back to back at exactly the link rate, in
// order; a full far RX ring drops and counts; nothing is lost otherwise.

#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "lab/lab_link.h"

namespace fcswitch::lab {
namespace {

class LabLinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    pool_ = rte_pktmbuf_pool_create(("ll_" + name).substr(0, 24).c_str(), 4095, 0, 0,
                                    RTE_MBUF_DEFAULT_BUF_SIZE, 0);
    ASSERT_TRUE(pool_);
  }
  void TearDown() override {
    rte_mbuf* m;
    while (from_->dequeue(&m)) rte_pktmbuf_free(m);
    while (to_->dequeue(&m)) rte_pktmbuf_free(m);
    EXPECT_EQ(rte_mempool_in_use_count(pool_), 0u);
    rte_mempool_free(pool_);
  }
  void send(uint32_t sequence, uint16_t bytes) {
    rte_mbuf* m = rte_pktmbuf_alloc(pool_);
    auto* data = rte_pktmbuf_mtod(m, uint8_t*);
    rte_pktmbuf_append(m, bytes);
    std::memcpy(data, &sequence, sizeof(sequence));
    ASSERT_TRUE(from_->enqueue(m));
  }
  // Takes what arrived: (arrival time, sequence).
  void collect(uint64_t now, std::vector<std::pair<uint64_t, uint32_t>>& got) {
    rte_mbuf* m;
    while (to_->dequeue(&m)) {
      uint32_t sequence;
      std::memcpy(&sequence, rte_pktmbuf_mtod(m, uint8_t*), 4);
      got.emplace_back(now, sequence);
      rte_pktmbuf_free(m);
    }
  }

  rte_mempool* pool_ = nullptr;
  // The port's TX ring and the far port's RX ring (64 frames: it fills in a test).
  std::unique_ptr<LinkFifo> from_ = std::make_unique<LinkFifo>(4095);
  std::unique_ptr<LinkFifo> to_ = std::make_unique<LinkFifo>(64);
};

TEST_F(LabLinkTest, DeliversAtTheLinkRateAfterThePropagationDelay) {
  LabLink link(from_.get(), to_.get(), LabLinkParams{10'000'000'000, 5000}, TickRate{});
  for (uint32_t i = 0; i < 1000; ++i) send(i, 1000);  // 1024 bytes on the wire: 819.2 ns
  std::vector<std::pair<uint64_t, uint32_t>> got;
  uint64_t now = 0;
  link.poll(now);
  // The virtual clock jumps from event to event, as the lab's does.
  while (link.next_event_ticks() != kNeverTicks) {
    now = link.next_event_ticks();
    link.poll(now);
    collect(now, got);
  }
  ASSERT_EQ(got.size(), 1000u);
  for (uint32_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(got[i].second, i);  // in order
    // Frame i's last bit leaves at ⌊(i + 1) × 819.2⌋ ns and arrives 5 µs later.
    EXPECT_EQ(got[i].first, (i + 1) * 8192ull / 10 + 5000) << i;
  }
  EXPECT_EQ(link.frames_delivered(), 1000u);
  EXPECT_EQ(link.bytes_delivered(), 1'000'000u);
  EXPECT_EQ(link.rx_missed(), 0u);
}

TEST_F(LabLinkTest, AFullFarRingDropsAndCounts) {
  LabLink link(from_.get(), to_.get(), LabLinkParams{100'000'000'000, 0}, TickRate{});
  for (uint32_t i = 0; i < 100; ++i) send(i, 60);
  for (uint64_t now = 0; now < 1'000'000; now += 100) link.poll(now);  // nobody drains `to`
  EXPECT_EQ(link.frames_delivered(), 64u);
  EXPECT_EQ(link.rx_missed(), 36u);
  EXPECT_EQ(link.in_flight(), 0u);
}

TEST_F(LabLinkTest, FramesOnTheWireAreFreedAtShutdown) {
  auto link = std::make_unique<LabLink>(from_.get(), to_.get(),
                                        LabLinkParams{1'000'000'000, 1'000'000}, TickRate{});
  for (uint32_t i = 0; i < 10; ++i) send(i, 1000);
  link->poll(0);
  for (uint64_t now = 0; now < 100'000; now += 1000) link->poll(now);
  EXPECT_EQ(link->in_flight(), 10u);  // 1 ms of delay: all still on the wire
  link.reset();                       // the destructor frees them (TearDown checks the pool)
}

}  // namespace
}  // namespace fcswitch::lab

// A switch's bytes queued by the ingress they arrived on (switch/queued_from_counters.h): each
// (egress port, queue, ingress port, priority) its own count, and memory only for the counts a
// network writes.

#include "switch/queued_from_counters.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace fcswitch {
namespace {

TEST(QueuedFromCounters, EachEgressQueueCountsItsIngressAndPriorityApart) {
  QueuedFromCounters counts(4);
  counts.charge(2, 3, 1, 3, 1000);
  counts.charge(2, 3, 1, 3, 500);
  counts.charge(2, 8, 1, 3, 700);  // Tagger's lossy queue, same arrival
  counts.charge(2, 3, 0, 3, 300);  // another ingress
  counts.charge(3, 3, 1, 3, 200);  // another egress port
  counts.release(2, 3, 1, 3, 1000);
  EXPECT_EQ(counts.value(2, 3, 1, 3), 500u);
  EXPECT_EQ(counts.value(2, 8, 1, 3), 700u);
  EXPECT_EQ(counts.value(2, 3, 0, 3), 300u);
  EXPECT_EQ(counts.value(3, 3, 1, 3), 200u);
  EXPECT_EQ(counts.value(2, 3, 1, 2), 0u);  // the same queue from another priority
  EXPECT_EQ(counts.value(1, 3, 2, 3), 0u);  // egress and ingress swapped
  counts.release(2, 3, 1, 3, 500);
  EXPECT_EQ(counts.value(2, 3, 1, 3), 0u);
}

// A 64-port switch whose every pair of ports carries one priority into one queue, as a
// fat-tree's switches do: 64 × 64 counts charged and as many released, 32 KB of each, in a
// table of 9 queues × 8 priorities of them (4.7 MB). Only the pages of the counts written are
// resident; kept a port at a time with the ingress innermost, every port's counts lay in pages
// of their own, 64 pages written of each, and all of it was written when made.
TEST(QueuedFromCounters, OnlyThePagesOfTheCountsWrittenAreResident) {
  constexpr int kPorts = 64;
  QueuedFromCounters counts(kPorts);
  EXPECT_EQ(counts.storage().resident_bytes(), 0u);
  for (int egress = 0; egress < kPorts; ++egress)
    for (int ingress = 0; ingress < kPorts; ++ingress) {
      counts.charge(egress, 0, ingress, 0, 1514);
      counts.release(egress, 0, ingress, 0, 1514);
    }
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t written = 2 * kPorts * kPorts * sizeof(uint64_t);
  EXPECT_GE(counts.storage().resident_bytes(), written);
  EXPECT_LE(counts.storage().resident_bytes(), written + 2 * page);
  EXPECT_EQ(counts.storage().bytes(), kNumEgressQueues * kNumPriorities * written);
}

}  // namespace
}  // namespace fcswitch

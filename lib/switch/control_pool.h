#pragma once
// The mempool of the frames a node originates (PFC, GFC stage, credit frames, Pyrrha's messages):
// its own, so feedback never waits for an mbuf that lossless data holds. Its mbufs are small (the
// longest frame we make is a credit frame, 82 bytes): a lab of thousands of ports pays 0.4 KB, not
// 2.3 KB, per control mbuf.

#include <string>

struct rte_mempool;

namespace fcswitch {

// Throws std::runtime_error naming `name` when the pool cannot be made.
rte_mempool* create_control_pool(const std::string& name, unsigned mbufs, unsigned cache);

}  // namespace fcswitch

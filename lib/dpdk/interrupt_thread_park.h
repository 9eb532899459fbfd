#pragma once
// The EAL's interrupt thread, parked for the rest of the process once a run stops.
//
// In DPDK 22.11 that thread runs net_memif's control channel, and three of its paths crash a
// process that stops beside its peers (a rehearsal process died of SIGSEGV at the stop now
// and then):
// - a peer that stops makes it unmap our port's rings (memif_disconnect) with nothing to tell
//   the lcores that still poll them, as TX does while a switch drains;
// - it runs memif_disconnect on our port beside the main thread's rte_eth_dev_stop, which runs
//   it too (a double unmap and free);
// - a memif server's close frees its listener's interrupt handle but leaves it registered, and
//   rte_eal_cleanup unmaps DPDK's memory without stopping the thread: its next wake-up reads
//   freed memory (rte_intr_fd_get).
// Parked inside a callback of ours (an interrupt source like any driver's, so the thread runs
// it between two of its handlers), it runs none of them again: ports are stopped and closed by the
// main thread alone. Nothing a stopping process does needs it (link-status callbacks are for a
// running one).

#include <chrono>

namespace fcswitch::dpdk {

// Returns once the thread is parked, at once if it already is. False (and a warning) if it
// did not answer within `timeout`, busy in a handler: it parks when it gets to ours.
// Once a process; called on the interrupt thread itself, does nothing and returns false.
bool park_interrupt_thread(std::chrono::milliseconds timeout = std::chrono::seconds(2));

}  // namespace fcswitch::dpdk

#pragma once
// What the congestion-root table counts (issue 20): messages by kind both ways, IQ exhaustion,
// messages it ignored and why. Owned by the table; the metrics task reads them between events.

#include <array>
#include <cstdint>

#include "pyrrha/pyrrha_message.h"

namespace fcswitch::pyrrha {

struct PyrrhaCounters {
  std::array<uint64_t, kMessageKinds> sent{};      // by MessageKind
  std::array<uint64_t, kMessageKinds> received{};  // by MessageKind
  // A root found no free IQ on an egress port and hashed onto one in use (Pyrrha §4.5).
  uint64_t iq_exhaustion = 0;
  // PAUSE or MERGE naming this switch as the root: ignored (routing-loop guard, Pyrrha §4.5).
  uint64_t loop_guard_ignored = 0;
  // PAUSE or MERGE for a new root while every table slot was taken: ignored.
  uint64_t table_full_ignored = 0;
  // A self-nominated root learned of a root beyond it and sent MERGE (Pyrrha §4.1).
  uint64_t false_positive_roots = 0;
  // A control message about a port number this switch does not have: ignored.
  uint64_t bad_port_ignored = 0;
};

// A snapshot computed on demand (a scan of the table): roots and IQs by state.
struct PyrrhaGauges {
  uint32_t roots_active = 0;          // entries in the congestion-root table
  uint32_t self_nominated_ports = 0;  // our egress ports controlling an upstream as a root
  uint32_t iqs_in_use = 0;            // over all egress ports
  uint32_t iqs_paused = 0;            // held by at least one paused root
  uint32_t iqs_soft_merging = 0;      // every root using it is soft-merging
  uint32_t iqs_resumed = 0;           // the rest of those in use
  // High-water marks since start, kept exactly as roots and IQs are taken (Pyrrha Fig. 7:
  // IQs in use against concurrent roots).
  uint32_t max_roots_active = 0;
  uint32_t max_iqs_in_use = 0;     // over all egress ports at once
  uint32_t max_iqs_on_a_port = 0;  // on the busiest egress port
};

}  // namespace fcswitch::pyrrha

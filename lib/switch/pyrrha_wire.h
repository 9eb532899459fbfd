#pragma once
// Pyrrha's messages as the congestion-root table speaks them (pyrrha/pyrrha_message.h) and as
// they go on the wire (wire/pyrrha_frame.h): the one translation both ways, for the switch's
// TX (framing what FWD's table sends) and for whoever consumes received frames (FWD, a host).

#include <algorithm>
#include <cstdint>

#include "pyrrha/pyrrha_message.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {

inline wire::PyrrhaFrame to_pyrrha_frame(const pyrrha::Message& m, const wire::MacAddress& source,
                                         uint8_t priority) {
  wire::PyrrhaFrame f;
  f.source = source;
  f.opcode = static_cast<wire::PyrrhaOpcode>(static_cast<uint8_t>(m.kind) + 1);
  f.priority = priority;
  // The field is a byte; no network of ours is 255 switches deep, and the table never sends a
  // PAUSE or MERGE with hop 0 (its own PAUSE says 1).
  f.hops = static_cast<uint8_t>(std::min<uint16_t>(m.hop, UINT8_MAX));
  f.root = wire::PyrrhaRoot{m.root.switch_id, m.root.port};
  if (m.kind == pyrrha::MessageKind::kMerge)
    f.old_root = wire::PyrrhaRoot{m.old_root.switch_id, m.old_root.port};
  return f;
}

// `port`: where it arrived (pyrrha::Message::port is ignored on receipt; kept for the log).
inline pyrrha::Message to_pyrrha_message(const wire::PyrrhaFrame& f, uint16_t port) {
  pyrrha::Message m;
  m.kind = static_cast<pyrrha::MessageKind>(static_cast<uint8_t>(f.opcode) - 1);
  m.root = pyrrha::RootId{f.root.switch_id, f.root.port_id};
  m.old_root = pyrrha::RootId{f.old_root.switch_id, f.old_root.port_id};
  m.hop = f.hops;
  m.port = port;
  return m;
}

static_assert(static_cast<uint8_t>(wire::PyrrhaOpcode::kPause) ==
              static_cast<uint8_t>(pyrrha::MessageKind::kPause) + 1);
static_assert(static_cast<uint8_t>(wire::PyrrhaOpcode::kDealloc) ==
              static_cast<uint8_t>(pyrrha::MessageKind::kDealloc) + 1);

}  // namespace fcswitch

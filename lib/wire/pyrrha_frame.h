#pragma once
// Pyrrha's control messages (Pyrrha §4.1, §4.4; issue 20): PAUSE, RESUME and MERGE name a
// congestion root `switch-id:port-id`, MERGE also the old (false-positive) root it replaces,
// and DEALLOC is the message the authors' ns-3 code (NASA-NJU/Pyrrha-NS3, SwitchNode::
// ReceiveCI, CheckAndSendDealloc) sends downstream when a leaf's isolation queue is empty and
// resumed, so that the tree's state is released from the leaves to the root (the paper's text
// leaves that message implicit: §4.3 "Handling secession of the congestion root"). Their
// message carries the type, the root, a hop distance and the old root; we add the priority,
// since our switch runs flow control per priority and theirs had one lossless class.
//
//   0  destination  01:80:C2:00:00:01 (see below)
//   6  source       the sending port's MAC
//  12  EtherType    0x88B5 (IEEE 802 local experimental)
//  14  subtype      0xB1 (wire/local_experimental.h)
//  15  version      1
//  16  opcode       1 PAUSE, 2 RESUME, 3 MERGE, 4 DEALLOC (0 and 5..255 refused)
//  17  priority     0..7: the class the message controls
//  18  hops         u8: the receiver's distance to the root, in switches: 1 in the root's own
//                   PAUSE, the sender's + 1 when a non-root relays PAUSE or MERGE upstream;
//                   it picks the receiver's isolation-queue level (Pyrrha §4.3, HIQ). The
//                   authors' code sets it on PAUSE and MERGE and sends 0 on RESUME and DEALLOC,
//                   which find their entry by root; 0 on PAUSE or MERGE is refused.
//  19  reserved     0, ignored
//  20  root switch  u32 big-endian: the congestion root's switch id
//  24  root port    u16: its port id (an egress port of that switch)
//  26  old switch   u32: MERGE's old root (the false positive); 0 in the others, ignored
//  30  old port     u16
//  32  zero padding to the 60-byte minimum frame (64 with the FCS the NIC appends)
//
// 32 bits of switch id and 16 of port id name every port of the lab's 8 000-port networks
// and of the paper's k = 36 fat-tree (Pyrrha §5.1, 11 664 hosts) many times over; the
// authors' code uses 32 bits for both.
//
// Destination 01:80:C2:00:00:01, as the credit frames (wire/credit_frame.h) and PFC. Pyrrha's
// messages are hop by hop: each switch acts on them and sends its own upstream, so they must
// never cross a bridge. 01:80:C2:00:00:00..0F are the addresses every IEEE 802.1Q bridge
// filters (802.1Q Table 8-1): a switch that does not speak Pyrrha drops them instead of
// flooding them through the network, and fcswitch's FWD drops them as link_local. Of these,
// 00:01 is the only one nothing else listens to on our links: 00:00 and 00:03 belong to STP
// and 802.1X agents, 00:02 to LACP and OAM, 00:0E to LLDP, which a host's or a NIC's agent
// may take; 00:01 is MAC Control's, and MAC Control is told by EtherType 0x8808, so under
// 0x88B5 no MAC takes these frames for PAUSE or PFC. On the 82599 (lib/dpdk/nic_profile.h)
// hardware flow control is off and PMCF set, which is about 0x8808 frames; a 0x88B5 frame to
// a group address is ordinary multicast, and fcswitch's ports are promiscuous (eth_port.cc),
// so it reaches rx_burst as the credit frames do. RX already checks this one address for
// every format (check_control_header: bad_destination), and the Wireshark dissector too.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "wire/control_decode_status.h"
#include "wire/mac_address.h"

namespace fcswitch::wire {

inline constexpr uint8_t kPyrrhaFrameVersion = 1;
inline constexpr size_t kPyrrhaFrameBytes = 60;       // without FCS
inline constexpr size_t kPyrrhaPayloadEndBytes = 32;  // where the fields end, before padding

enum class PyrrhaOpcode : uint8_t {
  kPause = 1,    // pause what goes to `root` (§4.1: the root's own, or relayed by a non-root)
  kResume = 2,   // resume it (§4.3)
  kMerge = 3,    // `root` replaces `old_root`: the old IQ goes soft-merging (§4.1, Fig. 6)
  kDealloc = 4,  // the sender released its state for `root` (authors' code)
};

inline constexpr std::string_view pyrrha_opcode_name(PyrrhaOpcode op) {
  switch (op) {
    case PyrrhaOpcode::kPause:
      return "pause";
    case PyrrhaOpcode::kResume:
      return "resume";
    case PyrrhaOpcode::kMerge:
      return "merge";
    case PyrrhaOpcode::kDealloc:
      return "dealloc";
  }
  return "unknown";
}

// A congestion root: an egress port of a switch (Pyrrha §4.4, "switch-id:port-id").
struct PyrrhaRoot {
  uint32_t switch_id = 0;
  uint16_t port_id = 0;
  friend auto operator<=>(const PyrrhaRoot&, const PyrrhaRoot&) = default;
};

struct PyrrhaFrame {
  MacAddress source;
  PyrrhaOpcode opcode = PyrrhaOpcode::kPause;
  uint8_t priority = 0;  // 0..7
  uint8_t hops = 0;      // PAUSE and MERGE: >= 1
  PyrrhaRoot root;
  PyrrhaRoot old_root;  // MERGE only; {} in the others
  friend bool operator==(const PyrrhaFrame&, const PyrrhaFrame&) = default;
};

// Writes kPyrrhaFrameBytes bytes to `out`. The old root is written for MERGE only, zeros
// otherwise, so that what is decoded equals what was meant.
void encode_pyrrha(const PyrrhaFrame& frame, uint8_t* out);

struct PyrrhaDecodeResult {
  ControlDecodeStatus status = ControlDecodeStatus::kTooShort;
  PyrrhaFrame frame;
};

// Decodes a frame already known to carry 0x88B5 and the Pyrrha subtype (control_frame_kind).
// Accepted from kPyrrhaPayloadEndBytes on: a software sender on a virtual port may not pad
// (as for PFC). Refuses, in this order: too short, not to 01:80:C2:00:00:01, another version,
// an unknown opcode, a priority above 7 or a PAUSE/MERGE with hops 0 (kBadField).
PyrrhaDecodeResult decode_pyrrha(const uint8_t* data, size_t length);

}  // namespace fcswitch::wire

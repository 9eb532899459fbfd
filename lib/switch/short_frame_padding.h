#pragma once
// Pads a frame shorter than the Ethernet minimum (60 bytes without FCS, IEEE 802.3 §4.2.3.3)
// with zeros before it leaves a port whose device does not pad (NicProfile). Frames arrive
// that short from Linux hosts on virtual ports (a 42-byte ARP, a 54-byte TCP ACK); the receiver
// reads the IP length or ignores the tail, so the padding changes nothing but the wire.

#include <cstring>

#include <rte_mbuf.h>

#include "core/units.h"

namespace fcswitch {

// Returns false, leaving the frame as it was, when the mbuf's last segment has no room.
inline bool pad_to_min_frame(rte_mbuf* m) {
  const uint32_t length = rte_pktmbuf_pkt_len(m);
  if (length >= kEthernetMinFrameBytes) return true;
  const uint16_t missing = static_cast<uint16_t>(kEthernetMinFrameBytes - length);
  char* tail = rte_pktmbuf_append(m, missing);
  if (!tail) return false;
  std::memset(tail, 0, missing);  // never what the buffer held before
  return true;
}

}  // namespace fcswitch

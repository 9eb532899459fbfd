#pragma once
// A RoCEv2 Congestion Notification Packet (IBTA Annex A17, RoCEv2: CNP), as DCQCN's
// notification point sends it back to the sender of CE-marked traffic (Zhu et al.,
// SIGCOMM'15, §3): Ethernet II, IPv4, UDP to port 4791, then the InfiniBand Base Transport
// Header with opcode 0x81 (CNP), P_Key 0xFFFF, BECN set and the destination QP the CNP is
// about, 16 reserved bytes, and the invariant CRC (ICRC). 74 bytes without the FCS.
//
//   42  BTH   opcode 0x81 | SE M Pad TVer = 0 | P_Key 0xFFFF | F B resv6 = 0x40 | DestQP (24)
//             | A resv7 = 0 | PSN (24) = 0
//   54  16 reserved bytes, zero
//   70  ICRC  CRC-32 over the masked headers (roce_icrc), least significant byte first
//
// The lab's DCQCN flows use the QP number for their flow id.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "wire/mac_address.h"

namespace fcswitch::wire {

inline constexpr size_t kRoceCnpFrameBytes = 74;
inline constexpr uint16_t kRoceV2UdpPort = 4791;  // IANA, RoCEv2
inline constexpr uint8_t kBthOpcodeCnp = 0x81;
inline constexpr uint32_t kMaxQueuePair = (1u << 24) - 1;

struct RoceCnpSpec {
  MacAddress src_mac, dst_mac;
  uint32_t src_ip = 0, dst_ip = 0;
  uint8_t dscp = 0;
  uint16_t udp_source_port = 0;
  uint32_t dest_qp = 0;  // 24 bits
};

// Writes the CNP into `frame` (kRoceCnpFrameBytes long).
void write_roce_cnp(uint8_t* frame, const RoceCnpSpec& spec);

// The destination QP of an untagged IPv4 RoCEv2 CNP whose ICRC is right; nullopt for any other
// frame.
std::optional<uint32_t> read_roce_cnp(const uint8_t* frame, size_t length);

// RoCEv2's ICRC over an IPv4 packet `ip` of `length` bytes ending just before the ICRC: CRC-32
// (IEEE 802.3) of 8 bytes of ones (the LRH a RoCEv2 packet lacks), then the packet with the
// fields a router may change masked to ones — IPv4 TOS, TTL and header checksum, the UDP
// checksum, the BTH's FECN/BECN/reserved byte (IBTA A17.4.5.1).
uint32_t roce_icrc(const uint8_t* ip, size_t length);

}  // namespace fcswitch::wire

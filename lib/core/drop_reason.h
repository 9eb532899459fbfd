#pragma once
// Every mbuf that enters the switch leaves by transmission or by a drop with one of these
// names (DESIGN.md §6). Each has its own counter, exported as fcswitch_drops_total{reason}.

#include <array>
#include <cstdint>
#include <string_view>

namespace fcswitch {

enum class DropReason : uint8_t {
  kRunt,              // ends inside its Ethernet header (14 bytes, 18 with a VLAN tag)
  kMalformed,         // an IP header that runs past the frame's end, bad IP version, ...
  kLinkLocal,         // 01:80:C2:00:00:0x (802.1D reserved): never forwarded by a bridge
  kSamePort,          // the FIB sends it back out of its ingress port
  kNoEgressPort,      // flood with nowhere to go (a one-port switch)
  kLossyBufferFull,   // lossy class refused by the dynamic threshold
  kLosslessOverflow,  // lossless class would exceed its ingress limit: a flow-control failure
  kEgressRingFull,    // egress queue ring full before the buffer was: ring too small for buffer
  kFwdRingFull,       // RX could not hand the burst to FWD
  kCopyFailed,        // mempool empty while copying a flooded frame
  kShutdownFlush,     // still queued when the drain deadline passed at shutdown
  kControlInvalid,    // a flow-control frame its decoder refused (short, bad address, opcode)
  kControlUntrusted,  // a flow-control frame on a port told not to trust them
  kControlRingFull,   // RX could not hand a flow-control frame's messages to TX
  kWatchdogDrop,      // dropped from a queue whose gate the watchdog found stuck (action drop)
  kTtlExpired,        // IPv4 TTL / IPv6 hop limit ran out ([switch] decrement_ttl): a loop
  kOversize,          // longer than the ingress port's MTU allows (+ Ethernet header and tag)
  kCount,
};

inline constexpr int kNumDropReasons = static_cast<int>(DropReason::kCount);

inline constexpr std::array<std::string_view, kNumDropReasons> kDropReasonNames = {
    "runt",
    "malformed",
    "link_local",
    "same_port",
    "no_egress_port",
    "lossy_buffer_full",
    "lossless_overflow",
    "egress_ring_full",
    "fwd_ring_full",
    "copy_failed",
    "shutdown_flush",
    "control_invalid",
    "control_untrusted",
    "control_ring_full",
    "watchdog_drop",
    "ttl_expired",
    "oversize",
};

constexpr std::string_view drop_reason_name(DropReason reason) {
  return kDropReasonNames[static_cast<int>(reason)];
}

}  // namespace fcswitch

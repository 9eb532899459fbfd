#pragma once
// Credit update of CBFC (InfiniBand flow control, IBA vol. 1 §7.9.4) and time-based GFC,
// carried over Ethernet. InfiniBand's flow-control packet carries, per virtual lane, the
// sender's FCTBS (blocks sent since link start) and the receiver's FCCL (the credit limit
// it grants); we carry all eight priorities in one frame:
//
//   0  destination  01:80:C2:00:00:01 (link-constrained: never forwarded by a bridge)
//   6  source       the sending port's MAC
//  12  EtherType    0x88B5 (IEEE 802 local experimental)
//  14  subtype      0xCB (wire/local_experimental.h)
//  15  version      1
//  16  entry mask   bit i: the entry of priority i is valid
//  17  reserved     0
//  18  entry[0..7]  8 bytes each, big-endian:
//                     +0 FCTBS  blocks this port has sent at priority i (to the receiver)
//                     +4 FCCL   credit limit this port grants for priority i (to the sender)
//  82  end (longer than the 60-byte minimum, so no padding)
//
// Blocks are 64 bytes (IBA), counted per packet as ceil(length / 64). InfiniBand's fields
// are 12 bits wide; ours are 32 so that a 1 MB buffer (GFC testbed, 15625 blocks) fits in
// the half-space window the modular comparison allows (2^31 blocks here, 2048 in IBA).

#include <array>
#include <cstddef>
#include <cstdint>

#include "wire/control_decode_status.h"
#include "wire/mac_address.h"

namespace fcswitch::wire {

inline constexpr uint8_t kCreditFrameVersion = 1;
inline constexpr size_t kCreditFrameBytes = 82;
inline constexpr uint32_t kCreditBlockBytes = 64;

struct CreditEntry {
  uint32_t fctbs = 0;
  uint32_t fccl = 0;
  friend bool operator==(const CreditEntry&, const CreditEntry&) = default;
};

struct CreditFrame {
  MacAddress source;
  uint8_t entry_mask = 0;
  std::array<CreditEntry, 8> entry{};
  friend bool operator==(const CreditFrame&, const CreditFrame&) = default;
};

// Blocks a packet of `bytes` occupies: IBA counts whole 64-byte blocks.
constexpr uint32_t credit_blocks(uint32_t bytes) {
  return (bytes + kCreditBlockBytes - 1) / kCreditBlockBytes;
}

// Writes kCreditFrameBytes bytes to `out`.
void encode_credit(const CreditFrame& frame, uint8_t* out);

struct CreditDecodeResult {
  ControlDecodeStatus status = ControlDecodeStatus::kTooShort;
  CreditFrame frame;
};

// Decodes a frame already known to carry 0x88B5 and the credit subtype.
CreditDecodeResult decode_credit(const uint8_t* data, size_t length);

}  // namespace fcswitch::wire

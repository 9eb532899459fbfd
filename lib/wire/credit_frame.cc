#include "wire/credit_frame.h"

#include "wire/big_endian.h"
#include "wire/ether_type.h"
#include "wire/local_experimental.h"

namespace fcswitch::wire {

namespace {
constexpr size_t kEntriesOffset = 18;
constexpr size_t kEntryBytes = 8;
}  // namespace

void encode_credit(const CreditFrame& frame, uint8_t* out) {
  write_control_header(out, kCreditFrameBytes, frame.source, kEtherTypeLocalExperimental1);
  out[14] = static_cast<uint8_t>(LocalSubtype::kCredit);
  out[15] = kCreditFrameVersion;
  out[16] = frame.entry_mask;
  for (int i = 0; i < 8; ++i) {
    uint8_t* e = out + kEntriesOffset + kEntryBytes * i;
    store_be32(e, frame.entry[i].fctbs);
    store_be32(e + 4, frame.entry[i].fccl);
  }
}

CreditDecodeResult decode_credit(const uint8_t* data, size_t length) {
  CreditDecodeResult r;
  r.status = check_control_header(data, length, kCreditFrameBytes);
  if (r.status != ControlDecodeStatus::kOk) return r;
  if (data[15] != kCreditFrameVersion) {
    r.status = ControlDecodeStatus::kBadVersion;
    return r;
  }
  r.frame.source = MacAddress::from_bytes(data + 6);
  r.frame.entry_mask = data[16];
  for (int i = 0; i < 8; ++i) {
    const uint8_t* e = data + kEntriesOffset + kEntryBytes * i;
    r.frame.entry[i] = CreditEntry{load_be32(e), load_be32(e + 4)};
  }
  r.status = ControlDecodeStatus::kOk;
  return r;
}

}  // namespace fcswitch::wire

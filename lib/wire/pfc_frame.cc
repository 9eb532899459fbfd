#include "wire/pfc_frame.h"

#include <cstring>

#include "wire/big_endian.h"

namespace fcswitch::wire {

void write_control_header(uint8_t* out, size_t frame_bytes, MacAddress source,
                          uint16_t ether_type) {
  std::memset(out, 0, frame_bytes);
  MacAddress{kPfcDestination}.to_bytes(out);
  source.to_bytes(out + 6);
  store_be16(out + 12, ether_type);
}

void encode_pfc(const PfcFrame& frame, uint16_t ether_type, uint8_t* out) {
  write_control_header(out, kPfcFrameBytes, frame.source, ether_type);
  store_be16(out + 14, frame.opcode);
  store_be16(out + 16, frame.class_enable);
  for (int i = 0; i < 8; ++i) store_be16(out + 18 + 2 * i, frame.time[i]);
}

ControlDecodeStatus check_control_header(const uint8_t* data, size_t length, size_t min_bytes) {
  if (length < min_bytes) return ControlDecodeStatus::kTooShort;
  if (MacAddress::from_bytes(data).value != kPfcDestination)
    return ControlDecodeStatus::kBadDestination;
  return ControlDecodeStatus::kOk;
}

PfcDecodeResult decode_pfc(const uint8_t* data, size_t length, uint16_t stage_opcode) {
  PfcDecodeResult r;
  // The eight times end at byte 34; a software sender on a virtual port may not pad the rest.
  r.status = check_control_header(data, length, kPfcPayloadEndBytes);
  if (r.status != ControlDecodeStatus::kOk) return r;
  const uint16_t opcode = load_be16(data + 14);
  if (opcode != kPfcOpcode && (opcode != stage_opcode || opcode == kPauseOpcode)) {
    r.status = opcode == kPauseOpcode ? ControlDecodeStatus::kPauseOpcode
                                      : ControlDecodeStatus::kUnknownOpcode;
    return r;
  }
  r.frame.opcode = opcode;
  r.frame.source = MacAddress::from_bytes(data + 6);
  r.frame.class_enable = data[17];
  for (int i = 0; i < 8; ++i) r.frame.time[i] = load_be16(data + 18 + 2 * i);
  r.status = ControlDecodeStatus::kOk;
  return r;
}

}  // namespace fcswitch::wire

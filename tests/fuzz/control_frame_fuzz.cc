// libFuzzer target: any byte string is a safe input to the flow-control decoders, and a
// frame they accept encodes back to the same bytes (up to the fields they ignore).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fcswitch::wire;
  for (uint16_t type : {uint16_t{0x8808}, uint16_t{0x88B5}}) {
    const ControlFrameKind kind = control_frame_kind(data, size, type);
    if (kind == ControlFrameKind::kMacControl) {
      // A link whose GFC stage frames have their own opcode accepts two.
      const auto pfc = decode_pfc(data, size, 0x0102);
      if (pfc.status != ControlDecodeStatus::kOk) continue;
      uint8_t again[kPfcFrameBytes];
      encode_pfc(pfc.frame, type, again);
      // Everything but the reserved octet of the vector and the padding round-trips.
      if (std::memcmp(again, data, 16) != 0 || again[17] != data[17] ||
          std::memcmp(again + 18, data + 18, 16) != 0)
        std::abort();
    } else if (kind == ControlFrameKind::kCredit) {
      const auto credit = decode_credit(data, size);
      if (credit.status != ControlDecodeStatus::kOk) continue;
      uint8_t again[kCreditFrameBytes];
      encode_credit(credit.frame, again);
      if (std::memcmp(again, data, 17) != 0 || std::memcmp(again + 18, data + 18, 64) != 0)
        std::abort();
    }
  }
  return 0;
}

// libFuzzer target: any byte string is a safe input to the flow-control decoders, and a
// frame they accept encodes back to the same bytes (up to the fields they ignore). Pyrrha's
// decoder is also handed every input, whatever its subtype: it must refuse, never read past.
// So is the selftests' probe matcher.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"
#include "wire/pyrrha_frame.h"
#include "wire/selftest_probes.h"

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
    } else if (kind == ControlFrameKind::kPyrrha) {
      const auto pyrrha = decode_pyrrha(data, size);
      if (pyrrha.status != ControlDecodeStatus::kOk) continue;
      const PyrrhaFrame& m = pyrrha.frame;
      if (m.priority > 7 ||
          (m.hops == 0 && (m.opcode == PyrrhaOpcode::kPause || m.opcode == PyrrhaOpcode::kMerge)))
        std::abort();
      uint8_t again[kPyrrhaFrameBytes];
      encode_pyrrha(m, again);
      // Everything but the reserved byte, the padding and, outside MERGE, the old root.
      const size_t fields_end = m.opcode == PyrrhaOpcode::kMerge ? 32 : 26;
      if (std::memcmp(again, data, 19) != 0 ||
          std::memcmp(again + 20, data + 20, fields_end - 20) != 0)
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
  const auto any = decode_pyrrha(data, size);
  if (any.status == ControlDecodeStatus::kOk &&
      (size < kPyrrhaPayloadEndBytes || data[15] != kPyrrhaFrameVersion))
    std::abort();
  // The selftests' matching of what arrives (wire/selftest_probes.h): a frame it takes for a
  // probe is that probe, byte for byte.
  for (uint16_t type : {uint16_t{0x8808}, uint16_t{0x88B6}}) {
    const auto kinds = fcswitch::selftest::probe_kinds(type);
    if (const auto match = fcswitch::selftest::match_probe(kinds, data, size)) {
      const auto probe = fcswitch::selftest::probe_frame(kinds[match->kind], match->source,
                                                         match->copy, match->heard);
      if (size < probe.size() || std::memcmp(probe.data(), data, probe.size()) != 0) std::abort();
    }
  }
  return 0;
}

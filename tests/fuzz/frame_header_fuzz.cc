// libFuzzer target: any byte string is a safe input to the frame parser, and what it
// reports stays inside the frame; a frame RX takes for Pyrrha's (wire/pyrrha_frame.h) is never
// read as carrying PABO's shim, whose subtype shares its EtherType; marking CE on what it parsed
// (wire/ecn_mark.h) touches only the ECN bits and IPv4's checksum, inside the frame.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "wire/control_frame_kind.h"
#include "wire/ecn_mark.h"
#include "wire/frame_header.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using fcswitch::wire::FrameStatus;
  using fcswitch::wire::L3Kind;
  const auto h = fcswitch::wire::parse_frame_header(data, size);
  if (fcswitch::wire::control_frame_kind(data, size, 0x8808) ==
          fcswitch::wire::ControlFrameKind::kPyrrha &&
      h.has_pabo_shim())
    std::abort();
  if (h.status != FrameStatus::kOk) return 0;
  if (size < 14 || h.l3_offset > size) std::abort();
  if (h.l3 == L3Kind::kIpv4 && h.l3_offset + 20u > size) std::abort();
  if (h.l3 == L3Kind::kIpv6 && h.l3_offset + 40u > size) std::abort();
  if (h.dscp > 63 || h.pcp > 7) std::abort();
  std::vector<uint8_t> frame(data, data + size);
  const auto marked = fcswitch::wire::mark_ce(frame.data(), h);
  for (size_t i = 0; i < size; ++i) {
    const bool ecn_byte = i == h.l3_offset + 1u;
    const bool checksum =
        h.l3 == L3Kind::kIpv4 && (i == h.l3_offset + 10u || i == h.l3_offset + 11u);
    if (frame[i] != data[i] &&
        (marked != fcswitch::wire::CeMarkResult::kMarked || !(ecn_byte || checksum)))
      std::abort();
  }
  return 0;
}

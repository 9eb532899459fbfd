#include "wire/ecn_mark.h"

namespace fcswitch::wire {

CeMarkResult mark_ce(uint8_t* frame, const FrameHeader& header) {
  const EcnCodepoint codepoint = read_ecn(frame, header);
  if (codepoint == EcnCodepoint::kNotEct) return CeMarkResult::kNotEct;
  if (codepoint == EcnCodepoint::kCe) return CeMarkResult::kAlreadyCe;
  set_ce(frame, header);
  return CeMarkResult::kMarked;
}

}  // namespace fcswitch::wire

#include "ecn/ecn_marker.h"

namespace fcswitch::ecn {

bool EcnMarker::draw(double p) {
  // 53 random bits: a uniform double in [0, 1), as PABO's bounce draw (pabo/bounce_policy.cc).
  return static_cast<double>(random_() >> 11) * 0x1.0p-53 < p;
}

}  // namespace fcswitch::ecn

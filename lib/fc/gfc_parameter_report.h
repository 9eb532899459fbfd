#pragma once
// The derived GFC parameters of one link as a table for people (`fcswitch gfc-params`): the
// stage thresholds and rates of buffer-based GFC, the bound and linear map of time-based
// GFC, and whether each theorem's condition holds.

#include <cstdint>
#include <string>

#include "fc/engine.h"

namespace fcswitch::fc {

struct GfcParameterReport {
  std::string text;
  bool buffer_within_theorem = true;  // B_1 ≤ B_m − 2Cτ − (1+c)·F
  bool time_within_theorem = true;    // B_0 ≤ B_m − (√(τ/T)+1)²·C·T
};

// `b1_bytes`, `b0_bytes`, `period_ns`: 0 for the defaults the engines would use.
GfcParameterReport gfc_parameter_report(const LinkParams& link, uint64_t b1_bytes,
                                        uint64_t period_ns, uint64_t b0_bytes);

}  // namespace fcswitch::fc

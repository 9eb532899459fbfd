#include "ecn/marking_probability.h"

namespace fcswitch::ecn {

MarkingProbability::MarkingProbability(uint64_t k_min_bytes, uint64_t k_max_bytes, double p_max)
    : k_min_bytes_(k_min_bytes),
      k_max_bytes_(k_max_bytes),
      p_max_(p_max),
      p_per_byte_(k_max_bytes > k_min_bytes ? p_max / static_cast<double>(k_max_bytes - k_min_bytes)
                                            : 0) {}

}  // namespace fcswitch::ecn

#pragma once
// The checks both GFC engines make of their threshold (B_1 for gfc-buffer, B_0 for gfc-time)
// when the config is read: below B_m; a buffer large enough for the theorem to allow any
// threshold at all; and the theorem's own inequality — refused, or only warned about when
// the file sets allow_theorem_violation (an experiment that breaks it on purpose).

#include <cstdint>
#include <string>
#include <string_view>

#include "fc/param_reader.h"

namespace fcswitch::fc {

struct GfcThreshold {
  std::string_view key;         // "b1"
  std::string_view symbol;      // "B_1"
  std::string_view bound_name;  // "2Cτ": what the theorem reserves above the threshold
  std::string_view theorem;     // "Theorem 4.1"
  uint64_t configured_bytes;    // 0: the default
  uint64_t resolved_bytes;
  uint64_t bound_bytes;
  bool within_theorem;
  std::string theorem_text;  // the inequality with its numbers
};

// The file's value of `key` and allow_theorem_violation.
struct GfcThresholdKeys {
  uint64_t bytes = 0;
  bool allow_theorem_violation = false;
};
GfcThresholdKeys read_gfc_threshold_keys(ParamReader& reader, std::string_view key);

// Reports what is wrong with `threshold` on a link with a B_m of `buffer_bytes`; false when
// the configuration is refused.
bool accept_gfc_threshold(ParamReader& reader, const GfcThreshold& threshold, uint64_t buffer_bytes,
                          bool allow_violation);

}  // namespace fcswitch::fc

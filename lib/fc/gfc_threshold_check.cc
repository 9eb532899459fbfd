#include "fc/gfc_threshold_check.h"

#include <fmt/format.h>

namespace fcswitch::fc {

GfcThresholdKeys read_gfc_threshold_keys(ParamReader& reader, std::string_view key) {
  constexpr uint64_t kMaxBytes = 1ull << 34;
  GfcThresholdKeys keys;
  if (auto bytes = reader.bytes(key, 1, kMaxBytes)) keys.bytes = *bytes;
  if (auto allow = reader.boolean("allow_theorem_violation")) keys.allow_theorem_violation = *allow;
  return keys;
}

bool accept_gfc_threshold(ParamReader& reader, const GfcThreshold& t, uint64_t buffer_bytes,
                          bool allow_violation) {
  if (t.configured_bytes >= buffer_bytes) {
    reader.refuse(
        t.key, fmt::format("less than B_m, the lossless_ingress buffer ({} bytes)", buffer_bytes),
        fmt::format("{} bytes", t.configured_bytes));
    return false;
  }
  if (t.configured_bytes == 0 && t.bound_bytes >= buffer_bytes) {
    reader.refuse(t.key,
                  fmt::format("a lossless_ingress buffer larger than {} = {} bytes "
                              "(no {} satisfies GFC {})",
                              t.bound_name, t.bound_bytes, t.symbol, t.theorem),
                  fmt::format("lossless_ingress = {} bytes", buffer_bytes));
    return false;
  }
  if (t.within_theorem) return true;
  const std::string found = fmt::format("{} = {} bytes", t.symbol, t.resolved_bytes);
  if (!allow_violation) {
    reader.refuse(t.key, t.theorem_text, found);
    return false;
  }
  reader.warn(t.key, t.theorem_text, found);
  return true;
}

}  // namespace fcswitch::fc

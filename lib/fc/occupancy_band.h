#pragma once
// A range of ingress occupancy [low_bytes, high_bytes) within which a feedback generator's
// poll asks for nothing and changes nothing (fc::FeedbackGenerator::quiet_band): PFC out of
// XOFF below its XOFF threshold, a GFC stage between its two thresholds. The TX task asks the
// generator again only once the occupancy has left it. An empty band says that any change of
// the generator's input (its occupancy or received blocks) may make it act.

#include <cstdint>
#include <limits>

namespace fcswitch::fc {

struct OccupancyBand {
  static constexpr uint64_t kUnboundedBytes = std::numeric_limits<uint64_t>::max();

  uint64_t low_bytes = 0;
  uint64_t high_bytes = 0;  // excluded; the default band is empty

  bool empty() const { return low_bytes >= high_bytes; }
  bool contains(uint64_t occupancy_bytes) const {
    return low_bytes <= occupancy_bytes && occupancy_bytes < high_bytes;
  }
  // Any change of the input may matter.
  static constexpr OccupancyBand any_change() { return {}; }
  // No change of the input matters: the generator reads it only when its own timer is due.
  static constexpr OccupancyBand any_occupancy() { return {0, kUnboundedBytes}; }
  bool operator==(const OccupancyBand&) const = default;
};

}  // namespace fcswitch::fc

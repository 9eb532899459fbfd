#pragma once
// A host picked uniformly among those in racks other than a given host's: the destination
// choice of GFC §6.2.3 ("each host randomly chooses a destination in different racks") and the
// sender choice of Pyrrha's incasts (senders outside the destination's rack, as its ns-3 code
// draws them).

#include <cstdint>
#include <random>
#include <vector>

namespace fcswitch::workload {

class OtherRackHostPicker {
 public:
  // rack_of_host[h] is host h's rack id (any ints). Throws std::invalid_argument if every host
  // is in one rack (nobody to pick).
  explicit OtherRackHostPicker(std::vector<int> rack_of_host);

  int host_count() const { return static_cast<int>(rack_of_host_.size()); }
  int rack_of(int host) const { return rack_of_host_.at(host); }

  // A host whose rack differs from `host`'s, each with equal probability; one bounded draw,
  // no rejection loop.
  int pick(int host, std::mt19937_64& rng) const;

 private:
  std::vector<int> rack_of_host_;
  std::vector<int> hosts_by_rack_;  // hosts sorted by rack, so each rack is one range
  std::vector<int> range_begin_;    // per host: where its rack's range starts in hosts_by_rack_
  std::vector<int> range_size_;     // per host: how many hosts share its rack
};

}  // namespace fcswitch::workload

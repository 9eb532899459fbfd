#include "workload/other_rack_host_picker.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "workload/uniform_random.h"

namespace fcswitch::workload {

OtherRackHostPicker::OtherRackHostPicker(std::vector<int> rack_of_host)
    : rack_of_host_(std::move(rack_of_host)) {
  const int hosts = host_count();
  hosts_by_rack_.resize(hosts);
  std::iota(hosts_by_rack_.begin(), hosts_by_rack_.end(), 0);
  std::stable_sort(hosts_by_rack_.begin(), hosts_by_rack_.end(),
                   [&](int a, int b) { return rack_of_host_[a] < rack_of_host_[b]; });
  range_begin_.resize(hosts);
  range_size_.resize(hosts);
  for (int begin = 0; begin < hosts;) {
    int end = begin;
    const int rack = rack_of_host_[hosts_by_rack_[begin]];
    while (end < hosts && rack_of_host_[hosts_by_rack_[end]] == rack) ++end;
    for (int i = begin; i < end; ++i) {
      range_begin_[hosts_by_rack_[i]] = begin;
      range_size_[hosts_by_rack_[i]] = end - begin;
    }
    begin = end;
  }
  if (hosts == 0 || range_size_[0] == hosts) {
    throw std::invalid_argument("OtherRackHostPicker: needs hosts in at least two racks");
  }
}

int OtherRackHostPicker::pick(int host, std::mt19937_64& rng) const {
  const int begin = range_begin_.at(host);
  const int size = range_size_.at(host);
  // An index among the hosts outside [begin, begin + size), then stepped over that range.
  int index = static_cast<int>(uniform_index(rng, static_cast<uint64_t>(host_count() - size)));
  if (index >= begin) index += size;
  return hosts_by_rack_[index];
}

}  // namespace fcswitch::workload

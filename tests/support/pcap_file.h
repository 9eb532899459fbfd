#pragma once
// Reading and writing pcap files in tests, through libpcap.

#include <cstdint>
#include <string>
#include <vector>

namespace fcswitch::testing {

using Frame = std::vector<uint8_t>;

void write_pcap(const std::string& path, const std::vector<Frame>& frames);
std::vector<Frame> read_pcap(const std::string& path);

}  // namespace fcswitch::testing

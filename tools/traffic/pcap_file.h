#pragma once
// Reading and writing pcap files, through libpcap (tests, demo, benchmarks).

#include <cstdint>
#include <string>
#include <vector>

namespace fcswitch::traffic {

using Frame = std::vector<uint8_t>;

void write_pcap(const std::string& path, const std::vector<Frame>& frames);
std::vector<Frame> read_pcap(const std::string& path);

}  // namespace fcswitch::traffic

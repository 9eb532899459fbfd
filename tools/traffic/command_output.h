#pragma once
// What a shell command prints on stdout (tests that ask tshark).

#include <string>
#include <vector>

namespace fcswitch::traffic {

std::string command_output(const std::string& command);

// tshark's `-T fields` of each frame of `pcap`, comma-separated, one line a frame, with IPv4
// header checksums checked (ip.checksum.status: 1 good, 2 bad).
std::vector<std::string> tshark_field_lines(const std::string& pcap,
                                            const std::vector<std::string>& fields);

}  // namespace fcswitch::traffic

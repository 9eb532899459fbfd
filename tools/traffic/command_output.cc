#include "command_output.h"

#include <array>
#include <cstdio>
#include <memory>
#include <sstream>

namespace fcswitch::traffic {

std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  std::array<char, 4096> buffer;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe.get()))
    out.append(buffer.data(), n);
  return out;
}

std::vector<std::string> tshark_field_lines(const std::string& pcap,
                                            const std::vector<std::string>& fields) {
  std::string command =
      "tshark -n -r " + pcap + " -o ip.check_checksum:TRUE -T fields -E separator=,";
  for (const std::string& field : fields) command += " -e " + field;
  std::istringstream out(command_output(command + " 2>/dev/null"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(out, line);) lines.push_back(line);
  return lines;
}

}  // namespace fcswitch::traffic

#pragma once
// Runs fcswitch as the pcap tests do: on DIR/switch.toml until nothing has moved for 300 ms,
// its JSON report in DIR/report.json, what it printed in DIR/log.txt.

#include <string>

namespace fcswitch::traffic {

struct SwitchRun {
  int status = -1;  // std::system's
  std::string log;  // stdout and stderr
};

SwitchRun run_switch_until_idle(const std::string& binary, const std::string& dir);

}  // namespace fcswitch::traffic

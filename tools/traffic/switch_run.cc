#include "switch_run.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace fcswitch::traffic {

SwitchRun run_switch_until_idle(const std::string& binary, const std::string& dir) {
  const std::string command = binary + " " + dir +
                              "/switch.toml --exit-on-idle 300 --report-json " + dir +
                              "/report.json > " + dir + "/log.txt 2>&1";
  SwitchRun run;
  run.status = std::system(command.c_str());
  std::ifstream log_in(dir + "/log.txt");
  run.log.assign(std::istreambuf_iterator<char>(log_in), {});
  return run;
}

}  // namespace fcswitch::traffic

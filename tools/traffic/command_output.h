#pragma once
// What a shell command prints on stdout (tests that ask tshark).

#include <string>

namespace fcswitch::traffic {

std::string command_output(const std::string& command);

}  // namespace fcswitch::traffic

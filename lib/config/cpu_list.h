#pragma once
// A CPU list as the Linux tools write it ("0-3,8"): items N or N-M, N ≤ M, each below
// kMaxCpus (glibc's CPU_SETSIZE). Parsed where the config is read, so a bad one is refused
// with its place, and nothing later can ask for a billion CPUs.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fcswitch::config {

inline constexpr int kMaxCpus = 1024;

// The CPUs in order of the list, or nullopt with `why` saying what is wrong.
std::optional<std::vector<int>> parse_cpu_list(std::string_view text, std::string& why);

}  // namespace fcswitch::config

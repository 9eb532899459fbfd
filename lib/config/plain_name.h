#pragma once
// Names that go into DPDK object names, task lists ("rx:NAME"), routes ("switch:port"), logs,
// JSON and metric labels: letters, digits, '_' and '-' (and '.' where `dots`), 1 to `max_chars`.

#include <cstddef>
#include <string_view>

namespace fcswitch::config {

inline bool is_plain_name(std::string_view name, size_t max_chars, bool dots = false) {
  constexpr std::string_view kChars =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
  if (name.empty() || name.size() > max_chars) return false;
  for (char c : name)
    if (kChars.find(c) == std::string_view::npos && !(dots && c == '.')) return false;
  return true;
}

}  // namespace fcswitch::config

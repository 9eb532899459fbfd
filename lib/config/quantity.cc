#include "config/quantity.h"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace fcswitch::config {

namespace {

using Unit = std::pair<std::string_view, double>;

std::optional<uint64_t> parse_with_units(std::string_view text, const Unit* units, size_t count) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  size_t number_end = 0;
  while (number_end < text.size() &&
         ((text[number_end] >= '0' && text[number_end] <= '9') || text[number_end] == '.'))
    ++number_end;
  if (number_end == 0) return std::nullopt;
  double number = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + number_end, number);
  if (ec != std::errc() || ptr != text.data() + number_end) return std::nullopt;
  std::string_view suffix = text.substr(number_end);
  while (!suffix.empty() && suffix.front() == ' ') suffix.remove_prefix(1);
  for (size_t i = 0; i < count; ++i) {
    if (suffix != units[i].first) continue;
    const double value = std::round(number * units[i].second);
    if (value < 0 || value > 1.8e19) return std::nullopt;
    return static_cast<uint64_t>(value);
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> parse_bytes(std::string_view text) {
  static constexpr std::array<Unit, 8> kUnits = {{{"", 1},
                                                  {"B", 1},
                                                  {"KB", 1e3},
                                                  {"MB", 1e6},
                                                  {"GB", 1e9},
                                                  {"KiB", 1024.0},
                                                  {"MiB", 1024.0 * 1024},
                                                  {"GiB", 1024.0 * 1024 * 1024}}};
  return parse_with_units(text, kUnits.data(), kUnits.size());
}

std::optional<uint64_t> parse_rate_bps(std::string_view text) {
  static constexpr std::array<Unit, 5> kUnits = {
      {{"", 1}, {"bps", 1}, {"Kbps", 1e3}, {"Mbps", 1e6}, {"Gbps", 1e9}}};
  return parse_with_units(text, kUnits.data(), kUnits.size());
}

std::optional<uint64_t> parse_duration_ns(std::string_view text) {
  static constexpr std::array<Unit, 6> kUnits = {
      {{"", 1}, {"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}}};
  return parse_with_units(text, kUnits.data(), kUnits.size());
}

}  // namespace fcswitch::config

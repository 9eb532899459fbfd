#include "config/cpu_list.h"

#include <fmt/format.h>

#include <charconv>

namespace fcswitch::config {

namespace {

std::optional<int> parse_cpu(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 ||
      value >= kMaxCpus)
    return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::vector<int>> parse_cpu_list(std::string_view text, std::string& why) {
  std::vector<int> cpus;
  std::vector<bool> seen(kMaxCpus, false);
  size_t start = 0;
  do {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(start, end - start);
    const size_t dash = item.find('-');
    const auto first = parse_cpu(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : parse_cpu(item.substr(dash + 1));
    if (!first || !last) {
      why = fmt::format("\"{}\" is not a CPU (0 to {}) or a range of them", item, kMaxCpus - 1);
      return std::nullopt;
    }
    if (*first > *last) {
      why = fmt::format("the range \"{}\" runs backwards", item);
      return std::nullopt;
    }
    for (int c = *first; c <= *last; ++c) {
      if (seen[c]) {
        why = fmt::format("CPU {} is listed twice", c);
        return std::nullopt;
      }
      seen[c] = true;
      cpus.push_back(c);
    }
    start = end + 1;
  } while (start <= text.size());
  return cpus;
}

}  // namespace fcswitch::config

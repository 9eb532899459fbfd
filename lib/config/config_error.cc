#include "config/config_error.h"

#include <fmt/format.h>

#include <algorithm>

namespace fcswitch::config {

namespace {
// A file of a million bad keys gets the first lines and a count, not a million lines.
std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  const size_t shown = std::min(lines.size(), ConfigError::kShownProblems);
  for (size_t i = 0; i < shown; ++i) {
    if (i) text += '\n';
    text += lines[i];
  }
  if (shown < lines.size())
    text += fmt::format("\n… and {} more problems ({} in all)", lines.size() - shown, lines.size());
  return text;
}
}  // namespace

ConfigError::ConfigError(std::vector<std::string> problems)
    : std::runtime_error(join_lines(problems)), problems_(std::move(problems)) {}

}  // namespace fcswitch::config

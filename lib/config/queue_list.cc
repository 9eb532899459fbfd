#include "config/queue_list.h"

#include <fmt/format.h>

#include "config/config_problems.h"
#include "core/traffic_class.h"

namespace fcswitch::config {

std::optional<uint16_t> read_queue_list(TableReader& parent, std::string_view key,
                                        bool allow_lossy) {
  const toml::array* list = parent.array(key);
  if (!list) return std::nullopt;
  uint16_t mask = 0;
  const std::string expected =
      allow_lossy ? "a priority in [0, 7] or \"lossy\"" : "a priority in [0, 7]";
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::node& item = *list->get(i);
    const std::string path = fmt::format("{}[{}]", parent.key_path(key), i);
    if (const auto* p = item.as_integer(); p && p->get() >= 0 && p->get() < kNumPriorities) {
      mask |= static_cast<uint16_t>(1u << p->get());
    } else if (const auto* s = item.as_string(); allow_lossy && s && s->get() == "lossy") {
      mask |= static_cast<uint16_t>(1u << kLossyQueue);
    } else {
      parent.problems().expected(item.source(), path, expected, describe(item));
    }
  }
  return mask;
}

}  // namespace fcswitch::config

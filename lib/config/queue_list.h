#pragma once
// A list of priorities in a config (`[3, 4]`, and "lossy" where allowed) as a bit mask.

#include <cstdint>
#include <optional>
#include <string_view>

#include "config/table_reader.h"

namespace fcswitch::config {

// nullopt when the key is absent; bad items are reported to the reader's problems.
std::optional<uint16_t> read_queue_list(TableReader& parent, std::string_view key,
                                        bool allow_lossy);

}  // namespace fcswitch::config

#pragma once

#include <cstdint>

namespace fcswitch {
// The unit of work of every task (docs/architecture.md).
inline constexpr uint16_t kBurstSize = 32;
}  // namespace fcswitch

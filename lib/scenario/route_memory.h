#pragma once
// Whether a network's route table fits in this machine's memory, asked before it is computed:
// the table holds a port group for every (switch, host), so it grows as switches × hosts
// (fat-tree:64, 5 120 switches and 65 536 hosts: about 19 GB), and a run that cannot hold it
// should be refused in a moment with the figures, not by std::bad_alloc a minute later.

#include <cstdint>
#include <optional>
#include <string>

namespace fcswitch::lab {

// What one (switch, host) entry of the route table takes: its group (a std::vector, 24 bytes)
// and the group's heap block (glibc's smallest chunk, 32 bytes, holds up to 6 ports).
inline constexpr uint64_t kRouteEntryBytes = 56;

// The memory this process could take now: MemAvailable of /proc/meminfo, or the physical
// memory where that cannot be read.
uint64_t available_memory_bytes();

// What routes between `switches` and `hosts` would need, when that is more than half of
// `available_bytes` (the other half left for the run itself); nothing when they fit.
std::optional<std::string> route_memory_problem(int switches, int hosts, uint64_t available_bytes);

}  // namespace fcswitch::lab

#include "scenario/route_memory.h"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace fcswitch::lab {

uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::optional<std::string> route_memory_problem(int switches, int hosts, uint64_t available_bytes) {
  // In double: 2^21 ports' worth of switches and hosts multiply past 2^32 but not 2^53.
  const double need = static_cast<double>(switches) * hosts * kRouteEntryBytes;
  if (need <= static_cast<double>(available_bytes) / 2) return std::nullopt;
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  return fmt::format(
      "{} switches routing to {} hosts: about {:.1f} GiB of routes, {:.1f} GiB available", switches,
      hosts, need / kGiB, static_cast<double>(available_bytes) / kGiB);
}

}  // namespace fcswitch::lab

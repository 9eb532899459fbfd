#pragma once
// Quantities written with their unit in a config file: "750KB", "1MiB", "10Gbps", "90us".
// Decimal prefixes are powers of 1000 (as the GFC paper's KB and Gb/s), binary ones (KiB,
// MiB) powers of 1024. A bare number is bytes or bits per second.

#include <cstdint>
#include <optional>
#include <string_view>

namespace fcswitch::config {

std::optional<uint64_t> parse_bytes(std::string_view text);
std::optional<uint64_t> parse_rate_bps(std::string_view text);
// "90us", "52.4us", "200ms"; a bare number is nanoseconds.
std::optional<uint64_t> parse_duration_ns(std::string_view text);

}  // namespace fcswitch::config

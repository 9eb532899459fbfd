#include "wire/mac_address.h"

#include <cstdio>

namespace fcswitch::wire {

void MacAddress::to_bytes(uint8_t* bytes) const {
  for (int i = 0; i < 6; ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * (5 - i)));
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<MacAddress> MacAddress::parse(std::string_view text) {
  if (text.size() != 17) return std::nullopt;
  uint64_t v = 0;
  for (int i = 0; i < 6; ++i) {
    const int hi = hex_digit(text[3 * i]);
    const int lo = hex_digit(text[3 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    if (i < 5 && text[3 * i + 2] != ':' && text[3 * i + 2] != '-') return std::nullopt;
    v = (v << 8) | static_cast<uint64_t>(hi << 4 | lo);
  }
  return MacAddress{v};
}

std::string MacAddress::to_string() const {
  uint8_t b[6];
  to_bytes(b);
  char text[18];
  std::snprintf(text, sizeof text, "%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2], b[3], b[4],
                b[5]);
  return text;
}

}  // namespace fcswitch::wire

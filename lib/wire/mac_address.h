#pragma once
// A MAC address held in the low 48 bits of a uint64_t, most significant byte first as on
// the wire, so it can be a hash key and compared with one instruction.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fcswitch::wire {

struct MacAddress {
  uint64_t value = 0;

  static MacAddress from_bytes(const uint8_t* bytes);
  // "aa:bb:cc:dd:ee:ff" (also '-' separated); nullopt when malformed.
  static std::optional<MacAddress> parse(std::string_view text);

  void to_bytes(uint8_t* bytes) const;
  std::string to_string() const;

  bool is_multicast() const { return (value >> 40) & 0x01; }  // I/G bit of the first byte
  bool is_broadcast() const { return value == 0xFFFF'FFFF'FFFFull; }
  // 802.1D reserved group addresses 01:80:C2:00:00:00..0F: a bridge never forwards them.
  bool is_link_local() const { return (value & ~0xFull) == 0x0180'C200'0000ull; }

  friend bool operator==(MacAddress a, MacAddress b) { return a.value == b.value; }
};

}  // namespace fcswitch::wire

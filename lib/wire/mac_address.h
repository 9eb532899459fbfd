#pragma once
// A MAC address held in the low 48 bits of a uint64_t, most significant byte first as on
// the wire, so it can be a hash key and compared with one instruction.

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace fcswitch::wire {

struct MacAddress {
  uint64_t value = 0;

  // Reads exactly the six bytes at `bytes` (a decoder may hand it the last six of a buffer):
  // a 4-byte and a 2-byte load and their byte swaps, inline, since FWD does it twice per
  // packet (a byte loop out of line cost ~40 instructions a call).
  static MacAddress from_bytes(const uint8_t* bytes) {
    uint32_t high;
    uint16_t low;
    std::memcpy(&high, bytes, sizeof high);
    std::memcpy(&low, bytes + sizeof high, sizeof low);
    if constexpr (std::endian::native == std::endian::little) {
      high = __builtin_bswap32(high);
      low = __builtin_bswap16(low);
    }
    return MacAddress{static_cast<uint64_t>(high) << 16 | low};
  }
  // An Ethernet header's two addresses from its first 12 bytes, where 14 are readable: an
  // 8-byte load each (the source's overlaps the destination's) and a byte swap, instead of
  // from_bytes' two loads and swaps per address.
  static MacAddress destination_of_header(const uint8_t* header) {
    return MacAddress{swapped_word(header) >> 16};
  }
  static MacAddress source_of_header(const uint8_t* header) {
    return MacAddress{swapped_word(header + 4) & 0xFFFF'FFFF'FFFFull};
  }
  // "aa:bb:cc:dd:ee:ff" (also '-' separated); nullopt when malformed.
  static std::optional<MacAddress> parse(std::string_view text);

  void to_bytes(uint8_t* bytes) const;
  std::string to_string() const;

  bool is_multicast() const { return (value >> 40) & 0x01; }  // I/G bit of the first byte
  bool is_broadcast() const { return value == 0xFFFF'FFFF'FFFFull; }
  // 802.1D reserved group addresses 01:80:C2:00:00:00..0F: a bridge never forwards them.
  bool is_link_local() const { return (value & ~0xFull) == 0x0180'C200'0000ull; }

  friend bool operator==(MacAddress a, MacAddress b) { return a.value == b.value; }

 private:
  // The 8 bytes at `bytes`, the first most significant.
  static uint64_t swapped_word(const uint8_t* bytes) {
    uint64_t word;
    std::memcpy(&word, bytes, sizeof word);
    if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
    return word;
  }
};

}  // namespace fcswitch::wire

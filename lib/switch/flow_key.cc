#include "switch/flow_key.h"

#include "wire/big_endian.h"

namespace fcswitch {

namespace {

constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;

void read_ports(const uint8_t* data, size_t length, size_t l4, topology::FiveTuple& key) {
  if ((key.protocol != kTcp && key.protocol != kUdp) || l4 + 4 > length) return;
  key.src_port = wire::load_be16(data + l4);
  key.dst_port = wire::load_be16(data + l4 + 2);
}

}  // namespace

topology::FiveTuple flow_key(const uint8_t* data, size_t length, const wire::FrameHeader& header) {
  topology::FiveTuple key;
  const size_t l3 = header.l3_offset;
  if (header.l3 == wire::L3Kind::kIpv4) {  // the parser checked the whole header is there
    const size_t ihl_bytes = static_cast<size_t>(data[l3] & 0x0F) * 4;
    key.protocol = data[l3 + 9];
    key.src_addr = wire::load_be32(data + l3 + 12);
    key.dst_addr = wire::load_be32(data + l3 + 16);
    const bool later_fragment = (wire::load_be16(data + l3 + 6) & 0x1FFF) != 0;
    if (!later_fragment) read_ports(data, length, l3 + ihl_bytes, key);
  } else if (header.l3 == wire::L3Kind::kIpv6) {
    key.protocol = data[l3 + 6];
    for (size_t word = 0; word < 4; ++word) {
      key.src_addr ^= wire::load_be32(data + l3 + 8 + 4 * word);
      key.dst_addr ^= wire::load_be32(data + l3 + 24 + 4 * word);
    }
    read_ports(data, length, l3 + 40, key);
  } else {
    key.src_addr = static_cast<uint32_t>(header.src.value);
    key.dst_addr = static_cast<uint32_t>(header.dst.value);
  }
  return key;
}

}  // namespace fcswitch

#pragma once
// The 5-tuple an ECMP group hashes (topology/flow_hash.h), read from a parsed frame: IPv4
// addresses and protocol, with the TCP/UDP ports when the packet carries them (not a later
// fragment); IPv6 addresses folded to 32 bits; any other frame: its MACs' low 32 bits, so
// that one L2 conversation still keeps to one member. Pure and bounds-checked.

#include <cstddef>
#include <cstdint>

#include "topology/flow_hash.h"
#include "wire/frame_header.h"

namespace fcswitch {

topology::FiveTuple flow_key(const uint8_t* data, size_t length, const wire::FrameHeader& header);

}  // namespace fcswitch

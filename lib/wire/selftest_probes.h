#pragma once
// The frames fcswitch's selftests send out of a port (node/control_path_selftest.h, one process
// with both ends of a cable; node/link_selftest.h, a process at each end), and their matching
// on arrival, in their own namespace: a PFC frame under
// 802.1Qbb's EtherType, a CBFC credit frame and a data frame, each in kCopies distinct copies,
// and a PFC-layout frame under the port's own control EtherType where that is not 0x8808.
// Each must arrive byte for byte: a NIC that acts on PFC itself, or drops MAC control frames,
// loses the first.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wire/mac_address.h"

namespace fcswitch::selftest {

using Frame = std::vector<uint8_t>;

inline constexpr int kCopies = 8;

enum class ProbeLayout : uint8_t { kPfc, kCredit, kData };

struct ProbeKind {
  std::string name;
  bool required = true;  // the switch relies on it (its port's control EtherType)
  ProbeLayout layout = ProbeLayout::kData;
  uint16_t ether_type = 0;  // the PFC layout's
};

// The kinds a port with this control EtherType sends, in the order the tables list them.
std::vector<ProbeKind> probe_kinds(uint16_t control_ether_type);

// Copy `copy` (0 .. kCopies − 1) of a kind from `source`. `heard` marks a data frame of the
// link selftest: its sender has had every probe of the port at the other end.
Frame probe_frame(const ProbeKind& kind, wire::MacAddress source, int copy, bool heard = false);

struct ProbeMatch {
  size_t kind = 0;  // index into the kinds
  int copy = 0;
  bool heard = false;
  wire::MacAddress source;
};

// Which probe `data` is, from whichever source, where all of its bytes arrived (a NIC may pad
// a frame or keep a longer one); nothing for any other frame.
std::optional<ProbeMatch> match_probe(const std::vector<ProbeKind>& kinds, const uint8_t* data,
                                      size_t length);

}  // namespace fcswitch::selftest

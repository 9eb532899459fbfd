#include "wire/selftest_probes.h"

#include <cstdio>
#include <cstring>

#include "wire/credit_frame.h"
#include "wire/ether_type.h"
#include "wire/pfc_frame.h"

namespace fcswitch::selftest {

namespace {

// The data probe's bytes past its EtherType: the copy, then the link selftest's mark.
constexpr size_t kDataCopyByte = 14;
constexpr size_t kDataHeardByte = 15;

Frame pfc_probe(wire::MacAddress source, uint16_t ether_type, int copy) {
  // Priority 7, one quantum: were the NIC to act on it, the pause would last 51 ns. The
  // copy number in time[0..6] (disabled classes) makes each frame distinct.
  wire::PfcFrame pfc{source, 0x80, {}};
  for (int i = 0; i < 7; ++i) pfc.time[i] = static_cast<uint16_t>(copy);
  pfc.time[7] = 1;
  Frame f(wire::kPfcFrameBytes);
  wire::encode_pfc(pfc, ether_type, f.data());
  return f;
}

Frame credit_probe(wire::MacAddress source, int copy) {
  wire::CreditFrame credit{source, 0, {}};
  credit.entry[0] = wire::CreditEntry{static_cast<uint32_t>(copy), 0};
  Frame f(wire::kCreditFrameBytes);
  wire::encode_credit(credit, f.data());
  return f;
}

Frame data_probe(wire::MacAddress source, int copy, bool heard) {
  Frame f(64, 0);
  wire::MacAddress{0xFFFF'FFFF'FFFFull}.to_bytes(f.data());
  source.to_bytes(f.data() + 6);
  f[12] = 0x88;
  f[13] = 0xB7;  // OUI extended: data, never one of our control formats
  f[kDataCopyByte] = static_cast<uint8_t>(copy);
  f[kDataHeardByte] = heard ? 1 : 0;
  return f;
}

}  // namespace

std::vector<ProbeKind> probe_kinds(uint16_t control_ether_type) {
  std::vector<ProbeKind> kinds = {
      {"PFC 802.1Qbb, EtherType 0x8808", control_ether_type == wire::kEtherTypeMacControl,
       ProbeLayout::kPfc, wire::kEtherTypeMacControl},
      {"credit frame (CBFC), EtherType 0x88B5", true, ProbeLayout::kCredit, 0},
      {"data frame, EtherType 0x88B7", true, ProbeLayout::kData, 0},
  };
  if (control_ether_type != wire::kEtherTypeMacControl) {
    char name[48];
    std::snprintf(name, sizeof name, "PFC layout, control_ether_type 0x%04X", control_ether_type);
    kinds.push_back({name, true, ProbeLayout::kPfc, control_ether_type});
  }
  return kinds;
}

Frame probe_frame(const ProbeKind& kind, wire::MacAddress source, int copy, bool heard) {
  switch (kind.layout) {
    case ProbeLayout::kPfc:
      return pfc_probe(source, kind.ether_type, copy);
    case ProbeLayout::kCredit:
      return credit_probe(source, copy);
    case ProbeLayout::kData:
      return data_probe(source, copy, heard);
  }
  return {};
}

std::optional<ProbeMatch> match_probe(const std::vector<ProbeKind>& kinds, const uint8_t* data,
                                      size_t length) {
  if (length < 14) return std::nullopt;
  const wire::MacAddress source = wire::MacAddress::from_bytes(data + 6);
  for (size_t k = 0; k < kinds.size(); ++k)
    for (int copy = 0; copy < kCopies; ++copy)
      for (const bool heard : {false, true}) {
        if (heard && kinds[k].layout != ProbeLayout::kData) continue;
        const Frame f = probe_frame(kinds[k], source, copy, heard);
        if (length >= f.size() && std::memcmp(data, f.data(), f.size()) == 0)
          return ProbeMatch{k, copy, heard, source};
      }
  return std::nullopt;
}

}  // namespace fcswitch::selftest

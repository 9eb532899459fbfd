#include "wire/selftest_probes.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "wire/big_endian.h"
#include "wire/credit_frame.h"
#include "wire/ether_type.h"
#include "wire/pfc_frame.h"

namespace fcswitch::selftest {

namespace {

// The data probe's bytes past its EtherType: the copy, then the link selftest's mark.
constexpr uint16_t kDataProbeEtherType = 0x88B7;  // OUI extended: never one of our formats
constexpr size_t kDataCopyByte = 14;
constexpr size_t kDataHeardByte = 15;
constexpr size_t kDataProbeBytes = 64;
constexpr size_t kShortestProbeBytes =
    std::min({wire::kPfcFrameBytes, wire::kCreditFrameBytes, kDataProbeBytes});

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
  Frame f(kDataProbeBytes, 0);
  wire::MacAddress{0xFFFF'FFFF'FFFFull}.to_bytes(f.data());
  source.to_bytes(f.data() + 6);
  wire::store_be16(f.data() + 12, kDataProbeEtherType);
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
  // Every probe is at least this long, so the fields below are there to read.
  if (length < kShortestProbeBytes) return std::nullopt;
  const wire::MacAddress source = wire::MacAddress::from_bytes(data + 6);
  const uint16_t ether_type = wire::load_be16(data + 12);
  for (size_t k = 0; k < kinds.size(); ++k) {
    // Which copy it would be, from the field the copy number is written to: PFC's time[0], a
    // credit frame's first FCTBS (both at byte 18), the data probe's byte 14 and its mark.
    uint32_t copy = 0;
    bool heard = false;
    switch (kinds[k].layout) {
      case ProbeLayout::kPfc:
        if (ether_type != kinds[k].ether_type) continue;
        copy = wire::load_be16(data + 18);
        break;
      case ProbeLayout::kCredit:
        if (ether_type != wire::kEtherTypeLocalExperimental1) continue;
        copy = wire::load_be32(data + 18);
        break;
      case ProbeLayout::kData:
        if (ether_type != kDataProbeEtherType || data[kDataHeardByte] > 1) continue;
        copy = data[kDataCopyByte];
        heard = data[kDataHeardByte] == 1;
        break;
    }
    if (copy >= static_cast<uint32_t>(kCopies)) continue;
    // Then every byte of that copy, as sent.
    const Frame f = probe_frame(kinds[k], source, static_cast<int>(copy), heard);
    if (length >= f.size() && std::memcmp(data, f.data(), f.size()) == 0)
      return ProbeMatch{k, static_cast<int>(copy), heard, source};
  }
  return std::nullopt;
}

}  // namespace fcswitch::selftest

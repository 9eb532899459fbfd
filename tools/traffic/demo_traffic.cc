// fcswitch-demo-traffic DIR: writes DIR/in0.pcap … in3.pcap, a mixed load for the
// one-switch demo (config/demo-pcap.toml): lossless RoCE-like traffic at priority 3, lossy
// bulk at 0, EF voice at 5, IPv6, VLAN-tagged frames, broadcasts, unknown unicast, and a few
// frames the switch must refuse (runt, malformed IPv4, LLDP, a PFC frame to consume).

#include <cstdio>
#include <string>

#include "frame_builder.h"
#include "pcap_file.h"

using fcswitch::traffic::FrameSpec;
using L3 = FrameSpec::L3;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const uint64_t hosts[4] = {0x02000000000Aull, 0x02000000000Bull, 0x02000000000Cull,
                             0x02000000000Dull};
  std::vector<fcswitch::traffic::Frame> in[4];
  uint32_t seq = 1;
  for (int p = 0; p < 4; ++p) {
    for (int i = 0; i < 2000; ++i) {
      FrameSpec s;
      s.src = hosts[p];
      s.dst = hosts[(p + 1 + i % 3) % 4];
      s.sequence = seq++;
      s.l3 = i % 7 == 0 ? L3::kIpv6 : L3::kIpv4;
      s.dscp = i % 4 == 0 ? 0 : i % 4 == 1 ? 26 : i % 4 == 2 ? 26 : 46;
      s.size = i % 5 == 0 ? 1514 : 64 + (i * 37) % 1400;
      if (i % 50 == 7) s.vlan_pcp = 3;
      if (i % 100 == 11) s.dst = 0xFFFFFFFFFFFFull;
      if (i % 100 == 13) s.dst = 0x0200000000EEull;
      in[p].push_back(fcswitch::traffic::build_frame(s));
    }
    FrameSpec bad;
    bad.src = hosts[p];
    bad.dst = hosts[(p + 1) % 4];
    auto runt = fcswitch::traffic::build_frame(bad);
    runt.resize(42);
    in[p].push_back(runt);
    auto malformed = fcswitch::traffic::build_frame(bad);
    malformed[14] = 0x55;
    in[p].push_back(malformed);
    bad.dst = 0x0180C200000Eull;
    in[p].push_back(fcswitch::traffic::build_frame(bad));
    in[p].push_back(fcswitch::traffic::pfc_frame(hosts[p]));
  }
  for (int p = 0; p < 4; ++p)
    fcswitch::traffic::write_pcap(dir + "/in" + std::to_string(p) + ".pcap", in[p]);
  return 0;
}

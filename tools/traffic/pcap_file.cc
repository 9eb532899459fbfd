#include "pcap_file.h"

#include <pcap/pcap.h>

#include <stdexcept>

namespace fcswitch::traffic {

void write_pcap(const std::string& path, const std::vector<Frame>& frames) {
  pcap_t* dead = pcap_open_dead(DLT_EN10MB, 65535);
  pcap_dumper_t* dumper = pcap_dump_open(dead, path.c_str());
  if (!dumper) throw std::runtime_error("cannot write " + path);
  uint32_t usec = 0;
  for (const Frame& f : frames) {
    pcap_pkthdr header{};
    header.ts.tv_usec = usec++;
    header.caplen = header.len = static_cast<uint32_t>(f.size());
    pcap_dump(reinterpret_cast<u_char*>(dumper), &header, f.data());
  }
  pcap_dump_close(dumper);
  pcap_close(dead);
}

std::vector<Frame> read_pcap(const std::string& path) {
  char error[PCAP_ERRBUF_SIZE];
  pcap_t* in = pcap_open_offline(path.c_str(), error);
  if (!in) throw std::runtime_error(path + ": " + error);
  std::vector<Frame> frames;
  pcap_pkthdr* header;
  const u_char* data;
  while (pcap_next_ex(in, &header, &data) == 1) frames.emplace_back(data, data + header->caplen);
  pcap_close(in);
  return frames;
}

}  // namespace fcswitch::traffic

#include "node/control_path_selftest.h"

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>

#include "dpdk/eth_port.h"
#include "dpdk/interrupt_thread_park.h"
#include "wire/selftest_probes.h"

namespace fcswitch {

bool SelftestResult::passed() const {
  for (const auto& p : probes)
    // A probe that could not be sent at all (the port took nothing) proves nothing.
    if (p.required && (p.sent == 0 || p.received != p.sent)) return false;
  return true;
}

std::string SelftestResult::table() const {
  std::string out = fmt::format("{:<44} {:>5} {:>9}\n", "probe", "sent", "received");
  for (const auto& p : probes)
    out += fmt::format("{:<44} {:>5} {:>9}{}\n", p.name, p.sent, p.received,
                       p.received == p.sent ? ""
                       : p.required         ? "  MISSING"
                                            : "  missing");
  out += fmt::format("other frames received: {}\n", other_frames);
  return out;
}

SelftestResult run_control_path_selftest(const config::SwitchConfig& config, int from, int to,
                                         std::chrono::milliseconds timeout) {
  std::unique_ptr<rte_mempool, decltype(&rte_mempool_free)> pool(
      rte_pktmbuf_pool_create((config.name + "_st").c_str(), 4095, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                              0),
      rte_mempool_free);
  if (!pool) throw std::runtime_error("selftest mempool");
  dpdk::EthPort out(config.ports[from], pool.get());
  dpdk::EthPort in(config.ports[to], pool.get());
  const wire::MacAddress src = out.mac();
  const std::vector<selftest::ProbeKind> kinds =
      selftest::probe_kinds(config.ports[from].control_ether_type);

  SelftestResult result;
  std::vector<std::pair<selftest::Frame, size_t>> expected;  // frame, probe index
  for (size_t k = 0; k < kinds.size(); ++k) {
    result.probes.push_back(SelftestProbe{kinds[k].name, 0, 0, kinds[k].required});
    for (int c = 0; c < selftest::kCopies; ++c)
      expected.emplace_back(selftest::probe_frame(kinds[k], src, c), k);
  }
  // A tool, not the datapath: wait for the TX ring rather than hold frames — but not for ever:
  // a port whose link never comes up (a memif with no peer) takes nothing.
  const auto send_deadline = std::chrono::steady_clock::now() + timeout;
  for (const auto& [frame, k] : expected) {
    rte_mbuf* m = rte_pktmbuf_alloc(pool.get());
    if (!m) throw std::runtime_error("selftest mempool empty");
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
                frame.size());
    bool sent = false;
    while (!(sent = rte_eth_tx_burst(out.id(), 0, &m, 1) == 1) &&
           std::chrono::steady_clock::now() < send_deadline)
      std::this_thread::yield();
    if (!sent) {
      rte_pktmbuf_free(m);
      break;  // the probes not sent stay at 0 sent, and the result says so
    }
    ++result.probes[k].sent;
  }

  std::vector<bool> seen(expected.size(), false);
  size_t still_missing = expected.size();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (still_missing && std::chrono::steady_clock::now() < deadline) {
    rte_mbuf* pkts[32];
    const uint16_t n = rte_eth_rx_burst(in.id(), 0, pkts, 32);
    if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // polling a tool
    for (uint16_t i = 0; i < n; ++i) {
      const auto* data = rte_pktmbuf_mtod(pkts[i], const uint8_t*);
      const size_t length = rte_pktmbuf_data_len(pkts[i]);
      bool matched = false;
      for (size_t e = 0; e < expected.size() && !matched; ++e) {
        const selftest::Frame& f = expected[e].first;
        // A NIC may pad or keep a longer frame; the bytes we sent must all be there.
        if (seen[e] || length < f.size() || std::memcmp(data, f.data(), f.size()) != 0) continue;
        seen[e] = matched = true;
        ++result.probes[expected[e].second].received;
        --still_missing;
      }
      if (!matched) ++result.other_frames;
      rte_pktmbuf_free(pkts[i]);
    }
  }
  // Both ends of a memif link are this process's: the interrupt thread would disconnect one
  // beside this thread's stop of it (dpdk/interrupt_thread_park.h).
  dpdk::park_interrupt_thread();
  out.stop();
  in.stop();
  return result;
}

}  // namespace fcswitch

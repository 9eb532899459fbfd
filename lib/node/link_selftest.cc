#include "node/link_selftest.h"

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include "dpdk/eth_port.h"
#include "dpdk/interrupt_thread_park.h"
#include "wire/selftest_probes.h"

namespace fcswitch {

namespace {

using Clock = std::chrono::steady_clock;

// A round of probes every 2 ms: 8 rounds give every copy; a peer that starts later takes
// them from then on.
constexpr auto kRoundInterval = std::chrono::milliseconds(2);
// Once every port has passed, the rounds go on this long, so that the peer, which may have
// heard this end only now, sees that it was heard before this end stops sending.
constexpr auto kLinger = std::chrono::milliseconds(300);

struct PortUnderTest {
  std::unique_ptr<dpdk::EthPort> port;
  std::vector<selftest::ProbeKind> kinds;
  std::vector<uint32_t> copies_seen;  // a bit a copy, per kind
  LinkSelftestPort result;
};

// One round out of a port: each kind's copy `copy`. False unless the port took all of it (its
// link not up yet, its TX ring full).
bool send_round(PortUnderTest& p, rte_mempool* pool, int copy) {
  const bool heard = p.result.heard_peer();
  int taken = 0;
  for (const selftest::ProbeKind& kind : p.kinds) {
    const selftest::Frame f = selftest::probe_frame(kind, p.port->mac(), copy, heard);
    rte_mbuf* m = rte_pktmbuf_alloc(pool);
    if (!m) throw std::runtime_error("link selftest mempool empty");
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(f.size())), f.data(), f.size());
    if (rte_eth_tx_burst(p.port->id(), 0, &m, 1) == 1) {
      ++taken;
    } else {
      rte_pktmbuf_free(m);
    }
  }
  return taken == static_cast<int>(p.kinds.size());
}

void receive(PortUnderTest& p) {
  rte_mbuf* pkts[32];
  const uint16_t n = rte_eth_rx_burst(p.port->id(), 0, pkts, 32);
  for (uint16_t i = 0; i < n; ++i) {
    const auto match = selftest::match_probe(p.kinds, rte_pktmbuf_mtod(pkts[i], const uint8_t*),
                                             rte_pktmbuf_data_len(pkts[i]));
    // The port's own frames, were something to reflect them, are not its peer's; nor are a
    // third port's (a shared segment): the peer is the first source heard.
    if (!match || match->source == p.port->mac() ||
        (p.result.peer_seen && match->source != p.result.peer)) {
      ++p.result.other_frames;
    } else {
      if (!p.result.peer_seen) p.result.peer = match->source;
      p.result.peer_seen = true;
      p.copies_seen[match->kind] |= 1u << match->copy;
      p.result.heard_by_peer = p.result.heard_by_peer || match->heard;
    }
    rte_pktmbuf_free(pkts[i]);
  }
  for (size_t k = 0; k < p.kinds.size(); ++k)
    p.result.copies_received[k] = __builtin_popcount(p.copies_seen[k]);
}

}  // namespace

bool LinkSelftestPort::heard_peer() const {
  for (size_t k = 0; k < copies_received.size(); ++k)
    if (required[k] && copies_received[k] < selftest::kCopies) return false;
  return true;
}

bool LinkSelftestResult::passed() const {
  for (const LinkSelftestPort& p : ports)
    if (!p.passed()) return false;
  return !ports.empty();
}

std::string LinkSelftestResult::table() const {
  std::string out;
  for (const LinkSelftestPort& p : ports) {
    out += fmt::format("port {}: {} rounds sent; peer {}; heard by its peer: {}\n", p.port,
                       p.rounds_sent, p.peer_seen ? p.peer.to_string() : "none heard",
                       p.heard_by_peer ? "yes" : "NO");
    out += fmt::format("  {:<44} {:>9}\n", "probe from the peer", "copies");
    for (size_t k = 0; k < p.probe_names.size(); ++k) {
      const bool whole = p.copies_received[k] == selftest::kCopies;
      out += fmt::format("  {:<44} {:>4} of {}{}\n", p.probe_names[k], p.copies_received[k],
                         selftest::kCopies,
                         whole           ? ""
                         : p.required[k] ? "  MISSING"
                                         : "  missing");
    }
    out += fmt::format("  other frames received: {}\n", p.other_frames);
  }
  return out;
}

LinkSelftestResult run_link_selftest(const config::SwitchConfig& config,
                                     std::chrono::milliseconds timeout,
                                     const std::function<void()>& started) {
  // Each port's RX ring is filled from the pool as it starts (an 82599's 1 024 descriptors),
  // and each TX ring holds what it has not freed yet: room for both, a port, and the rounds.
  const unsigned mbufs =
      rte_align32pow2(2048 * static_cast<unsigned>(config.ports.size()) + 1024) - 1;
  std::unique_ptr<rte_mempool, decltype(&rte_mempool_free)> pool(
      rte_pktmbuf_pool_create((config.name + "_lt").c_str(), mbufs, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                              0),
      rte_mempool_free);
  if (!pool) throw std::runtime_error("link selftest mempool");
  std::vector<PortUnderTest> ports;
  for (const config::PortConfig& port_config : config.ports) {
    PortUnderTest p;
    p.port = std::make_unique<dpdk::EthPort>(port_config, pool.get());
    p.kinds = selftest::probe_kinds(port_config.control_ether_type);
    p.copies_seen.assign(p.kinds.size(), 0);
    p.result.port = port_config.name;
    for (const selftest::ProbeKind& kind : p.kinds) {
      p.result.probe_names.push_back(kind.name);
      p.result.required.push_back(kind.required);
    }
    p.result.copies_received.assign(p.kinds.size(), 0);
    ports.push_back(std::move(p));
  }
  started();

  const auto deadline = Clock::now() + timeout;
  auto next_round = Clock::now();
  std::optional<Clock::time_point> done_at;
  int round = 0;
  for (auto now = Clock::now(); now < deadline && !(done_at && now >= *done_at + kLinger);
       now = Clock::now()) {
    if (now >= next_round) {
      for (PortUnderTest& p : ports)
        if (send_round(p, pool.get(), round % selftest::kCopies)) ++p.result.rounds_sent;
      ++round;
      next_round = now + kRoundInterval;
    }
    for (PortUnderTest& p : ports) receive(p);
    bool all = true;
    for (const PortUnderTest& p : ports) all = all && p.result.passed();
    if (all && !done_at) done_at = now;
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // polling a tool
  }
  // A memif cable between two ports of this process: the interrupt thread would disconnect
  // one beside this thread's stop of it (dpdk/interrupt_thread_park.h).
  dpdk::park_interrupt_thread();
  LinkSelftestResult result;
  for (PortUnderTest& p : ports) {
    p.port->stop();
    result.ports.push_back(std::move(p.result));
  }
  return result;
}

}  // namespace fcswitch

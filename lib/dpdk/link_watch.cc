#include "dpdk/link_watch.h"

#include <rte_ethdev.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>

namespace fcswitch::dpdk {

namespace {

// The EAL's interrupt thread, on RTE_ETH_EVENT_INTR_LSC: the state the driver now reports.
int on_link_interrupt(uint16_t eth_id, rte_eth_event_type, void* arg, void*) {
  auto* counts = static_cast<LinkWatch::Interrupts*>(arg);
  rte_eth_link link{};
  if (rte_eth_link_get_nowait(eth_id, &link) == 0 && link.link_status == RTE_ETH_LINK_DOWN)
    counts->downs.fetch_add(1, std::memory_order_release);
  counts->changes.fetch_add(1, std::memory_order_release);
  return 0;
}

}  // namespace

LinkWatch::LinkWatch(std::vector<Port> ports, std::function<void(size_t)> on_restored)
    : ports_(std::move(ports)),
      on_restored_(std::move(on_restored)),
      interrupts_(std::make_unique<Interrupts[]>(ports_.size())),
      changes_seen_(ports_.size(), 0),
      downs_seen_(ports_.size(), 0),
      up_(ports_.size(), -1),
      restores_(ports_.size(), 0),
      downs_(ports_.size(), 0) {
  for (const Port& port : ports_)
    redials_.push_back(port.redials ? std::make_unique<MemifRedial>(port.eth_id) : nullptr);
  // A driver without the interrupt never calls it.
  for (size_t p = 0; p < ports_.size(); ++p)
    rte_eth_dev_callback_register(ports_[p].eth_id, RTE_ETH_EVENT_INTR_LSC, on_link_interrupt,
                                  &interrupts_[p]);
}

LinkWatch::~LinkWatch() {
  for (size_t p = 0; p < ports_.size(); ++p) {
    // -EAGAIN while the callback runs: it ends within microseconds.
    while (rte_eth_dev_callback_unregister(ports_[p].eth_id, RTE_ETH_EVENT_INTR_LSC,
                                           on_link_interrupt, &interrupts_[p]) == -EAGAIN) {
    }
  }
}

bool LinkWatch::changed() const {
  for (size_t p = 0; p < ports_.size(); ++p)
    if (interrupts_[p].changes.load(std::memory_order_acquire) != changes_seen_[p]) return true;
  return false;
}

void LinkWatch::poll() {
  for (size_t p = 0; p < ports_.size(); ++p) {
    changes_seen_[p] = interrupts_[p].changes.load(std::memory_order_acquire);
    const uint64_t interrupt_downs = interrupts_[p].downs.load(std::memory_order_acquire);
    const uint64_t downs_between = interrupt_downs - downs_seen_[p];
    downs_seen_[p] = interrupt_downs;
    rte_eth_link link{};
    if (rte_eth_link_get_nowait(ports_[p].eth_id, &link) != 0) continue;
    const int up = link.link_status == RTE_ETH_LINK_UP ? 1 : 0;
    const int was = up_[p];
    up_[p] = up;
    const uint64_t dials = redials_[p] ? redials_[p]->dials_since_up() : 0;
    if (redials_[p]) redials_[p]->poll(up, MemifRedial::Clock::now());
    if (up == was) {
      // Up at both polls, but an interrupt saw it go down in between: a flap the polls missed.
      if (up && downs_between) {
        downs_[p] += downs_between;
        ++restores_[p];
        spdlog::warn(
            "port {}: link went down and came back between two polls ({} time{}): "
            "saying our flow-control state again",
            ports_[p].name, downs_between, downs_between == 1 ? "" : "s");
        on_restored_(p);
      }
      continue;
    }
    if (!up) {
      // At start a link is often still coming up (a memif server waits for its client).
      if (was > 0) downs_[p] += std::max<uint64_t>(1, downs_between);
      spdlog::log(was < 0 ? spdlog::level::info : spdlog::level::warn, "port {}: link down{}",
                  ports_[p].name,
                  redials_[p] && was > 0
                      ? ": its memif server has gone; dialling it again until one answers"
                      : "");
    } else if (was < 0) {
      spdlog::info("port {}: link up ({} Mb/s)", ports_[p].name, link.link_speed);
    } else {
      spdlog::info("port {}: link up ({} Mb/s{}): saying our flow-control state again",
                   ports_[p].name, link.link_speed,
                   dials ? fmt::format(", after {} dial{}", dials, dials == 1 ? "" : "s") : "");
      ++restores_[p];
      on_restored_(p);
    }
  }
}

}  // namespace fcswitch::dpdk

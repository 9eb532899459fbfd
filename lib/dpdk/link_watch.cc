#include "dpdk/link_watch.h"

#include <rte_ethdev.h>

#include <spdlog/spdlog.h>

namespace fcswitch::dpdk {

LinkWatch::LinkWatch(std::vector<Port> ports, std::function<void(size_t)> on_restored)
    : ports_(std::move(ports)),
      on_restored_(std::move(on_restored)),
      up_(ports_.size(), -1),
      restores_(ports_.size(), 0) {}

void LinkWatch::poll() {
  for (size_t p = 0; p < ports_.size(); ++p) {
    rte_eth_link link{};
    if (rte_eth_link_get_nowait(ports_[p].eth_id, &link) != 0) continue;
    const int up = link.link_status == RTE_ETH_LINK_UP ? 1 : 0;
    const int was = up_[p];
    up_[p] = up;
    if (up == was) continue;
    if (!up) {
      // At start a link is often still coming up (a memif server waits for its client).
      spdlog::log(was < 0 ? spdlog::level::info : spdlog::level::warn, "port {}: link down",
                  ports_[p].name);
    } else if (was < 0) {
      spdlog::info("port {}: link up ({} Mb/s)", ports_[p].name, link.link_speed);
    } else {
      spdlog::info("port {}: link up ({} Mb/s): saying our flow-control state again",
                   ports_[p].name, link.link_speed);
      ++restores_[p];
      on_restored_(p);
    }
  }
}

}  // namespace fcswitch::dpdk

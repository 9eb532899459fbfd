#include "dpdk/eth_port.h"

#include <rte_ethdev.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "dpdk/eal_session.h"

namespace fcswitch::dpdk {

namespace {

void check(int rc, const std::string& what) {
  if (rc < 0) throw std::runtime_error(fmt::format("{}: {}", what, rte_strerror(-rc)));
}

}  // namespace

std::string missing_device_message(const config::PortConfig& config) {
  const std::string dev = device_name(config.device);
  return is_pci_address(config.device)
             ? fmt::format(
                   "port {}: no DPDK device \"{}\" (not bound to vfio-pci, or not in "
                   "the EAL's allow list?)",
                   config.name, dev)
             : fmt::format(
                   "port {}: no DPDK device \"{}\": its driver refused \"{}\" (the EAL "
                   "lines above say why: a tap name or memif socket already in use, an "
                   "interface that does not exist?)",
                   config.name, dev, config.device);
}

bool device_exists(const config::PortConfig& config) {
  uint16_t id;
  return rte_eth_dev_get_port_by_name(device_name(config.device).c_str(), &id) == 0;
}

EthPort::EthPort(const config::PortConfig& config, rte_mempool* pool) : name_(config.name) {
  const std::string dev = device_name(config.device);
  if (rte_eth_dev_get_port_by_name(dev.c_str(), &id_) != 0)
    throw std::runtime_error(missing_device_message(config));

  rte_eth_dev_info info{};
  check(rte_eth_dev_info_get(id_, &info), "port " + name_ + ": dev_info");
  profile_ = &choose_profile(config.profile, info.driver_name, is_pci_address(config.device));

  rte_eth_conf conf{};  // no offloads, no RSS: one queue each way, frames as they are
  // Link changes as they happen where the driver can say them (dpdk/link_watch.h).
  const bool link_interrupts = info.dev_flags && (*info.dev_flags & RTE_ETH_DEV_INTR_LSC);
  conf.intr_conf.lsc = link_interrupts ? 1 : 0;
  spdlog::info("port {}: {}", name_,
               link_interrupts ? "link-status interrupts on"
                               : "no link-status interrupts: its link is polled");
  check(rte_eth_dev_configure(id_, 1, 1, &conf), "port " + name_ + ": configure");
  uint16_t rx_desc = config.rx_descriptors ? config.rx_descriptors : profile_->rx_descriptors;
  uint16_t tx_desc = config.tx_descriptors ? config.tx_descriptors : profile_->tx_descriptors;
  check(rte_eth_dev_adjust_nb_rx_tx_desc(id_, &rx_desc, &tx_desc),
        "port " + name_ + ": descriptors");
  const int socket = rte_eth_dev_socket_id(id_) < 0 ? 0 : rte_eth_dev_socket_id(id_);
  check(rte_eth_rx_queue_setup(id_, 0, rx_desc, socket, nullptr, pool),
        "port " + name_ + ": rx queue");
  check(rte_eth_tx_queue_setup(id_, 0, tx_desc, socket, nullptr), "port " + name_ + ": tx queue");

  if (profile_->software_flow_control) {
    rte_eth_fc_conf fc{};
    rte_eth_dev_flow_ctrl_get(id_, &fc);
    fc.mode = RTE_ETH_FC_NONE;
    fc.mac_ctrl_frame_fwd = 1;
    check(rte_eth_dev_flow_ctrl_set(id_, &fc), "port " + name_ + ": hardware flow control off");
  }
  if (config.mac) {
    rte_ether_addr addr;
    config.mac->to_bytes(addr.addr_bytes);
    const int rc = rte_eth_dev_default_mac_addr_set(id_, &addr);
    if (rc < 0 && rc != -ENOTSUP) check(rc, "port " + name_ + ": set MAC");
  }
  redials_ = std::string_view(info.driver_name) == "net_memif" &&
             config.device.find("role=client") != std::string::npos;
  if (const int rc = rte_eth_dev_start(id_); rc < 0) {
    // A memif client connects as it starts and fails when no server listens on its socket
    // yet; DPDK only says "Operation not permitted".
    if (redials_)
      throw std::runtime_error(fmt::format(
          "port {}: start: {} — a memif client needs its server first: start the process whose "
          "port has role=server on that socket (\"{}\") before this one",
          name_, rte_strerror(-rc), config.device));
    check(rc, "port " + name_ + ": start");
  }
  started_ = true;
  // A switch receives every destination. Virtual devices that cannot say so still do.
  const int promisc = rte_eth_promiscuous_enable(id_);
  if (promisc < 0 && promisc != -ENOTSUP) check(promisc, "port " + name_ + ": promiscuous");

  uint16_t device_mtu = 0;
  if (config.mtu) {
    mtu_ = config.mtu;
    // The device need not know: FWD drops what is longer (oversize) either way.
    const int rc = rte_eth_dev_set_mtu(id_, static_cast<uint16_t>(config.mtu));
    if (rc < 0 && rc != -ENOTSUP)
      spdlog::warn("port {}: the device refused MTU {} ({}); FWD still drops longer frames", name_,
                   config.mtu, rte_strerror(-rc));
  } else if (rte_eth_dev_get_mtu(id_, &device_mtu) == 0 && device_mtu) {
    mtu_ = device_mtu;
  }

  rte_ether_addr addr;
  rte_eth_macaddr_get(id_, &addr);
  mac_ = wire::MacAddress::from_bytes(addr.addr_bytes);
  if (config.mac && !(mac_ == *config.mac))
    mac_ = *config.mac;  // device cannot set it: we still use it as source
  spdlog::info("port {} up: {} (driver {}, profile {}, {} rx / {} tx descriptors, {} Gb/s, mac {})",
               name_, dev, info.driver_name, profile_->name, rx_desc, tx_desc,
               static_cast<double>(config.rate_bps) / 1e9, mac_.to_string());
}

EthPort::~EthPort() {
  stop();
}

void EthPort::stop() {
  if (!started_) return;
  nic_rx_dropped_at_stop_ = nic_rx_dropped();
  started_ = false;
  rte_eth_dev_stop(id_);
  rte_eth_dev_close(id_);
}

uint64_t EthPort::nic_rx_dropped() const {
  if (!started_) return nic_rx_dropped_at_stop_;
  rte_eth_stats stats{};
  if (rte_eth_stats_get(id_, &stats) != 0) return 0;
  return stats.rx_nombuf + stats.imissed;
}

}  // namespace fcswitch::dpdk

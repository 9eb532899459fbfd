#pragma once
// One switch port: a DPDK ethdev with one RX and one TX queue, set up by its NIC profile.

#include <cstdint>
#include <string>

#include <rte_mempool.h>

#include "dpdk/nic_profile.h"
#include "params/switch_params.h"
#include "wire/mac_address.h"

namespace fcswitch::dpdk {

// Whether the EAL made the device `config` names (a vdev whose driver refused its arguments
// is not there), and what to say when it did not.
bool device_exists(const config::PortConfig& config);
std::string missing_device_message(const config::PortConfig& config);

class EthPort {
 public:
  // Finds the device the config names, configures and starts it. Throws std::runtime_error.
  EthPort(const config::PortConfig& config, rte_mempool* pool);
  ~EthPort();
  EthPort(const EthPort&) = delete;
  EthPort& operator=(const EthPort&) = delete;

  void stop();  // idempotent; closes the device (flushes a pcap tx file)

  uint16_t id() const { return id_; }
  const std::string& name() const { return name_; }
  wire::MacAddress mac() const { return mac_; }
  const NicProfile& profile() const { return *profile_; }
  // The config's MTU, else the device's (1500 where it does not say).
  uint32_t mtu() const { return mtu_; }
  // A memif client: it connects only as it starts, so it must dial again when its server
  // comes back (dpdk::MemifRedial).
  bool redials() const { return redials_; }
  // Packets the NIC dropped for want of an mbuf (rx_nombuf) or RX descriptor (imissed);
  // after stop(), the count it had then.
  uint64_t nic_rx_dropped() const;

 private:
  uint16_t id_ = 0;
  std::string name_;
  wire::MacAddress mac_;
  const NicProfile* profile_ = nullptr;
  uint32_t mtu_ = 1500;
  bool started_ = false;
  bool redials_ = false;
  uint64_t nic_rx_dropped_at_stop_ = 0;
};

}  // namespace fcswitch::dpdk

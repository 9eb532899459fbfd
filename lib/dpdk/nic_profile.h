#pragma once
// Per-kind port settings. A software switch that does its own flow control needs the NIC
// to stay out of the way: no hardware PAUSE/PFC, control frames handed to software, and
// little data committed to the wire ahead of the software scheduler.

#include <cstdint>
#include <string_view>

#include "params/switch_params.h"

namespace fcswitch::dpdk {

struct NicProfile {
  std::string_view name;
  uint16_t rx_descriptors;
  uint16_t tx_descriptors;
  // Call rte_eth_dev_flow_ctrl_set(mode = NONE, mac_ctrl_frame_fwd = 1).
  bool software_flow_control;
  // The MAC pads frames under 60 bytes itself; elsewhere the TX task pads them (a frame a
  // Linux host sent unpadded on a tap must not leave a switch as a runt).
  bool pads_short_frames;
};

// Intel 82599 (net_ixgbe), the GFC testbed's NIC.
//  - Hardware flow control off: otherwise the MAC answers 802.3x/PFC frames itself
//    (pausing its TX without software knowing) and may send its own.
//  - mac_ctrl_frame_fwd = 1 sets the PMCF bit so MAC control frames (EtherType 0x8808)
//    reach rx_burst instead of being dropped by the MAC. Whether 802.1Qbb frames really
//    arrive depends on the card and firmware; `fcswitch selftest` checks it on the testbed,
//    and a port can move control frames to another EtherType (control_ether_type).
//  - 64 TX descriptors: a software pause only stops what is still in our queues; whatever
//    sits in the TX ring goes out anyway. 64 × 1538 B ≈ 79 µs at 10 Gb/s bounds that part of
//    the feedback delay τ (the GFC testbed measured τ = 90 µs worst case).
//  - Short frames are padded by the MAC: DPDK's ixgbe_dev_tx_init sets HLREG0.TXPADEN, which
//    pads a frame to 64 bytes with its FCS (82599 datasheet §8.2.3.22.8).
inline constexpr NicProfile kIxgbe82599Profile{"ixgbe-82599", 1024, 64, true, true};

// Virtual devices (ring, null, pcap, memif, tap, af_packet): no MAC to configure.
// Nothing pads for them: the TX task does.
inline constexpr NicProfile kVdevProfile{"vdev", 1024, 1024, false, false};

// Any other physical NIC: the same as the 82599 as far as it lets us. Whether it pads is not
// known (virtio-net in a VM is PCI and does not), so the TX task pads.
inline constexpr NicProfile kGenericNicProfile{"generic-nic", 1024, 128, true, false};

// kAuto picks by driver name: net_ixgbe → 82599, a vdev → vdev, else generic.
const NicProfile& choose_profile(config::NicProfileKind kind, std::string_view driver_name,
                                 bool is_pci);

}  // namespace fcswitch::dpdk

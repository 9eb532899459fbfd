#pragma once
// Pyrrha's periodic N-to-1 incasts (§6, "incastmix": 720-to-1 incasts of 30–40-MTU flows at
// load 0.5, mixed with Poisson background at load 0.8), as its ns-3 code generates them
// (NASA-NJU/Pyrrha-NS3 scratch/third.cc, generate_load_poisson_fromcdf_incast, INCAST_CDF 9):
//
//  - an incast is `senders` flows to one destination host; each sender is drawn uniformly,
//    with replacement, among the hosts outside the destination's rack (720 flows from 150
//    hosts: a host may send several);
//  - each flow's size is a uniform whole number of MTUs in [min_mtus, max_mtus] times
//    `mtu_payload_bytes` (the code: 10·INCAST_MIN … 10·INCAST_MAX packets of 1460 bytes at
//    100 Gb/s, i.e. 30 … 40);
//  - incasts repeat with the period that loads the destination's link to `load` on average:
//      period = senders × mean_flow_bytes × 8 / (load × link_rate_bps),
//    mean_flow_bytes = (min_mtus + max_mtus)/2 × mtu_payload_bytes
//    (the code: incast_interval = mean × INCAST_MIX / (host_bw_Bps × INCAST_LOAD));
//  - incast i goes to destinations[i mod size] (the code: the first host of rack i mod racks)
//    and its flows start at start_ns + i × period + a jitter uniform in [0, jitter_ns) (the
//    code: 100 ns + rand() % 100 ns).
// The lab keeps Poisson background away from the destinations (Pyrrha §6: "An incast
// destination does not receive Poisson arrival flows"); that filter is the caller's.

#include <cstdint>
#include <vector>

#include "workload/flow_request.h"
#include "workload/other_rack_host_picker.h"

namespace fcswitch::workload {

struct IncastParams {
  int senders = 720;
  uint32_t min_mtus = 30;
  uint32_t max_mtus = 40;
  uint32_t mtu_payload_bytes = 1460;
  double load = 0.5;
  double link_rate_bps = 100e9;  // the destination's link
  int64_t start_ns = 0;
  int64_t jitter_ns = 100;
  int incasts = 1;
};

double incast_mean_flow_bytes(const IncastParams& params);
// Rounded to the nearest ns.
int64_t incast_period_ns(const IncastParams& params);

struct Incast {
  int64_t start_ns = 0;  // before jitter
  int destination_host = 0;
  std::vector<FlowRequest> flows;  // `senders` of them
};

// params.incasts incasts; `destinations` non-empty. Throws std::invalid_argument on bad params.
std::vector<Incast> incast_schedule(const IncastParams& params,
                                    const std::vector<int>& destinations,
                                    const OtherRackHostPicker& senders, uint64_t seed);

}  // namespace fcswitch::workload

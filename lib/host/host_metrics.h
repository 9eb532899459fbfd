#pragma once
// fchost's /metrics: its NIC port under the families a switch port has (switch_metrics.h:
// frames in and out, flow-control frames, drops, each engine's counters and τ) so the Grafana
// dashboard's queries cover hosts too, and per flow `fchost_flow_*` (bytes sent, bytes, frames
// missing and reordered received), labelled `node` and `flow`. Read when scraped, from the
// counters the tasks own, as the switch's.

#include <prometheus/collectable.h>

#include "host/port_host.h"

namespace fcswitch::host {

class HostCollector final : public prometheus::Collectable {
 public:
  explicit HostCollector(const PortHost& host) : host_(host) {}
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  const PortHost& host_;
};

}  // namespace fcswitch::host

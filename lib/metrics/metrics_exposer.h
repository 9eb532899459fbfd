#pragma once
// Serves /metrics for one or more switches (prometheus-cpp's pull exposer, its own civetweb
// threads). Scrapes read the switches' counters (switch_metrics.h); destroy the exposer
// before the switches.

#include <memory>
#include <string>
#include <vector>

#include "metrics/switch_metrics.h"

namespace prometheus {
class Exposer;
}

namespace fcswitch::metrics {

class MetricsExposer {
 public:
  // `listen`: "address:port" (port 0: any free port). Throws std::runtime_error when it
  // cannot listen there.
  MetricsExposer(const std::string& listen, std::vector<NamedSwitch> switches);
  // What else serves families (fchost's host, host/host_metrics.h).
  MetricsExposer(const std::string& listen, std::shared_ptr<prometheus::Collectable> collector);
  ~MetricsExposer();

  int port() const;  // the one it listens on

 private:
  std::shared_ptr<prometheus::Collectable> collector_;
  std::unique_ptr<prometheus::Exposer> exposer_;
};

}  // namespace fcswitch::metrics

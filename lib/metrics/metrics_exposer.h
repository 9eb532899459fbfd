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

  // Civetweb gives each connection a thread until it is done: one that sends nothing holds its
  // thread for the request timeout. Enough threads that 16 idle connections reconnecting as
  // soon as they are dropped, beside 20 scrapers, leave threads free (a scrape then waits for
  // none of them), and a timeout that bounds what a scrape waits when they do not. The threads
  // sleep between scrapes (seconds apart), off the datapath's cores' work.
  static constexpr int kServingThreads = 48;
  static constexpr int kRequestTimeoutMs = 500;

 private:
  std::shared_ptr<prometheus::Collectable> collector_;
  std::unique_ptr<prometheus::Exposer> exposer_;
};

}  // namespace fcswitch::metrics

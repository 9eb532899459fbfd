#include "metrics/metrics_exposer.h"

#include <prometheus/exposer.h>

#include <stdexcept>

#include "metrics/engine_metric_catalog.h"

namespace fcswitch::metrics {

MetricsExposer::MetricsExposer(const std::string& listen, std::vector<NamedSwitch> switches)
    : collector_(std::make_shared<SwitchCollector>(std::move(switches))) {
  // Counter tables that disagree (engine_metric_catalog.h) fail here, at start, rather than
  // as a broken scrape.
  engine_metric_catalog();
  try {
    // One serving thread: scrapes come seconds apart, and every core is the datapath's.
    exposer_ = std::make_unique<prometheus::Exposer>(listen, 1);
  } catch (const std::exception& error) {
    throw std::runtime_error("metrics: cannot listen on " + listen + ": " + error.what());
  }
  exposer_->RegisterCollectable(collector_);
}

MetricsExposer::~MetricsExposer() {
  exposer_->RemoveCollectable(collector_);
  exposer_.reset();  // joins civetweb's threads: no scrape is still reading
}

int MetricsExposer::port() const {
  const std::vector<int> ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

}  // namespace fcswitch::metrics

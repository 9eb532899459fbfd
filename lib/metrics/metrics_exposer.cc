#include "metrics/metrics_exposer.h"

#include <prometheus/exposer.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "metrics/engine_metric_catalog.h"

namespace fcswitch::metrics {

MetricsExposer::MetricsExposer(const std::string& listen, std::vector<NamedSwitch> switches)
    : MetricsExposer(listen, std::make_shared<SwitchCollector>(std::move(switches))) {}

MetricsExposer::MetricsExposer(const std::string& listen,
                               std::shared_ptr<prometheus::Collectable> collector)
    : collector_(std::move(collector)) {
  // Counter tables that disagree (engine_metric_catalog.h) fail here, at start, rather than
  // as a broken scrape.
  engine_metric_catalog();
  try {
    // kServingThreads and kRequestTimeoutMs (the header says why), not prometheus-cpp's 2
    // threads, each waiting civetweb's 30 s for a request.
    exposer_ = std::make_unique<prometheus::Exposer>(std::vector<std::string>{
        "listening_ports", listen, "num_threads", std::to_string(kServingThreads),
        "request_timeout_ms", std::to_string(kRequestTimeoutMs)});
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

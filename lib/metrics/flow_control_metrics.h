#pragma once
// The families of one (port, priority) that runs a flow-control engine — TX's and its
// watchdog's counters, τ at that input as a histogram, the engine's own counters — shared by
// the switch's /metrics (switch_metrics.h) and fchost's (host/host_metrics.h).

#include <string_view>

#include "fc/counter_descriptor.h"
#include "metrics/metric_family_set.h"
#include "switch/rx_task.h"
#include "switch/tx_task.h"

namespace fcswitch::metrics {

// Adds each counter it is given under the family its table names (fc/counter_descriptor.h),
// with `labels`, in the family's base unit. `out` and `labels` outlive the sink.
fc::CounterSink family_sink(MetricFamilySet& out, const Labels& labels);

// `at`: the node, port and prio labels; `engine` joins them.
void collect_flow_control(MetricFamilySet& out, const Labels& at, const TxTask& tx, int priority,
                          std::string_view engine);

// Why the port's RX refused flow-control frames (the drop reason control_invalid, broken
// down by wire::ControlDecodeStatus): `at`, the node and port labels; `why` joins them.
void collect_control_decode_errors(MetricFamilySet& out, const Labels& at, const RxTask& rx);

}  // namespace fcswitch::metrics

#include "node/ecn_port_counters.h"

#include "node/switch_node.h"

namespace fcswitch {

void ecn_port_counters(const SwitchNode& node, int port, int queue, const fc::CounterSink& sink) {
  const EcnCounters& c = node.fwd().ecn();
  fc::report_counters(sink, kEcnPortCounters, c.read(EcnCounters::kMarked, port, queue),
                      c.read(EcnCounters::kNotEct, port, queue),
                      c.read(EcnCounters::kCeArrived, port, queue));
}

}  // namespace fcswitch

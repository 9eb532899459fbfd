#include "node/pabo_port_counters.h"

#include "node/switch_node.h"

namespace fcswitch {

void pabo_port_counters(const SwitchNode& node, int port, int priority,
                        const fc::CounterSink& sink) {
  const PaboCounters& c = node.fwd().pabo();
  fc::report_counters(sink, kPaboPortCounters, c.read(PaboCounters::kBounced, port, priority),
                      c.read(PaboCounters::kArrivedBounced, port, priority),
                      c.read(PaboCounters::kReforwarded, port, priority),
                      c.read(PaboCounters::kNormalFull, port, priority),
                      c.read(PaboCounters::kBounceFull, port, priority),
                      node.pabo_queue_packets(port, priority, false),
                      node.pabo_queue_packets(port, priority, true));
}

}  // namespace fcswitch

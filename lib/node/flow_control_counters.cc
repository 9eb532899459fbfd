#include "node/flow_control_counters.h"

#include "switch/tx_task.h"

namespace fcswitch {

void tx_flow_control_counters(const TxTask& tx, int priority, const fc::CounterSink& sink) {
  fc::report_counters(sink, kTxFlowControlCounters, tx.pause_frames_sent(priority),
                      tx.resume_frames_sent(priority), tx.blocked_ns(priority),
                      tx.watchdog_storms(priority), tx.watchdog_restores(priority));
}

}  // namespace fcswitch

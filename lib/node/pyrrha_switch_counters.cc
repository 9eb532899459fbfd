#include "node/pyrrha_switch_counters.h"

#include "node/switch_node.h"
#include "switch/fwd/pyrrha_queues.h"

namespace fcswitch {

namespace {

using pyrrha::MessageKind;

// How each row of kPyrrhaSwitchCounters is read, in its order (checked below by name).
struct RowRead {
  std::string_view name;
  uint64_t (*read)(const PyrrhaQueues& queues, int ports);
};

constexpr std::array kRowReads = {
    RowRead{"pause_sent",
            [](const PyrrhaQueues& q, int) { return q.messages_sent(MessageKind::kPause); }},
    RowRead{"resume_sent",
            [](const PyrrhaQueues& q, int) { return q.messages_sent(MessageKind::kResume); }},
    RowRead{"merge_sent",
            [](const PyrrhaQueues& q, int) { return q.messages_sent(MessageKind::kMerge); }},
    RowRead{"dealloc_sent",
            [](const PyrrhaQueues& q, int) { return q.messages_sent(MessageKind::kDealloc); }},
    RowRead{"pause_received",
            [](const PyrrhaQueues& q, int) { return q.messages_received(MessageKind::kPause); }},
    RowRead{"resume_received",
            [](const PyrrhaQueues& q, int) { return q.messages_received(MessageKind::kResume); }},
    RowRead{"merge_received",
            [](const PyrrhaQueues& q, int) { return q.messages_received(MessageKind::kMerge); }},
    RowRead{"dealloc_received",
            [](const PyrrhaQueues& q, int) { return q.messages_received(MessageKind::kDealloc); }},
    RowRead{"roots_active", [](const PyrrhaQueues& q, int) { return q.roots_active(); }},
    RowRead{"self_nominated_ports",
            [](const PyrrhaQueues& q, int) { return q.self_nominated_ports(); }},
    RowRead{"iqs_in_use", [](const PyrrhaQueues& q, int) { return q.iqs_in_use(); }},
    RowRead{"iqs_paused", [](const PyrrhaQueues& q, int) { return q.iqs_paused(); }},
    RowRead{"iqs_soft_merging", [](const PyrrhaQueues& q, int) { return q.iqs_soft_merging(); }},
    RowRead{"iqs_resumed", [](const PyrrhaQueues& q, int) { return q.iqs_resumed(); }},
    RowRead{"max_roots_active", [](const PyrrhaQueues& q, int) { return q.max_roots_active(); }},
    RowRead{"max_iqs_in_use", [](const PyrrhaQueues& q, int) { return q.max_iqs_in_use(); }},
    RowRead{"max_iqs_on_a_port", [](const PyrrhaQueues& q, int) { return q.max_iqs_on_a_port(); }},
    RowRead{"iq_exhaustion", [](const PyrrhaQueues& q, int) { return q.iq_exhaustion(); }},
    RowRead{"loop_guard_ignored",
            [](const PyrrhaQueues& q, int) { return q.loop_guard_ignored(); }},
    RowRead{"table_full_ignored",
            [](const PyrrhaQueues& q, int) { return q.table_full_ignored(); }},
    RowRead{"false_positive_roots",
            [](const PyrrhaQueues& q, int) { return q.false_positive_roots(); }},
    RowRead{"order_waits", [](const PyrrhaQueues& q, int) { return q.order_waits(); }},
    RowRead{"held_packets", [](const PyrrhaQueues& q, int) { return q.held_packets(); }},
    RowRead{"held_bytes", [](const PyrrhaQueues& q, int) { return q.held_bytes_total(); }},
};

constexpr bool reads_in_step() {
  if (kRowReads.size() != kPyrrhaSwitchCounters.size()) return false;
  for (size_t i = 0; i < kRowReads.size(); ++i)
    if (kRowReads[i].name != kPyrrhaSwitchCounters[i].counter.name) return false;
  return true;
}
static_assert(reads_in_step(), "one read for each row of kPyrrhaSwitchCounters, in its order");

}  // namespace

void pyrrha_switch_counters(const SwitchNode& node, PyrrhaReader reader,
                            const PyrrhaCounterSink& sink) {
  const PyrrhaQueues* queues = node.fwd().pyrrha();
  if (!queues) return;
  for (size_t i = 0; i < kPyrrhaSwitchCounters.size(); ++i) {
    const PyrrhaSwitchCounter& row = kPyrrhaSwitchCounters[i];
    if (reader == PyrrhaReader::kLive || row.reader == PyrrhaReader::kAnyThread)
      sink(row, kRowReads[i].read(*queues, node.ports()));
  }
}

uint64_t pyrrha_held_bytes(const SwitchNode& node) {
  const PyrrhaQueues* queues = node.fwd().pyrrha();
  return queues ? queues->held_bytes_total() : 0;
}

}  // namespace fcswitch

#pragma once
// Pyrrha's counters and gauges of one switch (Pyrrha §4; issue 20), as every report lists
// them: what FWD's PyrrhaQueues publishes (switch/fwd/pyrrha_queues.h), and what its queues hold.
// One table per switch, not per port: a switch has one congestion-root table. The switch
// report (text and JSON), /metrics, the lab's summary.json and the metrics catalogue take
// names, kinds, help, labels and JSON keys from this table (fc/counter_descriptor.h); how each
// row is read is next to pyrrha_switch_counters(), checked row by row against the table by
// name when it is compiled. The table itself needs no DPDK: the catalogue is built without it.
//
// Three groups of rows are series of a labelled family: the messages sent and those received,
// by `kind` (pyrrha::kMessageKindNames), and the IQs in use, by `state`; in JSON each group is
// an object by label value ("messages_sent": {"pause": …, "resume": …, …}). The states are the
// three an IQ in use is in (CongestionRootTable::gauges()): they partition iqs_in_use, so that
// sum(fcswitch_pyrrha_iqs) is the IQs in use, as Prometheus' naming practice asks of a label
// ("the sum() or the avg() over all dimensions of a given metric should be meaningful",
// prometheus.io, Metric and label naming). iqs_in_use has a family of its own.

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "fc/counter_descriptor.h"
#include "pyrrha/pyrrha_message.h"

namespace fcswitch {

class SwitchNode;

// Which rows a reader takes. Every row is an OwnedGauge FWD writes, so any thread may read any.
enum class PyrrhaReader : uint8_t {
  kAnyThread,  // what FWD publishes now and then: the lab's summary.json takes these
  // The queues' live state too (the packets and bytes they hold, written as they change):
  // /metrics and the report take it; the lab's summary, written once the network is taken
  // apart, leaves it out (pyrrha.csv samples it during the run). As a reader: every row.
  kLive,
};

struct PyrrhaSwitchCounter {
  // name: the row's own (the text report's key, the catalogue's); family: its /metrics family.
  fc::CounterDescriptor counter;
  // A series of a labelled family: the JSON object its family's series share in the report and
  // summary.json (`group`: {label_value: value, …}), and the label that sets it apart from the
  // others in /metrics (`kind`, `state`). All empty: the row is the family's one series per
  // switch, and its JSON key is its name.
  std::string_view group;
  std::string_view label_name;
  std::string_view label_value;
  PyrrhaReader reader = PyrrhaReader::kAnyThread;
};

namespace pyrrha_rows {

constexpr PyrrhaSwitchCounter row(fc::CounterDescriptor counter,
                                  PyrrhaReader reader = PyrrhaReader::kAnyThread) {
  return {counter, {}, {}, {}, reader};
}
constexpr PyrrhaSwitchCounter sent(pyrrha::MessageKind kind, std::string_view name) {
  return {fc::counter(name, "fcswitch_pyrrha_messages_sent_total",
                      "Pyrrha messages this switch sent, by kind (Pyrrha §4.1, §4.4)"),
          "messages_sent", "kind", pyrrha::kMessageKindNames[static_cast<size_t>(kind)]};
}
constexpr PyrrhaSwitchCounter received(pyrrha::MessageKind kind, std::string_view name) {
  return {fc::counter(name, "fcswitch_pyrrha_messages_received_total",
                      "Pyrrha messages this switch received, by kind (Pyrrha §4.1, §4.4)"),
          "messages_received", "kind", pyrrha::kMessageKindNames[static_cast<size_t>(kind)]};
}
constexpr PyrrhaSwitchCounter iqs(std::string_view name, std::string_view state) {
  return {fc::gauge(name, "fcswitch_pyrrha_iqs",
                    "Isolation queues in use over the egress ports, by state: paused (a paused "
                    "root holds it), soft_merging (draining into a new root's, Pyrrha §4.1), "
                    "resumed"),
          "iqs", "state", state};
}

}  // namespace pyrrha_rows

inline constexpr std::array kPyrrhaSwitchCounters = {
    // PAUSE, RESUME and MERGE go upstream, DEALLOC downstream (the authors' ns-3 code;
    // NOTES.md "Pyrrha").
    pyrrha_rows::sent(pyrrha::MessageKind::kPause, "pause_sent"),
    pyrrha_rows::sent(pyrrha::MessageKind::kResume, "resume_sent"),
    pyrrha_rows::sent(pyrrha::MessageKind::kMerge, "merge_sent"),
    pyrrha_rows::sent(pyrrha::MessageKind::kDealloc, "dealloc_sent"),
    pyrrha_rows::received(pyrrha::MessageKind::kPause, "pause_received"),
    pyrrha_rows::received(pyrrha::MessageKind::kResume, "resume_received"),
    pyrrha_rows::received(pyrrha::MessageKind::kMerge, "merge_received"),
    pyrrha_rows::received(pyrrha::MessageKind::kDealloc, "dealloc_received"),
    pyrrha_rows::row(fc::gauge("roots_active", "fcswitch_pyrrha_roots_active",
                               "Congestion roots in this switch's table (Pyrrha §4.1)")),
    pyrrha_rows::row(
        fc::gauge("self_nominated_ports", "fcswitch_pyrrha_self_nominated_ports",
                  "Egress ports of this switch acting as a congestion root (Pyrrha §4.1)")),
    pyrrha_rows::row(fc::gauge("iqs_in_use", "fcswitch_pyrrha_iqs_in_use",
                               "Isolation queues in use over the egress ports (Pyrrha Fig. 7)")),
    pyrrha_rows::iqs("iqs_paused", "paused"),
    pyrrha_rows::iqs("iqs_soft_merging", "soft_merging"),
    pyrrha_rows::iqs("iqs_resumed", "resumed"),
    pyrrha_rows::row(fc::gauge("max_roots_active", "fcswitch_pyrrha_roots_active_max",
                               "The most congestion roots in this switch's table at once so far "
                               "(Pyrrha Fig. 7)")),
    pyrrha_rows::row(fc::gauge("max_iqs_in_use", "fcswitch_pyrrha_iqs_in_use_max",
                               "The most isolation queues in use at once so far, over the egress "
                               "ports (Pyrrha Fig. 7)")),
    pyrrha_rows::row(
        fc::gauge("max_iqs_on_a_port", "fcswitch_pyrrha_iqs_on_a_port_max",
                  "The most isolation queues in use at once so far on one egress "
                  "port, the busiest (Pyrrha Fig. 7; max_isolation_queues bounds it)")),
    pyrrha_rows::row(fc::counter("iq_exhaustion", "fcswitch_pyrrha_iq_exhaustion_total",
                                 "Roots that found no free isolation queue on an egress port and "
                                 "shared one in use (Pyrrha §4.5)")),
    pyrrha_rows::row(fc::counter("loop_guard_ignored", "fcswitch_pyrrha_loop_guard_ignored_total",
                                 "PAUSE or MERGE messages naming this switch as the root, ignored "
                                 "(routing-loop guard, Pyrrha §4.5)")),
    pyrrha_rows::row(fc::counter("table_full_ignored", "fcswitch_pyrrha_table_full_ignored_total",
                                 "PAUSE or MERGE messages for a new root ignored: every slot of "
                                 "the congestion-root table was taken")),
    pyrrha_rows::row(
        fc::counter("false_positive_roots", "fcswitch_pyrrha_false_positive_roots_total",
                    "Times a self-nominated root learned of a root beyond it and sent MERGE "
                    "(Pyrrha §4.1)")),
    pyrrha_rows::row(fc::counter("order_waits", "fcswitch_pyrrha_order_waits_total",
                                 "Turns an isolation queue's head waited for older packets of "
                                 "the output queue to leave first (arrival order)")),
    pyrrha_rows::row(fc::gauge("held_packets", "fcswitch_pyrrha_held_packets",
                               "Packets in Pyrrha's output and isolation queues"),
                     PyrrhaReader::kLive),
    pyrrha_rows::row(fc::gauge("held_bytes", "fcswitch_pyrrha_held_bytes",
                               "Bytes in Pyrrha's output and isolation queues, over the ports"),
                     PyrrhaReader::kLive),
};

namespace pyrrha_rows {

// The table's rules, checked when it is compiled: each descriptor follows the counter rules
// (fc::counter_rules), no name twice; a labelled row has a group, a label and its value; rows
// that share a family are series of it, in one group, told apart by one label and declared
// alike (kind, unit, help); a group is one family's and no row's name (JSON keys stay
// unique); a message row is named for its kind.
template <size_t N>
constexpr bool well_formed(const std::array<PyrrhaSwitchCounter, N>& table) {
  for (size_t i = 0; i < N; ++i) {
    const PyrrhaSwitchCounter& a = table[i];
    if (!fc::counter_rules::well_formed(a.counter)) return false;
    if (a.group.empty() != a.label_name.empty() || a.group.empty() != a.label_value.empty())
      return false;
    if (a.label_name == "kind" && !a.counter.name.starts_with(a.label_value)) return false;
    for (size_t j = 0; j < N; ++j) {
      const PyrrhaSwitchCounter& b = table[j];
      if (!a.group.empty() && a.group == b.counter.name) return false;
      if (j >= i) continue;
      if (a.counter.name == b.counter.name) return false;
      if ((a.counter.family == b.counter.family) != (!a.group.empty() && a.group == b.group))
        return false;
      if (a.counter.family != b.counter.family) continue;
      if (a.label_name != b.label_name || a.label_value == b.label_value ||
          a.counter.kind != b.counter.kind || a.counter.unit != b.counter.unit ||
          a.counter.help != b.counter.help)
        return false;
    }
  }
  return true;
}

}  // namespace pyrrha_rows

static_assert(pyrrha_rows::well_formed(kPyrrhaSwitchCounters));

// The rows' descriptors, in table order: what the metrics catalogue holds of them.
inline constexpr auto kPyrrhaCounterDescriptors = [] {
  std::array<fc::CounterDescriptor, kPyrrhaSwitchCounters.size()> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = kPyrrhaSwitchCounters[i].counter;
  return out;
}();

// Receives each row with its value.
using PyrrhaCounterSink = std::function<void(const PyrrhaSwitchCounter& row, uint64_t value)>;

// Where `row`'s value goes in a JSON object of the switch's rows: out[group][label_value] for a
// series of a labelled family, out[name] otherwise. `Json`: nlohmann's (this header does not
// need it).
template <typename Json>
void put_pyrrha_row(Json& out, const PyrrhaSwitchCounter& row, uint64_t value) {
  if (row.group.empty())
    out[std::string(row.counter.name)] = value;
  else
    out[std::string(row.group)][std::string(row.label_value)] = value;
}

// The rows of `node`'s Pyrrha in table order: kAnyThread, those FWD publishes; kLive, all of
// them. Nothing when the switch does not run Pyrrha. Any thread.
void pyrrha_switch_counters(const SwitchNode& node, PyrrhaReader reader,
                            const PyrrhaCounterSink& sink);

// Bytes in Pyrrha's queues over the ports (the held_bytes row), any thread. 0 when the switch
// does not run Pyrrha.
uint64_t pyrrha_held_bytes(const SwitchNode& node);

}  // namespace fcswitch

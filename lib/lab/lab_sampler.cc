#include "lab/lab_sampler.h"

#include <fmt/format.h>

#include <iterator>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "config/config_error.h"

#include "metrics/queue_trace_columns.h"
#include "node/pyrrha_switch_counters.h"

namespace fcswitch::lab {

LabSampler::LabSampler(const LabScenario& scenario, const std::vector<const SwitchNode*>& switches,
                       const FlowSentRecords& sent, const FlowReceivedRecords& received,
                       const TickRate& ticks, uint64_t tail_start_ticks, const std::string& out_dir)
    : scenario_(scenario),
      switches_(switches),
      sent_(sent),
      received_(received),
      ticks_(ticks),
      tail_start_ticks_(tail_start_ticks) {
  SampledSeries series = sampled_series(scenario);
  queues_ = std::move(series.queues);
  transport_flows_ = std::move(series.transport_flows);
  pyrrha_switches_ = std::move(series.pyrrha_switches);
  for (size_t n = 0; n < switches_.size(); ++n) {
    if (!switches_[n]) continue;
    const SwitchNode& node = *switches_[n];
    const pabo::BounceSettings& pabo = node.config().pabo.settings;
    for (int port = 0; port < node.ports(); ++port)
      for (int prio = 0; prio < kNumPriorities; ++prio)
        if (has_priority(node.pabo_priorities(), prio))
          pabo_queues_.push_back({{static_cast<int>(n), port, prio, scenario.nodes[n].name,
                                   node.config().ports[port].name},
                                  pabo.normal_capacity_packets,
                                  pabo.bounce_capacity_packets});
  }
  last_admitted_.assign(queues_.size(), 0);
  tail_sum_.assign(queues_.size(), 0);
  tail_admitted_.assign(queues_.size(), 0);
  last_received_.assign(received_.size(), 0);
  tail_received_.assign(received_.size(), 0);
  if (out_dir.empty()) return;
  writing_ = true;
  if (!transport_flows_.empty()) {
    transports_csv_.open(out_dir + "/transports.csv");
    if (!transports_csv_) throw std::runtime_error("cannot write CSV files in " + out_dir);
    transports_csv_ << "time_s,flow,from,to,rate_bps,window_bytes,retransmissions,cnps\n";
  }
  if (!pabo_queues_.empty()) {
    pabo_csv_.open(out_dir + "/pabo.csv");
    if (!pabo_csv_) throw std::runtime_error("cannot write CSV files in " + out_dir);
    pabo_csv_ << "time_s,node,port,prio,normal_packets,bounce_packets,normal_capacity,"
                 "bounce_capacity\n";
  }
  if (!pyrrha_switches_.empty()) {
    pyrrha_csv_.open(out_dir + "/pyrrha.csv");
    if (!pyrrha_csv_) throw std::runtime_error("cannot write CSV files in " + out_dir);
    pyrrha_csv_ << "time_s,node,roots_active,iqs_in_use,iqs_paused,iqs_soft_merging,held_bytes,"
                   "self_nominated_ports\n";
  }
  queues_csv_.open(out_dir + "/queues.csv");
  flows_csv_.open(out_dir + "/flows.csv");
  if (!queues_csv_ || !flows_csv_) throw std::runtime_error("cannot write CSV files in " + out_dir);
  queues_csv_ << metrics::kQueueTraceHeader;
  flows_csv_ << "time_s,flow,from,to,rx_bps\n";
}

SampledSeries sampled_series(const LabScenario& scenario) {
  SampledSeries out;
  for (size_t n = 0; n < scenario.nodes.size(); ++n) {
    const LabNode& node = scenario.nodes[n];
    if (node.host) continue;
    if (node.config.pyrrha) out.pyrrha_switches.push_back(static_cast<int>(n));
    // Pyrrha's class runs no engine (Pyrrha replaces PFC there) but is lossless and charged
    // to its ingress like the others: sampled too, so its buffer shows (Pyrrha §6, Fig. 14).
    const int pyrrha_prio = node.config.pyrrha ? node.config.pyrrha->priority : -1;
    for (size_t port = 0; port < node.config.ports.size(); ++port) {
      const config::PortConfig& config = node.config.ports[port];
      for (int prio = 0; prio < kNumPriorities; ++prio) {
        const auto* engine = config.flow_control.priorities[prio].engine;
        // "none" makes no gate: nothing to watch there (fc/none_engine.cc).
        if ((engine && engine->name != "none") || prio == pyrrha_prio)
          out.queues.push_back(
              {static_cast<int>(n), static_cast<int>(port), prio, node.name, config.name});
      }
    }
  }
  for (const FlowSpec& flow : scenario.flows)
    if (flow.transport != FlowTransport::kRaw) out.transport_flows.push_back(flow.id);
  return out;
}

namespace {
// The rows of flows.csv, transports.csv and pyrrha.csv: the sampler writes them, csv_bytes
// sizes them (queues.csv's are metrics::queue_trace_row).
template <typename Out>
Out flow_row(Out out, double time_s, uint64_t flow_id, std::string_view from, std::string_view to,
             double rx_bps) {
  return fmt::format_to(out, "{:.6f},{},{},{},{:.0f}\n", time_s, flow_id, from, to, rx_bps);
}
template <typename Out>
Out transport_row(Out out, double time_s, uint64_t flow_id, std::string_view from,
                  std::string_view to, uint64_t rate_bps, uint64_t window_bytes,
                  uint64_t retransmissions, uint64_t cnps) {
  return fmt::format_to(out, "{:.6f},{},{},{},{},{},{},{}\n", time_s, flow_id, from, to, rate_bps,
                        window_bytes, retransmissions, cnps);
}
template <typename Out>
Out pyrrha_row(Out out, double time_s, std::string_view node, uint64_t roots_active,
               uint64_t iqs_in_use, uint64_t iqs_paused, uint64_t iqs_soft_merging,
               uint64_t held_bytes, uint64_t self_nominated_ports) {
  return fmt::format_to(out, "{:.6f},{},{},{},{},{},{},{}\n", time_s, node, roots_active,
                        iqs_in_use, iqs_paused, iqs_soft_merging, held_bytes, self_nominated_ports);
}
// The length of what `write(out)` writes.
template <typename Write>
size_t row_bytes(Write&& write) {
  std::string row;
  write(std::back_inserter(row));
  return row.size();
}

// What a row's values are written as: wide for the most a run writes (a time of hours, a full
// 1 MB buffer, a 100 Gb/s rate, a long-running count), zeros for the least.
struct RowValues {
  double time_s, rate_bps;
  uint64_t count, small, level;
};
constexpr RowValues kWide{3600.123456, 100e9, 1'000'000, 100, 10};
constexpr RowValues kNarrow{0, 0, 0, 0, 0};
}  // namespace

CsvEstimate csv_bytes(const LabScenario& scenario, const SampledSeries& series) {
  const uint64_t samples = scenario.duration_ns / scenario.sample_interval_ns + 1;
  const auto name = [&](int node) -> const std::string& { return scenario.nodes[node].name; };
  // The rows every sample writes, over the run.
  const auto every_sample = [&](const RowValues& v) {
    uint64_t bytes = 0;
    for (const SampledQueue& q : series.queues)
      bytes += metrics::queue_trace_row({v.time_s, q.node_name, q.port_name, q.priority, v.count,
                                         v.rate_bps, v.count, v.level})
                   .size();
    for (int n : series.pyrrha_switches)
      bytes += row_bytes([&](auto out) {
        pyrrha_row(out, v.time_s, name(n), v.small, v.small, v.small, v.small, v.count, v.small);
      });
    return static_cast<double>(samples) * static_cast<double>(bytes);
  };
  // A flow's rows of one sample.
  const auto flow_rows = [&](const FlowSpec& flow, const RowValues& v) {
    size_t bytes = row_bytes([&](auto out) {
      flow_row(out, v.time_s, flow.id, name(flow.src), name(flow.dst), v.rate_bps);
    });
    if (flow.transport != FlowTransport::kRaw)  // as sampled_series finds them
      bytes += row_bytes([&](auto out) {
        transport_row(out, v.time_s, flow.id, name(flow.src), name(flow.dst),
                      static_cast<uint64_t>(v.rate_bps), v.count, v.count, v.count);
      });
    return static_cast<double>(bytes);
  };
  CsvEstimate out{every_sample(kNarrow), every_sample(kWide)};
  // A flow's rows run from its start to the run's end at most (a sized flow's end when it
  // comes whole; LabSampler::has_row), and it has one at least if it starts by the last
  // sample. A closed loop's first flows stand for the one flow each of its hosts has under
  // way at any time; its other flows add a row each, as flows_fct.csv does.
  for (const FlowSpec& flow : scenario.flows) {
    const uint64_t before_start =
        (flow.start_ns + scenario.sample_interval_ns - 1) / scenario.sample_interval_ns;
    if (before_start >= samples) continue;
    out.least_bytes += flow_rows(flow, kNarrow);
    out.most_bytes += static_cast<double>(samples - before_start) * flow_rows(flow, kWide);
  }
  return out;
}

void check_csv_size(const LabScenario& scenario, bool say_size) {
  const SampledSeries series = sampled_series(scenario);
  const uint64_t samples = scenario.duration_ns / scenario.sample_interval_ns + 1;
  const CsvEstimate size = csv_bytes(scenario, series);
  const double limit = static_cast<double>(scenario.csv_limit_bytes);
  const std::string series_text =
      fmt::format("{} samples of {} series", samples, series.queues.size() + scenario.flows.size());
  if (size.least_bytes > limit)
    throw config::ConfigError({fmt::format(
        "{}: lab.sample_interval: expected samples whose CSV stays within lab.csv_limit ({} "
        "bytes), found {} ns over {} ns: {}, at least about {:.1f} MB of CSV; sample less "
        "often, or raise csv_limit",
        scenario.sample_interval_place, scenario.csv_limit_bytes, scenario.sample_interval_ns,
        scenario.duration_ns, series_text, size.least_bytes / 1e6)});
  if (!say_size) return;
  // How far it goes between the two depends on when the flows end: the sampler stops the
  // files at the limit should they reach it.
  std::string what = fmt::format("{}, {:.1f} to {:.1f} MB of CSV", series_text,
                                 size.least_bytes / 1e6, size.most_bytes / 1e6);
  if (size.most_bytes > limit)
    what += fmt::format(" (the files stop at lab.csv_limit, {} bytes, should they reach it)",
                        scenario.csv_limit_bytes);
  // Worth a word at the default log level once it is more than a plot's worth.
  spdlog::log(size.most_bytes > 100e6 ? spdlog::level::warn : spdlog::level::info, "{}", what);
}

uint64_t LabSampler::admitted(size_t i) const {
  const SampledQueue& q = queues_[i];
  return switches_[q.node]->fwd().admitted_bytes(q.port, q.priority);
}

bool LabSampler::has_row(size_t f, uint64_t now_ns, bool ended) const {
  return !ended && scenario_.flows[f].start_ns <= now_ns;
}

void LabSampler::sample(uint64_t now) {
  const double interval_s =
      now > last_ticks_ ? static_cast<double>(now - last_ticks_) / static_cast<double>(ticks_.hz)
                        : 0;
  // A flow starts by this sample iff ticks_.from_ns(start_ns) <= now (from_ns rounds up).
  const uint64_t now_ns = ticks_.to_ns(now);
  const double time_s = static_cast<double>(now_ns) / 1e9;
  const bool in_tail = now >= tail_start_ticks_;
  for (size_t i = 0; i < queues_.size(); ++i) {
    const SampledQueue& q = queues_[i];
    const uint64_t occupancy = switches_[q.node]->ingress_occupancy_bytes(q.port, q.priority);
    const uint64_t bytes = admitted(i);
    const double rate = interval_s > 0 ? (bytes - last_admitted_[i]) * 8.0 / interval_s : 0;
    last_admitted_[i] = bytes;
    if (in_tail) tail_sum_[i] += static_cast<double>(occupancy);
    if (writing_)
      rows_.queues +=
          metrics::queue_trace_row({time_s, q.node_name, q.port_name, q.priority, occupancy, rate,
                                    switches_[q.node]->tx(q.port).pause_frames_sent(q.priority),
                                    switches_[q.node]->tx(q.port).feedback_level(q.priority)});
  }
  if (in_tail) ++tail_samples_;
  // Flows a closed loop started since the last sample (lab/closed_loops.h).
  for (size_t f = last_received_.size(); f < received_.size(); ++f)
    if (scenario_.flows[f].transport != FlowTransport::kRaw)
      transport_flows_.push_back(static_cast<int>(f));
  last_received_.resize(received_.size(), 0);
  rows_ended_.resize(received_.size(), false);
  for (size_t f = 0; f < received_.size(); ++f) {
    const uint64_t bytes = received_[f].bytes.read();
    const double rate = interval_s > 0 ? (bytes - last_received_[f]) * 8.0 / interval_s : 0;
    const FlowSpec& flow = scenario_.flows[f];
    // Ended by the last sample: the row of the interval it ended in is written already.
    rows_ended_[f] = flow.received_whole(last_received_[f]);
    last_received_[f] = bytes;
    if (!has_row(f, now_ns, rows_ended_[f])) continue;
    if (writing_)
      flow_row(std::back_inserter(rows_.flows), time_s, f, scenario_.nodes[flow.src].name,
               scenario_.nodes[flow.dst].name, rate);
  }
  if (writing_ && transports_csv_.is_open())
    for (int f : transport_flows_) {
      if (!has_row(static_cast<size_t>(f), now_ns, rows_ended_[static_cast<size_t>(f)])) continue;
      const FlowSpec& flow = scenario_.flows[f];
      const FlowSent& s = sent_[f];
      transport_row(std::back_inserter(rows_.transports), time_s, static_cast<uint64_t>(f),
                    scenario_.nodes[flow.src].name, scenario_.nodes[flow.dst].name,
                    s.rate_bps.read(), s.window_bytes.read(), s.retransmissions.read(),
                    s.cnps.read());
    }
  if (pabo_csv_.is_open()) sample_pabo(time_s);
  if (writing_ && pyrrha_csv_.is_open()) sample_pyrrha(time_s);
  if (writing_) write_rows(time_s);
  last_ticks_ = now;
}

void LabSampler::write_rows(double time_s) {
  const size_t bytes = rows_.bytes();
  if (csv_written_bytes_ + bytes > scenario_.csv_limit_bytes) {
    // Every file ends at the sample before this one, so that they cover the same time.
    writing_ = false;
    csv_stopped_at_s_ = time_s;
    for (std::ofstream* f : {&queues_csv_, &flows_csv_, &transports_csv_, &pabo_csv_, &pyrrha_csv_})
      if (f->is_open()) f->close();
    spdlog::warn(
        "CSV series stopped at {:.6f} s: this sample's {} bytes would take them past "
        "lab.csv_limit ({} bytes, {} written); the summary covers the whole run",
        time_s, bytes, scenario_.csv_limit_bytes, csv_written_bytes_);
  } else {
    queues_csv_ << rows_.queues;
    flows_csv_ << rows_.flows;
    if (transports_csv_.is_open()) transports_csv_ << rows_.transports;
    if (pabo_csv_.is_open()) pabo_csv_ << rows_.pabo;
    if (pyrrha_csv_.is_open()) pyrrha_csv_ << rows_.pyrrha;
    csv_written_bytes_ += bytes;
  }
  rows_.clear();
}

void LabSampler::sample_pyrrha(double time_s) {
  for (int n : pyrrha_switches_) {
    const SwitchNode& node = *switches_[n];
    const PyrrhaQueues& q = *node.fwd().pyrrha();
    // The lab's one thread polls FWD too: the bytes FWD keeps for itself may be read here.
    pyrrha_row(std::back_inserter(rows_.pyrrha), time_s, scenario_.nodes[n].name, q.roots_active(),
               q.iqs_in_use(), q.iqs_paused(), q.iqs_soft_merging(), pyrrha_held_bytes(node),
               q.self_nominated_ports());
  }
}

void LabSampler::sample_pabo(double time_s) {
  for (SampledPaboQueue& p : pabo_queues_) {
    const SampledQueue& q = p.queue;
    const SwitchNode& node = *switches_[q.node];
    const uint64_t normal = node.pabo_queue_packets(q.port, q.priority, false);
    const uint64_t bounce = node.pabo_queue_packets(q.port, q.priority, true);
    const bool holds = normal || bounce;
    if (writing_ && (holds || p.held))
      fmt::format_to(std::back_inserter(rows_.pabo), "{:.6f},{},{},{},{},{},{},{}\n", time_s,
                     q.node_name, q.port_name, q.priority, normal, bounce,
                     p.normal_capacity_packets, p.bounce_capacity_packets);
    p.held = holds;
  }
}

void LabSampler::mark_tail(uint64_t now) {
  tail_marked_ = true;
  tail_at_ = now;
  for (size_t i = 0; i < queues_.size(); ++i) tail_admitted_[i] = admitted(i);
  tail_received_.resize(received_.size());
  for (size_t f = 0; f < received_.size(); ++f) tail_received_[f] = received_[f].bytes.read();
}

double LabSampler::steady_ingress_bytes(size_t queue) const {
  return tail_samples_ ? tail_sum_[queue] / static_cast<double>(tail_samples_) : 0;
}

}  // namespace fcswitch::lab

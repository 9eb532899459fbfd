#include "scenario/workload_flows.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

#include "core/tick_rate.h"
#include "scenario/closed_loops.h"
#include "workload/incast_schedule.h"
#include "workload/other_rack_host_picker.h"
#include "workload/poisson_arrivals.h"
#include "workload/uniform_random.h"

namespace fcswitch::lab {

namespace {

// Streams of one entry: `stream` tells apart the RNGs drawn for one (entry, host).
std::mt19937_64 rng_for(uint64_t seed, size_t entry, uint64_t offset, uint64_t who,
                        uint32_t stream) {
  // std::seed_seq's mixing is specified by the standard: the same streams everywhere.
  std::seed_seq seeds{static_cast<uint32_t>(seed),         static_cast<uint32_t>(seed >> 32),
                      static_cast<uint32_t>(entry),        static_cast<uint32_t>(offset),
                      static_cast<uint32_t>(offset >> 32), static_cast<uint32_t>(who),
                      static_cast<uint32_t>(who >> 32),    stream};
  return std::mt19937_64(seeds);
}

workload::OtherRackHostPicker picker_of(const std::vector<int>& taking_part,
                                        const HostInfo& hosts) {
  std::vector<int> racks;
  for (int h : taking_part) racks.push_back(hosts.hosts[h].rack);
  return workload::OtherRackHostPicker(std::move(racks));  // throws with one rack
}

FlowSpec flow_of(const WorkloadSpec& spec, int src_node, int dst_node, uint64_t size_bytes,
                 uint64_t start_ns) {
  FlowSpec flow;
  flow.src = src_node;
  flow.dst = dst_node;
  flow.dscp = spec.dscp;
  flow.frame_bytes = spec.frame_bytes;
  flow.transport = spec.transport;
  flow.size_bytes = size_bytes;
  flow.start_ns = start_ns;
  return flow;
}

// Pyrrha §6 background, GFC §6.2.3 destinations: per host, Poisson arrivals at
// λ = load × link rate / (8 × mean size), each flow to a host of another rack.
void expand_poisson(const WorkloadSpec& spec, size_t entry, const HostInfo& hosts, uint64_t stop_ns,
                    uint64_t seed, std::vector<FlowSpec>& out) {
  if (!spec.sizes) throw std::invalid_argument("expand_workloads: a poisson workload needs a CDF");
  if (!(spec.load > 0) || spec.load > 1)
    throw std::invalid_argument("expand_workloads: load must be in (0, 1]");
  const std::vector<int> taking_part = workload_participants(spec, hosts);
  const workload::OtherRackHostPicker picker = picker_of(taking_part, hosts);
  for (size_t i = 0; i < taking_part.size(); ++i) {
    const WorkloadHost& host = hosts.hosts[taking_part[i]];
    const double rate_per_s = workload::poisson_rate_per_s(
        spec.load, static_cast<double>(host.link_rate_bps), spec.sizes->mean_bytes());
    std::mt19937_64 arrival_seeds = rng_for(seed, entry, spec.seed_offset, host.node, 0);
    workload::PoissonArrivals arrivals(rate_per_s, arrival_seeds(),
                                       static_cast<int64_t>(spec.start_ns));
    std::mt19937_64 rng = rng_for(seed, entry, spec.seed_offset, host.node, 1);
    for (int64_t at = arrivals.next_ns(); static_cast<uint64_t>(at) < stop_ns;
         at = arrivals.next_ns()) {
      const int dst = taking_part[picker.pick(static_cast<int>(i), rng)];
      out.push_back(flow_of(spec, host.node, hosts.hosts[dst].node,
                            spec.sizes->sample_whole_bytes(workload::uniform01(rng)),
                            static_cast<uint64_t>(at)));
    }
  }
}

// Indices into `taking_part` of the incast destinations, in turn: `to`, or (Pyrrha's code) the
// first host of each rack, racks in ascending order.
std::vector<int> destinations_of(const WorkloadSpec& spec, const HostInfo& hosts,
                                 const std::vector<int>& taking_part) {
  std::vector<int> destinations;
  if (spec.to.empty()) {
    // Pyrrha's code: the first host of rack i mod racks.
    std::vector<std::pair<int, int>> first_of_rack;  // (rack, index)
    for (size_t i = 0; i < taking_part.size(); ++i) {
      const int rack = hosts.hosts[taking_part[i]].rack;
      if (std::none_of(first_of_rack.begin(), first_of_rack.end(),
                       [&](const auto& r) { return r.first == rack; }))
        first_of_rack.emplace_back(rack, static_cast<int>(i));
    }
    std::sort(first_of_rack.begin(), first_of_rack.end());
    for (const auto& [rack, index] : first_of_rack) destinations.push_back(index);
  } else {
    for (const std::string& name : spec.to) {
      const auto found = std::find(taking_part.begin(), taking_part.end(), hosts.find(name));
      if (found == taking_part.end())
        throw std::invalid_argument("expand_workloads: incast destination " + name +
                                    " is not among the workload's hosts");
      destinations.push_back(static_cast<int>(found - taking_part.begin()));
    }
  }
  return destinations;
}

// Pyrrha §6 incastmix: incast i at start + i × period to destination i mod |to|, drawn by
// lib/workload's incast_schedule one incast at a time, so that a given period is kept exactly.
void expand_incast(const WorkloadSpec& spec, size_t entry, const HostInfo& hosts, uint64_t stop_ns,
                   uint64_t seed, std::vector<FlowSpec>& out) {
  const std::vector<int> taking_part = workload_participants(spec, hosts);
  const workload::OtherRackHostPicker picker = picker_of(taking_part, hosts);
  const std::vector<int> destinations = destinations_of(spec, hosts, taking_part);
  workload::IncastParams params;
  params.senders = spec.senders;
  if (spec.size_bytes) {
    params.min_mtus = params.max_mtus = 1;
    params.mtu_payload_bytes = static_cast<uint32_t>(spec.size_bytes);
  } else {
    params.min_mtus = spec.min_mtus;
    params.max_mtus = spec.max_mtus;
    params.mtu_payload_bytes = spec.frame_bytes;  // the lab's sizes count whole frames
  }
  params.load = 1;  // unused: the period is given below, one incast at a time
  params.jitter_ns = static_cast<int64_t>(spec.jitter_ns);
  params.incasts = 1;
  const uint64_t period_ns = incast_period_of(spec, hosts);
  for (uint64_t i = 0; spec.start_ns + i * period_ns < stop_ns; ++i) {
    params.start_ns = static_cast<int64_t>(spec.start_ns + i * period_ns);
    const std::vector<int> to{destinations[i % destinations.size()]};
    std::mt19937_64 seeds = rng_for(seed, entry, spec.seed_offset, i, 2);
    for (const workload::Incast& incast : workload::incast_schedule(params, to, picker, seeds()))
      for (const workload::FlowRequest& f : incast.flows)
        out.push_back(flow_of(spec, hosts.hosts[taking_part[f.source_host]].node,
                              hosts.hosts[taking_part[f.destination_host]].node, f.size_bytes,
                              static_cast<uint64_t>(f.start_ns)));
  }
}

// Pyrrha Fig. 7's stress test: every sender starts `flows` flows of `size` at `start`, each to
// a destination of `to` outside its rack, drawn uniformly from its own stream.
void expand_burst(const WorkloadSpec& spec, size_t entry, const HostInfo& hosts, uint64_t seed,
                  std::vector<FlowSpec>& out) {
  std::vector<int> destinations;
  for (const std::string& name : spec.to) destinations.push_back(hosts.find(name));
  for (int s : burst_senders(spec, hosts)) {
    const WorkloadHost& sender = hosts.hosts[s];
    std::vector<int> reachable;
    for (int d : destinations)
      if (hosts.hosts[d].rack != sender.rack) reachable.push_back(d);
    if (reachable.empty())
      throw std::invalid_argument("expand_workloads: no destination outside " + sender.name +
                                  "'s rack");
    std::mt19937_64 rng = rng_for(seed, entry, spec.seed_offset, sender.node, 3);
    for (int f = 0; f < spec.flows_per_host; ++f) {
      const int d = reachable[workload::uniform_index(rng, reachable.size())];
      out.push_back(
          flow_of(spec, sender.node, hosts.hosts[d].node, spec.size_bytes, spec.start_ns));
    }
  }
}

// GFC §6.2.3's closed loop: every host's first flow at `start`; the run makes the rest.
void expand_closed_loop(const WorkloadSpec& spec, size_t entry, const HostInfo& hosts,
                        uint64_t stop_ns, uint64_t seed, std::vector<ClosedLoopSpec>& loops,
                        std::vector<FlowSpec>& out) {
  if (!spec.sizes)
    throw std::invalid_argument("expand_workloads: a closed-loop workload needs a CDF");
  ClosedLoopSpec loop;
  loop.sizes = spec.sizes;
  for (int h : workload_participants(spec, hosts)) {
    loop.nodes.push_back(hosts.hosts[h].node);
    loop.racks.push_back(hosts.hosts[h].rack);
  }
  loop.seed = rng_for(seed, entry, spec.seed_offset, 0, 4)();
  loop.start_ns = spec.start_ns;
  loop.stop_ns = stop_ns;
  if (spec.start_ns >= stop_ns) return;  // starts after the run: nothing
  const std::vector<FlowSpec> first =
      closed_loop_first_flows(loop, static_cast<int>(loops.size()), flow_of(spec, -1, -1, 0, 0));
  out.insert(out.end(), first.begin(), first.end());
  loops.push_back(std::move(loop));
}

}  // namespace

uint64_t incast_period_of(const WorkloadSpec& spec, const HostInfo& hosts) {
  if (spec.period_ns) return spec.period_ns;
  if (!(spec.load > 0) || spec.load > 1 || spec.senders < 1)
    throw std::invalid_argument("expand_workloads: an incast needs senders and a period or load");
  // The slowest destination's link: no destination is loaded above `load`.
  const std::vector<int> taking_part = workload_participants(spec, hosts);
  uint64_t rate_bps = UINT64_MAX;
  for (int d : destinations_of(spec, hosts, taking_part))
    rate_bps = std::min(rate_bps, hosts.hosts[taking_part[d]].link_rate_bps);
  workload::IncastParams params;
  params.senders = spec.senders;
  params.min_mtus = spec.size_bytes ? 1 : spec.min_mtus;
  params.max_mtus = spec.size_bytes ? 1 : spec.max_mtus;
  params.mtu_payload_bytes =
      spec.size_bytes ? static_cast<uint32_t>(spec.size_bytes) : spec.frame_bytes;
  params.load = spec.load;
  params.link_rate_bps = static_cast<double>(rate_bps);
  const int64_t period_ns = workload::incast_period_ns(params);
  return period_ns < 1 ? 1 : static_cast<uint64_t>(period_ns);
}

std::vector<FlowSpec> expand_workloads(const std::vector<WorkloadSpec>& workloads,
                                       const HostInfo& hosts, uint64_t duration_ns, uint64_t seed,
                                       std::vector<size_t>* workload_of_flow,
                                       std::vector<ClosedLoopSpec>* closed_loops) {
  std::vector<FlowSpec> flows;
  std::vector<ClosedLoopSpec> loops;
  std::vector<size_t> entry_of;
  for (size_t w = 0; w < workloads.size(); ++w) {
    const WorkloadSpec& spec = workloads[w];
    const uint64_t stop_ns = spec.stop_ns.value_or(duration_ns);
    switch (spec.kind) {
      case WorkloadKind::kPoisson:
        expand_poisson(spec, w, hosts, stop_ns, seed, flows);
        break;
      case WorkloadKind::kIncast:
        expand_incast(spec, w, hosts, stop_ns, seed, flows);
        break;
      case WorkloadKind::kBurst:
        expand_burst(spec, w, hosts, seed, flows);
        break;
      case WorkloadKind::kClosedLoop:
        expand_closed_loop(spec, w, hosts, stop_ns, seed, loops, flows);
        break;
    }
    entry_of.resize(flows.size(), w);
  }
  std::vector<size_t> order(flows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return flows[a].start_ns < flows[b].start_ns; });
  std::vector<FlowSpec> sorted;
  sorted.reserve(flows.size());
  if (workload_of_flow) workload_of_flow->clear();
  for (size_t i : order) {
    sorted.push_back(flows[i]);
    if (workload_of_flow) workload_of_flow->push_back(entry_of[i]);
  }
  if (closed_loops) *closed_loops = std::move(loops);
  return sorted;
}

}  // namespace fcswitch::lab

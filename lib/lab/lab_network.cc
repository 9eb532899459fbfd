#include "lab/lab_network.h"

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

#include "core/units.h"
#include "lab/lab_frame_pool.h"
#include "lab/lab_path_oracle.h"
#include "lab/lab_pool_warning.h"
#include "lab/lab_sampler.h"
#include "lab/link_fifo_port_io.h"
#include "lab/routing_cbd.h"
#include "node/ecn_port_counters.h"
#include "node/pabo_port_counters.h"
#include "topology/path_prediction.h"
#include "traffic/flow_frame.h"
#include "traffic/received_flow_result.h"

namespace fcswitch::lab {

namespace {
constexpr unsigned kRxRingFrames = 4096;
// The frames every node sends (PFC, credits): a few per port in flight (TX rings of
// tx_ring_frames, links of a few frames' delay), shared by all nodes.
constexpr size_t kControlMbufsBase = 1023;
constexpr size_t kControlMbufsPerPort = 32;  // the far RX ring: a switch takes it each poll
// A wall-clock poll may come this late and the links still keep their rate (rate_limiter.h).
constexpr uint64_t kWallCatchUpNs = 20'000;

// A locally administered address per lab port (02:FC:node:port), for the flow-control
// frames it sends: unique in the process, stable across runs.
wire::MacAddress lab_port_mac(size_t node, size_t port) {
  return wire::MacAddress{0x02FC'0000'0000ull | (node & 0xFFFF) << 16 | (port & 0xFFFF)};
}

// The counters `report` gives of each queue of `port` in `queues`, summed, in `table`'s order.
template <size_t N, typename Report>
NamedCounts summed_over_queues(const SwitchNode& s, int port, PriorityMask queues,
                               const std::array<fc::CounterDescriptor, N>& table, Report report) {
  std::array<uint64_t, N> sums{};
  for (int queue = 0; queue < kNumPriorities; ++queue) {
    if (!has_priority(queues, queue)) continue;
    size_t i = 0;
    report(s, port, queue, [&](const fc::CounterDescriptor&, uint64_t v) { sums[i++] += v; });
  }
  NamedCounts out;
  for (size_t i = 0; i < N; ++i) out.emplace_back(std::string(table[i].name), sums[i]);
  return out;
}
}  // namespace

LabNetwork::LabNetwork(LabScenario scenario, int threads)
    : scenario_(std::move(scenario)),
      ticks_{is_virtual(scenario_.clock) ? kNsPerSecond : rte_get_tsc_hz()},
      partition_(partition_lab(scenario_, threads)),
      sent_(scenario_.flows.size()),
      received_(scenario_.flows.size()),
      frame_capacity_(network_frame_capacity(scenario_)) {
  try {
    build();
    if (scenario_.clock == LabClock::kVirtual) build_schedules();
  } catch (...) {
    release();
    throw;
  }
}

namespace {
constexpr unsigned kDataPoolCache = 256;
constexpr unsigned kControlPoolCache = 64;

// A pool of `mbufs` as one thread sees it, on `threads`: each other thread's mempool cache may
// hold up to 1.5 times its size of free mbufs (DPDK's flush threshold) that this thread cannot
// take. So many more, and an allocation fails on several threads only where it would on one
// (only a carved mbuf costs memory: lab_frame_pool.h).
unsigned pool_for_threads(size_t mbufs, unsigned cache, int threads) {
  return static_cast<unsigned>(mbufs + static_cast<size_t>(threads - 1) * cache * 3 / 2);
}
}  // namespace

void LabNetwork::build() {
  data_pool_ = create_lab_frame_pool(
      "lab_data", pool_for_threads(scenario_.mbufs, kDataPoolCache, partition_.parts),
      kDataPoolCache);
  const size_t n = scenario_.nodes.size();
  size_t ports = 0;
  for (const LabNode& node : scenario_.nodes) {
    first_port_.push_back(ports);
    ports += node.config.ports.size();
    static_fib_.push_back(node.static_fib);
  }
  routes_ = scenario_.routing.initial;
  // A copy of the routes for Pyrrha's oracles (at k = 16, 20 MB), where a switch runs it.
  if (std::any_of(scenario_.nodes.begin(), scenario_.nodes.end(),
                  [](const LabNode& node) { return node.config.pyrrha.has_value(); })) {
    pyrrha_paths_ = std::make_shared<LabPathIndex>(scenario_.routing);
    pyrrha_paths_->refresh(routes_, static_fib_);
  }
  // Control frames carry at most 128 bytes (switch/control_pool.cc), as lab frames do: from a
  // pool of the same kind, which holds the few in flight rather than a pool's worth of pages
  // (a fat-tree of k = 16 has 6 144 ports: 90 MB).
  control_pool_ =
      create_lab_frame_pool("lab_control",
                            pool_for_threads(kControlMbufsBase + kControlMbufsPerPort * ports,
                                             kControlPoolCache, partition_.parts),
                            kControlPoolCache, kLabControlBufferBytes);
  rings_.resize(n);
  switches_.resize(n);
  hosts_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    LabNode& node = scenario_.nodes[i];
    node.config.rings_of_one_thread = true;  // its tasks and samples: one thread at a time
    for (size_t p = 0; p < node.config.ports.size(); ++p) {
      const std::string base = fmt::format("{}_{}", node.name, p);
      // The far end's RX ring holds 4095, as the ring ethdevs the lab used before did.
      rings_[i].push_back(PortRings{std::make_unique<LinkFifo>(kRxRingFrames - 1),
                                    std::make_unique<LinkFifo>(scenario_.tx_ring_frames)});
      node.config.ports[p].device = "lab:" + base;  // not an ethdev: the rings themselves
    }
    const auto io = [&](size_t p) {
      return std::make_unique<LinkFifoPortIo>(rings_[i][p].in.get(), rings_[i][p].out.get());
    };
    if (node.host) {
      hosts_[i] =
          std::make_unique<TrafficHost>(node, io(0), data_pool_, control_pool_, ticks_, received_);
    } else {
      node.config.mbufs_from_links = true;
      std::vector<NodePort> ports;
      for (size_t p = 0; p < node.config.ports.size(); ++p) {
        const auto& mac = node.config.ports[p].mac;
        const uint32_t mtu = scenario_.nodes[i].config.ports[p].mtu;
        ports.push_back(NodePort{io(p), mac ? *mac : lab_port_mac(i, p), false, mtu ? mtu : 1500});
      }
      std::shared_ptr<const PyrrhaPathOracle> oracle;
      if (node.config.pyrrha) {
        const int sw = scenario_.routing.topology_switch[i];
        if (!routes_ || sw < 0)
          throw std::runtime_error(fmt::format(
              "{}: [pyrrha] predicts paths from the lab's routes: it needs [topology] routing = "
              "\"shortest\" or \"updown\"",
              node.name));
        // Root ids name the topology's switches (Pyrrha §4.1: switch-id:port-id).
        node.config.pyrrha->switch_id = static_cast<uint32_t>(sw);
        oracle = std::make_shared<LabPathOracle>(pyrrha_paths_, sw);
      }
      node.config.count_queued_from = true;  // the deadlock detector's wait-for edges
      switches_[i] = std::make_unique<SwitchNode>(node.config, ticks_.hz, std::move(ports),
                                                  control_pool_, oracle);
      node.config.fib = {};  // in the switch's L2Fib now; routes change from static_fib_
    }
  }
  const uint64_t catch_up = scenario_.clock == LabClock::kWall ? ticks_.from_ns(kWallCatchUpNs) : 0;
  for (const LabLinkSpec& spec : scenario_.links) {
    // Pyrrha is hop by hop (Pyrrha §4.4): an end without it neither sends its PAUSEs nor obeys
    // the other's, so its priority runs without flow control on that link.
    const auto& pa = scenario_.nodes[spec.a.node].config.pyrrha;
    const auto& pb = scenario_.nodes[spec.b.node].config.pyrrha;
    if (pa.has_value() != pb.has_value() || (pa && pa->priority != pb->priority))
      spdlog::warn(
          "link {} - {}: Pyrrha {} at one end and {} at the other: no flow control "
          "between them on its priority",
          scenario_.port_name(spec.a), scenario_.port_name(spec.b),
          pa ? fmt::format("on priority {}", pa->priority) : "off",
          pb ? fmt::format("on priority {}", pb->priority) : "off");
    // Both ends count the same Ethernet overhead: the a end's port says how much.
    const auto& port = scenario_.nodes[spec.a.node].config.ports[spec.a.port];
    const LabLinkParams params{
        spec.rate_bps, spec.delay_ns,
        shaping::WireFraming{port.wire_overhead_bytes, kEthernetMinFrameBytes}, catch_up,
        data_pool_,
        // Its ends in two parts: the receiving end may run a window behind.
        partition_.part_of_node[spec.a.node] == partition_.part_of_node[spec.b.node]
            ? 0
            : ticks_.from_ns(partition_.lookahead_ns)};
    links_.push_back(std::make_unique<LabLink>(rings_[spec.a.node][spec.a.port].out.get(),
                                               rings_[spec.b.node][spec.b.port].in.get(), params,
                                               ticks_));
    links_.push_back(std::make_unique<LabLink>(rings_[spec.b.node][spec.b.port].out.get(),
                                               rings_[spec.a.node][spec.a.port].in.get(), params,
                                               ticks_));
  }
  for (const FlowSpec& flow : scenario_.flows) start_flow(flow);
  if (!scenario_.closed_loops.empty()) {
    closed_loops_ = std::make_unique<ClosedLoops>(scenario_.closed_loops);
    for (const auto& host : hosts_)
      if (host)
        host->sink().set_on_complete(
            [this](uint32_t flow, uint64_t now) { next_closed_loop_flow(flow, now); });
  }
  for (size_t i = 0; i < n; ++i) {
    if (switches_[i])
      for (const auto& lcore : switches_[i]->lcore_tasks())
        for (Task* t : lcore) tasks_.push_back(t);
    if (hosts_[i])
      for (Task* t : hosts_[i]->tasks()) tasks_.push_back(t);
  }
}

ScheduledNode LabNetwork::scheduled_node(size_t i) {
  ScheduledNode node;
  using Role = ScheduledTask::Role;
  if (switches_[i]) {
    node.sw = switches_[i].get();
    // lcore_tasks() lists the config's task references, in order.
    const auto& refs = switches_[i]->config().lcores;
    const auto lcores = switches_[i]->lcore_tasks();
    for (size_t l = 0; l < lcores.size(); ++l)
      for (size_t k = 0; k < lcores[l].size(); ++k) {
        Task* t = lcores[l][k];
        const config::TaskRef& ref = refs[l][k];
        if (ref.kind == config::TaskKind::kRx) {
          node.tasks.push_back({.task = t,
                                .input = rings_[i][ref.port].in.get(),
                                .port = ref.port,
                                .role = Role::kReceiver});
        } else if (ref.kind == config::TaskKind::kFwd) {
          node.fwd = static_cast<FwdTask*>(t);
          node.tasks.push_back({.task = t, .role = Role::kConsumer});
        } else {
          node.tasks.push_back({.task = t,
                                .tx = &switches_[i]->tx(ref.port),
                                .port = ref.port,
                                .role = Role::kTransmitter});
        }
      }
    node.tx_wakes = &switches_[i]->tx_wakes();
    node.fwd_inputs = &switches_[i]->fwd_inputs();
  } else {
    node.host = hosts_[i].get();
    for (Task* t : hosts_[i]->tasks()) {
      if (t == &hosts_[i]->rx()) {
        node.tasks.push_back({.task = t,
                              .input = rings_[i][HostSource::kNicPort].in.get(),
                              .role = Role::kReceiver});
      } else {
        node.tasks.push_back(
            {.task = t, .role = t == &hosts_[i]->sink() ? Role::kConsumer : Role::kOther});
      }
    }
  }
  return node;
}

void LabNetwork::build_schedules() {
  const std::vector<int>& part = partition_.part_of_node;
  std::vector<std::vector<ScheduledNode>> nodes(static_cast<size_t>(partition_.parts));
  std::vector<int> local(scenario_.nodes.size());  // a node's index in its part's schedule
  for (size_t i = 0; i < scenario_.nodes.size(); ++i) {
    std::vector<ScheduledNode>& mine = nodes[static_cast<size_t>(part[i])];
    local[i] = static_cast<int>(mine.size());
    mine.push_back(scheduled_node(i));
  }
  std::vector<std::vector<ScheduledLink>> links(nodes.size());
  for (size_t l = 0; l < links_.size(); ++l) {
    // build(): links 2k and 2k+1 are spec k's a→b and b→a.
    const LabLinkSpec& spec = scenario_.links[l / 2];
    const PortRef from = l % 2 == 0 ? spec.a : spec.b;
    const PortRef to = l % 2 == 0 ? spec.b : spec.a;
    const size_t from_part = static_cast<size_t>(part[from.node]);
    const size_t to_part = static_cast<size_t>(part[to.node]);
    LinkFifo* into = rings_[to.node][to.port].in.get();
    auto& out = nodes[from_part][static_cast<size_t>(local[from.node])].out;
    if (out.size() <= static_cast<size_t>(from.port)) out.resize(from.port + 1, {nullptr, -1});
    out[from.port] = {rings_[from.node][from.port].out.get(),
                      static_cast<int>(links[from_part].size())};
    if (from_part == to_part) {
      links[from_part].push_back(
          ScheduledLink{links_[l].get(), local[from.node], from.port, local[to.node], into});
    } else {  // each end in its own part's schedule
      links[from_part].push_back(
          ScheduledLink{links_[l].get(), local[from.node], from.port, -1, nullptr});
      links[to_part].push_back(ScheduledLink{links_[l].get(), -1, -1, local[to.node], into});
    }
  }
  if (nodes.size() > 1) {
    // What the split is, for --log-level info: the parts' nodes and the links between them.
    std::vector<std::string> parts;
    for (size_t p = 0; p < nodes.size(); ++p) {
      std::vector<std::string> names;
      for (size_t i = 0; i < scenario_.nodes.size(); ++i)
        if (static_cast<size_t>(part[i]) == p && !scenario_.nodes[i].host)
          names.push_back(scenario_.nodes[i].name);
      parts.push_back(fmt::format("{} nodes ({} switches: {})", nodes[p].size(), names.size(),
                                  fmt::join(names, " ")));
    }
    spdlog::info("{} threads, lookahead {} ns, {} links between parts; {}", nodes.size(),
                 partition_.lookahead_ns, partition_.links_between, fmt::join(parts, "; "));
  }
  for (size_t p = 0; p < nodes.size(); ++p)
    schedules_.push_back(std::make_unique<LabSchedule>(std::move(nodes[p]), std::move(links[p])));
  part_steps_.resize(nodes.size());
}

LabNetwork::~LabNetwork() {
  release();
}

void LabNetwork::free_frames() {
  for (auto& link : links_) link->discard_in_flight();
  for (auto& s : switches_)
    if (s) s->flush();
  for (auto& h : hosts_)
    if (h) h->flush();
  rte_mbuf* m;
  for (auto& node : rings_)
    for (PortRings& r : node)
      for (LinkFifo* ring : {r.in.get(), r.out.get()})
        if (ring)
          while (ring->dequeue(&m)) rte_pktmbuf_free(m);
}

void LabNetwork::release() {
  schedules_.clear();
  tasks_.clear();
  free_frames();
  links_.clear();
  switches_.clear();  // their ports are closed: the ethdevs released
  hosts_.clear();
  rings_.clear();
  free_lab_frame_pool(data_pool_);
  data_pool_ = nullptr;
  free_lab_frame_pool(control_pool_);
  control_pool_ = nullptr;
}

bool LabNetwork::poll_all(uint64_t now) {
  bool busy = false;
  for (auto& link : links_) busy |= link->poll(now);
  for (Task* t : tasks_) busy |= t->run_once(now);
  return busy;
}

void LabNetwork::settle(uint64_t now) {
  for (int round = 0; poll_all(now); ++round)
    if (round >= kMaxRoundsPerStep)
      throw std::runtime_error(fmt::format("the lab did not settle at tick {}", now));
}

uint64_t LabNetwork::next_action_of_all(uint64_t now) const {
  uint64_t next = kNeverTicks;
  for (const auto& link : links_) next = std::min(next, link->next_event_ticks());
  for (size_t n = 0; n < switches_.size(); ++n) {
    if (hosts_[n]) next = std::min(next, hosts_[n]->next_action_ticks(now));
    if (switches_[n])
      for (size_t p = 0; p < scenario_.nodes[n].config.ports.size(); ++p)
        next = std::min(next, switches_[n]->tx(static_cast<int>(p)).next_action_ticks());
  }
  return next;
}

std::vector<std::pair<std::string, const SwitchNode*>> LabNetwork::switch_nodes() const {
  std::vector<std::pair<std::string, const SwitchNode*>> out;
  for (size_t n = 0; n < switches_.size(); ++n)
    if (switches_[n]) out.emplace_back(scenario_.nodes[n].name, switches_[n].get());
  return out;
}

void LabNetwork::start_flow(const FlowSpec& flow) {
  const FlowFrameSpec frames = frame_spec(flow);
  TrafficHost& src = *hosts_[flow.src];
  src.source().add_flow(flow, make_flow_frame(frames), sent_[flow.id], scenario_.transport,
                        src.root_pauses() ? pyrrha_path(flow) : std::vector<pyrrha::RootId>{});
  if (flow.transport != FlowTransport::kRaw)
    hosts_[flow.dst]->sink().add_transport_flow(flow, frames, scenario_.transport, data_pool_,
                                                ticks_);
  // The end of its FCT starts its host's next one.
  if (flow.closed_loop >= 0) received_[flow.id].complete_at_bytes = flow.size_bytes;
}

void LabNetwork::next_closed_loop_flow(uint32_t finished, uint64_t now) {
  // A copy: the flows grow below.
  const FlowSpec done = scenario_.flows[finished];
  std::optional<FlowSpec> next = closed_loops_->next(done, ticks_.to_ns(now));
  if (!next) return;
  next->id = static_cast<int>(scenario_.flows.size());
  scenario_.flows.push_back(*next);
  sent_.emplace_back();
  received_.emplace_back();
  start_flow(*next);
  // Its host may be idle, with no timer: it starts now.
  if (!schedules_.empty()) schedules_[0]->wake(next->src);  // closed loops: one thread
}

FlowFrameSpec LabNetwork::frame_spec(const FlowSpec& flow) const {
  return FlowFrameSpec{scenario_.nodes[flow.src].mac,
                       scenario_.nodes[flow.dst].mac,
                       lab_node_ip(flow.src),
                       lab_node_ip(flow.dst),
                       flow.dscp,
                       static_cast<uint32_t>(flow.id),
                       flow.frame_bytes,
                       flow.transport == FlowTransport::kDcqcn};  // ECT(0): CE can come back
}

std::vector<std::vector<workload::PathHop>> LabNetwork::flow_paths() const {
  const LabRouting& routing = scenario_.routing;
  std::map<std::pair<int, int>, const LabLinkSpec*> link_at;  // (node, port) → its link
  for (const LabLinkSpec& link : scenario_.links) {
    link_at[{link.a.node, link.a.port}] = &link;
    link_at[{link.b.node, link.b.port}] = &link;
  }
  std::vector<int> node_of_switch(routing.topo.switches(), -1);
  for (size_t n = 0; n < routing.topology_switch.size(); ++n)
    if (routing.topology_switch[n] >= 0)
      node_of_switch[routing.topology_switch[n]] = static_cast<int>(n);
  const auto hop = [](const LabLinkSpec* link) {
    return workload::PathHop{static_cast<double>(link->rate_bps),
                             static_cast<double>(link->delay_ns)};
  };
  std::vector<std::vector<workload::PathHop>> paths;
  for (const FlowSpec& flow : scenario_.flows) {
    std::vector<workload::PathHop>& path = paths.emplace_back();
    const topology::HostTable& hosts = routing.initial->hosts();
    const auto hops = topology::predict_path(*routing.initial, routing.topo,
                                             hosts.find(scenario_.nodes[flow.src].name),
                                             hosts.find(scenario_.nodes[flow.dst].name),
                                             flow_five_tuple(frame_spec(flow)), routing.ecmp_seeds);
    if (hops.empty()) continue;  // unreachable: no ideal FCT
    path.push_back(hop(link_at.at({flow.src, 0})));
    for (const topology::Hop& h : hops)
      path.push_back(hop(link_at.at({node_of_switch[h.sw], h.out_port})));
  }
  return paths;
}

std::vector<pyrrha::RootId> LabNetwork::pyrrha_path(const FlowSpec& flow) const {
  std::vector<pyrrha::RootId> path;
  if (!pyrrha_paths_ || !pyrrha_paths_->table) return path;
  const std::optional<topology::RouteTable>& table = pyrrha_paths_->table;
  const topology::HostTable& hosts = table->hosts();
  // What the switches' path oracles predict from (lab_path_oracle.h): the routes as the
  // switches forward by them, their own routes over the computed ones, with their ECMP hash.
  for (const topology::Hop& h : topology::predict_path(
           *table, scenario_.routing.topo, hosts.find(scenario_.nodes[flow.src].name),
           hosts.find(scenario_.nodes[flow.dst].name), flow_five_tuple(frame_spec(flow)),
           scenario_.routing.ecmp_seeds))
    path.push_back(pyrrha::RootId{static_cast<uint32_t>(h.sw), static_cast<uint16_t>(h.out_port)});
  return path;
}

void LabNetwork::update_pyrrha_paths() {
  for (const FlowSpec& flow : scenario_.flows) {
    // A closed loop's finished flows have left their source: no path to predict for them.
    if (flow.loop_flow_whole(received_[flow.id].bytes.read())) continue;
    if (hosts_[flow.src]->root_pauses())
      hosts_[flow.src]->source().set_pyrrha_path(static_cast<uint32_t>(flow.id), pyrrha_path(flow));
  }
}

bool LabNetwork::apply_events(uint64_t now) {
  bool applied = false;
  for (; next_event_ < scenario_.events.size() &&
         ticks_.from_ns(scenario_.events[next_event_].at_ns) <= now;
       ++next_event_) {
    const LabEvent& event = scenario_.events[next_event_];
    applied = true;
    if (event.kind == LabEvent::Kind::kRoute) {
      replace_static_routes(static_fib_[event.node], event.routes);
      reinstall_routes(event.node);
      if (pyrrha_paths_) pyrrha_paths_->refresh(routes_, static_fib_);
      update_pyrrha_paths();
      spdlog::info("{} ns: {} routes changed", ticks_.to_ns(now), scenario_.nodes[event.node].name);
      continue;
    }
    const bool up = event.kind == LabEvent::Kind::kRestoreLink;
    links_[2 * event.link]->set_up(up);
    links_[2 * event.link + 1]->set_up(up);
    const LabLinkSpec& spec = scenario_.links[event.link];
    for (const PortRef end : {spec.a, spec.b}) {
      if (switches_[end.node]) switches_[end.node]->link_changed(end.port, up);
      if (hosts_[end.node] && up) hosts_[end.node]->link_restored();
    }
    const LabRouting& routing = scenario_.routing;
    spdlog::info("{} ns: link {} - {} {}", ticks_.to_ns(now), scenario_.port_name(spec.a),
                 scenario_.port_name(spec.b), up ? "restored" : "failed");
    if (!routes_) continue;  // static routes: nothing to recompute
    const auto cut = routing.switch_link(spec.a.node, spec.a.port, spec.b.node, spec.b.port);
    if (!cut) continue;  // a host's link: nothing to route around
    std::erase(failed_, *cut);
    if (!up) failed_.push_back(*cut);
    if (!event.reroute) continue;
    routes_ = routing.routes(failed_);
    if (pyrrha_paths_) pyrrha_paths_->refresh(routes_, static_fib_);
    update_pyrrha_paths();  // the roots a rerouted flow crosses are those of its new path
    for (size_t node = 0; node < switches_.size(); ++node)
      if (switches_[node]) reinstall_routes(static_cast<int>(node));
  }
  return applied;
}

void LabNetwork::reinstall_routes(int node) {
  std::vector<config::FibEntry> entries = static_fib_[node];
  if (routes_) {
    const auto routed = scenario_.routing.fib(node, *routes_, fib_macs(entries));
    entries.insert(entries.end(), routed.begin(), routed.end());
  }
  switches_[node]->replace_fib(entries);
}

LabResult LabNetwork::collect(const LabSampler& sampler, uint64_t end) const {
  LabResult r;
  r.scenario = scenario_.name;
  r.clock = clock_name(scenario_.clock);
  r.overrides = scenario_.overrides;
  r.failed_links = scenario_.failed_links;
  r.failure_seed = scenario_.failure_seed;
  r.seed = scenario_.seed;
  r.duration_s = static_cast<double>(scenario_.duration_ns) / 1e9;
  r.clock_steps = clock_steps_;
  const double tail_s =
      static_cast<double>(end - sampler.tail_start_ticks()) / static_cast<double>(ticks_.hz);

  for (const FlowSpec& spec : scenario_.flows) {
    FlowResult f;
    f.id = spec.id;
    f.from = scenario_.nodes[spec.src].name;
    f.to = scenario_.nodes[spec.dst].name;
    f.priority = spec.priority;
    const FlowSent& s = sent_[spec.id];
    const FlowReceived& rx = received_[spec.id];
    f.sent_packets = s.packets.read();
    f.sent_bytes = s.bytes.read();
    add_received(f, rx, ticks_);
    if (spec.transport != FlowTransport::kRaw) {
      f.transport = transport_result(spec.transport, &s, rx);
      f.completed_s = completed_s(spec, s, ticks_);
    }
    if (hosts_[spec.src]->root_pauses()) {
      // An episode still running ends with the run, or with the flow if it stopped first.
      const uint64_t until =
          spec.stop_ns == kNeverTicks ? end : std::min(end, ticks_.from_ns(spec.stop_ns));
      f.pyrrha_blocked_s = static_cast<double>(ticks_.to_ns(pyrrha_blocked_ticks(s, until))) / 1e9;
      f.pyrrha_pauses = s.pyrrha_pauses.read();
    }
    if (scenario_.nodes[spec.src].config.pabo.enabled()) add_bounces(f, rx);
    if (tail_s > 0)
      f.tail_throughput_bps =
          static_cast<double>(f.received_bytes - sampler.tail_received_bytes(spec.id)) * 8.0 /
          tail_s;
    if (spec.size_bytes && f.received_bytes >= spec.size_bytes)
      f.fct_s = static_cast<double>(ticks_.to_ns(rx.last_ticks.read())) / 1e9 -
                static_cast<double>(spec.start_ns) / 1e9;
    r.conservation.generated += f.sent_packets;
    r.conservation.received += f.received_packets + rx.duplicates.read();
    r.flows.push_back(std::move(f));
  }

  const auto& sampled = sampler.queues();
  for (size_t i = 0; i < sampled.size(); ++i) {
    const SampledQueue& q = sampled[i];
    const SwitchNode& node = *switches_[q.node];
    QueueResult out;
    out.node = q.node_name;
    out.port = q.port_name;
    out.priority = q.priority;
    out.max_ingress_bytes = node.max_ingress_occupancy_bytes(q.port, q.priority);
    out.final_ingress_bytes = node.ingress_occupancy_bytes(q.port, q.priority);
    out.steady_ingress_bytes = sampler.steady_ingress_bytes(i);
    if (tail_s > 0)
      out.tail_input_bps = static_cast<double>(node.fwd().admitted_bytes(q.port, q.priority) -
                                               sampler.tail_admitted_bytes(i)) *
                           8.0 / tail_s;
    out.pause_frames_sent = node.tx(q.port).pause_frames_sent(q.priority);
    out.resume_frames_sent = node.tx(q.port).resume_frames_sent(q.priority);
    if (const fc::ResponseTimeMeter* tau = node.tx(q.port).response_time(q.priority)) {
      out.pause_response_samples = tau->samples();
      out.pause_response_p50_ns = tau->quantile_ns(0.5);
      out.pause_response_p99_ns = tau->quantile_ns(0.99);
      out.pause_response_max_ns = tau->max_ns();
    }
    node.tx(q.port).engine_counters(q.priority,
                                    [&](const fc::CounterDescriptor& counter, uint64_t value) {
                                      out.engine.emplace_back(std::string(counter.name), value);
                                    });
    r.queues.push_back(std::move(out));
  }

  // Ports: control frames and drops. Links deliver into node ports in link order.
  for (size_t n = 0; n < scenario_.nodes.size(); ++n) {
    const LabNode& node = scenario_.nodes[n];
    for (size_t p = 0; p < node.config.ports.size(); ++p) {
      PortResult port;
      port.node = node.name;
      port.port = node.config.ports[p].name;
      port.rate_bps = node.config.ports[p].rate_bps;
      if (switches_[n]) {
        const SwitchNode& s = *switches_[n];
        port.control_frames_received = s.rx_control_frames(static_cast<int>(p));
        port.pfc_frames_sent = s.tx(static_cast<int>(p)).pfc_frames_sent();
        port.credit_frames_sent = s.tx(static_cast<int>(p)).credit_frames_sent();
        if (p == 0) r.conservation.flood_copies += s.fwd().flood_copies();
        if (s.pabo_priorities())
          port.pabo = summed_over_queues(s, static_cast<int>(p), s.pabo_priorities(),
                                         kPaboPortCounters, pabo_port_counters);
        if (s.ecn_queues(static_cast<int>(p)))
          port.ecn = summed_over_queues(s, static_cast<int>(p), s.ecn_queues(static_cast<int>(p)),
                                        kEcnPortCounters, ecn_port_counters);
        for (const DropReasonInfo& reason : kDropReasons) {
          const uint64_t count = s.drops(static_cast<int>(p), reason.reason);
          if (!count) continue;
          port.drops.emplace_back(std::string(reason.name), count);
          r.conservation.dropped += is_data_drop(reason.reason) ? count : 0;
          r.lossless_drops += is_lossless_drop(reason.reason) ? count : 0;
        }
      } else {
        TrafficHost& h = *hosts_[n];
        port.control_frames_received =
            h.rx().control_frames() + h.sink().credit_frames() + h.sink().pyrrha_frames();
        port.pfc_frames_sent = h.tx().pfc_frames_sent();
        port.credit_frames_sent = h.tx().credit_frames_sent();
        port.foreign_frames = h.sink().foreign_frames();
        port.source_mbuf_waits = h.source().alloc_failures();
        if (node.config.pabo.enabled()) port.pabo = host_bounce_counts(h.sink());
        if (const pyrrha::HostRootPauses* pauses = h.root_pauses()) {
          using pyrrha::MessageKind;
          port.pyrrha = {{"frames_received", h.sink().pyrrha_frames()},
                         {"pause_received", pauses->received(MessageKind::kPause)},
                         {"resume_received", pauses->received(MessageKind::kResume)},
                         {"merge_received", pauses->received(MessageKind::kMerge)},
                         {"dealloc_received", pauses->received(MessageKind::kDealloc)},
                         {"table_full_ignored", pauses->table_full_ignored()},
                         {"roots_paused_at_end", pauses->roots_paused()}};
        }
        r.conservation.dropped += port.foreign_frames;
        // ACKs and CNPs are frames of the sinks' own, taken by the sources' sinks.
        r.conservation.generated += h.sink().transport_frames_sent();
        r.conservation.received += h.sink().transport_frames_received();
        if (const uint64_t refused = h.sink().transport_frames_refused())
          port.drops.emplace_back("transport_queue_full", refused);
        for (const DropReasonInfo& reason : kDropReasons) {
          const uint64_t count =
              h.rx().drops().read(0, reason.reason) + h.tx().drops().read(0, reason.reason);
          if (!count) continue;
          port.drops.emplace_back(std::string(reason.name), count);
          r.conservation.dropped += is_data_drop(reason.reason) ? count : 0;
        }
      }
      r.ports.push_back(std::move(port));
    }
  }
  for (size_t l = 0; l < links_.size(); ++l) {
    const LabLinkSpec& spec = scenario_.links[l / 2];
    const PortRef to = l % 2 == 0 ? spec.b : spec.a;
    const PortRef from = l % 2 == 0 ? spec.a : spec.b;
    r.ports[first_port_[to.node] + to.port].link_rx_missed += links_[l]->rx_missed();
    r.ports[first_port_[from.node] + from.port].link_down_lost += links_[l]->frames_lost_down();
    r.ports[first_port_[from.node] + from.port].link_frames_sent += links_[l]->frames_delivered();
    r.ports[first_port_[to.node] + to.port].link_frames_received += links_[l]->frames_delivered();
    r.conservation.dropped += links_[l]->data_frames_lost();
    r.packet_hops += links_[l]->frames_delivered();
  }
  r.cbd = routing_cbd(scenario_);
  if (scenario_.routing.initial)
    r.fct = fct_report(scenario_.flows, outcomes_of(r.flows), flow_paths());
  // Every lab flow's frame is a data-pool mbuf until a sink or a drop frees it.
  r.conservation.in_flight = rte_mempool_in_use_count(data_pool_);
  r.pool_mbufs = scenario_.mbufs;
  r.network_frames = frame_capacity_.total();
  return r;
}

void LabNetwork::say_if_pool_ran_out(uint64_t now) {
  for (const auto& host : hosts_)
    if (host && host->source().alloc_failures()) {
      pool_ran_out_ = true;
      spdlog::warn(
          "{:.3f} ms: the pool of {} mbufs ([lab] mbufs) ran out: sources wait for frames to "
          "come back, so from here the run is the pool's, not the scenario's{}; run again with "
          "mbufs = {}",
          static_cast<double>(ticks_.to_ns(now)) / 1e6, scenario_.mbufs,
          schedules_.size() > 1 ? ", and the threads' timing decides which source gets them" : "",
          larger_lab_pool(scenario_.mbufs, frame_capacity_.total()));
      return;
    }
}

void LabNetwork::shut_down(LabResult& result) {
  free_frames();
  result.pool_in_use_after_shutdown =
      rte_mempool_in_use_count(data_pool_) + rte_mempool_in_use_count(control_pool_);
}

}  // namespace fcswitch::lab

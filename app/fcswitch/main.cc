// fcswitch CONFIG.toml [options] [-- EAL options]
// fcswitch selftest CONFIG.toml --from PORT --to PORT [-- EAL options]
// fcswitch selftest CONFIG.toml --links [-- EAL options]
//
// Runs one switch until SIGINT/SIGTERM (or --exit-on-idle / --duration), then stops RX,
// drains, stops the lcores and ports, prints per-port and per-priority counters, and checks
// that every mbuf came back to the mempool. `selftest` checks instead that flow-control
// frames sent out of one port reach software on another (node/control_path_selftest.h), or
// with --links that every port and the port at its cable's other end, on another machine,
// hear each other (node/link_selftest.h).

#include <signal.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli_checks.h"
#include "config/config_error.h"
#include "config/switch_config.h"
#include "crash_report.h"
#include "dpdk/eal_session.h"
#include "dpdk/interrupt_thread_park.h"
#include "dpdk/lcore_runner.h"
#include "dpdk/link_watch.h"
#include "dpdk/tsc_calibration.h"
#include "ethdev_port_rules.h"
#include "gfc_params_command.h"
#include "lab/pyrrha_network.h"
#include "metrics/metrics_exposer.h"
#include "metrics/occupancy_trace.h"
#include "metrics/telemetry_commands.h"
#include "node/control_path_selftest.h"
#include "node/link_selftest.h"
#include "node/stall_watch.h"
#include "node/switch_node.h"
#include "node/switch_report.h"
#include "stop_signals.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

struct Options {
  std::string config_path;
  std::vector<std::string> eal_args;
  bool check_only = false;
  double exit_on_idle_ms = 0;
  double duration_s = 0;
  double drain_timeout_s = 2;
  std::string report_json;
  std::string log_level = "info";
  // selftest
  std::string from_port, to_port;
  bool links = false;
  int timeout_ms = 0;  // 0: 1 s, or 10 s with --links (the machines' processes start in turn)
};

// Runs until a signal, the duration, or (with exit_on_idle) the switch has settled for that
// long. Logs drops at most once a second, when they changed; writes the trace out as it fills.
void run_until_stopped(fcswitch::SwitchNode& node, const Options& options,
                       fcswitch::metrics::OccupancyTrace* trace, fcswitch::StallWatch& stall,
                       fcswitch::dpdk::LinkWatch& links) {
  const auto start = Clock::now();
  bool stall_logged = false;
  auto last_log = start;
  std::string last_drops;
  fcswitch::SwitchProgress quiet_since = node.progress();
  auto quiet_at = Clock::now();
  auto links_read = start - 1s;
  for (;;) {
    if (trace) trace->write_pending();
    if (int sig = fcswitch::app::wait_stop_signal(10ms)) {
      spdlog::info("signal {}: stopping", strsignal(sig));
      return;
    }
    const auto now = Clock::now();
    if (now - links_read >= 100ms || links.changed()) {
      links.poll();
      links_read = now;
    }
    stall.observe(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - start).count()));
    // A stall (packets held, nothing moving) is said once when it reaches a second, and when
    // it ends: in a ring under PFC, the deadlock's evidence from this switch.
    if (!stall_logged && stall.stalled_ns() >= fcswitch::StallWatch::kReportedStallNs) {
      spdlog::warn("stalled: {}", stall.describe());
      stall_logged = true;
    } else if (stall_logged && !stall.stalled()) {
      spdlog::info("moving again");
      stall_logged = false;
    }
    if (options.duration_s > 0 &&
        now - start >= std::chrono::duration<double>(options.duration_s)) {
      spdlog::info("duration reached: stopping");
      return;
    }
    if (now - last_log >= 1s) {
      last_log = now;
      // τ over a port's response_time: said each second while it lasts, with what it breaks.
      for (const std::string& line : node.response_time_budget().check(node))
        spdlog::warn("{}", line);
      if (auto drops = fcswitch::drop_summary(node); drops != last_drops) {
        spdlog::info("drops: {}", drops);
        last_drops = drops;
      }
    }
    if (options.exit_on_idle_ms > 0) {
      const fcswitch::SwitchProgress progress = node.progress();
      // Idle is "nothing moved", whether or not packets are held: a queue waiting for credits
      // or a pause that will not come (a pcap replay sends none) is idle too.
      const auto motion = fcswitch::SwitchNode::motion(quiet_since, progress);
      if (motion == fcswitch::SwitchNode::Motion::kMoved) {
        quiet_since = progress;
        quiet_at = now;
      } else if (motion == fcswitch::SwitchNode::Motion::kStill &&
                 now - quiet_at >=
                     std::chrono::duration<double, std::milli>(options.exit_on_idle_ms)) {
        if (progress.held)
          spdlog::warn(
              "idle for {} ms with {} packets held (queues paused or out of credits): stopping; "
              "what stays held is flushed as shutdown_flush",
              options.exit_on_idle_ms, progress.held);
        else
          spdlog::info("idle for {} ms: stopping", options.exit_on_idle_ms);
        return;
      }
    }
  }
}

// The worker lcore that runs FWD.
size_t fwd_lcore(const fcswitch::config::SwitchConfig& config) {
  for (size_t l = 0; l < config.lcores.size(); ++l)
    for (const auto& task : config.lcores[l])
      if (task.kind == fcswitch::config::TaskKind::kFwd) return l;
  return 0;
}

// RX is stopped; waits until everything queued has left, or the deadline.
bool drain(fcswitch::SwitchNode& node, double timeout_s) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  fcswitch::SwitchProgress before = node.progress();
  while (Clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);  // a control-loop period, not a synchronisation
    fcswitch::SwitchProgress after = node.progress();
    if (fcswitch::SwitchNode::settled(before, after)) return true;
    before = std::move(after);
  }
  return false;
}

int run(const Options& options) {
  fcswitch::config::SwitchConfig config =
      fcswitch::config::load_switch_config(options.config_path, fcswitch::cli::ethdev_port_rules());
  for (const std::string& warning : config.warnings) spdlog::warn("{}", warning);
  // [pyrrha] network: the routes, ECMP seed and onward paths of this switch's node there.
  std::shared_ptr<const fcswitch::PyrrhaPathOracle> pyrrha_paths;
  if (config.pyrrha && config.pyrrha->network) {
    pyrrha_paths = fcswitch::lab::take_pyrrha_network(config);
    spdlog::info(
        "{}: Pyrrha's onward paths predicted from the network {} as its switch {} (switch id "
        "{}): {} FIB entries from its routes, ECMP seed {}",
        config.name, config.pyrrha->network->file, config.pyrrha->network->node,
        config.pyrrha->switch_id, config.fib.size(), config.ecmp_seed);
  }
  spdlog::info(
      "config {}: switch {}, {} ports, layout {} ({} worker lcores), lossless priorities 0x{:02x}",
      config.file, config.name, config.ports.size(), config.layout_name, config.lcores.size(),
      config.lossless_priorities);
  if (options.check_only) {
    // What EAL would be given: CPUs this machine lacks are said, and would refuse a start here.
    if (const auto plan = fcswitch::dpdk::plan_eal(config, options.eal_args);
        !plan.missing_cpus.empty())
      spdlog::warn("{} (a start here would be refused)", plan.missing_cpus);
    std::cout << config.file << ": ok\n";
    return 0;
  }

  const fcswitch::dpdk::EalPlan plan = fcswitch::dpdk::plan_eal(config, options.eal_args);
  if (!plan.missing_cpus.empty()) throw fcswitch::config::ConfigError({plan.missing_cpus});
  if (!plan.oversubscription.empty()) spdlog::warn("{}", plan.oversubscription);
  fcswitch::dpdk::EalSession eal(plan);
  int exit_code = 0;
  {
    // Every tick conversion depends on this rate: checked against CLOCK_MONOTONIC first.
    const auto tsc = fcswitch::dpdk::calibrate_tsc(std::chrono::milliseconds(100));
    fcswitch::SwitchNode node(config, tsc.chosen_hz, pyrrha_paths);
    std::vector<std::vector<fcswitch::Task*>> lcores = node.lcore_tasks();
    std::unique_ptr<fcswitch::metrics::OccupancyTrace> trace;
    if (config.trace) {
      // The sampler shares FWD's lcore: it reads counters only, and FWD's lcore polls often.
      trace = std::make_unique<fcswitch::metrics::OccupancyTrace>(node, *config.trace);
      lcores[fwd_lcore(config)].push_back(trace.get());
      spdlog::info("trace: {} series every {} ns to {}{}", trace->series().size(),
                   config.trace->interval_ns, trace->file(),
                   config.trace->start ? "" : " (waits for /fcswitch/trace,start)");
    }
    // Destroyed before the node: no scrape or telemetry call reads a switch that is gone.
    fcswitch::metrics::TelemetryRegistration telemetry(config.name, node, trace.get());
    std::unique_ptr<fcswitch::metrics::MetricsExposer> exposer;
    if (config.metrics) {
      exposer = std::make_unique<fcswitch::metrics::MetricsExposer>(
          config.metrics->listen(),
          std::vector<fcswitch::metrics::NamedSwitch>{{config.name, &node}});
      spdlog::info("metrics: http://{}:{}/metrics", config.metrics->address, exposer->port());
    }
    // A task polled later than the tightest response_time after its previous poll is τ over
    // budget (Task::note_poll_gap).
    fcswitch::dpdk::LcoreRunner runner(std::move(lcores),
                                       {plan.oversubscribed, plan.idle_sleep_ns,
                                        fcswitch::dpdk::late_poll_ticks(config, tsc.chosen_hz)});
    const auto started = Clock::now();
    runner.start();
    spdlog::info("forwarding on {} worker lcores; SIGINT or SIGTERM stops", config.lcores.size());
    fcswitch::StallWatch stall(node);
    std::vector<uint64_t> link_downs;
    {
      fcswitch::dpdk::LinkWatch links(node.link_watch_ports(), [&](size_t port) {
        node.link_restored(static_cast<int>(port));
      });
      run_until_stopped(node, options, trace.get(), stall, links);
      for (int p = 0; p < node.ports(); ++p) link_downs.push_back(links.downs(p));
    }
    // Before anything stops: from here on a memif peer that stops cannot unmap the rings TX
    // still polls while the switch drains (dpdk/interrupt_thread_park.h).
    fcswitch::dpdk::park_interrupt_thread();
    for (const std::string& line : node.response_time_budget().check(node))
      spdlog::warn("{}", line);  // the last interval, short of a second
    fcswitch::ShutdownCheck check;
    check.stalled_at_stop_ns = stall.stalled_at_stop_ns();
    check.longest_stall_ns = stall.longest_ns();
    check.blocked_at_stop = stall.blocked_at_stop();
    check.link_downs = std::move(link_downs);
    node.stop_rx();
    check.run_seconds = std::chrono::duration<double>(Clock::now() - started).count();
    check.drained = drain(node, options.drain_timeout_s);
    runner.stop();
    if (trace) {
      trace->write_pending();
      spdlog::info("trace: {} samples written to {}, {} lost (ring full)", trace->samples(),
                   trace->file(), trace->samples_lost());
    }
    node.flush();
    node.stop_ports();
    check.mempool_size = node.mempool_size();
    check.mempool_in_use = node.mempool_in_use();
    std::cout << fcswitch::report_text(node, check) << std::flush;
    if (check.mempool_in_use) {
      spdlog::error("{} mbufs did not come back to the mempool", check.mempool_in_use);
      exit_code = 3;
    }
    if (!options.report_json.empty()) {
      std::ofstream out(options.report_json);
      out << fcswitch::report_json(node, check);
      out.close();
      if (!out) {
        // Checked writable at start; a disk that filled since must not pass for a result.
        spdlog::error("cannot write {}: {}", options.report_json, std::strerror(errno));
        exit_code = 4;
      }
    }
  }
  return exit_code;
}

// With the EAL up.
int link_selftest(const Options& options, const fcswitch::config::SwitchConfig& config) {
  const fcswitch::LinkSelftestResult result = fcswitch::run_link_selftest(
      config, std::chrono::milliseconds(options.timeout_ms ? options.timeout_ms : 10000),
      [&] { std::cout << "links: ports started" << std::endl; });
  std::cout << fmt::format("selftest --links, {}\n", config.name) << result.table();
  if (!result.passed()) {
    std::cout << "FAILED: a port did not hear every probe from its peer, or its peer did not "
                 "hear it:\na cable not plugged, the other end's selftest not running, or a "
                 "NIC that consumes\nMAC control frames (on an 82599 the port's profile "
                 "\"ixgbe-82599\", or control_ether_type\n= 0x88B6 on every port).\n";
    return 1;
  }
  std::cout << "passed\n";
  return 0;
}

int selftest(const Options& options) {
  const fcswitch::config::SwitchConfig config =
      fcswitch::config::load_switch_config(options.config_path, fcswitch::cli::ethdev_port_rules());
  const int from = config.port_index(options.from_port);
  const int to = config.port_index(options.to_port);
  if (!options.links && (from < 0 || to < 0 || from == to)) {
    std::cerr << "selftest: --from and --to must name two ports of " << config.file
              << " (or --links: every port with whatever is at its cable's other end)\n";
    return 2;
  }
  const fcswitch::dpdk::EalPlan plan = fcswitch::dpdk::plan_eal(config, options.eal_args);
  if (!plan.missing_cpus.empty()) throw fcswitch::config::ConfigError({plan.missing_cpus});
  fcswitch::dpdk::EalSession eal(plan);
  if (options.links) return link_selftest(options, config);
  const fcswitch::SelftestResult result = fcswitch::run_control_path_selftest(
      config, from, to, std::chrono::milliseconds(options.timeout_ms ? options.timeout_ms : 1000));
  std::cout << fmt::format("selftest {} -> {}\n", options.from_port, options.to_port)
            << result.table();
  const bool none_sent = std::any_of(result.probes.begin(), result.probes.end(),
                                     [](const fcswitch::SelftestProbe& p) { return p.sent == 0; });
  if (none_sent) {
    std::cout << "FAILED: port " << options.from_port
              << " took no frames within the timeout: is its link up (cabled, the peer of a\n"
                 "memif running)?\n";
    return 1;
  }
  if (!result.passed()) {
    std::cout << "FAILED: frames the switch relies on did not reach software. On an 82599, set\n"
                 "the port's profile to \"ixgbe-82599\" (hardware flow control off, MAC control\n"
                 "frames passed up) or move PFC to control_ether_type = 0x88B6.\n";
    return 1;
  }
  std::cout << "passed\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  fcswitch::app::block_stop_signals();
  fcswitch::app::install_crash_report();
  Options options;
  CLI::App app{"fcswitch: a DPDK software switch for lossless-datacenter flow-control research"};
  app.add_option("config", options.config_path, "switch configuration (TOML)");
  app.add_option("eal", options.eal_args, "EAL options, after --");
  app.add_flag("--check", options.check_only, "validate the configuration and exit");
  app.add_option("--exit-on-idle", options.exit_on_idle_ms,
                 "stop once nothing has arrived or moved for this many ms (for pcap replays)")
      ->check(fcswitch::cli::time_in(1e9, "milliseconds"));
  app.add_option("--duration", options.duration_s, "stop after this many seconds (0: no limit)")
      ->check(fcswitch::cli::time_in(1e9, "seconds"));
  app.add_option("--drain-timeout", options.drain_timeout_s,
                 "seconds to let queues empty at shutdown")
      ->check(fcswitch::cli::time_in(3600, "seconds"));
  app.add_option("--report-json", options.report_json,
                 "write the final counters to this file as JSON")
      ->check(fcswitch::cli::writable_file());
  app.add_option("--log-level", options.log_level, "trace, debug, info, warn, error")
      ->check(CLI::IsMember(fcswitch::cli::kLogLevels));
  app.fallthrough();  // --log-level and friends also after the subcommand
  CLI::App* st = app.add_subcommand(
      "selftest", "check that flow-control frames sent out of one port reach software on another");
  st->add_option("config", options.config_path, "switch configuration (TOML)")->required();
  st->add_option("eal", options.eal_args, "EAL options, after --");
  CLI::Option* from =
      st->add_option("--from", options.from_port, "port that sends (name in [[ports]])");
  CLI::Option* to = st->add_option("--to", options.to_port, "port that should receive");
  st->add_flag("--links", options.links,
               "every port exchanges the probes with the port at its cable's other end, where "
               "another machine runs selftest --links too (the testbed's check)")
      ->excludes(from)
      ->excludes(to);
  st->add_option("--timeout", options.timeout_ms,
                 "ms to wait for the frames (default 1000; 10000 with --links)")
      ->check(CLI::Range(1, 3600000));
  fcswitch::app::GfcParamsOptions gfc_params;
  CLI::App* gp = fcswitch::app::add_gfc_params_command(app, gfc_params);
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::from_str(options.log_level));
  if (gp->parsed()) return fcswitch::app::run_gfc_params(gfc_params);
  if (!st->parsed() && options.config_path.empty()) {
    std::cerr << app.help();
    return 2;
  }

  return fcswitch::app::exit_code_of(
      [&] { return st->parsed() ? selftest(options) : run(options); });
}

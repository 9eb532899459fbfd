// fchost CONFIG.toml [--duration S] [--start-at UNIX_S] [--summary FILE] [-- EAL options]
//
// The lab's host on a real port (a testbed server's NIC, or any vdev): its flows leave as the
// config says, paused by PFC, slowed by GFC stages and held by CBFC credits as a lab host is;
// its sink counts what arrives. Runs until --duration from time zero or SIGINT/SIGTERM, then
// stops, frees what it holds, prints a summary, writes summary.json (host/host_summary.h) and
// checks that every mbuf came back.

#include <signal.h>
#include <time.h>

#include <rte_cycles.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>

#include "../cli_checks.h"
#include "../crash_report.h"
#include "../ethdev_port_rules.h"
#include "../stop_signals.h"
#include "config/config_error.h"
#include "dpdk/eal_session.h"
#include "dpdk/interrupt_thread_park.h"
#include "dpdk/lcore_runner.h"
#include "dpdk/link_watch.h"
#include "dpdk/tsc_calibration.h"
#include "host/host_metrics.h"
#include "host/host_program_config.h"
#include "host/host_summary.h"
#include "host/port_host.h"
#include "metrics/metrics_exposer.h"

namespace {

using namespace std::chrono_literals;

struct Options {
  std::string config_path;
  std::vector<std::string> eal_args;
  bool check_only = false;
  double duration_s = 0;
  double start_at_unix_s = 0;
  std::string start_at_file;
  std::string summary_path;
  std::string log_level = "info";
};

// The Unix time in `path` once it is there; none before (the writer renames a whole file into
// place). Throws std::runtime_error for a file that holds something else.
std::optional<double> start_at_from(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  double at = 0;
  const char* end = text.data() + text.size();
  while (end > text.data() && std::isspace(static_cast<unsigned char>(end[-1]))) --end;
  const auto [last, error] = std::from_chars(text.data(), end, at);
  if (error != std::errc{} || last != end || !(at > 0 && at < 1e11))
    throw std::runtime_error(fmt::format(
        "--start-at-file {}: expected a Unix time in seconds, found \"{}\"", path, text));
  return at;
}

double unix_now_s() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

int run(const Options& options) {
  using Clock = std::chrono::steady_clock;
  const fcswitch::host::HostProgramConfig config = fcswitch::host::load_host_program_config(
      options.config_path, fcswitch::cli::ethdev_port_rules());
  for (const std::string& warning : config.node.warnings) spdlog::warn("{}", warning);
  spdlog::info("config {}: host {} ({}), {} flows, port {} on {}", config.file, config.node.name,
               fcswitch::host::ipv4_text(config.ip), config.flows.size(),
               config.node.ports.front().name, config.node.ports.front().device);
  if (options.check_only) {
    // What EAL would be given: CPUs this machine lacks are said, and would refuse a start here.
    if (const auto plan = fcswitch::dpdk::plan_eal(config.node, options.eal_args);
        !plan.missing_cpus.empty())
      spdlog::warn("{} (a start here would be refused)", plan.missing_cpus);
    std::cout << config.file << ": ok\n";
    return 0;
  }
  const fcswitch::dpdk::EalPlan plan = fcswitch::dpdk::plan_eal(config.node, options.eal_args);
  if (!plan.missing_cpus.empty()) throw fcswitch::config::ConfigError({plan.missing_cpus});
  if (!plan.oversubscription.empty()) spdlog::warn("{}", plan.oversubscription);
  fcswitch::dpdk::EalSession eal(plan);
  const auto tsc = fcswitch::dpdk::calibrate_tsc(std::chrono::milliseconds(100));
  fcswitch::host::PortHost host(config, tsc.chosen_hz);
  std::unique_ptr<fcswitch::metrics::MetricsExposer> exposer;
  if (config.node.metrics) {
    exposer = std::make_unique<fcswitch::metrics::MetricsExposer>(
        config.node.metrics->listen(), std::make_shared<fcswitch::host::HostCollector>(host));
    spdlog::info("metrics: http://{}:{}/metrics", config.node.metrics->address, exposer->port());
  }

  // --start-at-file: ready, the host waits for its time zero to be written there (the testbed's
  // playbook writes one for every host once all are ready, so none is late).
  int sig = 0;
  double start_at_unix_s = options.start_at_unix_s;
  if (!options.start_at_file.empty()) {
    spdlog::info("ready: waiting for time zero in {}", options.start_at_file);
    while (!sig) {
      if (const auto at = start_at_from(options.start_at_file)) {
        start_at_unix_s = *at;
        break;
      }
      sig = fcswitch::app::wait_stop_signal(1ms);
    }
  }
  // Time zero: --start-at (hosts given the same one start their flows together and share
  // arrival times), else now. The TSC value it falls on is where the tasks' clock starts.
  const double now_unix = unix_now_s();
  const uint64_t now_tsc = rte_rdtsc();
  const double time_zero_unix = start_at_unix_s > 0 ? start_at_unix_s : now_unix;
  // Late (start-up took longer than the time given): the clock still counts from time zero, so
  // the flows keep the testbed's schedule and those due already start at once.
  const double offset_s = time_zero_unix - now_unix;
  if (offset_s < -0.001)
    spdlog::warn("--start-at {:.3f} was {:.3f} s ago: flows due by now start at once",
                 time_zero_unix, -offset_s);
  const auto offset_ticks = static_cast<int64_t>(offset_s * static_cast<double>(tsc.chosen_hz));
  // A time zero before the TSC began (before boot) counts from the TSC's 0, not from a wrap.
  const uint64_t epoch_tsc = offset_ticks < 0 && static_cast<uint64_t>(-offset_ticks) > now_tsc
                                 ? 0
                                 : now_tsc + static_cast<uint64_t>(offset_ticks);
  const auto zero = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(offset_s));
  if (offset_s > 0) spdlog::info("time zero in {:.3f} s", offset_s);
  fcswitch::host::HostRun run;
  run.time_zero_unix_s = time_zero_unix;
  // The tasks count from epoch_tsc, so they start once the TSC has reached it, not when the
  // steady clock reaches `zero`: over a lead of seconds, a TSC rate measured in 100 ms on a
  // busy machine puts the two a millisecond apart (in CI, a host started that early saw its
  // time wrap below zero and never sent again; LcoreRunner now holds time at 0 there too).
  for (uint64_t at = rte_rdtsc(); !sig && at < epoch_tsc; at = rte_rdtsc()) {
    const auto left = std::chrono::nanoseconds(static_cast<int64_t>(
        static_cast<double>(epoch_tsc - at) * 1e9 / static_cast<double>(tsc.chosen_hz)));
    sig = fcswitch::app::wait_stop_signal(std::min<std::chrono::nanoseconds>(left, 10ms));
  }

  fcswitch::dpdk::LcoreRunner runner({host.tasks()},
                                     {plan.oversubscribed, plan.idle_sleep_ns,
                                      fcswitch::dpdk::late_poll_ticks(config.node, tsc.chosen_hz)},
                                     epoch_tsc);
  if (!sig) {
    runner.start();
    spdlog::info("running; SIGINT or SIGTERM stops");
  }
  const bool timed = options.duration_s > 0;
  const auto end = zero + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(options.duration_s));
  const auto tail_start = zero + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options.duration_s * 0.8));
  std::optional<fcswitch::dpdk::LinkWatch> link;
  link.emplace(
      std::vector<fcswitch::dpdk::LinkWatch::Port>{
          {host.eth_port_id(), host.config().node.ports[0].name, host.redials()}},
      [&](size_t) { host.link_restored(); });
  while (!sig) {
    link->poll();  // every 10 ms: a host has one port
    if (timed && Clock::now() >= end) {
      spdlog::info("duration reached: stopping");
      break;
    }
    if (timed && !run.tail_start_received_bytes && Clock::now() >= tail_start) {
      std::vector<uint64_t> bytes;
      for (const auto& rx : host.received()) bytes.push_back(rx.bytes.read());
      run.tail_start_received_bytes = std::move(bytes);
    }
    sig = fcswitch::app::wait_stop_signal(
        timed ? std::min<Clock::duration>(end - Clock::now(), 10ms) : Clock::duration(10ms));
  }
  if (sig) spdlog::info("signal {}: stopping", strsignal(sig));
  // Its interrupt callback goes before the port closes: a closed port keeps its callbacks
  // (DPDK 22.11's rte_eth_dev_release_port), and unregistering them then is refused.
  link.reset();
  // A memif peer that stops cannot unmap the ring the worker polls now (and the port stops on
  // this thread alone): dpdk/interrupt_thread_park.h.
  fcswitch::dpdk::park_interrupt_thread();
  runner.stop();
  const auto stopped = Clock::now();
  run.duration_s = std::max(0.0, std::chrono::duration<double>(stopped - zero).count());
  run.interrupted = sig != 0 && timed;
  if (run.tail_start_received_bytes)
    run.tail_s = std::chrono::duration<double>(stopped - tail_start).count();
  exposer.reset();  // no scrape reads the host while it is taken apart
  run.shutdown_freed = host.shut_down();
  run.pool_in_use_after_shutdown = host.pool_in_use();
  const fcswitch::lab::LabResult result = fcswitch::host::host_result(host, run);
  std::cout << fcswitch::host::host_summary_text(host, result, run) << std::flush;
  if (!options.summary_path.empty()) {
    std::ofstream out(options.summary_path);
    out << fcswitch::host::host_summary_json(host, result, run).dump(2) << '\n';
    out.close();
    if (!out)
      throw std::runtime_error("cannot write " + options.summary_path + ": " +
                               std::strerror(errno));
  }
  if (run.pool_in_use_after_shutdown) {
    spdlog::error("{} mbufs did not come back to the mempool", run.pool_in_use_after_shutdown);
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  fcswitch::app::block_stop_signals();
  fcswitch::app::install_crash_report();
  Options options;
  CLI::App app{"fchost: the lab's host on a real port, for the testbed's servers"};
  app.add_option("config", options.config_path, "host configuration (TOML)")->required();
  app.add_option("eal", options.eal_args, "EAL options, after --");
  app.add_flag("--check", options.check_only, "validate the configuration and exit");
  app.add_option("--duration", options.duration_s,
                 "stop this many seconds after time zero (0: at SIGINT/SIGTERM)")
      ->check(fcswitch::cli::time_in(1e9, "seconds"));
  auto* start_at =
      app.add_option(
             "--start-at", options.start_at_unix_s,
             "time zero as a Unix time in seconds (hosts given the same one start together)")
          ->check(fcswitch::cli::time_in(1e11, "seconds since 1970"));
  app.add_option("--start-at-file", options.start_at_file,
                 "once ready, wait for time zero (a Unix time in seconds) to be written to this "
                 "file (the testbed's playbook writes it when every host is ready)")
      ->excludes(start_at);
  app.add_option("--summary", options.summary_path, "write summary.json here")
      ->check(fcswitch::cli::writable_file());
  app.add_option("--log-level", options.log_level, "trace, debug, info, warn, error")
      ->check(CLI::IsMember(fcswitch::cli::kLogLevels));
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::from_str(options.log_level));
  return fcswitch::app::exit_code_of([&] { return run(options); });
}

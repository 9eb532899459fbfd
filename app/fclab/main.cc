// fclab SCENARIO.toml --out DIR: many switches and hosts in one process (docs/architecture.md).
//
// Each run writes DIR/summary.json, DIR/queues.csv, DIR/flows.csv and, with Debian's
// matplotlib, PNG plots (tools/lab_plot.py). --sweep KEY=V1,V2,… runs the scenario once per
// value into DIR/V1, DIR/V2, … and prints a verdict table (DIR/verdicts.txt): tools/demo.sh's
// main command sweeps the GFC ring over PFC, CBFC and both GFCs.

#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli_checks.h"
#include "config/config_error.h"
#include "core/progress_line.h"
#include "crash_report.h"
#include "dpdk/eal_session.h"
#include "lab/lab_network.h"
#include "lab/lab_partition.h"
#include "lab/lab_sampler.h"
#include "lab/routing_cbd.h"
#include "lab/switch_results.h"
#include "metrics/metrics_exposer.h"
#include "results/lab_report.h"
#include "scenario/lab_scenario.h"
#include "scenario/scenario_file.h"
#include "stop_signals.h"

namespace {

struct Options {
  std::string scenario;
  std::string out_dir;
  std::vector<std::string> sets;
  std::string sweep;
  bool check_only = false;
  bool no_plots = false;
  bool quiet = false;           // no progress lines on stderr
  double progress_every_s = 5;  // between progress lines when stderr is not a terminal
  std::string log_level = "warn";
  std::string metrics;  // "address:port" of /metrics while a run lasts; empty: none
  int threads = 1;      // one part of the network each (lab/lab_partition.h)
  std::vector<std::string> eal_args;
};

struct Run {
  std::string label;
  std::vector<std::string> sets;
  std::string out_dir;
};

std::vector<Run> plan_runs(const Options& options) {
  if (options.sweep.empty()) return {Run{"", options.sets, options.out_dir}};
  const size_t eq = options.sweep.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == options.sweep.size())
    throw fcswitch::config::ConfigError(
        {fmt::format("--sweep {}: expected KEY=V1,V2,…", options.sweep)});
  const std::string key = options.sweep.substr(0, eq);
  std::vector<Run> runs;
  std::string values = options.sweep.substr(eq + 1);
  for (size_t start = 0; start <= values.size();) {
    size_t comma = values.find(',', start);
    if (comma == std::string::npos) comma = values.size();
    const std::string value = values.substr(start, comma - start);
    // Each value names its run's directory: a value given twice would write two runs into
    // one, and a '/' would put a run beside the others or outside --out.
    if (value.find('/') != std::string::npos || value == "." || value == "..")
      throw fcswitch::config::ConfigError({fmt::format(
          "--sweep {}: expected values that can name a directory, found \"{}\"", key, value)});
    if (std::any_of(runs.begin(), runs.end(), [&](const Run& r) { return r.label == value; }))
      throw fcswitch::config::ConfigError(
          {fmt::format("--sweep {}: expected each value once, found \"{}\" twice", key, value)});
    if (!value.empty()) {
      Run run{value, options.sets, options.out_dir + "/" + value};
      run.sets.push_back(key + "=" + value);
      runs.push_back(std::move(run));
    }
    start = comma + 1;
  }
  return runs;
}

// Draws the run's CSV files; says why not when it cannot.
void plot(const std::string& dir) {
  const std::string script = FCLAB_PLOT_SCRIPT;
  // Debian's interpreter, which has Debian's matplotlib, before whatever else is on PATH.
  const std::string python =
      std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string command = fmt::format("{} '{}' '{}'", python, script, dir);
  const int status = std::system(command.c_str());
  if (status != 0)
    std::cout << "plots skipped (" << script
              << " failed: python3 with matplotlib is needed; tools/install-deps.sh installs it)\n";
}

// SIGINT or SIGTERM waiting (main blocks both first thing, so they wait for the run to stop
// where it is and write what ran); 0 when none.
int stop_signal() {
  sigset_t pending;
  sigpending(&pending);
  for (int sig : {SIGINT, SIGTERM})
    if (sigismember(&pending, sig)) return sig;
  return 0;
}

int run(const Options& options) {
  const std::vector<Run> runs = plan_runs(options);
  std::vector<fcswitch::lab::LabScenario> scenarios;
  for (const Run& r : runs)
    // A sweep's value is its run's last override (plan_runs).
    scenarios.push_back(fcswitch::lab::load_lab_scenario(
        options.scenario, r.sets, r.label.empty() ? SIZE_MAX : r.sets.size() - 1));
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const fcswitch::lab::LabScenario& s = scenarios[i];
    for (const std::string& w : s.warnings) spdlog::warn("{}", w);
    if (auto w = fcswitch::lab::pool_may_run_out(s))
      spdlog::warn("{}{}", runs[i].label.empty() ? "" : runs[i].label + ": ", *w);
    fcswitch::lab::check_csv_size(s);  // every run's, before the first starts
    try {
      fcswitch::lab::partition_lab(s, options.threads);
    } catch (const std::invalid_argument& e) {
      throw fcswitch::config::ConfigError({fmt::format("{}: {}", options.scenario, e.what())});
    }
  }
  if (options.check_only) {
    std::cout << options.scenario << ": ok (" << scenarios.size() << " run"
              << (scenarios.size() == 1 ? "" : "s") << ")\n";
    // GFC §6.2.3 runs Table 1 only on networks whose routes have a cyclic buffer dependency:
    // tools/sweep/plan.py --cbd reads this line (one per run; a sweep's prefixed by its value).
    for (size_t i = 0; i < runs.size(); ++i)
      std::cout << (runs[i].label.empty() ? "" : runs[i].label + ": ")
                << fcswitch::lab::cbd_line(fcswitch::lab::routing_cbd(scenarios[i])) << "\n";
    return 0;
  }
  if (options.out_dir.empty()) throw std::runtime_error("--out DIR is required to run");

  fcswitch::dpdk::EalPlan plan;
  plan.args = {"--no-huge",
               "-m",
               "2048",
               "--no-pci",
               "--no-telemetry",
               "--log-level=warning",
               "--file-prefix=fclab_" + std::to_string(getpid())};
  // Unless the EAL options after -- place it (-l 3: on CPU 3, its threads too).
  if (!fcswitch::dpdk::names_lcores(options.eal_args))
    plan.args.push_back(fcswitch::dpdk::floating_main_lcore());
  plan.args.insert(plan.args.end(), options.eal_args.begin(), options.eal_args.end());
  fcswitch::dpdk::EalSession eal(plan);

  std::vector<std::pair<std::string, fcswitch::lab::LabResult>> results;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::filesystem::create_directories(runs[i].out_dir);
    fcswitch::lab::LabResult result;
    {
      const std::string name = runs[i].label.empty() ? scenarios[i].name : runs[i].label;
      fcswitch::lab::LabNetwork network(std::move(scenarios[i]), options.threads);
      std::unique_ptr<fcswitch::metrics::MetricsExposer> exposer;  // gone before the network
      if (!options.metrics.empty()) {
        std::vector<fcswitch::metrics::NamedSwitch> named;
        for (const auto& [name, node] : network.switch_nodes()) named.push_back({name, node});
        exposer = std::make_unique<fcswitch::metrics::MetricsExposer>(options.metrics, named);
        // The port bound, which --metrics HOST:0 leaves to the kernel.
        spdlog::warn("metrics: http://{}:{}/metrics while {} runs",
                     options.metrics.substr(0, options.metrics.rfind(':')), exposer->port(), name);
      }
      fcswitch::ProgressLine progress = fcswitch::stderr_progress(
          runs.size() > 1 ? fmt::format("run {} of {}", i + 1, runs.size()) : "run", "simulated ms",
          options.quiet, options.progress_every_s);
      result = network.run(runs[i].out_dir, &progress, [] { return stop_signal() != 0; });
      result.switches = fcswitch::lab::switch_results(network.switch_nodes());
    }
    fcswitch::lab::write_summary(result, runs[i].out_dir + "/summary.json");
    if (result.fct)
      fcswitch::lab::write_flows_fct_csv(runs[i].out_dir + "/flows_fct.csv", *result.fct);
    std::cout << fcswitch::lab::human_summary(result) << "output in " << runs[i].out_dir << "\n\n";
    if (!options.no_plots) plot(runs[i].out_dir);
    const bool interrupted = result.interrupted;
    results.emplace_back(runs[i].label, std::move(result));
    if (interrupted) {
      // What ran is written; the sweep's later runs are not started.
      spdlog::error("interrupted by {}: {} of {} runs", strsignal(stop_signal()), i + 1,
                    runs.size());
      return 128 + stop_signal();
    }
  }
  if (!options.sweep.empty()) {
    const std::string table = fcswitch::lab::verdict_table(results);
    std::cout << table;
    std::ofstream(options.out_dir + "/verdicts.txt") << table;
  }
  for (const auto& [label, r] : results)
    if (!r.conservation.holds() || r.pool_in_use_after_shutdown != 0) {
      spdlog::error("{}: frames unaccounted for ({} mbufs still in use after shutdown)",
                    label.empty() ? r.scenario : label, r.pool_in_use_after_shutdown);
      return 1;
    }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything else: a stop signal waits for the run loop (stop_signal) instead of
  // killing the process with nothing written.
  fcswitch::app::block_stop_signals();
  fcswitch::app::install_crash_report();
  Options options;
  CLI::App app{"fclab: switches and hosts in one process, in virtual or wall-clock time"};
  app.add_option("scenario", options.scenario, "lab scenario (TOML)")->required();
  app.add_option("--out", options.out_dir, "output folder");
  app.add_option("--set", options.sets,
                 "override a scenario key: --set flow_control.priority.3.engine=pfc");
  app.add_option("--sweep", options.sweep,
                 "run once per value: --sweep flow_control.priority.3.engine=pfc,cbfc");
  app.add_flag("--check", options.check_only, "validate the scenario and exit");
  app.add_flag("--no-plots", options.no_plots, "do not draw PNG plots");
  app.add_flag("--quiet", options.quiet,
               "no progress on stderr (by default: simulated time and packet-hops/s, on a "
               "terminal in place, else a line every --progress-every seconds)");
  app.add_option("--progress-every", options.progress_every_s,
                 "seconds between progress lines when stderr is not a terminal (default 5)")
      ->check(fcswitch::cli::time_in(1e6, "seconds"));
  app.add_option("--log-level", options.log_level, "trace, debug, info, warn, error")
      ->check(CLI::IsMember(fcswitch::cli::kLogLevels));
  app.add_option("--metrics", options.metrics,
                 "serve Prometheus /metrics at ADDRESS:PORT (e.g. 127.0.0.1:9417) while a run "
                 "lasts, every switch with its node label");
  const size_t cpus = fcswitch::dpdk::affinity_cpus().size();
  app.add_option("--threads", options.threads,
                 "split the network among N threads on the virtual clock, results the same as "
                 "one thread's (default 1)")
      ->check(CLI::Validator(
          [cpus](std::string& text) -> std::string {
            const std::string expected =
                fmt::format("expected 1 to {} (the CPUs this process may run on)", cpus);
            try {
              size_t used = 0;
              const int n = std::stoi(text, &used);
              if (used == text.size() && n >= 1 && static_cast<size_t>(n) <= cpus) return {};
            } catch (const std::exception&) {
            }
            return expected + ", found " + text;
          },
          "N"));
  // Everything after the first "--" is EAL's, taken before CLI11 sees it: after a vector option
  // (--set a --set b -- -m 4096) CLI11 would end the option at "--" and refuse the rest.
  int ours = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--") {
      ours = i;
      options.eal_args.assign(argv + i + 1, argv + argc);
      break;
    }
  app.footer("EAL options go after --: fclab SCENARIO --out DIR -- -m 8192");
  CLI11_PARSE(app, ours, argv);
  spdlog::set_level(spdlog::level::from_str(options.log_level));
  return fcswitch::app::exit_code_of([&] { return run(options); });
}

#include "dpdk/eal_session.h"

#include "core/tick_rate.h"
#include "dpdk/interrupt_thread_park.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <sched.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace fcswitch::dpdk {

std::vector<int> affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {0};
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::string floating_main_lcore() {
  return fmt::format("--lcores=0@({})", fmt::join(affinity_cpus(), ","));
}

bool names_lcores(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "-l" || a == "-c" || a.rfind("--lcores", 0) == 0;
  });
}

namespace {

// The kernel's time slice: how long a runnable thread may wait behind another busy one on its
// CPU. EEVDF's base slice where debugfs shows it; else 3 ms, the order of CFS's and EEVDF's
// defaults on small machines.
struct SchedSlice {
  uint64_t ns = 3'000'000;
  bool read = false;
};

SchedSlice sched_slice() {
  SchedSlice slice;
  std::ifstream in("/sys/kernel/debug/sched/base_slice_ns");
  uint64_t ns = 0;
  if (in >> ns && ns > 0) slice = {ns, true};
  return slice;
}

std::string format_ms(uint64_t ns) {
  return fmt::format("{:.1f} ms", static_cast<double>(ns) / 1e6);
}

// Workers that share CPUs take turns at the kernel's slice: one waits up to (k − 1) slices for
// its CPU while k share it. A TX that waits cannot refresh a pause or send a stage, an RX that
// waits cannot hear one: that wait is part of τ (GFC §5.4), which response_time budgets.
std::string oversubscription_warning(const config::SwitchConfig& config, size_t workers,
                                     size_t cpus) {
  const size_t sharing = (workers + cpus - 1) / cpus;
  const SchedSlice slice = sched_slice();
  const uint64_t wait_ns = (sharing - 1) * slice.ns;
  std::string text = fmt::format(
      "layout {}: {} busy-polling workers on {} CPU{}: up to {} share a CPU and take turns at the "
      "kernel's time slice ({}{}), so a worker may wait {} for its CPU",
      config.layout_name, workers, cpus, cpus == 1 ? "" : "s", sharing, format_ms(slice.ns),
      slice.read ? "" : ", assumed", format_ms(wait_ns));
  const config::PortConfig* tightest = config.tightest_response_time();
  if (tightest && tightest->flow_control.response_time_ns < wait_ns)
    text += fmt::format(
        ". That wait is part of τ, and above response_time = {} (port {}): the headroom and "
        "thresholds do not cover it, and pauses may run out under XOFF",
        format_ms(tightest->flow_control.response_time_ns), tightest->name);
  return text + fmt::format(". Give [eal] cpus {} CPUs, or use layout \"compact\"", workers);
}

}  // namespace

uint64_t late_poll_ticks(const config::SwitchConfig& config, uint64_t tsc_hz) {
  const config::PortConfig* tightest = config.tightest_response_time();
  return tightest ? TickRate{tsc_hz}.from_ns(tightest->flow_control.response_time_ns) : 0;
}

bool is_pci_address(std::string_view device) {
  static const std::regex kPci(R"(^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$)");
  const std::string name(device.substr(0, device.find(',')));
  return std::regex_match(name, kPci);
}

std::string device_name(std::string_view device) {
  std::string name(device.substr(0, device.find(',')));
  if (is_pci_address(name) && name.size() == 7) name = "0000:" + name;
  return name;
}

// [eal] cpus that this process may not run on (a CPU the machine has not got, or outside its
// affinity): said as a config problem, where the EAL printed its 100-line usage and exited.
static std::string missing_cpus(const config::SwitchConfig& config) {
  if (config.eal.cpus.empty()) return "";
  const std::vector<int> allowed = affinity_cpus();
  std::string missing;
  for (int cpu : config.eal.cpus)
    if (std::find(allowed.begin(), allowed.end(), cpu) == allowed.end())
      missing += fmt::format("{}{}", missing.empty() ? "" : ",", cpu);
  if (missing.empty()) return "";
  std::string list;
  for (int cpu : allowed) list += fmt::format("{}{}", list.empty() ? "" : ",", cpu);
  return fmt::format(
      "{}: eal.cpus: expected CPUs this process may run on ({}), found CPU {} among them",
      config.file, list, missing);
}

EalPlan plan_eal(const config::SwitchConfig& config, const std::vector<std::string>& extra_args) {
  EalPlan plan;
  plan.missing_cpus = missing_cpus(config);
  plan.args = config.eal.args;
  plan.idle_sleep_ns = config.eal.idle_sleep_ns;
  std::vector<std::string> all = config.eal.args;
  all.insert(all.end(), extra_args.begin(), extra_args.end());
  if (!names_lcores(all)) {
    // The main lcore runs the control loop (signals, idle and drain checks, logging) and
    // sleeps most of the time; each layout lcore is a busy-polling worker. With a CPU per
    // worker, pin them one to one, as the GFC testbed does (the main lcore gets a CPU of its
    // own if there is one, else shares the first worker's); with fewer CPUs than workers
    // let them float over the set and yield when idle.
    const std::vector<int> cpus = config.eal.cpus.empty() ? affinity_cpus() : config.eal.cpus;
    const size_t workers = config.lcores.size();
    std::string map;
    if (cpus.size() >= workers) {
      const size_t first_worker_cpu = cpus.size() > workers ? 1 : 0;
      map = fmt::format("0@{}", cpus[0]);
      for (size_t i = 0; i < workers; ++i)
        map += fmt::format(",{}@{}", i + 1, cpus[first_worker_cpu + i]);
    } else {
      std::string set;
      for (size_t i = 0; i < cpus.size(); ++i) set += fmt::format("{}{}", i ? "," : "", cpus[i]);
      map = fmt::format("(0-{})@({})", workers, set);
      plan.oversubscribed = true;
      plan.oversubscription = oversubscription_warning(config, workers, cpus.size());
    }
    plan.args.push_back("--lcores=" + map);
  }
  for (const auto& port : config.ports) {
    if (is_pci_address(port.device)) {
      plan.args.push_back("-a");
      plan.args.push_back(port.device);
    } else {
      plan.args.push_back("--vdev=" + port.device);
    }
  }
  plan.args.insert(plan.args.end(), extra_args.begin(), extra_args.end());
  return plan;
}

EalSession::EalSession(const EalPlan& plan) {
  std::vector<std::string> args = plan.args;
  args.insert(args.begin(), "fcswitch");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::string line;
  for (const auto& a : args) line += " " + a;
  spdlog::info("EAL:{}", line);
  if (rte_eal_init(static_cast<int>(args.size()), argv.data()) < 0) {
    // DPDK leaves rte_errno at 0 for some refusals (another primary holds the prefix's lock):
    // point at its own lines above and at the likeliest cause.
    // Its runtime directory is made before most refusals (an unknown driver): removed when
    // empty, so a refused start leaves nothing; one that holds another process's files stays.
    std::error_code ignored;
    if (const char* dir = rte_eal_get_runtime_dir(); dir && *dir)
      std::filesystem::remove(dir, ignored);
    std::string prefix = "rte";
    for (const auto& a : args)
      if (a.rfind("--file-prefix=", 0) == 0) prefix = a.substr(14);
    if (rte_errno == ENODEV)  // the EAL could not take a --vdev or -a device
      throw std::runtime_error(
          "rte_eal_init failed: a device the EAL could not take (the EAL lines above name it: "
          "a driver this DPDK has not got, or a misspelt driver name?)");
    throw std::runtime_error(fmt::format(
        "rte_eal_init failed: {} (the EAL lines above say why; if another DPDK process runs "
        "with file prefix \"{}\", stop it or give this one another --file-prefix)",
        rte_errno ? rte_strerror(rte_errno) : "no reason given", prefix));
  }
  if (const char* dir = rte_eal_get_runtime_dir()) runtime_dir_ = dir;
}

EalSession::~EalSession() {
  // rte_eal_cleanup unmaps what the interrupt thread's handlers may still read.
  park_interrupt_thread(std::chrono::seconds(1));
  rte_eal_cleanup();
  std::error_code ignored;  // a directory we cannot remove is left, as before
  if (!runtime_dir_.empty()) std::filesystem::remove_all(runtime_dir_, ignored);
}

}  // namespace fcswitch::dpdk

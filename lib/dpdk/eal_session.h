#pragma once
// Initialises DPDK's EAL for a switch and cleans it up at the end. The EAL command line is
// assembled from the config: its [eal] args, an lcore map for the layout, one --vdev or -a
// per port, then whatever came after `--` on fcswitch's command line.

#include <string>
#include <vector>

#include "params/switch_params.h"

namespace fcswitch::dpdk {

struct EalPlan {
  std::vector<std::string> args;  // argv[1..]
  bool oversubscribed = false;    // more lcores than CPUs: idle tasks yield the CPU
  // [eal] cpus this process may not run on, as a config problem (empty if none): a start
  // refuses it; a --check, perhaps of a config for another machine, warns.
  std::string missing_cpus;
  // Oversubscribed: what that does to τ, to log as a warning (empty otherwise).
  std::string oversubscription;
  uint64_t idle_sleep_ns = 0;  // [eal] idle_sleep: idle workers sleep (many processes)
};

// The TSC ticks after which a task's next poll is late (dpdk::IdleAction::late_poll_ticks): the
// tightest response_time of the switch's ports; 0 when no port has an engine.
uint64_t late_poll_ticks(const config::SwitchConfig& config, uint64_t tsc_hz);

// The CPUs this process may run on (taskset, a cgroup's cpuset), in order.
std::vector<int> affinity_cpus();
// The EAL argument that runs lcore 0, the main thread, on any of them rather than pinned to
// the first (fclab: its threads and other fclab processes then spread over the CPUs, where
// "-l 0" put every one on CPU 0).
std::string floating_main_lcore();
// Whether EAL arguments choose the lcores (-l, -c, --lcores).
bool names_lcores(const std::vector<std::string>& args);

// `extra_args` are appended last, so they override the config's.
EalPlan plan_eal(const config::SwitchConfig& config, const std::vector<std::string>& extra_args);

// True for a PCI address ("0000:03:00.0" or "03:00.0"); anything else is a vdev.
bool is_pci_address(std::string_view device);
// The ethdev name DPDK gives the device: the vdev's name, or the full PCI address.
std::string device_name(std::string_view device);

class EalSession {
 public:
  explicit EalSession(const EalPlan& plan);  // throws std::runtime_error when rte_eal_init fails
  ~EalSession();
  EalSession(const EalSession&) = delete;
  EalSession& operator=(const EalSession&) = delete;

 private:
  // DPDK's runtime directory (/var/run/dpdk/<file prefix>): removed at exit, since nothing
  // attaches to a process that has gone (fclab made a new 25 MB one per run).
  std::string runtime_dir_;
};

}  // namespace fcswitch::dpdk

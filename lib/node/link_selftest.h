#pragma once
// `fcswitch selftest --links`: does every cable of a testbed carry flow-control frames both
// ways, from software to software? Each machine runs it on its own ports at once (the
// playbook's `check`): every port sends the selftest's probes (wire/selftest_probes.h) round
// after round, and takes the probes of whatever port is at the other end of its cable. A port
// has heard its peer once every probe the switch relies on arrived in every copy, byte for
// byte; its data probes then say so, and a port is done once it has heard its peer and been
// heard by it. This checks both NICs of a cable, as `selftest --from --to` checks two ports of
// one machine.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "wire/mac_address.h"

namespace fcswitch {

struct LinkSelftestPort {
  std::string port;
  std::vector<std::string> probe_names;
  std::vector<bool> required;
  std::vector<int> copies_received;  // distinct copies of each probe, of selftest::kCopies
  int rounds_sent = 0;               // rounds the port took whole
  bool peer_seen = false;
  wire::MacAddress peer;  // the source of the first probe from the other end
  bool heard_by_peer = false;
  int other_frames = 0;
  bool heard_peer() const;
  bool passed() const { return heard_peer() && heard_by_peer; }
};

struct LinkSelftestResult {
  std::vector<LinkSelftestPort> ports;
  bool passed() const;
  std::string table() const;
};

// Every port of `config`, until each has passed (and then a little longer, for the peers to
// see that they were heard) or `timeout` ends. `started` is called once the ports are up.
// Throws std::runtime_error when a port cannot start.
LinkSelftestResult run_link_selftest(const config::SwitchConfig& config,
                                     std::chrono::milliseconds timeout,
                                     const std::function<void()>& started);

}  // namespace fcswitch

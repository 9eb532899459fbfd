#pragma once
// fcswitch's [pyrrha] network (params/pyrrha_params.h, PyrrhaNetwork): the switch is one node
// of a network a lab scenario describes, and predicts each packet's onward path as the lab's
// switches do (lab_path_oracle.h) — from every switch's routes and ECMP seed, so that ECMP past
// the first hop is followed, where [[pyrrha.paths]] can only pin one path per destination.
// The prediction holds only if the switches forward as the scenario routes, so this switch
// takes its FIB and ECMP seed from the scenario too; the other switches of the testbed must be
// given theirs the same way (each its own node of the same file).

#include <memory>

#include "params/switch_params.h"
#include "switch/fwd/pyrrha_path_oracle.h"

namespace fcswitch::lab {

// Reads `config.pyrrha->network`'s scenario and makes `config` that node: its FIB (the
// scenario's routes before any failure, and the node's own routes), its ECMP seed and its
// Pyrrha switch id (the node's index among the topology's switches, as the lab numbers roots).
// Returns the oracle to hand to SwitchNode. Throws config::ConfigError naming the config's
// place of `network` or `node` when the scenario cannot be read, has no such switch, routes
// statically, or has other ports than `config`'s (names, in order), or when `config` has
// [[fib]] entries or an ECMP seed of its own.
std::shared_ptr<const PyrrhaPathOracle> take_pyrrha_network(config::SwitchConfig& config);

}  // namespace fcswitch::lab

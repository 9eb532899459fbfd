#pragma once
// [pabo]: PABO packet bounce (PABO §II) on some priorities of a switch.

#include "config/table_reader.h"
#include "params/switch_params.h"

namespace fcswitch::config {

// Reads [pabo] into config.pabo. Needs the ports, their flow control, the lossless
// priorities, [tagger] and [switch] queueing read before: PABO runs alone on a priority.
void read_pabo(TableReader& root, SwitchConfig& config);

}  // namespace fcswitch::config

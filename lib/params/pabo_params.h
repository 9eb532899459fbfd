#pragma once
// PABO packet bounce (PABO §II), as the config reader leaves it ([pabo], config/reference.toml)
// and the node builds FWD's bounce decisions and the bounce sub-queues from.

#include <cstdint>

#include "core/traffic_class.h"
#include "pabo/bounce_settings.h"

namespace fcswitch::config {

struct PaboParams {
  // The priorities whose egress queues, on every port, have a bounce sub-queue and bounce.
  PriorityMask priorities = 0;
  pabo::BounceSettings settings;
  uint64_t seed = 0;  // of the bounce draws; 0: from the switch's name (each switch its own)

  bool enabled() const { return priorities != 0; }
};

}  // namespace fcswitch::config

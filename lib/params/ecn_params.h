#pragma once
// ECN marking (RFC 3168) on egress queues, as the config reader leaves it ([ecn] and
// [ports.ecn], config/reference.toml) and the node builds FWD's marking profiles from.

#include <cstdint>

#include "core/traffic_class.h"

namespace fcswitch::config {

// DCQCN's marking curve on one egress queue's depth (ecn/marking_probability.h): nothing at or
// below K_min, P_max · (q − K_min)/(K_max − K_min) up to K_max, every ECT packet above it.
// K_min = K_max: a step (DCTCP).
struct EcnProfile {
  uint64_t k_min_bytes = 0;
  uint64_t k_max_bytes = 0;
  double p_max = 1.0;
};

// What one port marks: its egress queues in `queues`, each with `profile`.
struct PortEcn {
  PriorityMask queues = 0;
  EcnProfile profile;
};

struct EcnParams {
  uint64_t seed = 0;  // of the marking draws; 0: from the switch's name (each switch its own)
};

}  // namespace fcswitch::config

#pragma once
// The share of a link's capacity its flow-control frames take (GFC §6.2.3, Fig. 19: buffer-
// based GFC's stage messages cost 0.21 % of a port's bandwidth on average, under 0.4 % at 99 %
// of ports). Per port: the PFC frames (PFC's pauses and GFC's stages ride in them) and CBFC
// credit frames it sent, each its size on the wire (60 and 82 bytes, plus FCS, preamble and
// gap: 24), over what the link could carry in the run: duration × rate.

#include <cstddef>

#include "results/lab_result.h"

namespace fcswitch::lab {

// A fraction in [0, 1]; 0 for a port without a rate or a run without a duration.
double feedback_share(const PortResult& port, double duration_s);

struct FeedbackShareSummary {
  size_t ports = 0;  // ports whose link carried a frame either way
  double mean = 0, p99 = 0, max = 0;
};

// Over the ports that carried traffic (GFC Fig. 19 records "all ports" of a loaded network; an
// unused port would only pull the mean down). p99: the nearest-rank 99th percentile.
FeedbackShareSummary feedback_share_summary(const LabResult& result);

}  // namespace fcswitch::lab

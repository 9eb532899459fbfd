#include "metrics/engine_metric_catalog.h"

#include <array>

namespace fcswitch::metrics {

namespace {

constexpr double kNs = 1e-9;
constexpr double kBitsToBytes = 1.0 / 8;  // Prometheus' base unit is the byte
constexpr double kCreditBlockBytes = 64;  // IBA flow-control block (wire/credit_frame.h)

constexpr auto C = MetricType::kCounter;
constexpr auto G = MetricType::kGauge;

constexpr std::array kCatalog = {
    // PFC (802.1Qbb), receiver side.
    EngineMetric{"xoff_transitions", "fcswitch_pfc_xoff_transitions_total", C, 1,
                 "Times the ingress occupancy reached XOFF (a pause was asserted)"},
    EngineMetric{"xon_transitions", "fcswitch_pfc_xon_transitions_total", C, 1,
                 "Times the ingress occupancy fell below XON (the pause was released)"},
    EngineMetric{"pause_refreshes", "fcswitch_pfc_pause_refreshes_total", C, 1,
                 "Pause frames re-sent before the upstream's timer ran out"},
    EngineMetric{"xoff_asserted", "fcswitch_pfc_xoff_asserted", G, 1,
                 "1 while this port holds its upstream paused at this priority"},
    // PFC, sender side.
    EngineMetric{"pause_frames_received", "fcswitch_pause_frames_received_total", C, 1,
                 "PFC frames received with a non-zero time for this priority"},
    EngineMetric{"resume_frames_received", "fcswitch_resume_frames_received_total", C, 1,
                 "PFC frames received with time 0 (XON) for this priority"},
    EngineMetric{"pause_expiries", "fcswitch_pfc_pause_expiries_total", C, 1,
                 "Pauses that ended by their timer rather than by an XON"},
    EngineMetric{"paused_ns", "fcswitch_paused_seconds_total", C, kNs,
                 "Time this egress queue was paused by its downstream neighbour"},
    // Buffer-based GFC (SIGCOMM'19 §5.1).
    EngineMetric{"stage_messages_sent", "fcswitch_gfc_stage_messages_sent_total", C, 1,
                 "GFC stage messages sent upstream"},
    EngineMetric{"ingress_stage", "fcswitch_gfc_ingress_stage", G, 1,
                 "GFC stage this port last asked its upstream for (0: line rate)"},
    EngineMetric{"ingress_stage_max", "fcswitch_gfc_ingress_stage_max", G, 1,
                 "Highest GFC stage this port has asked for"},
    EngineMetric{"stage_messages_received", "fcswitch_gfc_stage_messages_received_total", C, 1,
                 "GFC stage messages received from downstream"},
    EngineMetric{"egress_stage", "fcswitch_gfc_egress_stage", G, 1,
                 "GFC stage this egress queue runs at (set by downstream)"},
    EngineMetric{"stages_clamped", "fcswitch_gfc_stages_clamped_total", C, 1,
                 "Stage messages above the last stage, taken as the last"},
    EngineMetric{"foreign_messages", "fcswitch_fc_foreign_messages_total", C, 1,
                 "Flow-control messages this engine does not speak, ignored"},
    // Both GFCs: the rate limiter (§5.3).
    EngineMetric{"rate_bps", "fcswitch_gfc_rate_limit_bytes_per_second", G, kBitsToBytes,
                 "Current rate limit of this egress queue"},
    EngineMetric{"rate_min_bps", "fcswitch_gfc_rate_limit_min_bytes_per_second", G, kBitsToBytes,
                 "Lowest rate limit this egress queue has run at"},
    // CBFC (InfiniBand credits) and time-based GFC's credit half.
    EngineMetric{"credit_updates_sent", "fcswitch_cbfc_credit_updates_sent_total", C, 1,
                 "Credit updates (FCCL) sent upstream"},
    EngineMetric{"credit_updates_received", "fcswitch_cbfc_credit_updates_received_total", C, 1,
                 "Credit updates (FCCL) received from downstream"},
    EngineMetric{"blocks_sent", "fcswitch_cbfc_sent_bytes_total", C, kCreditBlockBytes,
                 "Bytes sent against credits, in whole 64-byte blocks"},
    EngineMetric{"credit_blocks", "fcswitch_cbfc_credit_available_bytes", G, kCreditBlockBytes,
                 "Credit available to this egress queue (FCCL - FCTBS)"},
};

}  // namespace

std::optional<EngineMetric> engine_metric(std::string_view counter) {
  for (const EngineMetric& m : kCatalog)
    if (m.counter == counter) return m;
  return std::nullopt;
}

}  // namespace fcswitch::metrics

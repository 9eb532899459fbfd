#include "config/observability_config.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include "config/output_file.h"
#include "config/queue_list.h"
#include "config/table_reader.h"

namespace fcswitch::config {

std::optional<MetricsConfig> read_metrics(TableReader& root) {
  const toml::table* table = root.table("metrics");
  if (!table) return std::nullopt;
  TableReader reader(*table, "metrics", root.problems());
  MetricsConfig metrics;
  if (auto address = reader.string("address")) {
    in_addr v4;
    in6_addr v6;
    // civetweb takes "[v6]:port"; a bare v6 address is bracketed here.
    if (inet_pton(AF_INET, address->c_str(), &v4) == 1)
      metrics.address = *address;
    else if (inet_pton(AF_INET6, address->c_str(), &v6) == 1)
      metrics.address = "[" + *address + "]";
    else
      reader.refuse("address", "an IPv4 or IPv6 address (\"127.0.0.1\", \"0.0.0.0\", \"::1\")");
  }
  if (auto port = reader.integer("port", 1, 65535)) metrics.port = static_cast<uint16_t>(*port);
  reader.reject_unknown_keys();
  return metrics;
}

std::optional<TraceConfig> read_trace(TableReader& root) {
  const toml::table* table = root.table("trace");
  if (!table) return std::nullopt;
  TableReader reader(*table, "trace", root.problems());
  TraceConfig trace;
  // Below a microsecond the sampler's own poll period (a few hundred ns per task round)
  // would decide the times, not the interval.
  if (auto ns = reader.duration_ns("interval", 1'000, 10'000'000'000ull)) trace.interval_ns = *ns;
  if (auto file = reader.string("file")) trace.file = *file;
  // The trace is written while the switch runs: a file it cannot write is said now.
  if (const std::string why = file_unwritable_reason(trace.file); !why.empty())
    reader.refuse("file", "a file this process can write",
                  fmt::format("\"{}\" ({})", trace.file, why));
  if (auto samples = reader.integer("samples", 1024, 1 << 26))
    trace.samples = static_cast<uint32_t>(*samples);
  if (auto start = reader.boolean("start")) trace.start = *start;
  if (auto mask = read_queue_list(reader, "priorities", false))
    trace.priorities = static_cast<uint8_t>(*mask);
  reader.reject_unknown_keys();
  return trace;
}

}  // namespace fcswitch::config

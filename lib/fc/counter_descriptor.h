#pragma once
// What a reported counter is: its name, whether it only grows, its unit and its Prometheus
// family, declared once in a table next to the code that counts (each engine half, the
// watchdog, TX). Reports pass the descriptor with each value, so the JSON report, DPDK
// telemetry, the lab summary and /metrics all take their names from that one table, and the
// metrics catalogue is built from the tables the engine registry holds
// (metrics/engine_metric_catalog.h). The tables are checked when they are compiled: the
// family follows Prometheus' naming rules (base unit suffix, `_total` on counters).

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace fcswitch::fc {

enum class CounterKind : uint8_t {
  kCounter,  // only grows (events, bytes, time)
  kGauge,    // a level that goes up and down (a stage, a rate, credits)
};

// The unit the value is reported in. The metrics layer scales it to the base unit its
// family is named for (Prometheus: seconds, bytes).
enum class CounterUnit : uint8_t {
  kNone,           // events, frames, a stage number, a 0/1 flag
  kNanoseconds,    // family in _seconds
  kBitsPerSecond,  // family in _bytes_per_second
  kCreditBlocks,   // IBA 64-byte flow-control blocks (wire/credit_frame.h); family in _bytes
};

struct CounterDescriptor {
  std::string_view name;  // snake_case, with its unit where it has one: the key in the
                          // JSON report, DPDK telemetry and the lab summary
  CounterKind kind;
  CounterUnit unit;
  std::string_view family;  // Prometheus: fcswitch_…, in base units, `_total` on counters
  std::string_view help;    // Prometheus HELP
};

// The two kinds, for tables that read as a list: counter("xoff_transitions", "fcswitch_…", "…").
constexpr CounterDescriptor counter(std::string_view name, std::string_view family,
                                    std::string_view help, CounterUnit unit = CounterUnit::kNone) {
  return {name, CounterKind::kCounter, unit, family, help};
}
constexpr CounterDescriptor gauge(std::string_view name, std::string_view family,
                                  std::string_view help, CounterUnit unit = CounterUnit::kNone) {
  return {name, CounterKind::kGauge, unit, family, help};
}

// Receives each counter with its value (any thread; values are single-writer reads).
using CounterSink = std::function<void(const CounterDescriptor& counter, uint64_t value)>;

// Reports `values` under `table`, one to one in table order; a missing or extra value does
// not compile.
template <size_t N, std::convertible_to<uint64_t>... Values>
void report_counters(const CounterSink& sink, const std::array<CounterDescriptor, N>& table,
                     Values... values) {
  static_assert(sizeof...(Values) == N, "one value for each counter of the table, in order");
  const std::array<uint64_t, N> in_order = {static_cast<uint64_t>(values)...};
  for (size_t i = 0; i < N; ++i) sink(table[i], in_order[i]);
}

// One table after another, for a half that reports another's counters before its own.
template <size_t A, size_t B>
constexpr std::array<CounterDescriptor, A + B> concat_counters(
    const std::array<CounterDescriptor, A>& first, const std::array<CounterDescriptor, B>& then) {
  std::array<CounterDescriptor, A + B> out{};
  for (size_t i = 0; i < A; ++i) out[i] = first[i];
  for (size_t i = 0; i < B; ++i) out[A + i] = then[i];
  return out;
}

namespace counter_rules {

constexpr bool snake_case(std::string_view s) {
  if (s.empty() || s.front() == '_' || s.back() == '_') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// The suffix Prometheus' naming rules want for the unit (before `_total`); none for kNone.
constexpr std::string_view base_unit_suffix(CounterUnit unit) {
  switch (unit) {
    case CounterUnit::kNanoseconds:
      return "_seconds";
    case CounterUnit::kBitsPerSecond:
      return "_bytes_per_second";
    case CounterUnit::kCreditBlocks:
      return "_bytes";
    case CounterUnit::kNone:
      break;
  }
  return "";
}

constexpr bool well_formed(const CounterDescriptor& c) {
  constexpr std::string_view kPrefix = "fcswitch_", kTotal = "_total";
  if (!snake_case(c.name) || !snake_case(c.family) || c.help.empty()) return false;
  if (!c.family.starts_with(kPrefix)) return false;
  std::string_view stem = c.family;
  if ((c.kind == CounterKind::kCounter) != stem.ends_with(kTotal)) return false;
  if (c.kind == CounterKind::kCounter) stem.remove_suffix(kTotal.size());
  return stem.ends_with(base_unit_suffix(c.unit));
}

}  // namespace counter_rules

// Every descriptor of the table follows the rules, and no name or family is there twice.
template <size_t N>
constexpr bool well_formed_counters(const std::array<CounterDescriptor, N>& table) {
  for (size_t i = 0; i < N; ++i) {
    if (!counter_rules::well_formed(table[i])) return false;
    for (size_t j = 0; j < i; ++j)
      if (table[i].name == table[j].name || table[i].family == table[j].family) return false;
  }
  return true;
}

}  // namespace fcswitch::fc

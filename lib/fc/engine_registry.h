#pragma once
// The table of flow-control engines, by the name the config uses. Adding an engine is one
// file that ends with FCSWITCH_REGISTER_ENGINE and one line in lib/fc/meson.build; the library
// is linked whole so the registration is not dropped. A duplicate name aborts at start.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fc/engine.h"
#include "fc/param_reader.h"

namespace fcswitch::fc {

// An engine's validated parameters in physical units; each engine derives its own.
struct EngineParams {
  virtual ~EngineParams() = default;
  // What a response time of `tau_ns`, measured on the running link, breaks of these parameters
  // (resolved for `link`, whose response_time_ns was the budget): the threshold and its rule
  // with the numbers, or "" when they still cover it (credits, which are lossless at any τ).
  virtual std::string tau_breaks(const LinkParams& /*link*/, uint64_t /*tau_ns*/) const {
    return {};
  }
};

struct EngineDescriptor {
  std::string_view name;
  std::string_view summary;
  // Reads the engine's keys, all optional. With `link`, also checks them against the link
  // (headroom against C·τ, ...). Returns null when a problem was reported.
  std::shared_ptr<const EngineParams> (*parse)(ParamReader& reader, const LinkParams* link);
  // Both halves for one (port, priority). Called once per instance at switch start.
  EngineInstance (*make)(const EngineParams& params, const EngineContext& context);
  // What each half's counters() reports, in order (fc/counter_descriptor.h): the metrics
  // catalogue is built from these.
  std::span<const CounterDescriptor> generator_counters;
  std::span<const CounterDescriptor> gate_counters;
};

class EngineRegistry {
 public:
  static EngineRegistry& instance();  // function-local static: filled before main
  bool add(const EngineDescriptor& engine);
  const EngineDescriptor* find(std::string_view name) const;
  std::vector<std::string_view> names() const;  // in registration-independent (sorted) order

 private:
  std::vector<EngineDescriptor> engines_;
};

}  // namespace fcswitch::fc

#define FCSWITCH_ENGINE_CONCAT2(a, b) a##b
#define FCSWITCH_ENGINE_CONCAT(a, b) FCSWITCH_ENGINE_CONCAT2(a, b)
// FCSWITCH_REGISTER_ENGINE("pfc", "IEEE 802.1Qbb ...", parse_fn, make_fn,
//                          generator_counter_table, gate_counter_table)
#define FCSWITCH_REGISTER_ENGINE(name, summary, parse, make, generator_counters, gate_counters) \
  [[maybe_unused]] static const bool FCSWITCH_ENGINE_CONCAT(registered_engine_, __LINE__) =     \
      ::fcswitch::fc::EngineRegistry::instance().add(::fcswitch::fc::EngineDescriptor{          \
          name, summary, parse, make, generator_counters, gate_counters})

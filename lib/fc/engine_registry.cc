#include "fc/engine_registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace fcswitch::fc {

EngineRegistry& EngineRegistry::instance() {
  static EngineRegistry registry;
  return registry;
}

bool EngineRegistry::add(const EngineDescriptor& engine) {
  if (find(engine.name)) {
    std::fprintf(stderr, "flow-control engine \"%.*s\" registered twice\n",
                 static_cast<int>(engine.name.size()), engine.name.data());
    std::abort();
  }
  engines_.push_back(engine);
  return true;
}

const EngineDescriptor* EngineRegistry::find(std::string_view name) const {
  for (const auto& engine : engines_)
    if (engine.name == name) return &engine;
  return nullptr;
}

std::vector<std::string_view> EngineRegistry::names() const {
  std::vector<std::string_view> names;
  for (const auto& engine : engines_) names.push_back(engine.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace fcswitch::fc

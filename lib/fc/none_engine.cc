// "none": no flow control on this (port, priority). The queue is never held back and
// nothing is sent upstream; a lossless priority left without flow control can overflow
// (counted as lossless_overflow drops).

#include "fc/engine_registry.h"

namespace fcswitch::fc {

namespace {

std::shared_ptr<const EngineParams> parse_none(ParamReader&, const LinkParams*) {
  return std::make_shared<EngineParams>();
}

EngineInstance make_none(const EngineParams&, const EngineContext&) {
  return {};
}

}  // namespace

FCSWITCH_REGISTER_ENGINE("none", "no flow control", parse_none, make_none, {}, {});

}  // namespace fcswitch::fc

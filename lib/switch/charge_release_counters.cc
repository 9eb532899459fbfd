#include "switch/charge_release_counters.h"

namespace fcswitch {

namespace {
constexpr int kCountersPerCacheLine = 64 / sizeof(OwnedCounter);
}

ChargeReleaseCounters::ChargeReleaseCounters(int slots, int releasers)
    : slots_(slots),
      releasers_(releasers),
      stride_((slots + kCountersPerCacheLine - 1) / kCountersPerCacheLine * kCountersPerCacheLine),
      releaser_stride_(releasers > 1 ? stride_ : 0),
      charged_(std::make_unique<OwnedCounter[]>(slots)),
      released_(std::make_unique<OwnedCounter[]>(static_cast<size_t>(stride_) * releasers)) {}

}  // namespace fcswitch

#include "switch/queued_from_counters.h"

#include <new>

namespace fcswitch {

namespace {
constexpr size_t kWordsPerLine = 64 / sizeof(uint64_t);

size_t row_words(int ports) {
  return (static_cast<size_t>(ports) + kWordsPerLine - 1) / kWordsPerLine * kWordsPerLine;
}
size_t words_of(int ports) {
  return static_cast<size_t>(kNumEgressQueues) * kNumPriorities * static_cast<size_t>(ports) *
         row_words(ports);
}
}  // namespace

QueuedFromCounters::QueuedFromCounters(int ports)
    : ports_(ports),
      row_(row_words(ports)),
      pages_(2 * words_of(ports) * sizeof(uint64_t)),
      // The mapping's zero pages are the words' storage (uint64_t is an implicit-lifetime type).
      charged_(std::launder(static_cast<uint64_t*>(pages_.data()))),
      released_(charged_ + words_of(ports)) {}

}  // namespace fcswitch

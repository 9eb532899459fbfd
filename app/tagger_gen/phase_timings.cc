#include "phase_timings.h"

#include <fmt/format.h>
#include <sys/resource.h>

namespace fcswitch::tagger_gen {

namespace {

long peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // Linux: kilobytes
}

}  // namespace

void PhaseTimings::start(std::string name) {
  stop();
  running_ = std::move(name);
  started_ = std::chrono::steady_clock::now();
}

void PhaseTimings::stop() {
  if (running_.empty()) return;
  const double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  done_.push_back({running_, s, peak_rss_mb()});
  running_.clear();
}

std::string PhaseTimings::times() const {
  std::vector<std::string> parts;
  for (const Phase& p : done_) parts.push_back(fmt::format("{} {:.3f} s", p.name, p.seconds));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string PhaseTimings::peaks() const {
  std::vector<std::string> parts;
  for (const Phase& p : done_) parts.push_back(fmt::format("{} {} MB", p.name, p.peak_mb));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace fcswitch::tagger_gen

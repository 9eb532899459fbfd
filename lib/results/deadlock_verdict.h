#pragma once
// What the lab's deadlock detector (lab/deadlock_detector.h) concluded: summary.json's
// `deadlock`.

#include <cstdint>
#include <string>
#include <vector>

namespace fcswitch::lab {

struct DeadlockVerdict {
  bool detected = false;
  uint64_t formed_ns = 0;    // the last queue of the cycle stopped sending (± one check)
  uint64_t detected_ns = 0;  // the check that found the cycle
  std::vector<std::string> cycle;
};

}  // namespace fcswitch::lab

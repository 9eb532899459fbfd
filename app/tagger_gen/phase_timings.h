#pragma once
// tagger-gen's phases (routes, rules, verifier, coverage): wall time of each and the process's
// peak resident memory when it ended, for the `run time` and `peak memory` lines and
// tools/bench/tagger_scale.sh.

#include <chrono>
#include <string>
#include <vector>

namespace fcswitch::tagger_gen {

class PhaseTimings {
 public:
  // Ends the running phase, if any, and starts `name`.
  void start(std::string name);
  void stop();
  // "topology 0.001 s, routes 1.2 s, …" and "routes 105 MB, rules 812 MB, …".
  std::string times() const;
  std::string peaks() const;

 private:
  struct Phase {
    std::string name;
    double seconds = 0;
    long peak_mb = 0;
  };
  std::vector<Phase> done_;
  std::string running_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace fcswitch::tagger_gen

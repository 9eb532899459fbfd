#pragma once
// Progress of long work on stderr, so a slow run can be told from a hung one: on a terminal,
// one line rewritten in place at most a few times a second; into a file or a pipe, a whole
// line every few seconds. The caller says what it has done (and, if it knows, of how much);
// the line adds the rate and, with a total, the time left. Wall-clock time, std only.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace fcswitch {

class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;

  // `what`: "fclab run 2/8"; `unit`: "simulated ms", "runs"; `out` null: silent.
  ProgressLine(std::string what, std::string unit, std::FILE* out, bool terminal,
               Clock::duration every);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // `done` of `total` (0: unknown), and a note of the caller's ("1.2 M packet-hops/s").
  // Prints only when the interval has passed since the last line.
  void update(double done, double total, const std::string& note = "");
  // Whether update() would print now: lets a caller skip computing its note.
  bool due() const { return out_ && Clock::now() >= next_; }
  void finish();  // ends the rewritten line on a terminal

 private:
  std::string what_, unit_;
  std::FILE* out_;
  bool terminal_;
  Clock::duration every_;
  Clock::time_point start_, next_;
  bool printed_ = false;
};

// stderr when it is a terminal (4 updates a second) or not (a line every `pipe_every_s`,
// default 5 s); `quiet`: none.
ProgressLine stderr_progress(std::string what, std::string unit, bool quiet,
                             double pipe_every_s = 5.0);

}  // namespace fcswitch

#include "core/progress_line.h"

#include <unistd.h>

#include <cmath>

namespace fcswitch {

ProgressLine::ProgressLine(std::string what, std::string unit, std::FILE* out, bool terminal,
                           Clock::duration every)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      out_(out),
      terminal_(terminal),
      every_(every),
      start_(Clock::now()),
      next_(start_ + every) {}

ProgressLine::~ProgressLine() {
  finish();
}

void ProgressLine::update(double done, double total, const std::string& note) {
  if (!due()) return;
  const auto now = Clock::now();
  next_ = now + every_;
  const double elapsed_s = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed_s > 0 ? done / elapsed_s : 0;
  std::string line = what_ + ": " + std::to_string(static_cast<long long>(std::llround(done)));
  if (total > 0) {
    line += " of " + std::to_string(static_cast<long long>(std::llround(total))) + " " + unit_;
    char percent[32];
    std::snprintf(percent, sizeof percent, " (%.0f %%)", 100.0 * done / total);
    line += percent;
  } else {
    line += " " + unit_;
  }
  char tail[96];
  std::snprintf(tail, sizeof tail, ", %.3g %s/s", rate, unit_.c_str());
  line += tail;
  if (total > 0 && rate > 0 && done < total) {
    std::snprintf(tail, sizeof tail, ", %.0f s left", (total - done) / rate);
    line += tail;
  }
  if (!note.empty()) line += ", " + note;
  std::fprintf(out_, terminal_ ? "\r\033[K%s" : "%s\n", line.c_str());
  std::fflush(out_);
  printed_ = true;
}

void ProgressLine::finish() {
  if (out_ && terminal_ && printed_) std::fputc('\n', out_);
  printed_ = false;
}

ProgressLine stderr_progress(std::string what, std::string unit, bool quiet, double pipe_every_s) {
  const bool terminal = isatty(STDERR_FILENO) != 0;
  const auto pipe_every = std::chrono::duration_cast<ProgressLine::Clock::duration>(
      std::chrono::duration<double>(pipe_every_s));
  return ProgressLine(std::move(what), std::move(unit), quiet ? nullptr : stderr, terminal,
                      terminal ? std::chrono::milliseconds(250) : pipe_every);
}

}  // namespace fcswitch

#pragma once
// What every app does the same way around its run: SIGINT and SIGTERM are blocked first thing
// in main, before EAL starts its threads (all of them inherit the mask), so only the control
// loop's sigtimedwait sees them — no handler, no global flag — and one that comes while the
// config is read or EAL starts waits for it; and errors become exit codes (2: bad input, with
// every located problem on stderr; 1: anything else, logged).

#include <signal.h>
#include <time.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>

#include "config/config_error.h"

namespace fcswitch::app {

inline sigset_t stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

// main's first line.
inline void block_stop_signals() {
  const sigset_t signals = stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

// Waits up to `timeout` (at most a second) for a stop signal; returns it or 0.
inline int wait_stop_signal(std::chrono::nanoseconds timeout) {
  const sigset_t signals = stop_signals();
  const auto wait = std::clamp<std::chrono::nanoseconds>(timeout, std::chrono::nanoseconds(0),
                                                         std::chrono::seconds(1));
  const timespec ts{wait.count() >= 1'000'000'000 ? 1 : 0,
                    static_cast<long>(wait.count() % 1'000'000'000)};
  siginfo_t info;
  const int sig = sigtimedwait(&signals, &info, &ts);
  return sig > 0 ? sig : 0;
}

// `run()`'s exit code, or 2 for a bad config (its problems on stderr), 1 for another error.
template <class Run>
int exit_code_of(Run&& run) {
  try {
    return run();
  } catch (const config::ConfigError& error) {
    std::cerr << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return 1;
  }
}

}  // namespace fcswitch::app

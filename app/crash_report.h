#pragma once
// A crash says where it happened: on SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT the process
// writes the signal and its stack (glibc's backtrace: the binary and offset of each frame, for
// addr2line) to stderr, then dies of the same signal, so its exit status is unchanged. A
// multi-process run (the testbed rehearsal: six processes, logs kept) then shows a crash that
// happens once in dozens of runs with its evidence, not only "exited with 139".
// Only what is async-signal-safe once backtrace is loaded: write(2) and backtrace_symbols_fd.
// Not under ASan, whose own handler reports more.

#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

namespace fcswitch::app {

#if defined(__SANITIZE_ADDRESS__)
#define FCSWITCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FCSWITCH_ASAN 1
#endif
#endif

inline void write_crash_report(int sig) {
  const char* name = sigabbrev_np(sig);  // a static table (strsignal may translate, and lock)
  const char head[] = "\nfatal signal: SIG";
  (void)!write(STDERR_FILENO, head, sizeof(head) - 1);
  (void)!write(STDERR_FILENO, name, strlen(name));
  const char tail[] = "; stack (binary(+offset): addr2line -e BINARY OFFSET):\n";
  (void)!write(STDERR_FILENO, tail, sizeof(tail) - 1);
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
}

// main's first lines, beside block_stop_signals().
inline void install_crash_report() {
#ifndef FCSWITCH_ASAN
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc now: not inside the handler, where malloc may be broken
  struct sigaction action {};
  action.sa_handler = [](int sig) {
    write_crash_report(sig);
    raise(sig);  // SA_RESETHAND: the default action, the status a crash has
  };
  action.sa_flags = static_cast<int>(SA_RESETHAND | SA_NODEFER);
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &action, nullptr);
#endif
}

}  // namespace fcswitch::app

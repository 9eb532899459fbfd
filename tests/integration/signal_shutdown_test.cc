// SIGTERM and SIGINT stop fcswitch cleanly under load: RX stops, queues drain, every mbuf
// is back in the mempool, exit code 0. Traffic comes from net_null ports without end, so
// only the signal can stop it.

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace {

namespace fs = std::filesystem;

struct SwitchRun {
  int exit_status = -1;
  std::string output;
  std::string report;
};

SwitchRun run_and_signal(int signal, const std::string& layout) {
  const fs::path dir =
      fs::temp_directory_path() / ("fcsw_sig_" + layout + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path config = dir / "switch.toml";
  std::ofstream(config)
      << "[switch]\nname = \"sig\"\nmac_learning = false\nmbufs = 8191\n"
      << "lossless_priorities = [0]\n"
      << "[eal]\nargs = [\"--no-huge\", \"-m\", \"256\", \"--no-pci\", \"--no-telemetry\","
      << " \"--log-level=warning\", \"--file-prefix=fcsw_sig_" << layout << getpid() << "\"]\n"
      << "[layout]\npreset = \"" << layout << "\"\n"
      << "[[ports]]\nname = \"p0\"\ndevice = \"net_null0,size=60\"\n"
      << "[[ports]]\nname = \"p1\"\ndevice = \"net_null1,size=60\"\n";
  const std::string report = (dir / "report.json").string();

  int out[2];
  if (pipe(out) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    dup2(out[1], STDERR_FILENO);
    close(out[0]);
    execl(FCSWITCH_BINARY, FCSWITCH_BINARY, config.c_str(), "--report-json", report.c_str(),
          nullptr);
    _exit(127);
  }
  close(out[1]);
  SwitchRun run;
  bool signalled = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  char buffer[4096];
  for (;;) {
    pollfd pfd{out[0], POLLIN, 0};
    if (poll(&pfd, 1, 1000) > 0) {
      const ssize_t n = read(out[0], buffer, sizeof buffer);
      if (n <= 0) break;  // the child closed its output: it has exited
      run.output.append(buffer, static_cast<size_t>(n));
    }
    // Signal once it says it is forwarding: an event in its output, not a guess in time.
    if (!signalled && run.output.find("forwarding on") != std::string::npos) {
      kill(pid, signal);
      signalled = true;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      break;
    }
  }
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(report);
  run.report.assign(std::istreambuf_iterator<char>(in), {});
  fs::remove_all(dir);
  return run;
}

uint64_t first_counter(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\":([0-9]+)"))) return 0;
  return std::stoull(m[1]);
}

class SignalShutdown : public ::testing::TestWithParam<std::tuple<int, std::string>> {};

TEST_P(SignalShutdown, DrainsAndReturnsEveryMbuf) {
  const auto [signal, layout] = GetParam();
  const SwitchRun run = run_and_signal(signal, layout);
  ASSERT_EQ(run.exit_status, 0) << run.output;
  EXPECT_NE(run.output.find("stopping"), std::string::npos) << run.output;
  EXPECT_GT(first_counter(run.report, "rx_packets"), 0u) << run.report;
  EXPECT_NE(run.report.find("\"mempool_in_use\":0,"), std::string::npos) << run.report;
  EXPECT_NE(run.report.find("\"drained\":true"), std::string::npos) << run.report;
  EXPECT_EQ(first_counter(run.report, "shutdown_flush"), 0u) << run.report;
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalShutdown,
                         ::testing::Combine(::testing::Values(SIGTERM, SIGINT),
                                            ::testing::Values("compact", "testbed")),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param) == SIGTERM ? "sigterm_"
                                                                                 : "sigint_") +
                                  std::get<1>(info.param);
                         });

}  // namespace

// main() for tests that need DPDK: an EAL with no hugepages and no PCI, its own file prefix
// so it can run beside other tests; one worker lcore (on the main lcore's CPU) for the
// LcoreRunner tests.

#include <gtest/gtest.h>
#include <rte_eal.h>
#include <unistd.h>

#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::string prefix = "--file-prefix=fcsw_dpdk_test_" + std::to_string(getpid());
  const char* eal_argv[] = {"dpdk_tests",
                            "--no-huge",
                            "-m",
                            "1024",
                            "--no-pci",
                            "--no-telemetry",
                            "--log-level=warning",
                            "--lcores=0@0,1@0",
                            prefix.c_str()};
  if (rte_eal_init(static_cast<int>(std::size(eal_argv)), const_cast<char**>(eal_argv)) < 0)
    return 1;
  const int result = RUN_ALL_TESTS();
  const std::string runtime_dir = rte_eal_get_runtime_dir();
  rte_eal_cleanup();
  std::error_code ignored;  // nothing attaches to a process that has gone
  std::filesystem::remove_all(runtime_dir, ignored);
  return result;
}

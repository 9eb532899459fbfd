#include "dpdk/driver_arguments.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fcswitch::dpdk {
namespace {

using namespace std::string_literals;

// What DPDK's build puts in a driver's library: PMD_INFO_STRING, a NUL, more bytes.
const std::string kTwoDrivers =
    "\x7f"
    "ELF..."
    "PMD_INFO_STRING= {\"name\": \"net_fake\", \"params\": \"size=<int> no-rx=0|1\", "
    "\"pci_ids\": []}\0...\0"
    "PMD_INFO_STRING= {\"name\": \"net_fake_long\", \"params\": \"depth=<int>\", "
    "\"pci_ids\": []}\0tail"s;

TEST(DriverArguments, PmdInfoStringsGiveEachDriversNameAndKeys) {
  const std::vector<DriverParams> drivers = parse_pmd_info(kTwoDrivers);
  ASSERT_EQ(drivers.size(), 2u);
  EXPECT_EQ(drivers[0].driver, "net_fake");
  EXPECT_EQ(drivers[0].params, "size=<int> no-rx=0|1");
  EXPECT_EQ(drivers[1].driver, "net_fake_long");
  EXPECT_EQ(drivers[1].params, "depth=<int>");
  EXPECT_TRUE(parse_pmd_info("no tag here").empty());
}

TEST(DriverArguments, KeysRunTogetherInTheDeclarationAreStillDeclared) {
  // net_memif's declaration as DPDK 22.11 has it, without spaces between some keys.
  const std::string memif =
      "id=<int>role=server|clientbsize=<int>rsize=<int>socket=<string>socket-abstract=yes|no"
      "mac=xx:xx:xx:xx:xx:xxzero-copy=yes|nosecret=<string>";
  EXPECT_TRUE(undeclared_keys("net_memif0,role=server,socket=/x.sock,socket-abstract=no,"
                              "bsize=2048,rsize=11,zero-copy=no,secret=s",
                              memif)
                  .empty());
  EXPECT_EQ(undeclared_keys("net_memif0,role=server,sockets=/x.sock,ring=4", memif),
            (std::vector<std::string>{"sockets", "ring"}));
  EXPECT_TRUE(undeclared_keys("net_memif0", memif).empty());
}

TEST(DriverArguments, ABracketListIsOneArgument) {
  EXPECT_EQ(undeclared_keys("net_x0,list=[1,2,3],other", "list=<list>"),
            (std::vector<std::string>{"other"}));
}

TEST(DriverArguments, TheDriverIsTheLongestNameThatBeginsTheDevice) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("fcswitch_pmds_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "librte_net_fake.so", std::ios::binary) << kTwoDrivers;
  std::ofstream(dir / "librte_net_other.so", std::ios::binary)
      << "PMD_INFO_STRING= {\"name\": \"net_other\", \"params\": \"x=1\", \"pci_ids\": []}"s;

  const auto problem = driver_argument_problem("net_fake_long0,size=64", dir.string());
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->expected, "arguments that driver net_fake_long declares (depth=<int>)");
  EXPECT_EQ(problem->found, "key \"size\"");
  const auto two = driver_argument_problem("net_fake3,bogus_arg=1,size=64,nope", dir.string());
  ASSERT_TRUE(two);
  EXPECT_EQ(two->expected, "arguments that driver net_fake declares (size=<int> no-rx=0|1)");
  EXPECT_EQ(two->found, "keys \"bogus_arg\", \"nope\"");
  EXPECT_FALSE(driver_argument_problem("net_fake0,size=64,no-rx=1", dir.string()));
  // A net_* vdev no driver there begins is no driver at all; an eth_* name may be an alias.
  const auto unknown = driver_argument_problem("net_unknown0,bogus=1", dir.string());
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->expected,
            "a driver of this DPDK at the start of its name (its virtual ones: net_fake, "
            "net_fake_long, net_other)");
  EXPECT_EQ(unknown->found, "\"net_unknown0\"");
  EXPECT_FALSE(driver_argument_problem("eth_unknown0,bogus=1", dir.string()));
  // A PCI device (its driver is known once probed), or no DPDK libraries: the EAL decides.
  EXPECT_FALSE(driver_argument_problem("0000:03:00.0,bogus=1", dir.string()));
  EXPECT_FALSE(driver_argument_problem("net_fake0,bogus=1", (dir / "absent").string()));
  std::filesystem::remove_all(dir);
}

TEST(DriverArguments, TheInstalledNullDriverNamesTheKeyItWouldRefuse) {
  // The EAL's own driver directory: what fcswitch --check reads.
  const auto problem = driver_argument_problem("net_null0,bogus_arg=1");
  ASSERT_TRUE(problem) << "no net_null driver with declared keys in the EAL's driver directory";
  EXPECT_NE(problem->expected.find("net_null declares (size=<int>"), std::string::npos)
      << problem->expected;
  EXPECT_EQ(problem->found, "key \"bogus_arg\"");
  EXPECT_FALSE(driver_argument_problem("net_null0,size=64,no-rx=1"));
  EXPECT_FALSE(driver_argument_problem(
      "net_memif0,role=client,socket=/tmp/x.sock,socket-abstract=no,rsize=11"));
  EXPECT_FALSE(driver_argument_problem("net_pcap0,rx_pcap=/a.pcap,tx_pcap=/b.pcap"));
  EXPECT_FALSE(driver_argument_problem("net_tap0,iface=fc0"));
  EXPECT_FALSE(driver_argument_problem("net_af_packet0,iface=veth0"));
  // net_tun lives in librte_net_tap.so: known, though no library is named for it.
  EXPECT_FALSE(driver_argument_problem("net_tun0,iface=tun0"));
  const auto unknown = driver_argument_problem("net_bogus0");
  ASSERT_TRUE(unknown);
  EXPECT_NE(unknown->expected.find(" net_null, "), std::string::npos) << unknown->expected;
}

}  // namespace
}  // namespace fcswitch::dpdk

#pragma once
// A vdev's arguments checked against the keys its driver declares, before the EAL probes it.
// A driver that meets a key it does not know refuses the whole device, and most say nothing
// of which key (rte_kvargs_parse fails without a message): net_null0,bogus_arg=1 came out as
// "its driver refused" with no name. Each driver declares its keys in its library as
// RTE_PMD_REGISTER_PARAM_STRING, which DPDK's build stores as a PMD_INFO_STRING (the text
// dpdk-pmdinfo.py reads); that is read here from the EAL's driver directory, so a --check
// names the key without probing anything.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fcswitch::dpdk {

struct DriverParams {
  std::string driver;           // "net_null"
  std::string params;           // as declared: "size=<int> copy=<int> no-rx=0|1"
  bool virtual_device = false;  // a vdev's driver (it matches no PCI id)
};

// The driver a vdev ("net_null0,size=64") binds to, among the libraries of `pmd_dir` (the
// EAL's plugin directory by default) named for its name's start (librte_net_null.so), and the
// keys it declares; nullopt for a PCI address or a driver not found there (net_tun, in
// librte_net_tap.so; an alias; another DPDK).
std::optional<DriverParams> find_driver_params(std::string_view device, const std::string& pmd_dir);
std::optional<DriverParams> find_driver_params(std::string_view device);

// For a vdev named net_* that no network driver of `pmd_dir`'s libraries begins (net_bogus0):
// what was expected, naming the virtual drivers there; "" otherwise (a known driver, an
// eth_* alias, a PCI address, a directory without DPDK's libraries).
std::string unknown_vdev_driver(std::string_view device, const std::string& pmd_dir);
std::string unknown_vdev_driver(std::string_view device);

// The driver's name and declared keys from the PMD_INFO_STRINGs in a library's bytes.
std::vector<DriverParams> parse_pmd_info(std::string_view library_bytes);

// The keys of a device's arguments ("net_null0,size=64,bogus" → size, bogus) that `params`
// does not declare. Some drivers declare their keys run together ("id=<int>role=server|client
// bsize=<int>"): a key counts as declared wherever "key=" appears, so nothing a driver accepts
// is ever named here; at worst a bad key that is the tail of a good one passes to the EAL.
std::vector<std::string> undeclared_keys(std::string_view device, std::string_view params);

// What the device's driver would refuse of its arguments (or that there is no such driver), as
// a config error's expected and found; nullopt when every key is declared or nothing is known
// of the driver.
struct DriverArgumentProblem {
  std::string expected;  // "keys net_null declares (size=<int> copy=<int> no-rx=0|1)"
  std::string found;     // "bogus_arg"
};
std::optional<DriverArgumentProblem> driver_argument_problem(std::string_view device,
                                                             const std::string& pmd_dir);
std::optional<DriverArgumentProblem> driver_argument_problem(std::string_view device);

}  // namespace fcswitch::dpdk

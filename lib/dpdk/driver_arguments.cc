#include "dpdk/driver_arguments.h"

#include <rte_build_config.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "dpdk/eal_session.h"

namespace fcswitch::dpdk {

namespace {

// The string value of `"key": "..."` in one PMD_INFO_STRING's JSON (no escapes occur in the
// names and parameter texts drivers declare); "" when absent.
std::string json_string(std::string_view json, std::string_view key) {
  const std::string quoted = fmt::format("\"{}\": \"", key);
  const size_t at = json.find(quoted);
  if (at == std::string_view::npos) return "";
  const size_t begin = at + quoted.size();
  const size_t end = json.find('"', begin);
  return end == std::string_view::npos ? "" : std::string(json.substr(begin, end - begin));
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A device's arguments split at the commas kvargs splits at (not inside "[...]" lists).
std::vector<std::string_view> arguments_of(std::string_view device) {
  std::vector<std::string_view> args;
  const size_t comma = device.find(',');
  if (comma == std::string_view::npos) return args;
  std::string_view rest = device.substr(comma + 1);
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= rest.size(); ++i) {
    if (i == rest.size() || (rest[i] == ',' && depth == 0)) {
      if (i > begin) args.push_back(rest.substr(begin, i - begin));
      begin = i + 1;
    } else if (rest[i] == '[') {
      ++depth;
    } else if (rest[i] == ']' && depth > 0) {
      --depth;
    }
  }
  return args;
}

}  // namespace

std::vector<DriverParams> parse_pmd_info(std::string_view library_bytes) {
  constexpr std::string_view kTag = "PMD_INFO_STRING= ";
  std::vector<DriverParams> drivers;
  for (size_t at = library_bytes.find(kTag); at != std::string_view::npos;
       at = library_bytes.find(kTag, at + kTag.size())) {
    const size_t begin = at + kTag.size();
    const std::string_view json =
        library_bytes.substr(begin, library_bytes.find('\0', begin) - begin);
    DriverParams driver{json_string(json, "name"), json_string(json, "params"),
                        json.find("\"pci_ids\": []") != std::string_view::npos};
    if (!driver.driver.empty()) drivers.push_back(std::move(driver));
  }
  return drivers;
}

namespace {

// The drivers declared in the libraries of `pmd_dir` whose file stem ("net_null" of
// librte_net_null.so) passes `read`.
template <typename Read>
std::vector<DriverParams> drivers_in(const std::string& pmd_dir, Read read) {
  std::vector<DriverParams> drivers;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(pmd_dir, error)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("librte_", 0) != 0 || !file.ends_with(".so")) continue;
    if (!read(std::string_view(file).substr(7, file.size() - 10))) continue;
    for (DriverParams& driver : parse_pmd_info(read_bytes(entry.path())))
      drivers.push_back(std::move(driver));
  }
  return drivers;
}

// The driver DPDK binds a vdev to: the one whose name (net_null) begins the device's
// (net_null0), the longest if several do.
std::optional<DriverParams> driver_of(const std::string& name,
                                      const std::vector<DriverParams>& drivers) {
  const DriverParams* best = nullptr;
  for (const DriverParams& driver : drivers)
    if (name.starts_with(driver.driver) && (!best || driver.driver.size() > best->driver.size()))
      best = &driver;
  return best ? std::optional<DriverParams>(*best) : std::nullopt;
}

}  // namespace

std::optional<DriverParams> find_driver_params(std::string_view device,
                                               const std::string& pmd_dir) {
  if (is_pci_address(device)) return std::nullopt;  // its driver is known only once probed
  const std::string name = device_name(device);
  // A driver mostly lives in librte_<its name's start>.so (net_virtio_user in
  // librte_net_virtio.so): only those libraries are read.
  return driver_of(
      name, drivers_in(pmd_dir, [&](std::string_view stem) { return name.starts_with(stem); }));
}

std::string unknown_vdev_driver(std::string_view device, const std::string& pmd_dir) {
  const std::string name = device_name(device);
  if (is_pci_address(device) || !name.starts_with("net_")) return "";  // eth_* are aliases
  // Every network driver's library (net_tun lives in librte_net_tap.so): 15 MB on Debian's
  // DPDK 22.11, read only for a device no library's name began.
  std::vector<DriverParams> drivers =
      drivers_in(pmd_dir, [](std::string_view stem) { return stem.starts_with("net_"); });
  if (drivers.empty() || driver_of(name, drivers)) return "";  // not this DPDK's layout, or known
  std::vector<std::string> vdevs;
  for (const DriverParams& driver : drivers)
    if (driver.virtual_device) vdevs.push_back(driver.driver);
  std::sort(vdevs.begin(), vdevs.end());
  return fmt::format("a driver of this DPDK at the start of its name (its virtual ones: {})",
                     fmt::join(vdevs, ", "));
}

std::string unknown_vdev_driver(std::string_view device) {
  return unknown_vdev_driver(device, RTE_EAL_PMD_PATH);
}

std::optional<DriverParams> find_driver_params(std::string_view device) {
  return find_driver_params(device, RTE_EAL_PMD_PATH);
}

std::vector<std::string> undeclared_keys(std::string_view device, std::string_view params) {
  std::vector<std::string> keys;
  for (std::string_view arg : arguments_of(device)) {
    const std::string key(arg.substr(0, arg.find('=')));
    if (params.find(key + "=") == std::string_view::npos) keys.push_back(key);
  }
  return keys;
}

std::optional<DriverArgumentProblem> driver_argument_problem(std::string_view device,
                                                             const std::string& pmd_dir) {
  const std::optional<DriverParams> driver = find_driver_params(device, pmd_dir);
  if (!driver) {  // not where its name points: perhaps no such driver at all
    std::string expected = unknown_vdev_driver(device, pmd_dir);
    if (expected.empty()) return std::nullopt;
    return DriverArgumentProblem{std::move(expected), fmt::format("\"{}\"", device_name(device))};
  }
  if (driver->params.empty()) return std::nullopt;  // declares none: the EAL decides
  const std::vector<std::string> keys = undeclared_keys(device, driver->params);
  if (keys.empty()) return std::nullopt;
  return DriverArgumentProblem{
      fmt::format("arguments that driver {} declares ({})", driver->driver, driver->params),
      fmt::format("{} \"{}\"", keys.size() == 1 ? "key" : "keys", fmt::join(keys, "\", \""))};
}

std::optional<DriverArgumentProblem> driver_argument_problem(std::string_view device) {
  return driver_argument_problem(device, RTE_EAL_PMD_PATH);
}

}  // namespace fcswitch::dpdk

#include "dpdk/nic_profile.h"

namespace fcswitch::dpdk {

const NicProfile& choose_profile(config::NicProfileKind kind, std::string_view driver_name,
                                 bool is_pci) {
  switch (kind) {
    case config::NicProfileKind::kIxgbe82599:
      return kIxgbe82599Profile;
    case config::NicProfileKind::kVdev:
      return kVdevProfile;
    case config::NicProfileKind::kAuto:
      break;
  }
  if (driver_name == "net_ixgbe") return kIxgbe82599Profile;
  return is_pci ? kGenericNicProfile : kVdevProfile;
}

}  // namespace fcswitch::dpdk

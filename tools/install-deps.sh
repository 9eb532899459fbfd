#!/usr/bin/env bash
# Installs whatever fcswitch needs that is missing, from Debian 12's archive.
# Idempotent and quiet when everything is already there.
set -euo pipefail

packages=(
  build-essential meson ninja-build pkg-config python3
  libdpdk-dev dpdk dpdk-dev libnuma-dev libpcap-dev
  libspdlog-dev libfmt-dev prometheus-cpp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libtomlplusplus-dev libcli11-dev nlohmann-json3-dev
  tshark iproute2 iputils-ping iperf3 ethtool clang libclang-rt-14-dev python3-matplotlib python3-markdown
  prometheus parallel mkdocs mkdocs-material help2man
)

# Without what they recommend: the testbed's playbook (tools/testbed/testbed.sh) needs
# ansible-core alone, not the collections Debian's `ansible` adds (hundreds of MB it does not use).
bare_packages=(ansible-core)

absent() {  # PACKAGE...: those not installed
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
mapfile -t missing < <(absent "${packages[@]}")
mapfile -t missing_bare < <(absent "${bare_packages[@]}")
[ ${#missing[@]} -eq 0 ] && [ ${#missing_bare[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]} ${missing_bare[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer no, non-interactively.
echo "wireshark-common wireshark-common/install-setuid boolean false" | "${sudo_cmd[@]}" debconf-set-selections
"${sudo_cmd[@]}" apt-get update -qq
[ ${#missing[@]} -eq 0 ] || "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
[ ${#missing_bare[@]} -eq 0 ] ||
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing_bare[@]}" >/dev/null

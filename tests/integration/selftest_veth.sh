#!/usr/bin/env bash
# `fcswitch selftest` over a veth pair (net_af_packet ports): PFC, credit and data frames sent
# out of one port arrive byte for byte at the other, and the selftest says so. Then across
# two unconnected pairs: nothing arrives, and it fails naming what is missing.
# Needs root and iproute2 (CI runs as root; tools/install-deps.sh installs iproute2).
set -euo pipefail
fcswitch=$1
id=$$
a=fcs${id}a b=fcs${id}b c=fcs${id}c d=fcs${id}d
dir=$(mktemp -d)
cleanup() { ip link del "$a" 2>/dev/null || true; ip link del "$c" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
ip link add "$a" type veth peer name "$b"
ip link add "$c" type veth peer name "$d"
for i in "$a" "$b" "$c" "$d"; do ip link set "$i" up; done

cat > "$dir/selftest.toml" <<TOML
[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--file-prefix=fcst$id", "--log-level=warning"]
[[ports]]
name = "a"
device = "net_af_packet0,iface=$a"
[[ports]]
name = "b"
device = "net_af_packet1,iface=$b"
control_ether_type = 0x88B6
[[ports]]
name = "c"
device = "net_af_packet2,iface=$c"
TOML

"$fcswitch" selftest "$dir/selftest.toml" --from a --to b --log-level warn > "$dir/out" 2>&1
cat "$dir/out"
grep -Eq '^PFC 802.1Qbb, EtherType 0x8808 +8 +8$' "$dir/out"
grep -Eq '^credit frame \(CBFC\), EtherType 0x88B5 +8 +8$' "$dir/out"
grep -Eq '^data frame, EtherType 0x88B7 +8 +8$' "$dir/out"
grep -q '^passed$' "$dir/out"

# b sends with PFC moved to 0x88B6: that probe is there too.
"$fcswitch" selftest "$dir/selftest.toml" --from b --to a --log-level warn > "$dir/out" 2>&1
cat "$dir/out"
grep -Eq '^PFC layout, control_ether_type 0x88B6 +8 +8$' "$dir/out"

# a and c are not connected: the selftest must fail and say what is missing.
if "$fcswitch" selftest "$dir/selftest.toml" --from a --to c --timeout 200 --log-level warn \
    > "$dir/out" 2>&1; then
  echo "selftest passed between unconnected ports"; exit 1
fi
cat "$dir/out"
grep -Eq '^credit frame \(CBFC\), EtherType 0x88B5 +8 +0  MISSING$' "$dir/out"
grep -q '^FAILED' "$dir/out"
echo "selftest_veth: ok"

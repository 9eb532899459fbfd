#!/usr/bin/env bash
# `fcswitch selftest` over a veth pair (net_af_packet ports): PFC, credit and data frames sent
# out of one port arrive byte for byte at the other, and the selftest says so. Then across
# two unconnected pairs: nothing arrives, and it fails naming what is missing. Then `selftest
# --links` as the testbed's check runs it, a process at each end of a cable (a veth pair e–f,
# f in a network namespace of its own, as another machine): both hear every probe of the
# other's and pass; alone at a cable's end (c), it fails, saying that nothing was heard.
# (Two processes' af_packet ports in one namespace may collide on a fanout group: DPDK takes
# its id from the PID and the interface index, and the kernel refuses a second device.)
# Needs root and iproute2 (CI runs as root; tools/install-deps.sh installs iproute2).
set -euo pipefail
fcswitch=$1
id=$$
a=fcs${id}a b=fcs${id}b c=fcs${id}c d=fcs${id}d e=fcs${id}e f=fcs${id}f ns=fcs${id}ns
dir=$(mktemp -d)
cleanup() {
  for i in "$a" "$c" "$e"; do ip link del "$i" 2>/dev/null || true; done
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
ip link add "$a" type veth peer name "$b"
ip link add "$c" type veth peer name "$d"
for i in "$a" "$b" "$c" "$d"; do ip link set "$i" up; done
ip netns add "$ns"
ip link add "$e" type veth peer name "$f"
ip link set "$f" netns "$ns"
ip link set "$e" up
ip -n "$ns" link set "$f" up

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

for end in e f c; do
  cat > "$dir/links_$end.toml" <<TOML
[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--file-prefix=fcst$id$end", "--log-level=warning"]
[[ports]]
name = "$end"
device = "net_af_packet0,iface=$(eval echo "\$$end")"
TOML
done
"$fcswitch" selftest "$dir/links_e.toml" --links --log-level warn > "$dir/links_e" 2>&1 &
e_pid=$!
ip netns exec "$ns" "$fcswitch" selftest "$dir/links_f.toml" --links --log-level warn \
  > "$dir/links_f" 2>&1 || { cat "$dir/links_f"; wait "$e_pid" || true; cat "$dir/links_e"; exit 1; }
wait "$e_pid" || { cat "$dir/links_e" "$dir/links_f"; exit 1; }
for end in e f; do
  cat "$dir/links_$end"
  grep -q "^port $end: .* heard by its peer: yes$" "$dir/links_$end"
  grep -Eq '^  PFC 802.1Qbb, EtherType 0x8808 +8 of 8$' "$dir/links_$end"
  grep -Eq '^  credit frame \(CBFC\), EtherType 0x88B5 +8 of 8$' "$dir/links_$end"
  grep -q '^passed$' "$dir/links_$end"
done
if "$fcswitch" selftest "$dir/links_c.toml" --links --timeout 300 --log-level warn \
    > "$dir/out" 2>&1; then
  echo "selftest --links passed with nobody at the other end"; exit 1
fi
cat "$dir/out"
grep -q '^port c: .* peer none heard; heard by its peer: NO$' "$dir/out"
grep -Eq '^  PFC 802.1Qbb, EtherType 0x8808 +0 of 8  MISSING$' "$dir/out"
grep -q '^FAILED' "$dir/out"
echo "selftest_veth: ok"

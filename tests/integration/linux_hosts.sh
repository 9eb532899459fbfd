#!/usr/bin/env bash
# Two Linux hosts talk through fcswitch: one network namespace per switch port, each with an
# IPv4 address and nothing configured by hand (no static ARP). Checks that ARP resolves
# (Linux sends its 42-byte ARP unpadded: the switch must forward it, not drop it as a runt),
# ping works both ways, iperf3 TCP in the lossless class runs for a few seconds with no
# lossless drop and no runt, and the switch exits cleanly on SIGTERM with its mempool full.
# Prints the TCP throughput (a figure, not an assertion). The namespaces, links and processes
# are removed afterwards whether the test passed or not, and that is checked too.
#
#   linux_hosts.sh FCSWITCH tap|af_packet
#
# tap: the switch's ports are net_tap devices, each tap moved into its host's namespace.
# af_packet: the switch's ports are net_af_packet on the root end of a veth pair whose other
# end is in the namespace (offloads off: af_packet would pass unsegmented, unchecksummed
# packets through).
# Needs root, iproute2, iputils-ping, iperf3 and ethtool (tools/install-deps.sh installs them).
set -uo pipefail
fcswitch=$1
mode=$2
id=$$
dir=$(mktemp -d)
ns=(fclh${id}a fclh${id}b)
sw_if=(fct${id}a fct${id}b)  # the switch's side (tap: moved into the namespace)
host_if=(fct${id}a fct${id}b)
[ "$mode" = af_packet ] && host_if=(fcv${id}a fcv${id}b)
addr=(198.18.0.1 198.18.0.2)  # RFC 2544's benchmarking range, only ever inside the namespaces
switch_pid=""
server_pid=""

cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  if [ -n "$switch_pid" ] && kill -0 "$switch_pid" 2>/dev/null; then
    kill -KILL "$switch_pid" 2>/dev/null
    wait "$switch_pid" 2>/dev/null
  fi
  for n in "${ns[@]}"; do ip netns del "$n" 2>/dev/null; done
  for i in "${sw_if[@]}"; do ip link del "$i" 2>/dev/null; done
  rm -rf "$dir" /var/run/dpdk/fclh$id
  return 0
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*"
  echo "--- switch log"
  cat "$dir/switch.log" 2>/dev/null
  return 1
}

# Polls a condition (a command) every 50 ms for up to $1 seconds.
wait_for() {
  local seconds=$1
  shift
  local tries=$((seconds * 20))
  for ((i = 0; i < tries; i++)); do
    "$@" && return 0
    sleep 0.05
  done
  return 1
}

in_ns() {
  local n=$1
  shift
  ip netns exec "$n" "$@"
}

# Bad input first: a tap name already taken refuses the port with a message naming it, and
# nothing starts.
taken_tap() {
  local taken=fcx${id}
  ip tuntap add dev "$taken" mode tap || return 1
  cat > "$dir/taken.toml" <<TOML
[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--no-telemetry", "--file-prefix=fclx$id",
        "--log-level=warning"]
[[ports]]
name = "a"
device = "net_tap0,iface=$taken"
TOML
  "$fcswitch" "$dir/taken.toml" --duration 1 > "$dir/taken.log" 2>&1
  local rc=$?
  ip link del "$taken"
  rm -rf /var/run/dpdk/fclx$id
  [ "$rc" -ne 0 ] || { cat "$dir/taken.log"; echo "FAIL: a taken tap name was accepted"; return 1; }
  grep -q "port a: no DPDK device \"net_tap0\": its driver refused" "$dir/taken.log" ||
    { cat "$dir/taken.log"; echo "FAIL: no clear message for a taken tap name"; return 1; }
  echo "taken tap name: refused, port named"
}

body() {
  if [ "$mode" = tap ]; then taken_tap || return 1; fi
  for n in "${ns[@]}"; do ip netns add "$n" || return 1; done
  local devices=()
  if [ "$mode" = tap ]; then
    devices=("net_tap0,iface=${sw_if[0]}" "net_tap1,iface=${sw_if[1]}")
  else
    for k in 0 1; do
      ip link add "${sw_if[$k]}" type veth peer name "${host_if[$k]}" netns "${ns[$k]}" || return 1
      ip link set "${sw_if[$k]}" up
      ethtool -K "${sw_if[$k]}" tso off gso off gro off tx off rx off >/dev/null 2>&1
    done
    devices=("net_af_packet0,iface=${sw_if[0]}" "net_af_packet1,iface=${sw_if[1]}")
  fi

  # TCP with DSCP 26 is priority 3, lossless under PFC: a drop there is a switch fault.
  cat > "$dir/switch.toml" <<TOML
[switch]
name = "lh$mode"
lossless_priorities = [3]
mbufs = 16383
[eal]
args = ["--no-huge", "-m", "512", "--no-pci", "--no-telemetry", "--file-prefix=fclh$id",
        "--log-level=warning"]
[flow_control]
engine = "pfc"
[[ports]]
name = "a"
device = "${devices[0]}"
[[ports]]
name = "b"
device = "${devices[1]}"
TOML
  "$fcswitch" "$dir/switch.toml" --report-json "$dir/report.json" > "$dir/switch.log" 2>&1 &
  switch_pid=$!
  wait_for 30 grep -q "SIGINT or SIGTERM stops" "$dir/switch.log" ||
    fail "the switch did not start" || return 1

  for k in 0 1; do
    local n=${ns[$k]} i=${host_if[$k]}
    if [ "$mode" = tap ]; then ip link set "$i" netns "$n" || return 1; fi
    in_ns "$n" ip link set lo up
    in_ns "$n" ip link set "$i" up
    in_ns "$n" ip addr add "${addr[$k]}/24" dev "$i"
    # No IPv6 chatter (router and neighbour solicitations) in the counts.
    in_ns "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
    if [ "$mode" = af_packet ]; then
      in_ns "$n" ethtool -K "$i" tso off gso off gro off tx off rx off >/dev/null 2>&1
    fi
  done

  # ARP through the switch: the first ping resolves the neighbour, nothing is static.
  in_ns "${ns[0]}" ping -c 3 -i 0.2 -W 2 "${addr[1]}" > "$dir/ping_ab" ||
    fail "ping a → b: $(cat "$dir/ping_ab")" || return 1
  in_ns "${ns[1]}" ping -c 3 -i 0.2 -W 2 "${addr[0]}" > "$dir/ping_ba" ||
    fail "ping b → a: $(cat "$dir/ping_ba")" || return 1
  in_ns "${ns[0]}" ip neigh show "${addr[1]}" | grep -q lladdr ||
    fail "a has no ARP entry for b" || return 1
  in_ns "${ns[1]}" ip neigh show "${addr[0]}" | grep -q lladdr ||
    fail "b has no ARP entry for a" || return 1
  echo "ping: both ways, ARP resolved through the switch"

  in_ns "${ns[1]}" iperf3 -s -1 -B "${addr[1]}" > "$dir/iperf_server" 2>&1 &
  server_pid=$!
  wait_for 10 in_ns "${ns[1]}" sh -c "ss -ltn | grep -q ':5201'" ||
    fail "iperf3 server did not listen" || return 1
  in_ns "${ns[0]}" iperf3 -c "${addr[1]}" -t 3 --tos 0x68 -J > "$dir/iperf.json" 2>&1 ||
    fail "iperf3: $(cat "$dir/iperf.json")" || return 1
  wait "$server_pid" 2>/dev/null
  server_pid=""
  python3 - "$dir/iperf.json" "$mode" <<'PY' || return 1
import json, sys
result = json.load(open(sys.argv[1]))["end"]
received = result["sum_received"]
print(f"iperf3 TCP through fcswitch ({sys.argv[2]}): {received['bits_per_second'] / 1e6:.0f} Mb/s "
      f"over {received['seconds']:.1f} s, {result['sum_sent']['retransmits']} retransmits")
if received["bytes"] == 0:
    sys.exit("iperf3 moved no bytes")
PY

  kill -TERM "$switch_pid"
  wait "$switch_pid"
  local rc=$?
  switch_pid=""
  [ "$rc" -eq 0 ] || fail "the switch exited with $rc after SIGTERM" || return 1
  python3 - "$dir/report.json" <<'PY' || { fail "report"; return 1; }
import json, sys
report = json.load(open(sys.argv[1]))
problems = []
for port in report["ports"]:
    drops = port["drops"]
    for reason in ("runt", "malformed", "lossless_overflow", "shutdown_flush"):
        if drops[reason]:
            problems.append(f"port {port['name']}: {drops[reason]} {reason} drops")
    if port["admitted_packets"][3] == 0 and port["name"] == "a":
        problems.append("port a: nothing admitted to the lossless priority 3 (DSCP 26)")
if report["mempool_in_use"] != 0:
    problems.append(f"{report['mempool_in_use']} mbufs still in use after shutdown")
padded = sum(port["short_frames_padded"] for port in report["ports"])
print(f"switch: clean exit, mempool full, {padded} short frames padded on transmit")
if padded == 0:
    problems.append("no short frame was padded: ARP and ACKs arrive unpadded from Linux")
for problem in problems:
    print("FAIL:", problem)
sys.exit(1 if problems else 0)
PY
}

body
status=$?
trap - EXIT
cleanup
# Nothing left behind, pass or fail.
for n in "${ns[@]}"; do
  if ip netns list | grep -qw "$n"; then echo "FAIL: namespace $n left behind"; status=1; fi
done
for i in "${sw_if[@]}"; do
  if ip link show "$i" >/dev/null 2>&1; then echo "FAIL: link $i left behind"; status=1; fi
done
[ "$status" -eq 0 ] && echo "linux_hosts $mode: ok"
exit "$status"

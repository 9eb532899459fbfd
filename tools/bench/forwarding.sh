#!/usr/bin/env bash
# Forwarding benchmark (prints figures, never fails on speed): Mpps of 64-byte frames
# through fcswitch on two net_null ports, in the compact layout (one worker lcore) and a
# two-lcore layout (RX+TX on one, FWD on the other), beside Debian's dpdk-testpmd
# --forward-mode=mac on the same ports with one forwarding core, and their ratio.
#
# With MAC learning off and no FIB entry, every net_null frame is unknown unicast; with two
# ports the flood goes to the other port alone, without a copy — plain port-to-port L2
# forwarding, like testpmd's. Usage: tools/bench/forwarding.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-5}
fcswitch=${FCSWITCH:-build/app/fcswitch}  # another build to compare: FCSWITCH=/path/fcswitch
tools/install-deps.sh
tools/build.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

eal_common='"--no-huge", "-m", "1024", "--no-pci", "--no-telemetry", "--log-level=warning"'
write_config() {  # name, layout table
  cat > "$work/$1.toml" <<EOT
[switch]
name = "bench"
mac_learning = false
mbufs = 65535
[eal]
args = [$eal_common, "--file-prefix=fcsw_bench_$1"]
[[ports]]
name = "p0"
device = "net_null0,size=60"
[[ports]]
name = "p1"
device = "net_null1,size=60"
$2
EOT
}
write_config compact '[layout]
preset = "compact"'
# The same with PFC on the frames' priority (net_null frames are priority 0): the gates and
# generators run on every TX poll; nothing pauses, so this is the cost of the slot itself.
write_config compact_pfc '[layout]
preset = "compact"
[flow_control]
engine = "pfc"
[flow_control.pfc]
xoff = "900KB"
xon = "890KB"'
sed -i 's/^mac_learning = false$/mac_learning = false\nlossless_priorities = [0]/' "$work/compact_pfc.toml"
# Buffer-based GFC: the gate asks its rate limiter for every packet (at stage 0, no wait).
write_config compact_gfc '[layout]
preset = "compact"
[flow_control]
engine = "gfc-buffer"'
sed -i 's/^mac_learning = false$/mac_learning = false\nlossless_priorities = [0]/' "$work/compact_gfc.toml"
# Both ports capped at 1 Gb/s by their pacers: 1e9 / ((60 + 24) × 8) = 1.488 Mpps each.
write_config compact_capped '[layout]
preset = "compact"'
sed -i 's/^device = "net_null\([01]\),size=60"$/device = "net_null\1,size=60"\nrate_limit = "1Gbps"/' "$work/compact_capped.toml"
write_config two_lcore '[layout]
preset = "custom"
lcores = [["rx:p0", "rx:p1", "tx:p0", "tx:p1"], ["fwd"]]'

fcswitch_mpps() {  # config name → Mpps forwarded (both directions)
  "$fcswitch" "$work/$1.toml" --duration "$seconds" --report-json "$work/$1.json" \
    --log-level warn > "$work/$1.log" 2>&1
  python3 - "$work/$1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sent = sum(sum(p["tx_packets"]) for p in r["ports"])
print(f"{sent / r['run_seconds'] / 1e6:.2f}")
PY
}

testpmd_mpps() {  # → Mpps forwarded (both directions), from testpmd's last per-port Tx-pps
  timeout -s INT $((seconds + 3)) dpdk-testpmd -l 0-1 --no-huge -m 1024 --no-pci --no-telemetry \
    --file-prefix=fcsw_bench_testpmd --log-level=warning \
    --vdev net_null0,size=60 --vdev net_null1,size=60 -- \
    --forward-mode=mac --auto-start --stats-period 1 --total-num-mbufs=65535 \
    < /dev/null > "$work/testpmd.log" 2>&1 || true
  python3 - "$work/testpmd.log" <<'PY'
import re, sys
rates = [int(x) for x in re.findall(r"Tx-pps:\s+(\d+)", open(sys.argv[1]).read())]
last = rates[-4:-2] if len(rates) >= 4 else rates[-2:]  # the last full period, both ports
print(f"{sum(last) / 1e6:.2f}")
PY
}

compact=$(fcswitch_mpps compact)
compact_pfc=$(fcswitch_mpps compact_pfc)
compact_gfc=$(fcswitch_mpps compact_gfc)
compact_capped=$(fcswitch_mpps compact_capped)
two=$(fcswitch_mpps two_lcore)
reference=$(testpmd_mpps)
echo "64-byte frames, 2 net_null ports, ${seconds} s each, $(nproc) CPUs"
printf "%-36s %8s Mpps\n" "fcswitch compact (1 worker lcore)" "$compact"
printf "%-36s %8s Mpps\n" "fcswitch compact, PFC on priority 0" "$compact_pfc"
printf "%-36s %8s Mpps\n" "fcswitch compact, gfc-buffer on prio 0" "$compact_gfc"
printf "%-36s %8s Mpps (target 2.976)\n" "fcswitch compact, ports at 1 Gb/s" "$compact_capped"
printf "%-36s %8s Mpps\n" "fcswitch two-lcore (rx+tx | fwd)" "$two"
printf "%-36s %8s Mpps\n" "dpdk-testpmd mac (1 forwarding core)" "$reference"
python3 -c "print(f'ratio fcswitch compact / testpmd:   {$compact / $reference:.2f}'); print(f'ratio fcswitch two-lcore / testpmd: {$two / $reference:.2f}')"

#!/usr/bin/env bash
# --exit-on-idle means "nothing moved for that long", also when lossless packets are held by a
# gate that will never open: a pcap replay into a CBFC port sends no credits (issue 22, item
# 1: the switch ran on past 90 s). What stays held is reported and flushed as shutdown_flush.
# Usage: exit_on_idle.sh FCSWITCH
set -uo pipefail
fcswitch=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
frames=50
# IPv4 frames with DSCP 26 (priority 3 by the default class-selector map: 26 >> 3 = 3).
python3 - "$work/in.pcap" "$frames" <<'PY'
import struct, sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i in range(n):
        payload = bytes(986)
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 26 << 2, 20 + len(payload), i, 0, 64, 17, 0,
                         bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])) + payload
        frame = bytes.fromhex("020000000002" "020000000001" "0800") + ip
        f.write(struct.pack("<IIII", 0, i, len(frame), len(frame)) + frame)
PY
cat > "$work/switch.toml" <<EOT
[switch]
name = "idle"
lossless_priorities = [3]
[eal]
args = ["--no-huge", "-m", "512", "--no-pci", "--no-telemetry", "--file-prefix=fcsw_idle_$$"]
[flow_control]
engine = "cbfc"
[[ports]]
name = "in"
device = "net_pcap0,rx_pcap=$work/in.pcap"
[[ports]]
name = "out"
device = "net_null0,no-rx=1"
[[fib]]
mac = "02:00:00:00:00:02"
port = "out"
EOT
start=$(date +%s)
# The bound is the failure mode's (forever), not a speed: a slow machine takes a few seconds.
timeout 60 "$fcswitch" "$work/switch.toml" --exit-on-idle 300 --report-json "$work/report.json" \
  > "$work/log" 2>&1
code=$?
failed=0
if [ "$code" -ne 0 ]; then
  echo "FAIL: fcswitch exited $code after $(($(date +%s) - start)) s (124: still running at 60 s)"
  cat "$work/log"
  exit 1
fi
grep -q "packets held (queues paused or out of credits)" "$work/log" ||
  { echo "FAIL: the idle stop does not say packets were held"; cat "$work/log"; failed=1; }
python3 - "$work/report.json" "$frames" <<'PY' || failed=1
import json, sys
report, frames = json.load(open(sys.argv[1])), int(sys.argv[2])
ports = {p["name"]: p for p in report["ports"]}
sent = sum(ports["out"]["tx_packets"])
flushed = sum(p["drops"]["shutdown_flush"] for p in report["ports"])
ok = sent == 0 and flushed == frames and report["mempool_in_use"] == 0
print(("ok" if ok else "FAIL") + f": out sent {sent} (0: no credits), shutdown_flush {flushed} "
      f"(want {frames}), mempool in use {report['mempool_in_use']}")
sys.exit(0 if ok else 1)
PY
exit $failed

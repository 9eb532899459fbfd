#!/usr/bin/env bash
# DPDK's runtime directory (/var/run/dpdk/<file prefix>, 25 MB) goes when the process does:
# fclab made a new one per run, fcswitch one per prefix, and they stayed.
# Usage: runtime_dir_removed.sh FCSWITCH FCLAB SOURCE_ROOT
set -uo pipefail
fcswitch=$1 fclab=$2 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
"$fclab" "$root/config/lab/gfc-ring.toml" --out "$work/lab" --quiet --no-plots \
  --set lab.duration=1ms > "$work/lab.log" 2>&1 &
pid=$!
wait "$pid" || { echo "FAIL: fclab exited $?"; cat "$work/lab.log"; failed=1; }
if [ -e "/var/run/dpdk/fclab_$pid" ]; then
  echo "FAIL: /var/run/dpdk/fclab_$pid left behind"
  failed=1
else
  echo "ok: fclab left no /var/run/dpdk/fclab_$pid"
fi
prefix="fcsw_rtdir_$$"
cat > "$work/switch.toml" <<EOT
[eal]
args = ["--no-huge", "-m", "512", "--no-pci", "--no-telemetry", "--file-prefix=$prefix"]
[switch]
mbufs = 4095
[[ports]]
name = "a"
device = "net_null0,no-rx=1"
EOT
"$fcswitch" "$work/switch.toml" --duration 0.2 > "$work/switch.log" 2>&1 ||
  { echo "FAIL: fcswitch exited $?"; cat "$work/switch.log"; failed=1; }
if [ -e "/var/run/dpdk/$prefix" ]; then
  echo "FAIL: /var/run/dpdk/$prefix left behind"
  failed=1
else
  echo "ok: fcswitch left no /var/run/dpdk/$prefix"
fi
exit $failed

#!/usr/bin/env bash
# The GFC testbed rehearsed on one machine, by the testbed's own procedure: the playbook
# (tools/testbed/testbed.sh, Ansible) with a one-machine inventory
# (tools/testbed/inventory/rehearsal.yml): three fcswitch and three fchost processes joined by
# net_memif (one socket per cable), wired as the GFC ring (§6.1, config/lab/gfc-ring.toml), in
# wall-clock time, once per engine. Prometheus scrapes all six; the Grafana dashboard's queries
# are asked of it during each run; the hosts' summaries and the switches' reports are joined
# into one table with a verdict per run. fclab runs the same ring (RUN/lab.toml) in virtual
# time beside each, and the last table sets the two side by side: verdicts, flow rates, the
# host ingress's steady occupancy, lossless drops.
#
#   tools/testbed_rehearsal.sh [--seconds S] [--engines "pfc cbfc gfc-buffer gfc-time"]
#                              [--queueing MODEL] [--out DIR] [--no-prometheus] [--no-lab]
#
# MODEL: input-hol (default: the GFC testbed's switch, inputs taking turns), input-hol-fair
# (the same with a fair crossbar) or output: the switch models of the lab's GFC ring.
#
# Rate: every port is a 100 Mb/s wire (emulate_wire: the pacer is the wire), not 10 Gb/s: the
# six processes share two CPUs, three a CPU, and each waits for its CPU up to ~10 ms, so τ is
# ~10 ms; at 100 Mb/s the testbed's thresholds cover that. tools/testbed/testbed_configs.py
# has the thresholds and the lab's side of the cables.
#
# The playbook starts the switches in order (a memif client exits if its server is not there
# yet), the hosts from one time zero, and stops each process by PID; a failed run stops every
# process it started. Nothing is left behind: sockets, DPDK runtime directories and Prometheus's
# data go with the run.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=10
engines="pfc cbfc gfc-buffer gfc-time"
queueing=input-hol
out=$root/out/rehearsal
prometheus=1
lab=1
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --queueing) queueing=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-prometheus) prometheus=0; shift ;;
    --no-lab) lab=0; shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
export FCSWITCH=${FCSWITCH:-$root/build/app/fcswitch}
export FCHOST=${FCHOST:-$root/build/app/fchost}
fclab=${FCLAB:-$root/build/app/fclab}
collect=$root/tools/testbed/testbed_collect.py
for bin in "$FCSWITCH" "$FCHOST" $([ "$lab" = 1 ] && echo "$fclab"); do
  [ -x "$bin" ] || { echo "$bin: not built (tools/build.sh)" >&2; exit 2; }
done
if [ "$prometheus" = 1 ] && ! command -v prometheus > /dev/null; then
  echo "prometheus not installed (tools/install-deps.sh), or run with --no-prometheus" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

runs=()
for engine in $engines; do
  run=$out/$engine
  echo "== $engine: S1, S2, S3 ($queueing queueing) and H1, H2, H3 over memif, $seconds s"
  "$root/tools/testbed/testbed.sh" -i "$root/tools/testbed/inventory/rehearsal.yml" run gfc-ring \
    --engine "$engine" --queueing "$queueing" --seconds "$seconds" --out "$run" \
    $([ "$prometheus" = 1 ] || echo --no-prometheus)
  if [ "$lab" = 1 ]; then
    "$fclab" "$run/lab.toml" --out "$run/lab" --quiet --no-plots > "$run/lab.log" 2>&1 ||
      { cat "$run/lab.log"; exit 1; }
  fi
  runs+=("$run")
done
echo "== rehearsal"
python3 "$collect" verdicts "${runs[@]}"
if [ "$lab" = 1 ]; then
  echo "== the same ring in fclab (virtual time) beside the processes"
  python3 "$collect" compare "${runs[@]}" || echo "the lab and the processes differ (above)"
fi

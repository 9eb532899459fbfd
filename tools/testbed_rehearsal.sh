#!/usr/bin/env bash
# The GFC testbed rehearsed on one machine: three fcswitch processes and three fchost
# processes joined by net_memif (one socket per link), wired as the GFC ring (§6.1,
# config/lab/gfc-ring.toml), in wall-clock time, once per engine. Prometheus scrapes all six;
# the Grafana dashboard's queries are asked of it during each run; the hosts' summaries and the
# switches' reports are joined into one table with a verdict per run. fclab runs the same ring
# (RUN/lab.toml) in virtual time beside each, and the last table sets the two side by side:
# verdicts, flow rates, the host ingress's steady occupancy, lossless drops.
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
# Processes are started in order (a memif client exits if its server is not there yet: S1,
# S2, S3 serve the ring's sockets acyclically, the hosts are clients) and stopped by PID:
# hosts at --seconds, switches by SIGTERM at the same time. Nothing is left behind: sockets, DPDK
# runtime directories and Prometheus go with the run, also when it fails or is interrupted.
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
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
fcswitch=${FCSWITCH:-$root/build/app/fcswitch}
fchost=${FCHOST:-$root/build/app/fchost}
fclab=${FCLAB:-$root/build/app/fclab}
configs=$root/tools/testbed/testbed_configs.py
collect=$root/tools/testbed/testbed_collect.py
for bin in "$fcswitch" "$fchost" $([ "$lab" = 1 ] && echo "$fclab"); do
  [ -x "$bin" ] || { echo "$bin: not built (tools/build.sh)" >&2; exit 2; }
done
if [ "$prometheus" = 1 ] && ! command -v prometheus > /dev/null; then
  echo "prometheus not installed (tools/install-deps.sh), or run with --no-prometheus" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

pids=()
prom_pid=
run=
stop_all() {
  # TERM first, by PID; what is still there after 10 s is killed.
  local p
  for p in "${pids[@]}" $prom_pid; do kill -TERM "$p" 2> /dev/null || true; done
  for _ in $(seq 100); do
    local alive=0
    for p in "${pids[@]}" $prom_pid; do kill -0 "$p" 2> /dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}" $prom_pid; do kill -KILL "$p" 2> /dev/null || true; done
  for p in "${pids[@]}" $prom_pid; do wait "$p" 2> /dev/null || true; done
  pids=()
  prom_pid=
  if [ -n "$run" ]; then
    rm -f "$run"/*.sock
    rm -rf "$run/tsdb"
    for prefix in $(grep -ho 'file-prefix=[a-z0-9_]*' "$run"/*.toml 2> /dev/null | cut -d= -f2); do
      rm -rf "/var/run/dpdk/$prefix"
    done
  fi
}
trap 'stop_all' EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

# Waits until switch $1 (its log $2) forwards: its memif servers are up. A client that finds
# no server exits, and one that connects before the server's port has started may never get
# its link, so the socket file appearing is not enough.
wait_forwarding() {
  local pid=$1 log=$2
  for _ in $(seq 600); do
    grep -q "forwarding on" "$log" 2> /dev/null && return 0
    kill -0 "$pid" 2> /dev/null || { echo "switch $pid exited (log: $log)" >&2; return 1; }
    sleep 0.05
  done
  echo "no \"forwarding on\" in $log after 30 s" >&2
  return 1
}

# Waits for process $1 until the Unix time $2, then kills it (a hang); appends its name and
# exit status to the run's exit_status. A host takes about a second to exit here, and ran
# over half a minute once with two busy loops and a build beside the six processes.
exit_budget_s=60
declare -A names=()
reap() {
  local pid=$1 due=$2 status=0
  while kill -0 "$pid" 2> /dev/null && [ "$(date +%s)" -lt "$due" ]; do sleep 0.1; done
  if kill -0 "$pid" 2> /dev/null; then
    echo "${names[$pid]} (pid $pid) had not exited $exit_budget_s s after it was due to: killed"
    kill -KILL "$pid" 2> /dev/null || true
  fi
  wait "$pid" || status=$?
  echo "${names[$pid]} $status" >> "$run/exit_status"
}

runs=()
for engine in $engines; do
  run=$out/$engine
  rm -rf "$run"
  mkdir -p "$run"
  python3 "$configs" ring "$run" "$engine" "$queueing" "$seconds" > "$run/order"
  echo "== $engine: S1, S2, S3 ($queueing queueing) and H1, H2, H3 over memif, $seconds s"
  if [ "$prometheus" = 1 ]; then
    python3 - "$configs" > "$run/prometheus.yml" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("tc", sys.argv[1])
tc = importlib.util.module_from_spec(spec); spec.loader.exec_module(tc)
targets = ", ".join(f"'127.0.0.1:{p}'" for p in tc.RING_METRICS_PORT.values())
print("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
      f"  - job_name: rehearsal\n    static_configs:\n      - targets: [{targets}]")
PY
    # Niced, as the dashboard's queries below: on this machine they share the switches' CPUs,
    # and a query that takes both CPUs for 100 ms holds the ring's flows back.
    nice -n 19 prometheus --config.file="$run/prometheus.yml" --storage.tsdb.path="$run/tsdb" \
      --web.listen-address=127.0.0.1:9490 > "$run/prometheus.log" 2>&1 &
    prom_pid=$!
  fi
  hosts=()
  switch_pids=()
  while read -r name _; do
    lower=$(echo "$name" | tr 'A-Z' 'a-z')
    case $name in
      S*)
        "$fcswitch" "$run/$lower.toml" --report-json "$run/$lower.json" > "$run/$lower.log" 2>&1 &
        pids+=($!)
        switch_pids+=($!)
        names[$!]=$name
        wait_forwarding "$!" "$run/$lower.log"
        ;;
      H*) hosts+=("$name") ;;
    esac
  done < "$run/order"
  # One time zero for the three hosts, a little ahead (each takes about a second to start
  # here): their flows start together.
  zero=$(python3 -c 'import time; print(f"{time.time() + 2.5:.3f}")')
  host_pids=()
  for name in "${hosts[@]}"; do
    lower=$(echo "$name" | tr 'A-Z' 'a-z')
    "$fchost" "$run/$lower.toml" --start-at "$zero" --duration "$seconds" \
      --summary "$run/$lower.json" > "$run/$lower.log" 2>&1 &
    pids+=($!)
    host_pids+=($!)
    names[$!]=$name
  done
  dashboard_pid=
  if [ "$prometheus" = 1 ]; then
    # Ask the dashboard's queries at half the run, with the flows (or the deadlock) on, and
    # before the last 20 % that the rates and occupancies are measured over. They go to
    # Prometheus, which outlives the run: asked beside it, so that a slow answer does not
    # delay the run's end below.
    python3 -c "import time; time.sleep(max(0, $zero + 0.5 * $seconds - time.time()))"
    nice -n 19 python3 "$collect" dashboard http://127.0.0.1:9490 "$root/tools/grafana/fcswitch.json" \
      "$run/dashboard.json" &
    dashboard_pid=$!
  fi
  # The run ends for all six at once: the hosts stop by themselves (--duration), the switches
  # by SIGTERM, so a switch's stall at the stop is the state the flows ended in, not what
  # happened while the hosts took their ports down (a second or more on a loaded machine).
  # Each process has exit_budget_s to exit; the exit statuses go to exit_status (the table
  # says which were not 0: a crash, or a hang killed).
  python3 -c "import time; time.sleep(max(0, $zero + $seconds - time.time()))"
  for p in "${switch_pids[@]}"; do kill -TERM "$p" 2> /dev/null || true; done
  : > "$run/exit_status"
  due=$(python3 -c "print(int($zero + $seconds) + $exit_budget_s)")
  for p in "${host_pids[@]}" "${switch_pids[@]}"; do reap "$p" "$due"; done
  if [ -n "$dashboard_pid" ]; then
    wait "$dashboard_pid" || echo "Prometheus queries failed (see $run/prometheus.log)"
  fi
  pids=()
  stop_all
  python3 "$collect" table "$run"
  if [ "$lab" = 1 ]; then
    "$fclab" "$run/lab.toml" --out "$run/lab" --quiet --no-plots > "$run/lab.log" 2>&1 ||
      { cat "$run/lab.log"; exit 1; }
  fi
  runs+=("$run")
done
run=
echo "== rehearsal"
python3 "$collect" verdicts "${runs[@]}"
if [ "$lab" = 1 ]; then
  echo "== the same ring in fclab (virtual time) beside the processes"
  python3 "$collect" compare "${runs[@]}" || echo "the lab and the processes differ (above)"
fi

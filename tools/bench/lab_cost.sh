#!/usr/bin/env bash
# The lab's cost a packet-hop in figures that do not depend on the machine's speed (prints,
# never fails): instructions, and misses of a simulated cache, a hop of the virtual clock's run
# phase (the schedule's steps: every poll of a task or a link; not the sampler), under valgrind's
# callgrind. A virtual-time run is deterministic, so two builds compare exactly where
# lab_speed.sh's wall seconds swing with the machine (this VM's by 2-3x).
#
# The cache is fixed, not the host's, so figures compare across machines: L1 data 32 KB, 8-way;
# last level 8 MB, 16-way; 64-byte lines. "D1 miss" is a line a hop touched that was not among
# the last 32 KB touched: about the distinct lines a hop needs. The ring and the fat-trees
# touch about as many (~190); what makes k = 16 slower a hop on real hardware is where those
# lines come from (L2 for the ring; L3 or DRAM for 1 344 nodes' state).
#
# Usage: tools/bench/lab_cost.sh          the GFC ring and fat-tree k = 8 (about 2 minutes)
#        K16=1 tools/bench/lab_cost.sh    also k = 16 (about 5 more minutes, 5 GB)
#        FCLAB=/path/fclab …              another build
# Per run, the D1 misses a hop are also split by the part of the code that took them (by
# function name: a host's RX and TX tasks count as RX and TX).
set -euo pipefail
fclab=${FCLAB:+$(realpath "$FCLAB")}
cd "$(dirname "$0")/../.."
fclab=${fclab:-build/app/fclab}
[ -x "$fclab" ] || tools/build.sh >/dev/null
command -v valgrind >/dev/null || {
  echo "lab_cost.sh: needs valgrind (apt-get install valgrind)" >&2
  exit 0
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf "%-34s %8s %10s %12s %17s\n" "run" "hops" "instr/hop" "D1 miss/hop" "LL data miss/hop"
# run NAME SCENARIO FCLAB-ARGS...: one line of the table, and the split by part into $out.
run() {
  local name=$1 scenario=$2
  shift 2
  local base="$out/${name//[^A-Za-z0-9]/_}"
  # Only the run phase: the schedule's steps (every poll of every task and link is inside one).
  if ! valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 \
    --LL=8388608,16,64 --callgrind-out-file="$base.cg" --collect-atstart=no \
    --toggle-collect='fcswitch::lab::LabSchedule::step*' \
    --toggle-collect='fcswitch::lab::LabSchedule::next_event_ticks*' \
    "$fclab" --out "$base.out" --no-plots "$scenario" "$@" >"$base.log" 2>&1; then
    printf "%-34s failed: %s\n" "$name" "$(grep -v '^==' "$base.log" | tail -1)"
    return
  fi
  local hops
  hops=$(sed -nE 's/.*clock, .* simulated .* steps, ([0-9]+) packet-hops.*/\1/p' "$base.log" | head -1)
  if [ -z "$hops" ] || [ "$hops" = 0 ]; then
    printf "%-34s no packet-hops in its log\n" "$name"
    return
  fi
  # "==PID== Collected : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"
  awk -v n="$name" -v h="$hops" '/Collected :/ {
    printf "%-34s %8d %10.0f %12.1f %17.2f\n", n, h, $4 / h, ($8 + $9) / h, ($11 + $12) / h }' \
    "$base.log"
  # The split: each function's own D1 misses (reads and writes), by the part it belongs to.
  callgrind_annotate --show=D1mr,D1mw --sort=D1mr --threshold=100 --auto=no "$base.cg" 2>/dev/null |
    sed -n '/file:function/,$p' | tail -n +3 |
    awk -v n="$name" -v h="$hops" 'NF == 0 { exit }
      { # "R (x%) W (y%) file:function", where a zero count may be "." without a share
        k = 0
        for (i = 1; i <= NF && k < 2; ++i)
          if ($i ~ /^[0-9,]+$/ || $i == ".") { v[k++] = $i == "." ? 0 : $i; gsub(",", "", v[k - 1]) }
        r = v[0]; w = v[1]
        part = "other"
        if ($0 ~ /LabSchedule|priority_queue/) part = "schedule"
        else if ($0 ~ /LabLink/) part = "links"
        else if ($0 ~ /TrafficHost|lab::Host|HostSource|HostSink/) part = "hosts"
        else if ($0 ~ /RxTask/) part = "RX"
        else if ($0 ~ /FwdTask|L2Fib/) part = "FWD"
        else if ($0 ~ /PortFeedback|FeedbackGenerator|FeedbackFramer/) part = "feedback"
        else if ($0 ~ /Gate/) part = "gates"
        else if ($0 ~ /TxTask/) part = "TX"
        miss[part] += r + w }
      END { line = sprintf("  %s, D1 misses a hop by part:", n)
            split("TX FWD RX feedback gates links hosts schedule other", parts, " ")
            for (i = 1; i <= 9; ++i) line = line sprintf(" %s %.1f", parts[i], miss[parts[i]] / h)
            print line }' >>"$out/split.txt" || true
}

run "gfc-ring gfc-buffer, 10 ms" config/lab/gfc-ring.toml --set flow_control.engine=gfc-buffer \
  --set switch.crossbar=egress-round-robin --set lab.duration=10ms
run "fat-tree k=8 enterprise 0.5, 1 ms" config/lab/fat-tree-enterprise.toml \
  --set topology.spec=fat-tree:8 \
  --set 'workloads=[{ kind = "poisson", cdf = "enterprise", load = 0.5, priority = 3 }]' \
  --set lab.duration=1ms --set lab.mbufs=131071
if [ "${K16:-0}" = 1 ]; then
  run "fat-tree k=16 enterprise 0.3, 1 ms" config/lab/fat-tree-enterprise.toml \
    --set topology.spec=fat-tree:16 --set lab.duration=1ms \
    --set switch.egress_queue_packets=2048 --set lab.mbufs=262143
fi
echo
cat "$out/split.txt"

#!/usr/bin/env bash
# Virtual-time speed of the lab (prints, never fails): simulated seconds per wall second,
# packet-hops (frames a link delivered) per wall second, and peak memory (maximum resident
# set size, from /usr/bin/time -v), for
#   - the GFC ring at 10 Gb/s under each engine (a deadlocked ring has few events, so its
#     speed says little: the GFC runs, with every link busy, are the figure of merit), on
#     the testbed's switch (input-hol) and on the output and input-fair models;
#   - the 12-switch ring (tests/lab/ring-12.toml) under PFC;
#   - GFC's dumbbell with DCQCN (config/lab/gfc-dcqcn.toml), with raw flows and with the window
#     transport instead: what a transport costs per packet-hop;
#   - a 500-switch ring (2000 ports) of the same pattern, generated here, under gfc-buffer
#     (flows keep moving), with smaller rings so that it fits in memory and a data pool large
#     enough that no host waits for mbufs (a waiting host is polled every round);
#   - fat-trees: k = 8 with 8 flows and the enterprise workload, k = 16 at GFC §6.2.3's scale,
#     the k = 8 permutation beside htsim and on two threads (and k = 16 with PERM_K16=1),
#     and k = 4's enterprise workload over 5 ms and over 200 ms (LONG_DURATION=…), raw and over
#     the window transport: a long run should cost no more a hop than a short one.
# The virtual clock's cost should follow the traffic, not the size of the network (docs/architecture.md
# §5): hops per wall second should not fall much from the small rings to the large one.
set -euo pipefail
fclab=${FCLAB:+$(realpath "$FCLAB")}  # another build to compare: FCLAB=/path/fclab
cd "$(dirname "$0")/../.."
fclab=${fclab:-build/app/fclab}
[ -x "$fclab" ] || tools/build.sh >/dev/null
[ -x /usr/bin/time ] || { echo "lab_speed.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 0; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# A ring of $1 switches as tests/lab/ring-12.toml ([topology] ring:N, shortest routes): Si's
# host Hi sends to H(i+2) clockwise; every setting as in the three-switch ring.
ring_toml() {
  python3 - "$1" <<'EOF'
import sys
n = int(sys.argv[1])
base = open("tests/lab/ring-12.toml").read()
head = base[: base.index("[[flows]]")].replace('name = "gfc-ring-12"', f'name = "gfc-ring-{n}"')
out = [head.replace('spec = "ring:12"', f'spec = "ring:{n}"')]
for i in range(1, n + 1):
    out.append(f'[[flows]]\nfrom = "H{i}"\nto = "H{(i + 1) % n + 1}"\npriority = 3\n')
print("\n".join(out))
EOF
}

printf "%-34s %10s %8s %12s %14s %10s\n" "run" "simul. s" "wall s" "sim s/wall s" "hops/wall s" "max RSS MB"
# run NAME SCENARIO FCLAB-ARGS... : one line of the table.
run() {
  local name=$1 scenario=$2
  shift 2
  local dir="$out/${name//\//-}"
  if ! /usr/bin/time -v -o "$dir.time" "$fclab" "$scenario" --out "$dir" --no-plots "$@" \
    >"$dir.log" 2>&1; then
    printf "%-34s failed: %s\n" "$name" "$(tail -1 "$dir.log")"
    return
  fi
  # "gfc-ring (virtual clock, 100.0 ms simulated in 0.43 s wall, N steps, H packet-hops)"
  local line sim_ms wall hops rss_kb
  line=$(grep -m1 "clock, .* simulated" "$dir.log")
  sim_ms=$(sed -E 's/.*clock, ([0-9.]+) ms simulated.*/\1/' <<<"$line")
  wall=$(sed -E 's/.* in ([0-9.]+) s wall.*/\1/' <<<"$line")
  hops=$(sed -E 's/.*steps, ([0-9]+) packet-hops.*/\1/' <<<"$line")
  rss_kb=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+).*/\1/p' "$dir.time")
  awk -v n="$name" -v s="$sim_ms" -v w="$wall" -v h="$hops" -v m="$rss_kb" 'BEGIN {
    if (w <= 0) w = 0.005  # printed with two decimals
    printf "%-34s %10.3f %8.2f %12.3f %14.0f %10.0f\n", n, s / 1000, w, (s / 1000) / w, h / w,
      m / 1024 }'
}

# The ring on the testbed's switch (input-hol, inputs in turn) and with a fair crossbar.
for crossbar in input-turns egress-round-robin; do
  for engine in pfc cbfc gfc-buffer gfc-time; do
    run "gfc-ring $crossbar/$engine" config/lab/gfc-ring.toml \
      --set flow_control.engine=$engine --set switch.crossbar=$crossbar --set lab.duration=100ms
  done
done
# The ring on the switch models it had when issue 15 set its target of 1.5 M hops/s (0.35 M
# then): a shared-buffer switch (output) and an egress lane per input (input-fair). The
# input-hol model came later and does more a hop (input FIFOs and the crossbar's matching).
for queueing in output input-fair; do
  for engine in pfc cbfc gfc-buffer gfc-time; do
    run "gfc-ring $queueing/$engine" config/lab/gfc-ring.toml \
      --set flow_control.engine=$engine --set switch.queueing=$queueing --set lab.duration=100ms
  done
done

run "ring-12 output/pfc" tests/lab/ring-12.toml --set flow_control.engine=pfc --set lab.duration=20ms
run "ring-12 input-fair/gfc-buffer" tests/lab/ring-12.toml --set flow_control.engine=gfc-buffer \
  --set switch.queueing=input-fair --set lab.duration=20ms

# What the hosts' transports cost per packet-hop (issue 18): the same scenario with raw flows
# and over its transport (ACKs and CNPs are packet-hops too; the log counts them).
for transport in raw window dcqcn; do
  run "gfc-dcqcn $transport" config/lab/gfc-dcqcn.toml --set flows.transport=$transport \
    --set lab.duration=100ms
done

ring_toml 500 >"$out/ring-500.toml"
run "ring-500 output/gfc-buffer" "$out/ring-500.toml" --set flow_control.engine=gfc-buffer \
  --set lab.duration=${RING500_DURATION:-2ms} --set lab.mbufs=262143 \
  --set switch.egress_queue_packets=1024 --set switch.fwd_ring_packets=512

# Fat-trees: cost follows the busy part (8 flows on k = 8), and GFC §6.2.3's scale (k = 16,
# 1 024 hosts, the enterprise workload at 0.3, 5 % failed links).
run "fat-tree k=8, 8 flows, pfc" config/lab/fat-tree-k4.toml --set topology.spec=fat-tree:8 \
  --set lab.duration=5ms
run "fat-tree k=8 enterprise 0.5, pfc" config/lab/fat-tree-enterprise.toml \
  --set topology.spec=fat-tree:8 \
  --set 'workloads=[{ kind = "poisson", cdf = "enterprise", load = 0.5, priority = 3 }]' \
  --set lab.duration=${FATTREE_DURATION:-2ms} --set lab.mbufs=131071
run "fat-tree k=16 enterprise 0.3, pfc" config/lab/fat-tree-enterprise.toml \
  --set topology.spec=fat-tree:16 --set lab.duration=${FATTREE_DURATION:-2ms} \
  --set switch.egress_queue_packets=2048 --set lab.mbufs=262143
# A permutation on a fat-tree (every host sends one line-rate flow to a host in another pod,
# every host receives one), 10 Gb/s links of 1 µs, PFC, 10 ms: the yardstick against htsim
# (../shared/anchors/htsim). Where htsim is built there (HTSIM_DIR, default /tmp/htsim), its
# run_perm.sh runs both on the same permutation and its two lines are printed; else fclab alone.
# k = 16 (1 024 hosts, 22 M hops) takes minutes: PERM_K16=1.
perm_toml() {  # K MBUFS: gen_perm.py's permutation (seed 1) as a scenario
  python3 - "$1" "$2" <<'EOF2'
import random, sys
k, mbufs = int(sys.argv[1]), int(sys.argv[2])
n, per_pod, half = k * k * k // 4, k * k // 4, k // 2
pod = lambda h: h // per_pod
rng = random.Random(1)
dst = list(range(n))
rng.shuffle(dst)
while True:  # swap a same-pod destination with another host's until none is left
    bad = [i for i in range(n) if pod(i) == pod(dst[i])]
    if not bad:
        break
    i, j = rng.choice(bad), rng.randrange(n)
    if pod(i) != pod(dst[j]) and pod(j) != pod(dst[i]):
        dst[i], dst[j] = dst[j], dst[i]
name = lambda h: f"T{h // half + 1}h{h % half + 1}"
print(f'[lab]\nname = "perm-k{k}"\nduration = "10ms"\nclock = "virtual"\nseed = 1\n'
      f'sample_interval = "1ms"\nmbufs = {mbufs}\n[topology]\nspec = "fat-tree:{k}"\n'
      'rate = "10Gbps"\ndelay = "1us"\nrouting = "shortest"\n[switch]\n'
      'lossless_priorities = [3]\nmac_learning = false\n'
      + ('egress_queue_packets = 8192\n' if k >= 16 else '')
      + '[buffer]\nlossless_ingress = "1MB"\n[flow_control]\nengine = "pfc"\n'
      'response_time = "90us"')
for i in range(n):
    print(f'[[flows]]\nfrom = "{name(i)}"\nto = "{name(dst[i])}"\npriority = 3')
EOF2
}
anchor=../shared/anchors/htsim
for k in 8 ${PERM_K16:+16}; do
  mbufs=262143; [ "$k" -ge 16 ] && mbufs=2097151
  perm_toml "$k" "$mbufs" >"$out/perm-k$k.toml"
  if [ -x "${HTSIM_DIR:-/tmp/htsim}/sim/datacenter/htsim_roce" ] && [ -x "$anchor/run_perm.sh" ]; then
    "$anchor/run_perm.sh" "$fclab" "$k" 10 "${HTSIM_DIR:-/tmp/htsim}" | sed 's/^/  /'
  else
    run "fat-tree k=$k permutation, pfc" "$out/perm-k$k.toml"
  fi
  # The same run split between two threads (fclab --threads; the same output, byte for byte).
  if [ "$(nproc)" -ge 2 ]; then
    run "fat-tree k=$k permutation, 2 threads" "$out/perm-k$k.toml" --threads 2
  fi
done

# A long workload run: a host is given all of its run's flows at the start, so its polls must
# not cost more as the run grows (hops per second here near the 5 ms run's).
run "fat-tree k=4 enterprise 0.3, 5 ms" config/lab/fat-tree-enterprise.toml --set lab.duration=5ms
run "fat-tree k=4 enterprise 0.3, 200 ms" config/lab/fat-tree-enterprise.toml \
  --set lab.duration=${LONG_DURATION:-200ms} --set lab.sample_interval=1ms
# The same over the window transport: a host's transport timers (RTOs) are looked at when due,
# not every flow's at every poll.
run "fat-tree k=4 enterprise window, 100 ms" config/lab/fat-tree-enterprise.toml \
  --set lab.duration=100ms --set lab.sample_interval=1ms \
  --set 'workloads=[{ kind = "poisson", cdf = "enterprise", load = 0.3, priority = 3, transport = "window" }]'

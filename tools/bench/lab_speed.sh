#!/usr/bin/env bash
# Virtual-time speed of the lab (prints, never fails): simulated seconds per wall second and
# packet-hops (frames a link delivered) per wall second, for the GFC ring at 10 Gb/s under
# each engine. A deadlocked ring has few events, so its speed says little: the GFC runs, with
# every link busy, are the figure of merit.
set -euo pipefail
cd "$(dirname "$0")/../.."
fclab=${FCLAB:-build/app/fclab}  # another build to compare: FCLAB=/path/fclab
[ -x "$fclab" ] || tools/build.sh >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf "%-28s %12s %10s %12s %14s\n" "run" "simulated s" "wall s" "sim s/wall s" "hops/wall s"
for service in fifo ingress-fair; do
  for engine in pfc cbfc gfc-buffer gfc-time; do
    line=$("$fclab" config/lab/gfc-ring.toml --out "$out/$service-$engine" --no-plots \
      --set flow_control.engine=$engine --set switch.egress_service=$service \
      --set lab.duration=100ms | head -1)
    # "gfc-ring (virtual clock, 100.0 ms simulated in 0.43 s wall, N steps, H packet-hops)"
    sim_ms=$(sed -E 's/.*clock, ([0-9.]+) ms simulated.*/\1/' <<<"$line")
    wall=$(sed -E 's/.* in ([0-9.]+) s wall.*/\1/' <<<"$line")
    hops=$(sed -E 's/.*steps, ([0-9]+) packet-hops.*/\1/' <<<"$line")
    awk -v n="$service/$engine" -v s="$sim_ms" -v w="$wall" -v h="$hops" 'BEGIN {
      printf "%-28s %12.3f %10.2f %12.3f %14.0f\n", n, s / 1000, w, (s / 1000) / w, h / w }'
  done
done

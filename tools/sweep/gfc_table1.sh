#!/usr/bin/env bash
# GFC's large-scale simulations (SIGCOMM'19, §6.2.3: Table 1, Figs. 16–19) in the lab, through
# plan.py → GNU parallel → collect.py (docs/architecture.md), on config/lab/gfc-table1.toml:
#
#   tools/sweep/gfc_table1.sh OUT [-k K] [-n SEEDS] [-f SEEDS] [-j JOBS] [--fclab PATH]
#                                 [--set KEY=VALUE]...
#
#   -k K      fat-tree:K (default 4; the paper's 4, 8, 16)
#   -n SEEDS  networks drawn for Table 1 (lab.seed 1..SEEDS, one failure draw each; default
#             100); only those whose routes have a CBD run (plan.py --cbd yes), each engine on
#             the same networks
#   -f SEEDS  CBD-free networks for Figs. 16–17 (a), from lab.seed 100001 on (default 10; the
#             paper's 100): plan.py --cbd no keeps those of 100001..100000+SEEDS without one
#   -j JOBS   runs at once (default: the CPU count)
#   --set     passed to every run (e.g. --set switch.queueing=input-fair, --set lab.duration=20ms)
#
# Writes OUT/cbd and OUT/free (each a plan.py folder: runs.txt, plan.json, runs/, joblog,
# runs.csv, verdicts.txt) and OUT/table1.txt, the table tools/sweep/gfc_table1_report.py prints
# beside the paper's numbers. Exit 1 when a run failed (collect.py names it). Needs GNU parallel.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
usage() { sed -n '5,6p' "$0" >&2; exit 2; }
[ $# -ge 1 ] || usage
out=$1; shift
k=4 networks=100 free=10 jobs=$(nproc) fclab=$root/build/app/fclab
sets=()
while [ $# -gt 0 ]; do
  case $1 in
    -k) k=$2; shift 2 ;;
    -n) networks=$2; shift 2 ;;
    -f) free=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --fclab) fclab=$2; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    *) usage ;;
  esac
done
scenario=$root/config/lab/gfc-table1.toml
engines=flow_control.engine=pfc,cbfc,gfc-buffer,gfc-time
common=(--fclab "$fclab" --set "topology.spec=fat-tree:$k" "${sets[@]}" --vary "$engines" --force)
mkdir -p "$out"
status=0
python3 "$root/tools/sweep/plan.py" "$scenario" --out "$out/cbd" "${common[@]}" \
  --seeds "1-$networks" --cbd yes
python3 "$root/tools/sweep/plan.py" "$scenario" --out "$out/free" "${common[@]}" \
  --seeds "100001-$((100000 + free))" --cbd no
for part in cbd free; do
  # parallel exits with the number of failed runs; collect.py names them.
  parallel --will-cite -j "$jobs" --joblog "$out/$part/joblog" \
    < "$out/$part/runs.txt" > /dev/null || true
  python3 "$root/tools/sweep/collect.py" "$out/$part" > /dev/null || status=1
done
python3 "$root/tools/sweep/gfc_table1_report.py" "$out" "$k" | tee "$out/table1.txt"
exit $status

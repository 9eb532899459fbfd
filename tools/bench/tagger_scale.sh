#!/usr/bin/env bash
# Tagger Table 5 and Fig. 13 by tagger-gen: Jellyfish from 100 to 10,000 switches (half the
# ports to servers, ELP = destination-rooted shortest-path trees), Algorithm 2, with the
# Theorem 5.1 verifier and the ELP coverage walk. Prints one row per size: wall time of each
# phase (tagger-gen's `run time` line) and their total, the CPU time of the run (user + system,
# all threads), the peak resident memory by the end of each phase (its `peak memory` line:
# getrusage), tags and compressed rules per switch (max), beside the paper's; and the load
# average when the run started (wall times on a shared machine are only as good as that).
# Progress of each run goes to stderr. Fails on nothing.
# Usage: tools/bench/tagger_scale.sh [MAX_SWITCHES]   (default 2000; 10000 takes minutes)
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build} tools/build.sh
max=${1:-2000}
echo "paper (Table 5): 100/32 → 2 tags, 40 rules; 500/64 → 3, 76; 1000/64 → 3, 88; 2000/64 → 3, 98"
echo "paper (Fig. 13): Algorithm 2 took 19.6 hours (70,560 s) for 10,000 switches"
echo "machine: $(nproc) CPUs; seconds are wall clock (cpu_s: user + system of all threads)"
row='%-8s %8s %8s %10s %10s %8s %8s | %9s %8s %11s %11s | %4s %8s %5s\n'
printf "$row" switches routes_s rules_s verifier_s coverage_s total_s cpu_s \
  routes_MB rules_MB verifier_MB coverage_MB tags rules/sw load
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
TIMEFORMAT='%U %S'  # bash's `time`: user and system seconds of the command
for spec in 100,32,16 500,64,32 1000,64,32 2000,64,32 5000,64,32 10000,64,32; do
  n=${spec%%,*}
  [ "$n" -le "$max" ] || break
  load=$(cut -d' ' -f1 /proc/loadavg)
  # `time`'s line to the file, tagger-gen's progress to this script's stderr.
  { time summary=$("${BUILD_DIR:-build}/app/tagger-gen" --topology "jellyfish:$spec" \
    --elp trees --progress-every 30 2>&3); } 3>&2 2>"$cpu_file"
  cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$cpu_file")
  phase() { grep -E "^run time" <<<"$summary" | grep -oE "$1 [0-9.]+ s" | grep -oE "[0-9.]+"; }
  peak() { grep -E "^peak memory" <<<"$summary" | grep -oE "$1 [0-9]+ MB" | grep -oE "[0-9]+"; }
  tags=$(grep -E "^tags" <<<"$summary" | grep -oE "[0-9]+ on the wire" | cut -d' ' -f1)
  rules=$(grep -oE "max [0-9]+ / mean [0-9.]+ after" <<<"$summary" | cut -d' ' -f2)
  total=$(awk -v a="$(phase routes)" -v b="$(phase rules)" -v c="$(phase verifier)" \
    -v d="$(phase coverage)" 'BEGIN { printf "%.1f", a + b + c + d }')
  printf "$row" "$n" "$(phase routes)" "$(phase rules)" "$(phase verifier)" \
    "$(phase coverage)" "$total" "$cpu" "$(peak routes)" "$(peak rules)" "$(peak verifier)" \
    "$(peak coverage)" "$tags" "$rules" "$load"
done

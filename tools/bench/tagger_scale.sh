#!/usr/bin/env bash
# Tagger Table 5 and Fig. 13 by tagger-gen: Jellyfish from 100 to 10,000 switches (half the
# ports to servers, ELP = destination-rooted shortest-path trees), Algorithm 2, with the
# Theorem 5.1 verifier and the ELP coverage walk. Prints one row per size: wall time of each
# phase (tagger-gen's `run time` line), their total, peak resident memory (its `peak memory`
# line: getrusage), tags and compressed rules per switch (max), beside the paper's. Progress
# of each run goes to stderr. Fails on nothing.
# Usage: tools/bench/tagger_scale.sh [MAX_SWITCHES]   (default 2000; 10000 takes minutes)
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build} tools/build.sh
max=${1:-2000}
echo "paper (Table 5): 100/32 → 2 tags, 40 rules; 500/64 → 3, 76; 1000/64 → 3, 88; 2000/64 → 3, 98"
echo "paper (Fig. 13): Algorithm 2 took 19.6 hours (70,560 s) for 10,000 switches"
row='%-8s %9s %9s %10s %10s %9s %8s %5s %9s\n'
printf "$row" switches routes_s rules_s verifier_s coverage_s total_s peak_MB tags rules/sw
for spec in 100,32,16 500,64,32 1000,64,32 2000,64,32 5000,64,32 10000,64,32; do
  n=${spec%%,*}
  [ "$n" -le "$max" ] || break
  summary=$("${BUILD_DIR:-build}/app/tagger-gen" --topology "jellyfish:$spec" --elp trees \
    --progress-every 30)
  phase() { grep -E "^run time" <<<"$summary" | grep -oE "$1 [0-9.]+ s" | grep -oE "[0-9.]+"; }
  peak=$(grep -E "^peak memory" <<<"$summary" | grep -oE "[0-9]+ MB" | tail -1 | cut -d' ' -f1)
  tags=$(grep -E "^tags" <<<"$summary" | grep -oE "[0-9]+ on the wire" | cut -d' ' -f1)
  rules=$(grep -oE "max [0-9]+ / mean [0-9.]+ after" <<<"$summary" | cut -d' ' -f2)
  total=$(awk -v a="$(phase routes)" -v b="$(phase rules)" -v c="$(phase verifier)" \
    -v d="$(phase coverage)" 'BEGIN { printf "%.1f", a + b + c + d }')
  printf "$row" "$n" "$(phase routes)" "$(phase rules)" "$(phase verifier)" \
    "$(phase coverage)" "$total" "$peak" "$tags" "$rules"
done

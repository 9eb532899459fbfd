#!/usr/bin/env bash
# Tagger Table 5 and Fig. 13 by tagger-gen: Jellyfish from 100 to 10,000 switches (half the
# ports to servers, ELP = destination-rooted shortest-path trees), Algorithm 2. Prints each
# run's summary (tags, rules per switch, run time) beside the paper's; fails on nothing.
# Usage: tools/bench/tagger_scale.sh [MAX_SWITCHES]   (default 2000; 10000 takes long)
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build} tools/build.sh
max=${1:-2000}
echo "paper (Table 5): 100/32 → 2 tags, 40 rules; 500/64 → 3, 76; 1000/64 → 3, 88; 2000/64 → 3, 98"
echo "paper (Fig. 13): Algorithm 2 took 19.6 hours for 10,000 switches"
for spec in 100,32,16 500,64,32 1000,64,32 2000,64,32 5000,64,32 10000,64,32; do
  n=${spec%%,*}
  [ "$n" -le "$max" ] || break
  echo "== jellyfish:$spec"
  "${BUILD_DIR:-build}/app/tagger-gen" --topology "jellyfish:$spec" --elp trees --no-coverage |
    grep -E "^(ELP|tags|rules|verifier|run time)"
done

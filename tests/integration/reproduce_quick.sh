#!/usr/bin/env bash
# tools/reproduce.sh --quick end to end: every experiment the docs/experiments pages reproduce,
# on the quick sizes, two runs at a time. Checks that it exits 0 (every verdict the one the
# docs state), that report.md and report.html exist, that every experiment's row is in
# report.md's summary with a verdict of "matches" or "differs: …", and that every PNG the
# report names exists and is a PNG; and pyrrha_incastmix_lab.py's checks on its incastmix runs.
# Virtual time only: the verdicts do not depend on the load.
#   reproduce_quick.sh SOURCE_DIR FCLAB TAGGER_GEN WORK_DIR
set -uo pipefail  # not -e: a failed check is counted, not fatal
[ $# -eq 4 ] || { echo "usage: $0 SOURCE_DIR FCLAB TAGGER_GEN WORK_DIR" >&2; exit 2; }
src=$1 fclab=$2 tagger_gen=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
out=$work/quick
failures=0
check() {  # check CONDITION_STATUS WHAT
  if [ "$1" -eq 0 ]; then echo "ok: $2"; else echo "FAIL: $2"; failures=$((failures + 1)); fi
}

rc=0
bash "$src/tools/reproduce.sh" --quick --fclab "$fclab" --tagger-gen "$tagger_gen" -j 2 "$out" \
  || rc=$?
check "$rc" "tools/reproduce.sh --quick exits 0 (exit $rc)"
for file in report.md report.html; do
  [ -s "$out/$file" ]; check $? "$file written"
done
[ -s "$out/report.md" ] || { echo "$failures failed"; exit 1; }

# Every row of every experiment (tools/reproduce_report.py's ids), each with the verdict the
# docs state: "matches" or "differs: <reason>", never "UNEXPECTED".
rows=(
  gfc-ring/testbed/pfc gfc-ring/testbed/cbfc gfc-ring/testbed/gfc-buffer gfc-ring/testbed/gfc-time
  gfc-ring/fair/pfc gfc-ring/fair/cbfc gfc-ring/fair/gfc-buffer gfc-ring/fair/gfc-time
  gfc-fat-tree/output/pfc gfc-fat-tree/output/cbfc gfc-fat-tree/output/gfc-buffer
  gfc-fat-tree/output/gfc-time gfc-fat-tree/input-fair/pfc gfc-fat-tree/input-fair/cbfc
  gfc-fat-tree/input-fair/gfc-buffer gfc-fat-tree/input-fair/gfc-time
  gfc-table1/deadlocks gfc-table1/fig16-17 gfc-table1/fig19 gfc-dcqcn/fig20
  tagger-one-bounce/pfc tagger-one-bounce/tagger tagger-loop/pfc tagger-loop/tagger
  tagger-table5 tagger-fig13
  pabo-tree/mild pabo-tree/moderate pabo-tree/severe pabo-tree/fig8 pabo-tree/fig9
  pabo-fat-tree/drops pabo-fat-tree/fig11 pabo-fat-tree/table2 pabo-fat-tree/fig12
  pabo-fat-tree/fig13 pabo-fat-tree/fig14
  pyrrha-testbed/fig10a pyrrha-testbed/fig10b pyrrha-testbed/fig24
  pyrrha-incastmix/24-to-1 pyrrha-incastmix/120-to-1 pyrrha-iq-usage/fig7
)
for id in "${rows[@]}"; do
  row=$(grep -F "| \`$id\` |" "$out/report.md" || true)
  verdict=$(awk -F' [|] ' '{ print $NF }' <<<"$row" | sed 's/ |$//')
  case $verdict in
    matches|differs:*) check 0 "$id: ${verdict:0:60}" ;;
    *) check 1 "$id: ${verdict:-no row}" ;;
  esac
done
count=$(grep -c '^| `' "$out/report.md" || true)
[ "$count" -eq "${#rows[@]}" ]; check $? "the summary has ${#rows[@]} rows ($count)"

# Every plot the report shows is a PNG beside it, and report.html shows it too.
pngs=$(grep -oE '\]\([^)]+\.png\)' "$out/report.md" | sed -E 's/^\]\(//; s/\)$//' | sort -u)
[ -n "$pngs" ]; check $? "the report names plots ($(wc -w <<<"$pngs"))"
for png in $pngs; do
  signature=$(head -c 8 "$out/$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
  [ "$signature" = 89504e470d0a1a0a ]; check $? "$png is a PNG"
  grep -qF "src=\"$png\"" "$out/report.html"; check $? "report.html shows $png"
done
grep -q '<table>' "$out/report.html"; check $? "report.html holds the summary table"

# Pyrrha's incastmix as its own test checks it (tests/integration/pyrrha_incastmix_lab.py), on
# the runs the report made: the same four runs (seed 1, 16 ms of arrivals in 20 ms, 24-to-1 and
# 120-to-1, Pyrrha and PFC), not run twice.
python3 "$src/tests/integration/pyrrha_incastmix_lab.py" "$fclab" "$src" \
  "$out/runs/pyrrha-incastmix"
check $? "Pyrrha's incastmix checks hold on the report's runs"

echo "$failures failed"
[ "$failures" -eq 0 ]

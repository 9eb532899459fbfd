#!/usr/bin/env bash
# Runs every experiment the project reproduces from the GFC, Tagger, PABO and Pyrrha papers
# (docs/experiments/*.md) and writes OUT/report.md, OUT/report.html and the plots beside them:
# per experiment the paper's figure, ours read from the runs, and a verdict — "matches", or
# "differs: …" with the reason the docs page gives — computed from the runs' outputs against
# what the docs page states (tools/reproduce_report.py). A row that is not what the docs state
# reads "UNEXPECTED: …" and the script exits 1.
#
#   tools/reproduce.sh [--quick|--full] [--fclab PATH] [--tagger-gen PATH] [-j N] OUT
#
#   --full        the sizes the Experiments pages are made from (the default; 10–15 minutes on
#                 two CPUs, most of them in Pyrrha's k = 12 stress test and incastmix's seeds)
#   --quick       the same rows on smaller sizes where the docs' verdicts still hold (80 s
#                 on two idle CPUs): what tests/integration/reproduce_quick.sh runs
#   --fclab PATH, --tagger-gen PATH   the programs (default build/app/fclab, build/app/tagger-gen)
#   -j N          runs at once (default: the CPU count)
#
# Every lab run is in virtual time, so a build and a seed give the same figures on any machine
# and under any load (docs/lab.md); only the wall times in the report depend on the machine.
# Runs go to OUT/runs/<experiment>/, their terminal output to OUT/logs/<job>.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '9p' "$0" | sed 's/^#   /usage: /' >&2; exit 2; }

# One function, read whole before it starts: a run lasts up to tens of minutes, and bash reads
# a script as it goes, so an edit or a checkout of this file during a run would change it.
main() {
  mode=full
  fclab=$root/build/app/fclab
  tagger_gen=$root/build/app/tagger-gen
  jobs=$(nproc)
  out=
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) mode=quick; shift ;;
      --full) mode=full; shift ;;
      --fclab) fclab=$2; shift 2 ;;
      --tagger-gen) tagger_gen=$2; shift 2 ;;
      -j) jobs=$2; shift 2 ;;
      -h|--help) usage ;;
      -*) echo "reproduce: unknown option $1" >&2; usage ;;
      *) [ -z "$out" ] || usage; out=$1; shift ;;
    esac
  done
  [ -n "$out" ] || usage
  die() { echo "reproduce: $*" >&2; exit 2; }
  [[ $jobs =~ ^[1-9][0-9]*$ ]] || die "-j wants a positive number, found $jobs"
  for program in "$fclab" "$tagger_gen"; do
    [ -x "$program" ] || die "$program is not an executable (build first: tools/build.sh)"
  done
  # tools/sweep/gfc_table1.sh runs Table 1's networks on GNU parallel.
  command -v parallel >/dev/null || die "GNU parallel is missing (tools/install-deps.sh)"
  # Debian's python3 has matplotlib and markdown; a pyenv or virtualenv python3 first on PATH
  # may have neither (docs/lab.md says the same of lab_plot.py).
  python=${PYTHON:-/usr/bin/python3}
  [ -x "$python" ] || python=python3
  fclab=$(cd "$(dirname "$fclab")" && pwd)/$(basename "$fclab")
  tagger_gen=$(cd "$(dirname "$tagger_gen")" && pwd)/$(basename "$tagger_gen")

  # The sizes. --full: each docs page's commands as written. --quick: the same scenarios where
  # they already run in seconds (the ring, the case study, the dumbbell, Tagger's Clos, PABO's
  # tree, Pyrrha's testbed), and smaller sizes where they do not, each one the docs or a test
  # shows to give the same verdict.
  scenarios=$root/config/lab
  if [ "$mode" = quick ]; then
    # Table 1: networks 1–17 hold one with a CBD (seed 17), and 100001 has none; 5 ms
    # is enough for every engine to reach its steady state and send its feedback (Fig. 19).
    table1=(-n 17 -f 1 --set lab.duration=5ms)
    jellyfish=("100,32,16")                       # Table 5's first row
    pabo_scenarios=(3to1 6to1 mtom)               # tests/integration/pabo_fat_tree_lab.py's
    pabo_thetas=0.5,0.8,0.95 pabo_lambdas=0,10,50  # Fig. 9's ends and middle
    mix_seeds=(1) mix_time=(--arrivals-ms 16 --duration-ms 20)  # pyrrha_incastmix_lab.py's
    mix_baseline=()
    iq_sizes=("4 2 4 8")                          # k, then its m values
  else
    table1=(-n 40 -f 4)                           # the Results table's 40 + 4 networks
    jellyfish=("100,32,16" "500,64,32" "1000,64,32" "2000,64,32" "5000,64,32" "10000,64,32")
    pabo_scenarios=(3to1 6to1 9to1 12to1 mtom)
    pabo_thetas=0.5,0.6,0.7,0.8,0.9,0.95 pabo_lambdas=0,1,5,10,20,30,50
    mix_seeds=(1 2 3 4) mix_time=()
    mix_baseline=(--no-incast-baseline)
    iq_sizes=("4 2 4 8" "8 2 4 32" "12 2 3 4 6 12")
  fi

  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  rm -rf "$out/runs" "$out/logs" "$out"/*.png "$out/report.md" "$out/report.html"
  mkdir -p "$out/runs" "$out/logs"
  runs=$out/runs
  start=$SECONDS
  echo "reproduce: $mode, $jobs at a time, into $out"

  # A job runs in the background once fewer than $jobs are running; its output goes to
  # logs/NAME.log, its exit status to logs/NAME.rc and its wall seconds to logs/NAME.s.
  job() {
    local name=$1
    shift
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    (
      t0=$SECONDS
      if "$@" >"$out/logs/$name.log" 2>&1; then rc=0; else rc=$?; fi
      echo "$rc" >"$out/logs/$name.rc"
      echo $((SECONDS - t0)) >"$out/logs/$name.s"
      if [ "$rc" -eq 0 ]; then
        echo "  done   $name ($((SECONDS - t0)) s)"
      else
        echo "  FAILED $name (exit $rc)"
      fi
    ) &
  }
  lab() { "$fclab" "$@" --quiet --no-plots; }
  to() { local file=$1; shift; "$@" >"$file"; }  # stdout to FILE (stderr stays in the log)
  engines=flow_control.engine=pfc,cbfc,gfc-buffer,gfc-time

  # The longest jobs first, so that the short ones fill in beside them.
  mkdir -p "$runs/pabo-fat-tree" "$runs/tagger-table5" "$runs/pyrrha-incastmix"
  mix_args=(--fclab "$fclab" --jobs 1 "${mix_time[@]}")
  for seed in "${mix_seeds[@]}"; do mix_args+=(--seed "$seed"); done
  mix=$runs/pyrrha-incastmix
  job pyrrha-incastmix-120 to "$mix/120-to-1-report.md" \
    "$python" "$root/tools/pyrrha_incastmix.py" "${mix_args[@]}" --paper-degree \
    --out "$mix/120-to-1" --json "$mix/120-to-1.json"
  job pyrrha-incastmix-24 to "$mix/24-to-1-report.md" \
    "$python" "$root/tools/pyrrha_incastmix.py" "${mix_args[@]}" "${mix_baseline[@]}" \
    --out "$mix/24-to-1" --json "$mix/24-to-1.json"
  for size in "${iq_sizes[@]}"; do
    read -r k ms <<<"$size"
    m_args=()
    for m in $ms; do m_args+=(--m "$m"); done
    job "pyrrha-iq-usage-k$k" "$python" "$root/tools/pyrrha_iq_usage.py" --fclab "$fclab" \
      --k "$k" "${m_args[@]}" --jobs 1 --out "$runs/pyrrha-iq-usage/k$k" \
      --json "$runs/pyrrha-iq-usage/k$k.json"
  done
  # GNU parallel inside gets one slot: this job is one of the $jobs.
  job gfc-table1 bash "$root/tools/sweep/gfc_table1.sh" "$runs/gfc-table1" -k 4 "${table1[@]}" \
    -j 1 --fclab "$fclab"
  pabo_args=()
  for s in "${pabo_scenarios[@]}"; do pabo_args+=(--scenario "$s"); done
  job pabo-fat-tree to "$runs/pabo-fat-tree/tables.md" "$python" "$root/tools/pabo_fat_tree.py" \
    --fclab "$fclab" --out "$runs/pabo-fat-tree" "${pabo_args[@]}"
  # Table 5 and Fig. 13 with tagger-gen itself: tools/bench/tagger_scale.sh builds first and
  # runs build/app's, where this script runs the programs it is given.
  for spec in "${jellyfish[@]}"; do
    n=${spec%%,*}
    job "tagger-table5-$n" to "$runs/tagger-table5/jellyfish-$n.txt" \
      "$tagger_gen" --topology "jellyfish:$spec" --elp trees --quiet
  done

  job gfc-ring-testbed lab "$scenarios/gfc-ring.toml" --out "$runs/gfc-ring/testbed" \
    --sweep "$engines"
  job gfc-ring-fair lab "$scenarios/gfc-ring.toml" --out "$runs/gfc-ring/fair" \
    --set switch.crossbar=egress-round-robin --sweep "$engines"
  job gfc-fat-tree-output lab "$scenarios/gfc-fat-tree-case.toml" \
    --out "$runs/gfc-fat-tree/output" --sweep "$engines"
  job gfc-fat-tree-input-fair lab "$scenarios/gfc-fat-tree-case.toml" \
    --out "$runs/gfc-fat-tree/input-fair" --set switch.queueing=input-fair --sweep "$engines"
  job gfc-dcqcn lab "$scenarios/gfc-dcqcn.toml" --out "$runs/gfc-dcqcn"

  single=lab.tagger_rules=tagger-clos.single.rules.toml  # PFC alone: one tag on every hop
  job tagger-clos lab "$scenarios/tagger-clos.toml" --out "$runs/tagger/clos"
  job tagger-clos-pfc lab "$scenarios/tagger-clos.toml" --out "$runs/tagger/clos-pfc" \
    --set "$single"
  job tagger-loop lab "$scenarios/tagger-loop.toml" --out "$runs/tagger/loop"
  job tagger-loop-pfc lab "$scenarios/tagger-loop.toml" --out "$runs/tagger/loop-pfc" \
    --set "$single"

  job pabo-tree lab "$scenarios/pabo-tree.toml" --out "$runs/pabo-tree/pabo" \
    --sweep flows.burst=500,1500,2500
  job pabo-tree-plain lab "$scenarios/pabo-tree.toml" --out "$runs/pabo-tree/plain" \
    --set pabo.bounce=false --set pabo.normal_capacity=1000 --sweep flows.burst=500,1500,2500
  job pabo-theta lab "$scenarios/pabo-tree.toml" --out "$runs/pabo-tree/theta" \
    --set flows.burst=1500 --sweep "pabo.theta=$pabo_thetas"
  job pabo-lambda lab "$scenarios/pabo-tree.toml" --out "$runs/pabo-tree/lambda" \
    --set flows.burst=1500 --sweep "pabo.lambda=$pabo_lambdas"

  testbed=$scenarios/pyrrha-testbed.toml
  job pyrrha-testbed lab "$testbed" --out "$runs/pyrrha-testbed/pyrrha"
  job pyrrha-testbed-pfc lab "$testbed" --out "$runs/pyrrha-testbed/pfc" \
    --set pyrrha.enabled=false --set flow_control.engine=pfc
  # Fig. 24's order (S2, VS, S1), as tests/integration/pyrrha_testbed_lab.py starts it.
  fig24='flows=[{from="L1h1", to="L3h1", priority=3, start="4ms"}, '
  fig24+='{from="L2h1", to="L3h1", priority=3, start="0ms"}, '
  fig24+='{from="L1h2", to="L3h2", priority=3, start="2ms"}]'
  job pyrrha-testbed-fig24 lab "$testbed" --out "$runs/pyrrha-testbed/fig24" --set "$fig24"
  wait
  runs_s=$((SECONDS - start))

  failed=0
  for rc in "$out"/logs/*.rc; do
    if [ "$(cat "$rc")" != 0 ]; then
      failed=1
      name=$(basename "$rc" .rc)
      echo "reproduce: $name failed; the end of logs/$name.log:" >&2
      tail -n 15 "$out/logs/$name.log" >&2
    fi
  done

  # What the report needs to know of the run: which sizes ran (so that it can tell a row that
  # is missing from one that was not asked for), the programs and the commit.
  commit=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
  iq=$(IFS=';'; echo "${iq_sizes[*]}")
  "$python" -c 'import json, sys; json.dump(dict(zip(sys.argv[2::2], sys.argv[3::2])),
    open(sys.argv[1], "w"), indent=1)' \
    "$runs/meta.json" mode "$mode" date "$(date '+%Y-%m-%d %H:%M %Z')" commit "$commit" \
    fclab "$fclab" tagger_gen "$tagger_gen" jobs "$jobs" cpus "$(nproc)" runs_s "$runs_s" \
    table1 "${table1[*]}" jellyfish "${jellyfish[*]}" pabo_scenarios "${pabo_scenarios[*]}" \
    pabo_thetas "$pabo_thetas" pabo_lambdas "$pabo_lambdas" mix_seeds "${mix_seeds[*]}" \
    mix_time "${mix_time[*]}" mix_baseline "${mix_baseline[*]}" iq_sizes "$iq"
  report=0
  "$python" "$root/tools/reproduce_report.py" "$out" || report=$?
  echo "reproduce: $((SECONDS - start)) s in all ($runs_s s of runs): $out/report.md, report.html"
  [ "$failed" -eq 0 ] && [ "$report" -eq 0 ]
}

main "$@"

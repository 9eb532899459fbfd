#!/usr/bin/env bash
# The testbed in one command a step, on the machines an Ansible inventory lists
# (tools/testbed/inventory/: gfc-testbed.yml, the GFC testbed's servers; rehearsal.yml, the
# same ring as processes on this machine):
#
#   testbed.sh -i INVENTORY check [--out DIR]
#   testbed.sh -i INVENTORY run EXPERIMENT [--engine E] [--queueing MODEL] [--seconds S]
#                                          [--out RUN_DIR] [--no-prometheus] [--lead S]
#   testbed.sh -i INVENTORY collect RUN_DIR
#   testbed.sh -i INVENTORY stop RUN_DIR
#
# check: every machine answers, NICs bound, hugepages, fcswitch and fchost built, Prometheus on
# the monitor, every cable carries flow-control frames both ways (fcswitch selftest --links on
# every node at once; DIR, default out/testbed/check, holds their configs and logs).
# run: testbed_plan.py checks the inventory and writes the run's configs (nothing starts when it
# refuses), then testbed.yml runs them: switches in order, hosts from one time
# zero, Prometheus, the stop, every report back in RUN_DIR; then the table and verdict
# (collect). A failure anywhere stops every process the run started, everywhere (stop.yml).
# EXPERIMENT: gfc-ring. E: pfc, cbfc, gfc-buffer, gfc-time (default pfc). MODEL: input-hol,
# input-hol-fair, output (default input-hol). The binaries are FC_ROOT/build/app/… on every
# machine (FC_ROOT: the inventory's fc_root, else this tree), or $FCSWITCH and $FCHOST.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage() { sed -n '2,21p' "$0"; exit 2; }
inventory=
[ "${1:-}" = "-i" ] && [ $# -ge 2 ] && { inventory=$2; shift 2; }
[ -n "$inventory" ] && [ $# -ge 1 ] || usage
[ -f "$inventory" ] || { echo "no inventory $inventory" >&2; exit 2; }
step=$1
shift
command -v ansible-playbook > /dev/null ||
  { echo "ansible-playbook not installed (tools/install-deps.sh)" >&2; exit 2; }

# What every playbook is told: the binaries and tools on the machines, and quiet output.
export ANSIBLE_STDOUT_CALLBACK=${ANSIBLE_STDOUT_CALLBACK:-default} ANSIBLE_DISPLAY_SKIPPED_HOSTS=0
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
export ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
playbook() {  # PLAYBOOK [ansible-playbook arguments]
  local book=$1
  shift
  local fc_root
  fc_root=$(/usr/bin/python3 -c "import sys, yaml; d = yaml.safe_load(open(sys.argv[1])) or {}
print(((d.get('all') or {}).get('vars') or {}).get('fc_root', sys.argv[2]))" "$inventory" "$root")
  ansible-playbook -i "$inventory" --forks 12 "$here/$book" \
    -e "fc_fcswitch=${FCSWITCH:-$fc_root/build/app/fcswitch}" \
    -e "fc_fchost=${FCHOST:-$fc_root/build/app/fchost}" -e "fc_tools=$fc_root/tools" \
    -e fc_exit_budget_s=60 "$@"
}

# An earlier run's or check's folder (it holds MARKER) is replaced; anything else at DIR is not
# touched: --out may name any path.
fresh_folder() {  # DIR MARKER WHAT ("a run's")
  if [ -n "$(ls -A "$1" 2> /dev/null)" ] && [ ! -f "$1/$2" ]; then
    echo "testbed.sh: $1 is there and is not $3 folder (no $2): give another" >&2
    exit 2
  fi
  rm -rf "$1"
}

case $step in
  check)
    out=$root/out/testbed/check
    [ "${1:-}" = "--out" ] && [ $# -ge 2 ] && out=$2
    case $out in
      *[[:space:]\'\"]*) echo "testbed.sh: a path with a space or a quote: \"$out\"" >&2; exit 2 ;;
    esac
    fresh_folder "$out" links.json "a check's"
    /usr/bin/python3 "$here/testbed_plan.py" links "$inventory" "$out" || exit 2
    playbook check.yml -e "@$(cd "$out" && pwd)/links.json"
    ;;
  run)
    [ $# -ge 1 ] || usage
    experiment=$1
    shift
    engine=pfc queueing=input-hol seconds=10 out= prometheus=true lead=1.5
    while [ $# -gt 0 ]; do
      case $1 in
        --engine) engine=$2; shift 2 ;;
        --queueing) queueing=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-prometheus) prometheus=false; shift ;;
        --lead) lead=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; usage ;;
      esac
    done
    out=${out:-$root/out/testbed/$experiment-$engine-$queueing}
    fresh_folder "$out" plan.json "a run's"
    /usr/bin/python3 "$here/testbed_plan.py" "$inventory" "$out" "$experiment" "$engine" \
      "$queueing" "$seconds" || exit 2
    out=$(cd "$out" && pwd)
    # The playbook writes these paths into shell commands on every machine.
    for path in "$out" "${FCSWITCH:-}" "${FCHOST:-}"; do
      case $path in
        *[[:space:]\'\"]*)
          echo "testbed.sh: a path with a space or a quote: \"$path\"" >&2
          exit 2 ;;
      esac
    done
    # Interrupted (SIGINT, SIGTERM): every process the run started stops, everywhere.
    trap 'echo "interrupted: stopping every process the run started" >&2
          playbook stop.yml -e "run_dir=$out" > "$out/stop.log" 2>&1; exit 130' INT TERM
    if ! playbook testbed.yml -e "@$out/plan.json" -e "fc_prometheus=$prometheus" \
        -e "fc_lead_s=$lead" > "$out/ansible.log" 2>&1; then
      cat "$out/ansible.log"
      echo "the run failed: stopping every process it started" >&2
      playbook stop.yml -e "run_dir=$out" > "$out/stop.log" 2>&1 || cat "$out/stop.log"
      exit 1
    fi
    # How each process ended, a line each (the collector's table says which were not 0).
    /usr/bin/python3 - "$out" > "$out/exit_status" <<'PY'
import json, pathlib, sys
run = pathlib.Path(sys.argv[1])
for name, proc in json.loads((run / "plan.json").read_text())["processes"].items():
    done = run / f"{proc}.exit"
    print(name, done.read_text().strip() if done.exists() else "lost")
PY
    /usr/bin/python3 "$here/testbed_collect.py" table "$out"
    ;;
  collect)
    [ $# -ge 1 ] || usage
    for run in "$@"; do /usr/bin/python3 "$here/testbed_collect.py" table "$run"; done
    /usr/bin/python3 "$here/testbed_collect.py" verdicts "$@"
    ;;
  stop)
    [ $# -eq 1 ] || usage
    playbook stop.yml -e "run_dir=$(cd "$1" && pwd)"
    ;;
  *) usage ;;
esac

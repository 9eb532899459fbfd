#!/usr/bin/env bash
# tools/testbed_rehearsal.sh as a user runs it, against the lab: the testbed's playbook
# (tools/testbed/testbed.sh, Ansible) on a one-machine inventory runs the GFC ring's six
# processes over memif (three fcswitch, three fchost, 100 Mb/s links) under each engine with the
# testbed's input-queued switch (inputs take turns), and under PFC and buffer-based GFC with a
# fair crossbar, and fclab on the same scenario in virtual time beside each run. They agree:
# the same verdict, each flow's rate within 10 %, each host ingress's steady occupancy within
# 15 %, no lossless drop on either side (testbed_collect.py compare). And the verdicts are the ones the lab demo shows: every
# engine deadlocks with inputs taking turns (GFC's cascade reaches its last stage), none with
# the fair crossbar, where every flow gets half a link. Prometheus scraped all six (the
# dashboard's queries return data from S1–S3 and H1–H3); every process exits 0 with its mbufs
# back (a crash or a hang fails, with each process's report printed); nothing is left behind.
# usage: testbed_rehearsal.sh SOURCE_DIR FCSWITCH FCHOST FCLAB WORK_DIR
set -euo pipefail
source_dir=$1
work=$5
rm -rf "$work"
mkdir -p "$work"
declare -A engines=([input-hol]="pfc cbfc gfc-buffer gfc-time" [input-hol-fair]="pfc gfc-buffer")
for model in input-hol input-hol-fair; do
  FCSWITCH=$2 FCHOST=$3 FCLAB=$4 "$source_dir/tools/testbed_rehearsal.sh" --seconds 4 \
    --queueing "$model" --engines "${engines[$model]}" --out "$work/$model" \
    > "$work/$model.log" 2>&1 || { cat "$work/$model.log"; exit 1; }
  cat "$work/$model.log"
done
if python3 - "$work" <<'PY'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
failures = []
def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)
expected = {"input-hol": ("deadlock", ("pfc", "cbfc", "gfc-buffer", "gfc-time")),
            "input-hol-fair": ("moving", ("pfc", "gfc-buffer"))}
for model, (verdict, engines) in expected.items():
    for engine in engines:
        run = work / model / engine
        agreement = json.loads((run / "agreement.json").read_text())
        check(agreement["agree"], f"{model} {engine}: the processes and the lab differ: "
              f"{'; '.join(agreement['differs'])}")
        check(agreement["lab"]["verdict"] == verdict,
              f"{model} {engine}: the lab says {agreement['lab']['verdict']}, not {verdict}")
        exits = json.loads((run / "verdict.json").read_text())["exits"]
        check(sorted(exits) == ["H1", "H2", "H3", "S1", "S2", "S3"] and not any(exits.values()),
              f"{model} {engine}: a process did not exit 0 (a crash, or a hang killed): {exits}")
        answers = json.loads((run / "dashboard.json").read_text())
        nodes = {n for a in answers for n in a["nodes"]}
        check(nodes == {"S1", "S2", "S3", "H1", "H2", "H3"},
              f"{model} {engine}: the dashboard's queries returned data from {sorted(nodes)} only")
        for h in ("h1", "h2", "h3"):
            check(json.loads((run / f"{h}.json").read_text())
                  ["mempool_in_use_after_shutdown"] == 0, f"{model} {engine}: {h}'s mbufs not back")
        for s in ("s1", "s2", "s3"):
            check(json.loads((run / f"{s}.json").read_text())["mempool_in_use"] == 0,
                  f"{model} {engine}: {s}'s mbufs not back")
(work / "failures.txt").write_text("".join(f"FAIL: {f}\n" for f in failures))
sys.exit(1 if failures else 0)
PY
then :; else
  # The evidence: each process's report (fcswitch's after its stop, fchost's summary) and
  # anything it said about a crash.
  for log in "$work"/*/*/[sh][0-9].log; do
    echo "== $log"
    sed -n '/stopping$\|fatal signal/,$p' "$log" | head -60 || true
  done
  cat "$work/failures.txt"  # again, last: what a log cut to its end shows
  exit 1
fi
# Nothing left: sockets, DPDK runtime directories, Prometheus's data, processes.
left=$(ls "$work"/*/*/*.sock 2> /dev/null; ls -d "$work"/*/*/tsdb 2> /dev/null;
       ls -d /var/run/dpdk/fcring* 2> /dev/null) || true
[ -z "$left" ] || { echo "FAIL: left behind: $left"; exit 1; }
if pgrep -f "$work/" > /dev/null; then
  echo "FAIL: processes of the rehearsal still running: $(pgrep -af "$work/")"
  exit 1
fi
echo "rehearsal: the six processes agree with the lab under both switch models and every" \
  "engine; scraped; nothing left behind"

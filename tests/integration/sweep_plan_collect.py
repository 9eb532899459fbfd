#!/usr/bin/env python3
"""The large-sweep path end to end: tools/sweep/plan.py -> GNU parallel -> collect.py.

    sweep_plan_collect.py FCLAB SOURCE_ROOT WORK_DIR

Plans the GFC ring (config/lab/gfc-ring.toml) for 8 ms over PFC and GFC-buffer with two
seeds (4 runs; 8 ms is the shortest that shows PFC's deadlock: it forms at 3.0 ms and the
detector reports a cycle blocked for the scenario's blocked_for, 5 ms), runs them with
`parallel -j 2`, and checks what collect reports: 4 rows, PFC
deadlocked in both seeds (100 %), GFC-buffer in neither (0 %), every run ok. Then the
refusals: plan exits 2 naming a bad --vary value, and collect exits 1 naming a run whose
summary.json was deleted. Also checks that tools/sweep/slurm_array.sh runs line
$SLURM_ARRAY_TASK_ID of a runs file (1-based and 0-based arrays), without Slurm.

Needs GNU parallel (Debian's `parallel`, installed by tools/install-deps.sh); moreutils'
`parallel` is not it and the test says so.
"""

import csv
import os
import shutil
import subprocess
import sys

from script_checks import Checks

fclab, root, work = sys.argv[1:4]
plan_py = os.path.join(root, "tools/sweep/plan.py")
collect_py = os.path.join(root, "tools/sweep/collect.py")
slurm_sh = os.path.join(root, "tools/sweep/slurm_array.sh")
scenario = os.path.join(root, "config/lab/gfc-ring.toml")
sweep = os.path.join(work, "sweep")
checks = Checks()
run, expect = checks.run, checks.expect


version = subprocess.run(["parallel", "--version"], capture_output=True, text=True)
if "GNU parallel" not in version.stdout:
    sys.exit("GNU parallel is needed (Debian package `parallel`, tools/install-deps.sh); "
             "`parallel` here is not it")

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

# plan: 2 engines x 2 seeds, on shared-FIFO switches (PFC deadlocks, GFC drops nothing).
p = run([sys.executable, plan_py, scenario, "--fclab", fclab, "--out", sweep,
         "--set", "lab.duration=8ms", "--set", "switch.queueing=output",
         "--set", "switch.egress_queue_packets=16384",
         "--vary", "flow_control.engine=pfc,gfc-buffer",
         "--seeds", "2"])
expect(p.returncode == 0, "plan exits 0")
with open(os.path.join(sweep, "runs.txt")) as f:
    lines = f.read().splitlines()
expect(len(lines) == 4, f"runs.txt has 4 lines (has {len(lines)})")
expect(all("--no-plots" in l and "lab.seed=" in l for l in lines), "every line has --no-plots and a seed")

# A plan over a non-empty folder is refused without --force.
p = run([sys.executable, plan_py, scenario, "--fclab", fclab, "--out", sweep])
expect(p.returncode == 2 and "not empty" in p.stderr, "plan refuses a non-empty --out (exit 2)")

# run: GNU parallel, two at a time.
with open(os.path.join(sweep, "runs.txt")) as f:
    p = run(["parallel", "--will-cite", "-j", "2", "--joblog", os.path.join(sweep, "joblog")],
            stdin=f)
expect(p.returncode == 0, "parallel runs all 4 (exit 0)")

# collect
p = run([sys.executable, collect_py, sweep])
expect(p.returncode == 0, "collect exits 0 when every run is ok")
with open(os.path.join(sweep, "runs.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
expect(len(rows) == 4, f"runs.csv has 4 rows (has {len(rows)})")
for r in rows:
    engine = r["flow_control.engine"]
    want = "yes" if engine == "pfc" else "no"
    expect(r["status"] == "ok" and r["deadlock"] == want,
           f"{r['id']}: status ok, deadlock {want} (status {r['status']}, deadlock {r['deadlock']})")
    expect(r["conservation"] == "yes" and r["lossless_drops"] == "0",
           f"{r['id']}: conservation holds, no lossless drop")
    expect(r["wall_s"] != "", f"{r['id']}: wall seconds from the joblog")
expect(sorted(r["seed"] for r in rows) == ["1", "1", "2", "2"], "seeds 1 and 2 for each engine")
with open(os.path.join(sweep, "verdicts.txt")) as f:
    verdicts = f.read().splitlines()
pfc = [l for l in verdicts if l.startswith("pfc ")]
gfc = [l for l in verdicts if l.startswith("gfc-buffer ")]
expect(len(pfc) == 1 and "2 (100 %)" in pfc[0], "verdicts: pfc deadlocked 2 (100 %)")
expect(len(gfc) == 1 and "0 (0 %)" in gfc[0], "verdicts: gfc-buffer deadlocked 0 (0 %)")

# A run without its summary: collect names it and exits 1.
os.remove(os.path.join(sweep, "runs", "engine-gfc-buffer_seed-2", "summary.json"))
p = run([sys.executable, collect_py, sweep])
expect(p.returncode == 1 and "engine-gfc-buffer_seed-2: missing summary" in p.stdout,
       "collect exits 1 naming engine-gfc-buffer_seed-2 (missing summary)")

# A bad --vary value: plan refuses it with fclab's message naming the value, writes nothing.
bad = os.path.join(work, "bad")
p = run([sys.executable, plan_py, scenario, "--fclab", fclab, "--out", bad,
         "--vary", "flow_control.engine=pfc,no-such-engine"])
expect(p.returncode == 2 and "no-such-engine" in p.stderr,
       "plan exits 2 naming the bad value no-such-engine")
expect(not os.path.exists(bad), "a refused plan writes nothing")

# slurm_array.sh picks its line: task i is line i, or line i+1 in a 0-based array.
lines_file = os.path.join(work, "lines.txt")
with open(lines_file, "w") as f:
    f.write("echo first\necho second\necho 'third line'\n")
for task, low, want in [("1", "1", "first"), ("3", "1", "third line"), ("0", "0", "first"),
                        ("1", "0", "second")]:
    env = dict(os.environ, SLURM_ARRAY_TASK_ID=task, SLURM_ARRAY_TASK_MIN=low)
    p = run(["bash", slurm_sh, lines_file], env=env)
    expect(p.returncode == 0 and p.stdout.splitlines()[-1:] == [want],
           f"slurm_array.sh task {task} (array from {low}) runs '{want}'")
env = dict(os.environ, SLURM_ARRAY_TASK_ID="4", SLURM_ARRAY_TASK_MIN="1")
p = run(["bash", slurm_sh, lines_file], env=env)
expect(p.returncode == 2 and "no line 4" in p.stderr, "slurm_array.sh refuses a task past the end")

checks.finish()

#!/usr/bin/env python3
"""fclab --threads 2 writes what one thread writes, byte for byte (lab/lab_partition.h): the
k = 8 fat-tree permutation for 1 ms (every link busy: 128 line-rate flows across pods, PFC), the
GFC ring under PFC (it deadlocks) and under buffer-based GFC with a fair crossbar (it does not:
docs/experiments/gfc.md), Pyrrha's incast (a few frames at a time between the parts), and the
k = 4 fat-tree with a link that fails and comes back.
Usage: lab_threads.py FCLAB SOURCE_ROOT"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

def run(fclab, scenario, out, threads, *sets):
    args = [fclab, str(scenario), "--out", str(out), "--quiet", "--no-plots", "--threads",
            str(threads)]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return json.loads((out / "summary.json").read_text())


def main():
    fclab, root = sys.argv[1], Path(sys.argv[2])
    if len(os.sched_getaffinity(0)) < 2:
        print("SKIP: fewer than 2 CPUs here")
        return 77
    failed = False
    # name, scenario, overrides, the deadlock verdict expected
    cases = [("perm-k8", root / "tests/lab/perm-k8.toml", [], None),
             ("gfc-ring-pfc", root / "config/lab/gfc-ring.toml", ["flow_control.engine=pfc"],
              True),
             ("gfc-ring-gfc-buffer-fair", root / "config/lab/gfc-ring.toml",
              ["flow_control.engine=gfc-buffer", "switch.crossbar=egress-round-robin"], False),
             # Few frames, far apart: the next window starts at the next arrival across parts
             # (it used to start at the next timer of either part, and deliver late).
             ("pyrrha-incast", root / "tests/lab/pyrrha-incast.toml", [], None)]
    with tempfile.TemporaryDirectory() as tmp:
        # A link between a core and an aggregation switch fails and comes back: [[events]]
        # are applied between windows, at the time one thread applies them. On two threads
        # (fclab --log-level info says) S1 is with pods 0 and 1, L7 in pod 3: the link is
        # between the parts. Not rerouted, S1 goes on sending into it (1 628 frames lost), and
        # what falls off the cut end arrives nowhere: it must not start a window.
        flap = Path(tmp) / "fat-tree-k4-flap.toml"
        flap.write_text((root / "config/lab/fat-tree-k4.toml").read_text()
                        + '\n[[events]]\nat = "1ms"\nfail = "S1:L7"\nreroute = false\n'
                        + '\n[[events]]\nat = "3ms"\nrestore = "S1:L7"\n')
        cases.append(("fat-tree-k4-flap", flap, [], None))
        for name, scenario, sets, deadlock in cases:
            run(fclab, scenario, Path(tmp) / name / "1", 1, *sets)
            two = run(fclab, scenario, Path(tmp) / name / "2", 2, *sets)
            # Every file each writes: summary.json and the CSV files (flows_fct.csv where flows
            # have a size).
            one_dir, two_dir = Path(tmp) / name / "1", Path(tmp) / name / "2"
            files = sorted(f.name for f in one_dir.iterdir())
            if files != sorted(f.name for f in two_dir.iterdir()):
                print(f"FAIL: {name}: one thread wrote {files}, two "
                      f"{sorted(f.name for f in two_dir.iterdir())}")
                failed = True
            for f in files:
                a = (one_dir / f).read_bytes()
                b = (two_dir / f).read_bytes() if (two_dir / f).exists() else b""
                same = a == b
                failed |= not same
                print(f"{'ok' if same else 'FAIL'}: {name} {f}: "
                      f"{'the same' if same else 'differs'} on 1 and 2 threads ({len(a)} bytes)")
            detected = two["deadlock"]["detected"]
            print(f"   {name}: {two['packet_hops']} packet-hops, {two['clock_steps']} steps, "
                  f"deadlock {detected}, conservation holds {two['conservation']['holds']}")
            # What makes the comparison worth having: the runs moved frames, and the ring's
            # verdicts differ between the engines.
            if two["packet_hops"] == 0 or not two["conservation"]["holds"]:
                print(f"FAIL: {name}: no frames moved, or frames unaccounted for")
                failed = True
            if deadlock is not None and detected != deadlock:
                print(f"FAIL: {name}: deadlock detected {detected}, expected {deadlock}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Pyrrha's IQ usage under stress in the lab (config/lab/pyrrha-iq-usage.toml,
tools/pyrrha_iq_usage.py; Pyrrha §4.5, Fig. 7), on the k = 4 fat-tree: m = 2 (the file as
written: half the ToRs send to the other half) and m = 8 (seven ToRs into one).

Pass criteria (issue 20, Fig. 7's question):
- every burst is delivered: no lossless drop, no frame lost or reordered, conservation holds,
  every flow completes;
- Pyrrha isolated: congestion roots appeared and switches used IQs for them;
- IQ use stays moderate: no root found the 100 IQs of a port exhausted, and no port needed more
  IQs than its switch had roots at once (one IQ a root on a port, exhaustion aside);
- the high-water marks are exact: none is below what any pyrrha.csv sample saw;
- every tree is released once its traffic has gone: at the end no switch holds a root, an IQ
  or a port acting as a root (DEALLOC from the leaves, a leaf reached by MERGE with nothing
  to drain, hosts no children once resumed), and what is published says so.
The figures (roots at once, IQs a switch and a port) are printed beside the paper's k = 12 ones.

usage: pyrrha_iq_usage_lab.py FCLAB SOURCE_DIR
"""
import collections
import csv
import json
import pathlib
import sys
import tempfile

from lab_run import run_fclab
from script_checks import Checks

K = 4


def sampled_maxima(out_dir):
    """Per switch, the most roots and IQs in use any pyrrha.csv sample saw."""
    roots, iqs = collections.Counter(), collections.Counter()
    with open(out_dir / "pyrrha.csv") as f:
        for row in csv.DictReader(f):
            roots[row["node"]] = max(roots[row["node"]], int(row["roots_active"]))
            iqs[row["node"]] = max(iqs[row["node"]], int(row["iqs_in_use"]))
    return roots, iqs


def check_run(check, name, out_dir, summary, row):
    flows = summary["flows"]
    check(summary["lossless_drops"] == 0 and summary["conservation"]["holds"],
          f"{name}: no lossless drop, frames balance")
    check(sum(f["lost_packets"] + f["reordered_packets"] for f in flows) == 0,
          f"{name}: no frame lost or reordered")
    check(row["flows_done"] == row["flows"] == row["senders"] * 40,
          f"{name}: all {row['flows']} flows (40 a sender) complete")
    check(row["roots_at_once"] >= 1 and row["max_iqs_switch"] >= 1,
          f"{name}: roots appeared ({row['roots_at_once']} at once) and switches isolated them "
          f"in IQs (up to {row['max_iqs_switch']} a switch)")
    check(row["iq_exhaustion"] == 0, f"{name}: no root found a port's IQs exhausted")
    pyrrha = {s["node"]: s["pyrrha"] for s in summary["switches"]}
    check(all(p["max_iqs_on_a_port"] <= p["max_roots_active"] for p in pyrrha.values()),
          f"{name}: no port needed more IQs than its switch had roots")
    check(row["roots_left"] == 0 and row["iqs_left"] == 0,
          f"{name}: every tree released at the end ({row['roots_left']} roots, "
          f"{row['iqs_left']} IQs left)")
    roots, iqs = sampled_maxima(out_dir)
    check(all(pyrrha[n]["max_roots_active"] >= roots[n] and pyrrha[n]["max_iqs_in_use"] >= iqs[n]
              for n in pyrrha),
          f"{name}: the high-water marks are at or above every sample")


def main():
    fclab, source = sys.argv[1], pathlib.Path(sys.argv[2])
    sys.path.insert(0, str(source / "tools"))
    import pyrrha_iq_usage as usage  # noqa: E402 (the tool's scenario and figures)

    checks = Checks()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # The file as written: k = 4, m = 2.
        out = pathlib.Path(tmp) / "as-written"
        summary = run_fclab(fclab, usage.SCENARIO_FILE, out, plots=False)
        row = usage.read_run(K, 2, out)
        checks.expect(row["senders"] == 8 and row["receivers"] == 8,
                      "the file as written: 8 hosts of T5…T8 send to the 8 of T1…T4")
        check_run(checks.expect, "k=4 m=2 (as written)", out, summary, row)
        rows.append(row)
        # Seven ToRs into one, as the tool writes it.
        row = usage.run(fclab, K, 8, 1, pathlib.Path(tmp) / "m8")
        summary = json.loads((pathlib.Path(tmp) / "m8/summary.json").read_text())
        check_run(checks.expect, "k=4 m=8", pathlib.Path(tmp) / "m8", summary, row)
        rows.append(row)
    usage.print_table(rows)
    checks.finish()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""gfc_table1_report.py OUT K: GFC §6.2.3's table from what tools/sweep/gfc_table1.sh ran.

Reads OUT/cbd and OUT/free (plan.json and the runs.csv collect.py wrote) and prints, per
engine, beside the paper's numbers:
  Table 1    deadlock cases: networks (failure draws) whose run deadlocked, of the networks
             drawn, and how many of those had a CBD (only they ran: plan.py --cbd yes);
  Figs. 16–17 (a) on CBD-free networks and (b) on the CBD networks: the mean over runs of the
             host throughput (Gb/s each host received over the run) and of the mean FCT
             slowdown, and the slowdown normalised to the lowest engine (Fig. 17's axis);
  Fig. 19    the share of a port's capacity flow-control frames take: the mean over runs of
             the mean and of the 99th percentile over ports with traffic.
"""

import csv
import json
import os
import sys

ENGINES = ["pfc", "cbfc", "gfc-buffer", "gfc-time"]
# GFC Table 1: deadlock cases of 10 000 networks per scale.
PAPER_TABLE1 = {4: {"pfc": 32, "cbfc": 32, "gfc-buffer": 0, "gfc-time": 0},
                8: {"pfc": 12, "cbfc": 12, "gfc-buffer": 0, "gfc-time": 0},
                16: {"pfc": 2, "cbfc": 2, "gfc-buffer": 0, "gfc-time": 0}}
ENGINE_KEY = "flow_control.engine"


def load(part_dir):
    with open(os.path.join(part_dir, "plan.json")) as f:
        plan = json.load(f)
    with open(os.path.join(part_dir, "runs.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return plan, rows


def mean(values):
    values = [float(v) for v in values if v not in ("", None)]
    return sum(values) / len(values) if values else None


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows]) + "\n"


def main(argv):
    if len(argv) != 2:
        print("usage: gfc_table1_report.py OUT K", file=sys.stderr)
        return 2
    out, k = argv[0], int(argv[1])
    cbd_plan, cbd_rows = load(os.path.join(out, "cbd"))
    free_plan, free_rows = load(os.path.join(out, "free"))
    drawn = len(cbd_plan["seeds"] or [None])
    with_cbd = len({r["seed"] for r in cbd_rows})
    free_drawn = len(free_plan["seeds"] or [None])
    free_kept = len({r["seed"] for r in free_rows})
    paper = PAPER_TABLE1.get(k)

    text = (f"GFC §6.2.3 in the lab: fat-tree k = {k}, {drawn} networks drawn, {with_cbd} with a "
            f"CBD (all of them run); {free_kept} CBD-free networks of {free_drawn} drawn for "
            f"Figs. 16–17 (a)\n\n")
    rows = []
    for e in ENGINES:
        done = [r for r in cbd_rows if r[ENGINE_KEY] == e and r["status"] == "ok"]
        dead = sum(1 for r in done if r["deadlock"] == "yes")
        failed = sum(1 for r in cbd_rows if r[ENGINE_KEY] == e and r["status"] != "ok")
        rows.append([e, f"{dead} of {drawn} ({with_cbd} with CBD)",
                     f"{paper[e]} of 10000" if paper else "-", failed])
    text += "Table 1: deadlock cases\n" + table(
        ["engine", "lab", "paper", "failed runs"], rows) + "\n"

    def figures(rows_of, label):
        body = []
        slow = {e: mean(r["slowdown_mean"] for r in rows_of if r[ENGINE_KEY] == e
                        and r["status"] == "ok") for e in ENGINES}
        lowest = min((v for v in slow.values() if v is not None), default=None)
        for e in ENGINES:
            done = [r for r in rows_of if r[ENGINE_KEY] == e and r["status"] == "ok"]
            host = mean(r["host_gbps"] for r in done)
            incomplete = mean(r["fct_incomplete"] for r in done)
            body.append([e, len(done), fmt(host, ".2f"), fmt(slow[e], ".2f"),
                         fmt(slow[e] / lowest if slow[e] is not None and lowest else None, ".3f"),
                         fmt(incomplete, ".0f")])
        return f"Figs. 16–17 ({label})\n" + table(
            ["engine", "runs", "host Gb/s", "slowdown", "normalised", "flows unfinished"],
            body) + "\n"

    text += figures(free_rows, "a: CBD-free networks; paper: all four alike")
    text += figures(cbd_rows, "b: CBD networks; paper: PFC/CBFC 0 and infinite where they "
                    "deadlock, GFC close to (a)")
    body = []
    for e in ENGINES:
        done = [r for r in cbd_rows + free_rows if r[ENGINE_KEY] == e and r["status"] == "ok"]
        body.append([e, len(done), fmt(mean(r["feedback_mean_pct"] for r in done), ".3f"),
                     fmt(mean(r["feedback_p99_pct"] for r in done), ".3f"),
                     "0.21 / < 0.4 (k = 16)" if e == "gfc-buffer" else "-"])
    text += "Fig. 19: feedback frames' share of a port's capacity (%)\n" + table(
        ["engine", "runs", "mean", "p99 of ports", "paper (mean / p99)"], body)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

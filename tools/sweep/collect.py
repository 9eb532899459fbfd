#!/usr/bin/env python3
"""collect.py DIR: reads back a sweep planned by tools/sweep/plan.py (docs/architecture.md).

The runs themselves went to GNU parallel or a Slurm job array; this script takes plan.json
(which run has which values and seed: nothing is parsed out of paths) and every
DIR/runs/<id>/summary.json that fclab wrote, and writes

  DIR/runs.csv      one row per planned run: id, each varied key, seed, status, deadlock
                    (yes/no) and when it formed (ms of virtual time), the mean and the minimum
                    of the flows' tail throughput (Gb/s, last 20 %), lossless drops,
                    conservation (yes/no), wall seconds (from GNU parallel's DIR/joblog when
                    there is one; empty otherwise); and for GFC §6.2.3 (Figs. 16, 17, 19): cbd
                    (the routes' cyclic buffer dependency, yes/no, from summary.json), the mean
                    host throughput (Gb/s received per host over the whole run), the mean FCT
                    slowdown and the flows not completed, and the share of link capacity taken
                    by flow-control frames (%, the mean and the 99th percentile over the ports
                    with traffic)
  DIR/verdicts.txt  the table it also prints: per combination of varied values (seeds pooled)
                    the runs planned, the runs done, how many deadlocked (count and % of the
                    runs done), the mean over runs of the flows' mean tail throughput, and the
                    runs that failed, and the means over runs of the host throughput, the
                    slowdown and the two feedback shares. This is GFC Table 1's figure:
                    deadlock % per engine. Runs plan.py left out (--cbd) are counted below it.

A run fails when it left no summary.json (fclab refused it, crashed or never ran), when its
summary cannot be read, when fclab itself would have failed it (frames unaccounted for:
conservation does not hold or mbufs stayed in use), or when DIR/joblog says its command
exited non-zero. Failed runs are listed, by id and reason, and count in no average.
Exit code: 0 when every run is ok, 1 when any failed, 2 when DIR holds no plan.
"""

import csv
import json
import os
import sys


def fmt_gbps(bps):
    return f"{bps / 1e9:.2f}"


def read_joblog(path):
    """GNU parallel's --joblog: command -> (exit value, signal, runtime s); the last try wins."""
    jobs = {}
    if not os.path.isfile(path):
        return jobs
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        try:
            col = {name: header.index(name) for name in ("JobRuntime", "Exitval", "Signal", "Command")}
        except ValueError:
            print(f"collect: {path}: not a GNU parallel joblog (ignored)", file=sys.stderr)
            return jobs
        for line in f:
            fields = line.rstrip("\n").split("\t", len(header) - 1)
            if len(fields) < len(header):
                continue
            try:
                jobs[fields[col["Command"]]] = (int(fields[col["Exitval"]]),
                                               int(fields[col["Signal"]]),
                                               float(fields[col["JobRuntime"]]))
            except ValueError:
                continue
    return jobs


def read_run(run, joblog):
    """One planned run -> a dict of its measurements and its status ('ok' or why it failed)."""
    row = {"status": "ok", "deadlock": "", "deadlock_at_ms": "", "tail_gbps_mean": "",
           "tail_gbps_min": "", "lossless_drops": "", "conservation": "", "wall_s": "",
           "cbd": "", "host_gbps": "", "slowdown_mean": "", "fct_incomplete": "",
           "feedback_mean_pct": "", "feedback_p99_pct": "",
           "_mean_bps": None, "_deadlocked": None, "_host_bps": None, "_slowdown": None,
           "_feedback_mean": None, "_feedback_p99": None}
    job = joblog.get(run["command"])
    if job is not None:
        row["wall_s"] = f"{job[2]:.3f}"
    path = os.path.join(run["out"], "summary.json")
    if not os.path.isfile(path):
        row["status"] = "missing summary" + (f" (exit {job[0]})" if job and job[0] else "")
        return row
    try:
        with open(path) as f:
            s = json.load(f)
        rates = [float(flow["tail_throughput_bps"]) for flow in s["flows"]]
        deadlock = s["deadlock"]
        holds = bool(s["conservation"]["holds"])
        in_use = int(s.get("mempool_in_use_after_shutdown", 0))
        row["deadlock"] = "yes" if deadlock["detected"] else "no"
        if deadlock["detected"] and deadlock.get("at_s") is not None:
            row["deadlock_at_ms"] = f"{float(deadlock['at_s']) * 1e3:.3f}"
        if rates:
            row["_mean_bps"] = sum(rates) / len(rates)
            row["tail_gbps_mean"] = fmt_gbps(row["_mean_bps"])
            row["tail_gbps_min"] = fmt_gbps(min(rates))
        row["lossless_drops"] = str(int(s["lossless_drops"]))
        row["conservation"] = "yes" if holds else "no"
        row["_deadlocked"] = bool(deadlock["detected"])
        read_table1_figures(s, row)
    except (OSError, ValueError, KeyError, TypeError) as error:
        row["status"] = f"unreadable summary ({type(error).__name__}: {error})"
        return row
    if not holds or in_use != 0:
        row["status"] = f"frames unaccounted for ({in_use} mbufs in use after shutdown)"
    elif job is not None and (job[0] != 0 or job[1] != 0):
        row["status"] = f"exit {job[0]}" + (f", signal {job[1]}" if job[1] else "")
    return row


def read_table1_figures(s, row):
    """GFC §6.2.3's figures of one summary into row: CBD, host throughput (Fig. 16), slowdown
    (Fig. 17), feedback share (Fig. 19). Older summaries without them leave the cells empty."""
    if s.get("cbd") is not None:
        row["cbd"] = "yes" if s["cbd"]["present"] else "no"
    duration = float(s.get("duration_s", 0))
    hosts = {f["from"] for f in s["flows"]} | {f["to"] for f in s["flows"]}
    if duration > 0 and hosts:
        # "The average throughput of servers" (Fig. 16): what each host received, on average.
        row["_host_bps"] = sum(8 * int(f["received_bytes"]) for f in s["flows"]) / duration / len(hosts)
        row["host_gbps"] = fmt_gbps(row["_host_bps"])
    fct = s.get("fct")
    if fct and fct["all"].get("mean_slowdown") is not None:
        row["_slowdown"] = float(fct["all"]["mean_slowdown"])
        row["slowdown_mean"] = f"{row['_slowdown']:.2f}"
        row["fct_incomplete"] = str(int(fct["all"]["incomplete"]))
    feedback = s.get("feedback_share")
    if feedback and feedback["ports"]:
        row["_feedback_mean"] = float(feedback["mean"])
        row["_feedback_p99"] = float(feedback["p99"])
        row["feedback_mean_pct"] = f"{100 * row['_feedback_mean']:.3f}"
        row["feedback_p99_pct"] = f"{100 * row['_feedback_p99']:.3f}"


def mean_of(done, key):
    values = [r[key] for r in done if r[key] is not None]
    return sum(values) / len(values) if values else None


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows]) + "\n"


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print("usage: tools/sweep/collect.py DIR   (DIR as given to tools/sweep/plan.py --out)",
              file=sys.stderr)
        return 2
    out_dir = argv[0]
    plan_path = os.path.join(out_dir, "plan.json")
    try:
        with open(plan_path) as f:
            plan = json.load(f)
    except (OSError, ValueError) as error:
        print(f"collect: {plan_path}: {error} (write it with tools/sweep/plan.py)", file=sys.stderr)
        return 2
    keys = [v["key"] for v in plan["vary"]]
    joblog = read_joblog(os.path.join(out_dir, "joblog"))

    rows = []
    for run in plan["runs"]:
        rows.append((run, read_run(run, joblog)))

    columns = ["id"] + keys + ["seed", "status", "deadlock", "deadlock_at_ms", "tail_gbps_mean",
                               "tail_gbps_min", "lossless_drops", "conservation", "wall_s",
                               "cbd", "host_gbps", "slowdown_mean", "fct_incomplete",
                               "feedback_mean_pct", "feedback_p99_pct"]
    with open(os.path.join(out_dir, "runs.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(columns)
        for run, r in rows:
            seed = "" if run["seed"] is None else run["seed"]
            writer.writerow([run["id"]] + [run["vary"][k] for k in keys] + [seed] +
                            [r[c] for c in columns[len(keys) + 2:]])

    # Per combination of varied values, in plan order; seeds pooled.
    groups = {}
    for run, r in rows:
        groups.setdefault(tuple(run["vary"][k] for k in keys), []).append((run, r))
    header = (keys or ["scenario"]) + ["runs", "done", "deadlocked", "tail Gb/s (mean)",
                                       "host Gb/s", "slowdown", "feedback % mean", "p99",
                                       "failed"]
    body = []
    for combo, members in groups.items():
        done = [r for _, r in members if r["status"] == "ok"]
        failed = [run["id"] for run, r in members if r["status"] != "ok"]
        dead = sum(1 for r in done if r["_deadlocked"])
        rates = [r["_mean_bps"] for r in done if r["_mean_bps"] is not None]
        host, slow = mean_of(done, "_host_bps"), mean_of(done, "_slowdown")
        fb_mean, fb_p99 = mean_of(done, "_feedback_mean"), mean_of(done, "_feedback_p99")
        body.append(list(combo or [os.path.basename(plan["scenario"])]) + [
            len(members), len(done),
            f"{dead} ({100 * dead / len(done):.0f} %)" if done else "-",
            fmt_gbps(sum(rates) / len(rates)) if rates else "-",
            fmt_gbps(host) if host is not None else "-",
            f"{slow:.2f}" if slow is not None else "-",
            f"{100 * fb_mean:.3f}" if fb_mean is not None else "-",
            f"{100 * fb_p99:.3f}" if fb_p99 is not None else "-",
            (", ".join(failed[:3]) + (f" +{len(failed) - 3} more" if len(failed) > 3 else ""))
            if failed else "-"])
    text = table(header, body)
    failures = [(run["id"], r["status"]) for run, r in rows if r["status"] != "ok"]
    text += (f"\nruns: {len(rows)} planned, {len(rows) - len(failures)} ok, {len(failures)} "
             f"failed; deadlocked: % of the runs done; tail: the last 20 % of the run\n")
    skipped = plan.get("skipped", [])
    if skipped:
        reasons = {}
        for s in skipped:
            reasons[s["reason"]] = reasons.get(s["reason"], 0) + 1
        text += (f"skipped at plan time (--cbd {plan.get('cbd')}): {len(skipped)} runs ("
                 + ", ".join(f"{n} {why}" for why, n in sorted(reasons.items())) + ")\n")
    if any(r["_host_bps"] is not None for _, r in rows):
        text += ("host Gb/s: received per host over the run; slowdown: mean FCT / ideal FCT of "
                 "completed flows; feedback: flow-control frames' share of a port's capacity, "
                 "mean and p99 over ports with traffic, averaged over runs\n")
    if failures:
        text += "failed runs:\n" + "".join(f"  {rid}: {why}\n" for rid, why in failures)
    with open(os.path.join(out_dir, "verdicts.txt"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    print(f"rows in {os.path.join(out_dir, 'runs.csv')}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Pyrrha §6's incastmix in the lab (config/lab/pyrrha-incastmix.toml): the same flows under
Pyrrha and under PFC, and the paper's Fig. 11 and 14 figures beside ours — average and p99 FCT
of vulnerable, background and incast flows, and the maximum buffer at each hop.

Classes (Pyrrha §6). Incast flows go to the incast destination (L1h1; it gets no background).
Vulnerable flows are background flows to another host of the destination's rack: they share
its ToR, and the cores' ports towards it, with the incast (so PFC's pauses of those ports hold
them too), but not its congested port. Background flows are the rest of the Poisson flows.

FCT. A flow's FCT is its last frame's arrival less its start. Averages and p99s (nearest
rank) are over the flows of a class that Pyrrha completed, the same flows under every scheme:
where PFC left one of them open at the end, its age then counts, a lower bound of its FCT
(marked "≥"), so a figure of PFC's is never above what it would be. Flows open under Pyrrha
are counted per class and left out of the figures of every scheme.

Buffer (Fig. 14). Per switch, the largest sum over its ingress ports of Pyrrha's class's
ingress occupancy in queues.csv's samples (every [lab] sample_interval); per hop the largest
over the incast's destination ToR (L1), the cores (S*) and the other ToRs (the incast's
sources). Beside it the largest single ingress occupancy (summary.json, exact).

usage: tools/pyrrha_incastmix.py [--fclab FCLAB] [--out DIR] [--seed N]... [--senders N]
                                 [--paper-degree] [--arrivals-ms T] [--duration-ms T]
                                 [--no-incast-baseline]
                                 [--set KEY=VALUE]... [--jobs N] [--json FILE]
"""
import argparse
import concurrent.futures
import csv
import json
import math
import pathlib
import subprocess
import sys
import tempfile
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIO_FILE = ROOT / "config/lab/pyrrha-incastmix.toml"

# The comparison of one file (config/lab/pyrrha-incastmix.toml's header): Pyrrha as written,
# PFC in its place.
SCHEMES = {
    "pyrrha": [],
    "pfc": ["pyrrha.enabled=false", "flow_control.engine=pfc"],
}
BASELINE = "pyrrha, no incast"  # the background alone: the FCTs no incast can improve on
# Web search's sizes span 8.8 KB … 29 MB: a large flow's FCT is its size over its share of the
# destination's link, which no flow control changes, while HOL blocking shows in the small
# ones. Each Poisson class is shown split at this size too (HPCC's and pFabric's < 100 KB).
SMALL_BYTES = 100_000
ROWS = ("vulnerable", "vulnerable < 100 KB", "vulnerable ≥ 100 KB", "background",
        "background < 100 KB", "background ≥ 100 KB", "incast")
TIERS = ("DstToR", "core", "SrcToR")

# PFC's threshold scales with the incast (the scenario file's header): the paper's incast, 720
# flows of 35 MTUs (30–40) of 1460 bytes (the authors' code), is 8.3 times the threshold α = 2
# gives each of a ToR's four uplink ingresses as they fill together (2 × 20 MB / 9).
PAPER_INCAST_BYTES = 720 * 35 * 1460
PAPER_PFC_THRESHOLD_BYTES = 2 * 20e6 / 9
FRAME_BYTES = 1514  # the lab's MTU-sized frame
# The paper draws 720 senders among the 144 hosts outside the destination's rack: five flows
# per sender host. With the lab's 24 such hosts that is 120 (--paper-degree).
PAPER_DEGREE_SENDERS = 720 * 24 // 144


def pfc_xoff_bytes(senders):
    """XOFF that keeps the paper's incast : PFC threshold ratio for `senders` flows, in whole
    KB (the file's 154 KB for 24)."""
    incast_bytes = senders * 35 * FRAME_BYTES
    return 1000 * round(incast_bytes * PAPER_PFC_THRESHOLD_BYTES / PAPER_INCAST_BYTES / 1000)


# Pyrrha §6 and Fig. 11/14 over its three workloads (NOTES.md "Pyrrha"): Pyrrha against PFC.
PAPER = {
    "vulnerable_avg_reduction": (0.428, 0.982),  # average FCT 42.8 … 98.2 % lower
    "vulnerable_p99_ratio": (1.6, 215.0),  # p99 FCT 1.6 … 215 × lower
    "max_buffer_ratio": (1.8, 6.2),  # maximum buffer 1.8 … 6.2 × lower
}  # and the incast's FCT "not compromised" (§6.1.2)


def scenario():
    return tomllib.loads(SCENARIO_FILE.read_text())


def incast_destination(spec):
    (incast,) = [w for w in spec["workloads"] if w["kind"] == "incast"]
    (destination,) = incast["to"]
    return destination


def rack_of(host):
    """leaf-spine names: host L<i>h<j> hangs off ToR L<i>."""
    return host.split("h")[0]


def classify(flow, destination):
    if flow["to"] == destination:
        return "incast"
    return "vulnerable" if rack_of(flow["to"]) == rack_of(destination) else "background"


def rows_of(flow, size_bytes, destination):
    """The table rows a flow counts in: its class, and for a Poisson class its size half."""
    cls = classify(flow, destination)
    if cls == "incast":
        return (cls,)
    return (cls, f"{cls} {'<' if size_bytes < SMALL_BYTES else '≥'} 100 KB")


def tier_of(node, destination):
    if node.startswith("S"):
        return "core"
    return "DstToR" if node == rack_of(destination) else "SrcToR"


def toml_value(value):
    """A TOML inline value (strings, numbers, booleans, arrays and tables of them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


def workloads_override(spec, senders=None, arrivals_ms=None, incast=True):
    """--set workloads=[…]: the file's entries, with another incast degree, another end of
    arrivals, or without the incast."""
    entries = []
    for w in spec["workloads"]:
        w = dict(w)
        if w["kind"] == "incast":
            if not incast:
                continue
            if senders is not None:
                w["senders"] = senders
        if arrivals_ms is not None:
            w["stop"] = f"{arrivals_ms}ms"
        entries.append(w)
    return "workloads=" + toml_value(entries)


def command(fclab, out, scheme, seed=None, senders=None, arrivals_ms=None, duration_ms=None,
            incast=True, extra=()):
    sets = []
    if senders is not None:
        sets.append(f"flow_control.pfc.xoff={pfc_xoff_bytes(senders)}")
    sets += list(extra) + list(SCHEMES["pyrrha" if scheme == BASELINE else scheme])
    if seed is not None:
        sets.append(f"lab.seed={seed}")
    if duration_ms is not None:
        sets.append(f"lab.duration={duration_ms}ms")
    if senders is not None or arrivals_ms is not None or not incast:
        sets.append(workloads_override(scenario(), senders, arrivals_ms, incast))
    args = [str(fclab), str(SCENARIO_FILE), "--out", str(out), "--quiet", "--no-plots"]
    for s in sets:
        args += ["--set", s]
    return args


def run(fclab, out, scheme, **kw):
    """One lab run; returns (summary.json, its folder)."""
    out = pathlib.Path(out)
    subprocess.run(command(fclab, out, scheme, incast=scheme != BASELINE, **kw), check=True,
                   stdout=subprocess.DEVNULL)
    return json.loads((out / "summary.json").read_text()), out


def run_folder(out, seed, scheme):
    """Where run_all keeps a run (and --out DIR): DIR/seed<N>/<scheme>."""
    return pathlib.Path(out) / f"seed{seed}" / scheme.replace(", ", "-").replace(" ", "-")


def run_all(fclab, out, seeds, schemes, jobs=2, **kw):
    """{(seed, scheme): (summary, folder)} for every seed and scheme, `jobs` runs at a time."""
    runs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {(seed, scheme): pool.submit(run, fclab, run_folder(out, seed, scheme), scheme,
                                               seed=seed, **kw)
                   for seed in seeds for scheme in schemes}
        for key, future in futures.items():
            runs[key] = future.result()
    return runs


def load_all(out, seeds, schemes):
    """run_all's answer from the folders an earlier run_all (or --out DIR) left."""
    return {(seed, scheme): (json.loads((run_folder(out, seed, scheme) / "summary.json")
                                        .read_text()), run_folder(out, seed, scheme))
            for seed in seeds for scheme in schemes}


def p99(values):
    xs = sorted(values)
    return xs[max(0, math.ceil(0.99 * len(xs)) - 1)] if xs else None


def mean(values):
    return sum(values) / len(values) if values else None


def flows_by_key(summary, folder):
    """(from, to, start, size) → (flow, start_s), from flows_fct.csv's columns (as text): the
    same flow in runs whose flow ids differ (the baseline has no incast flows, and ids follow
    start times)."""
    with open(folder / "flows_fct.csv") as f:
        rows = {int(r["id"]): r for r in csv.DictReader(f)}
    out = {}
    for flow in summary["flows"]:
        r = rows[flow["id"]]
        out[(r["from"], r["to"], r["start_s"], r["size_bytes"])] = (flow, float(r["start_s"]))
    return out


def fct_table(runs, seeds, schemes, destination):
    """Per scheme and row (a class, or its half by size): its flows and how many were open at
    the end, and the average and p99 FCT (s) over the flows the first scheme (Pyrrha)
    completed — where another scheme left one of them open, its age at the end, a lower bound
    of its FCT ("censored" counts those). The flows are the same under every scheme that has
    them (the baseline has no incast)."""
    table = {s: {c: {"flows": 0, "open": 0, "censored": 0, "fct": []} for c in ROWS}
             for s in schemes}
    for seed in seeds:
        keyed = {s: flows_by_key(*runs[(seed, s)]) for s in schemes}
        for key, (flow, _) in keyed[schemes[0]].items():
            reference_done = flow["fct_s"] is not None
            for s in schemes:
                if key not in keyed[s]:
                    continue
                f, start = keyed[s][key]
                for name in rows_of(flow, int(key[3]), destination):
                    row = table[s][name]
                    row["flows"] += 1
                    row["open"] += f["fct_s"] is None
                    if not reference_done:
                        continue
                    if f["fct_s"] is None:
                        row["censored"] += 1
                        row["fct"].append(runs[(seed, s)][0]["duration_s"] - start)
                    else:
                        row["fct"].append(f["fct_s"])
    for per_class in table.values():
        for row in per_class.values():
            row["counted"] = len(row["fct"])
            row["avg_s"], row["p99_s"] = mean(row["fct"]), p99(row["fct"])
            del row["fct"]
    return table


def buffer_table(runs, seeds, scheme, destination):
    """Per hop: the largest switch total (sampled) and the largest single ingress (exact)."""
    out = {t: {"switch_bytes": 0, "ingress_bytes": 0} for t in TIERS}
    for seed in seeds:
        summary, folder = runs[(seed, scheme)]
        for q in summary["queues"]:  # switches' queues only (the lab samples no host's)
            row = out[tier_of(q["node"], destination)]
            row["ingress_bytes"] = max(row["ingress_bytes"], q["max_ingress_bytes"])
        totals = {}
        with open(folder / "queues.csv") as f:
            for r in csv.DictReader(f):
                key = (r["time_s"], r["node"])
                totals[key] = totals.get(key, 0) + int(r["ingress_bytes"])
        for (_, node), total in totals.items():
            row = out[tier_of(node, destination)]
            row["switch_bytes"] = max(row["switch_bytes"], total)
    return out


def health(runs, seeds, scheme):
    """What must hold whatever the scheme: no lossless drop, frames balanced; reordering and
    flow-control activity."""
    out = {"lossless_drops": 0, "balanced": True, "reordered": 0, "lost": 0, "pfc_pauses": 0,
           "pyrrha_host_pauses": 0, "incast_blocked_s": 0.0, "deadlock": False,
           "pyrrha_switch_messages": {}}
    for seed in seeds:
        summary, _ = runs[(seed, scheme)]
        out["lossless_drops"] += summary["lossless_drops"]
        out["balanced"] &= summary["conservation"]["holds"]
        out["deadlock"] |= summary["deadlock"]["detected"]
        out["reordered"] += sum(f["reordered_packets"] for f in summary["flows"])
        out["lost"] += sum(f["lost_packets"] for f in summary["flows"])
        out["pfc_pauses"] += sum(q["pause_frames_sent"] for q in summary["queues"])
        out["pyrrha_host_pauses"] += sum(p.get("pyrrha", {}).get("pause_received", 0)
                                         for p in summary["ports"])
        out["incast_blocked_s"] += sum(f.get("pyrrha_blocked_s", 0.0) for f in summary["flows"])
        # summary.json's switches[].pyrrha (per switch that runs it), where the lab writes it.
        for s in summary.get("switches", []):
            for kind, n in s.get("pyrrha", {}).get("messages_sent", {}).items():
                out["pyrrha_switch_messages"][kind] = out["pyrrha_switch_messages"].get(kind, 0) + n
    return out


def results(runs, seeds, schemes, destination):
    return {
        "seeds": list(seeds),
        "fct": fct_table(runs, seeds, schemes, destination),
        "buffer": {s: buffer_table(runs, seeds, s, destination) for s in schemes},
        "health": {s: health(runs, seeds, s) for s in schemes},
    }


def ms(seconds):
    return "–" if seconds is None else f"{1e3 * seconds:.3f}"


def report(res, schemes):
    lines = []
    add = lines.append
    fct = res["fct"]
    add(f"FCT (ms; {len(res['seeds'])} seed(s): {', '.join(map(str, res['seeds']))}) of the "
        f"flows {schemes[0]} completed; ≥: some of them still open at the end under that "
        "scheme, counted at their age")
    add("| class | scheme | flows | open at the end | avg | p99 |")
    add("| --- | --- | --- | --- | --- | --- |")
    for cls in ROWS:
        for s in schemes:
            r = fct[s][cls]
            bound = "≥ " if r["censored"] else ""
            add(f"| {cls} | {s} | {r['flows']} | {r['open']} | {bound}{ms(r['avg_s'])} | "
                f"{bound}{ms(r['p99_s'])} |")
    if "pyrrha" in schemes and "pfc" in schemes:
        add("")
        add("Pyrrha against PFC, beside the paper (Fig. 11)")
        add("| class | avg FCT, Pyrrha vs PFC | paper | p99 FCT, PFC / Pyrrha | paper |")
        add("| --- | --- | --- | --- | --- |")
        lo, hi = PAPER["vulnerable_avg_reduction"]
        plo, phi = PAPER["vulnerable_p99_ratio"]
        for cls in ROWS:
            py, pf = fct["pyrrha"][cls], fct["pfc"][cls]
            bound = "≥ " if pf["censored"] else ""  # PFC's figure is a lower bound
            change = (f"{'≤ ' if bound else ''}{100 * (py['avg_s'] / pf['avg_s'] - 1):+.1f} %"
                      if py["avg_s"] and pf["avg_s"] else "–")
            ratio = (f"{bound}{pf['p99_s'] / py['p99_s']:.2f}×"
                     if py["p99_s"] and pf["p99_s"] else "–")
            paper_avg = (f"−{100 * lo:.1f} … −{100 * hi:.1f} %" if cls == "vulnerable" else
                         "not worse" if cls == "incast" else
                         "lower (Fig. 11)" if cls == "background" else "")
            paper_p99 = (f"{plo:g} … {phi:g}×" if cls == "vulnerable" else
                         "not worse" if cls == "incast" else
                         "lower" if cls == "background" else "")
            add(f"| {cls} | {change} | {paper_avg} | {ratio} | {paper_p99} |")
    add("")
    add("Maximum buffer per hop (KB): switch total (sampled) / largest single ingress (exact)")
    add("| hop | " + " | ".join(schemes) + " | PFC / Pyrrha |")
    add("| --- |" + " --- |" * (len(schemes) + 1))
    for tier in TIERS:
        cells = [f"{res['buffer'][s][tier]['switch_bytes'] / 1e3:.0f} / "
                 f"{res['buffer'][s][tier]['ingress_bytes'] / 1e3:.0f}" for s in schemes]
        ratio = "–"
        if "pyrrha" in schemes and "pfc" in schemes:
            pyrrha, pfc = (res["buffer"][s][tier]["switch_bytes"] for s in ("pyrrha", "pfc"))
            ratio = f"{pfc / pyrrha:.2f}×" if pyrrha else "–"
        add(f"| {tier} | " + " | ".join(cells) + f" | {ratio} |")
    blo, bhi = PAPER["max_buffer_ratio"]
    add(f"Paper: maximum buffer {blo:g} … {bhi:g}× lower with Pyrrha; with DCQCN (Fig. 14) the "
        "destination ToR's far lower, the source ToR's higher (the incast is held there).")
    add("")
    add("| scheme | lossless drops | frames balanced | lost | reordered | deadlock | PFC pauses "
        "| Pyrrha PAUSEs to hosts | Pyrrha messages sent by switches |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for s in schemes:
        h = res["health"][s]
        sent = ", ".join(f"{k} {v}" for k, v in h["pyrrha_switch_messages"].items()) or "–"
        add(f"| {s} | {h['lossless_drops']} | {'yes' if h['balanced'] else 'NO'} | {h['lost']} | "
            f"{h['reordered']} | {'yes' if h['deadlock'] else 'no'} | {h['pfc_pauses']} | "
            f"{h['pyrrha_host_pauses']} | {sent} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fclab", default=str(ROOT / "build/app/fclab"))
    parser.add_argument("--out", help="keep each run here (DIR/seed<N>/<scheme>)")
    parser.add_argument("--seed", type=int, action="append",
                        help="a lab seed (repeatable: flows pooled); default the file's")
    parser.add_argument("--senders", type=int,
                        help="flows per incast (the file: 24), PFC's XOFF scaled with them")
    parser.add_argument("--paper-degree", action="store_true",
                        help=f"--senders {PAPER_DEGREE_SENDERS}: the paper's five flows per "
                             "sender host")
    parser.add_argument("--arrivals-ms", type=float, help="no flow starts after this (file: 24)")
    parser.add_argument("--duration-ms", type=float, help="the run's length (file: 30)")
    parser.add_argument("--no-incast-baseline", action="store_true",
                        help="also run Pyrrha with the background alone (the floor of the "
                             "vulnerable flows' FCT)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="an fclab override for every run (before the scheme's own)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()

    spec = scenario()
    seeds = args.seed or [spec["lab"]["seed"]]
    schemes = list(SCHEMES) + ([BASELINE] if args.no_incast_baseline else [])
    if args.paper_degree:
        args.senders = PAPER_DEGREE_SENDERS
    if args.senders is not None:
        print(f"{args.senders}-to-1 incasts, PFC XOFF {pfc_xoff_bytes(args.senders)} bytes",
              file=sys.stderr)
    kw = {"senders": args.senders, "arrivals_ms": args.arrivals_ms,
          "duration_ms": args.duration_ms, "extra": args.set}
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(args.out or tmp)
        print(f"running {len(seeds) * len(schemes)} lab runs, {args.jobs} at a time …",
              file=sys.stderr, flush=True)
        runs = run_all(args.fclab, out, seeds, schemes, jobs=args.jobs, **kw)
        destination = incast_destination(spec)
        res = results(runs, seeds, schemes, destination)
    print(report(res, schemes))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(res, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

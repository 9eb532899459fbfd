#!/usr/bin/env python3
"""PABO §VI in the lab: config/lab/pabo-fat-tree.toml's five scenarios (3 → 1, 6 → 1, 9 → 1,
12 → 1 and many-to-many) with PABO and without (TCP Reno over drop-tail queues of 200), and the
paper's figures beside ours: the drop rate and where (§VI-C's text), the bounces per switch
(Fig. 11), the maxBouncedDistance shares (Table II), out-of-order delivery (Fig. 12) and the
mean flow completion time (Fig. 14). Switches and hosts are printed with the paper's names.

usage: tools/pabo_fat_tree.py [--fclab FCLAB] [--out DIR] [--scenario NAME]...
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIO_FILE = ROOT / "config/lab/pabo-fat-tree.toml"

# §VI-C/D: the servers (paper host numbers) answering each client.
SCENARIOS = {
    "3to1": {9: [1, 5, 13]},
    "6to1": {9: [1, 5, 13, 3, 7, 15]},
    "9to1": {9: [1, 5, 13, 3, 7, 15, 2, 8, 14]},
    "12to1": {9: [1, 2, 3, 4, 5, 6, 7, 8, 13, 14, 15, 11]},
    "mtom": {9: [1, 5, 13], 10: [4, 8, 16]},
}
LABELS = {"3to1": "3 to 1", "6to1": "6 to 1", "9to1": "9 to 1", "12to1": "12 to 1",
          "mtom": "m to m"}

# The paper's figures (§VI-C/D text, Table II; NOTES.md). Drops: rate and where; bounced:
# the share of packets bounced (Table II's maxBouncedDistance 1, no 2 anywhere) and the
# switches that bounce (Fig. 11, with the m to m shares of §VI-D).
PAPER = {
    "3to1": {"drop": 0.33, "drop_at": "C1", "bounced": 49.83, "bouncers": "C1 only"},
    "6to1": {"drop": 0.51, "drop_at": "S9", "bounced": 46.76,
             "bouncers": "S9 most; C1, C4; S11 a little; S12 none"},
    "9to1": {"drop": 0.45, "drop_at": "S9", "bounced": 43.29, "bouncers": "S9 most; C1, S11, C4"},
    "12to1": {"drop": 0.52, "drop_at": "S9 67.4 %, C1 32.6 %", "bounced": 42.32,
              "bouncers": "C1, C4, S11, S12, S9"},
    "mtom": {"drop": 0.54, "drop_at": "S11", "bounced": 61.63,
             "bouncers": "S11 62.88 %, C2 18.77 %, C1 18.35 %"},
}
# Fig. 12 (12 to 1): with PABO about half the packets out of order, max |displacement| 95;
# without, far fewer, max 76.
PAPER_DISPLACEMENT = {"pabo": (50, 95), "plain": (None, 76)}

# Without PABO (§VI-B; the authors' omnetpp_manytoone.ini): TCP Reno, queues of 200.
PLAIN = ["pabo.bounce=false", "pabo.normal_capacity=200", "transport.window.retransmit=true",
         "transport.window.reno=true"]


def lab_host(n):
    """The lab's name of the paper's host Hn (pod by pod, two per edge switch)."""
    pod, rest = divmod(n - 1, 4)
    edge, j = divmod(rest, 2)
    return f"T{2 * pod + edge + 1}h{j + 1}"


def paper_node(name):
    """The paper's name of a lab switch or host (config/lab/pabo-fat-tree.toml's header)."""
    kind, number = name[0], name[1:]
    if "h" in number:  # a host T<t>h<j>
        t, j = (int(x) for x in number.split("h"))
        return f"H{2 * (t - 1) + j}"
    n = int(number)
    pod, i = divmod(n - 1, 2)
    if kind == "S":
        return f"C{n}"
    return f"S{4 * pod + i + 1}" if kind == "T" else f"S{4 * pod + i + 3}"


def flows_override(scenario):
    """--set flows=[…]: the scenario file's flows (one a round) from each server to its client."""
    entries = []
    for template in tomllib.loads(SCENARIO_FILE.read_text())["flows"]:
        for client, servers in SCENARIOS[scenario].items():
            fields = dict(template, to=lab_host(client))
            fields["from"] = [lab_host(s) for s in servers]
            entries.append("{" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in fields.items())
                           + "}")
    return "flows=[" + ", ".join(entries) + "]"


def command(fclab, scenario, pabo, out):
    args = [fclab, str(SCENARIO_FILE), "--out", str(out), "--quiet", "--no-plots",
            "--set", flows_override(scenario)]
    for s in [] if pabo else PLAIN:
        args += ["--set", s]
    return args


def run(fclab, scenario, pabo, out):
    """Runs one case and returns its figures (see the keys below)."""
    subprocess.run(command(fclab, scenario, pabo, out), check=True, stdout=subprocess.DEVNULL)
    s = json.loads((out / "summary.json").read_text())
    flows = s["flows"]
    sent = sum(f["sent_packets"] for f in flows)
    received = sum(f["received_packets"] for f in flows)
    drops, bounces = {}, {}
    for p in s["ports"]:
        node = paper_node(p["node"])
        dropped = sum(p["drops"].values())
        if dropped:
            drops[node] = drops.get(node, 0) + dropped
        bounced = p.get("pabo", {}).get("bounced", 0)
        if bounced:
            bounces[node] = bounces.get(node, 0) + bounced
    distance = [sum(f["pabo"]["max_bounced_distance"][i] for f in flows) for i in range(4)]
    fcts = [f["fct_s"] for f in flows if f["fct_s"] is not None]
    displacement = [f.get("displacement") for f in flows]
    return {
        "flows": len(flows),
        "complete": sum(1 for f in flows if f["transport"]["completed_s"] is not None),
        "sent": sent,
        "received": received,
        "lost": sum(f["lost_packets"] for f in flows),
        "duplicates": sum(f["transport"]["duplicates"] for f in flows),
        "retransmissions": sum(f["transport"]["retransmissions"] for f in flows),
        "timeouts": sum(f["transport"]["timeouts"] for f in flows),
        "dropped": sum(drops.values()),
        "drops": drops,
        "bounces": bounces,
        "max_distance": distance,
        "reordered": sum(f["reordered_packets"] for f in flows),
        "displaced": sum(d["displaced_packets"] for d in displacement) if all(displacement)
        else None,
        "max_displacement": max(d["max"] for d in displacement) if all(displacement) else None,
        "fct_mean_s": sum(fcts) / len(fcts) if fcts else None,
        "fct_max_s": max(fcts) if fcts else None,
        # Fig. 13: the mean per-packet delay over every frame delivered (flows weighted by frames).
        "delay_mean_s": sum(f["delay_mean_s"] * f["received_packets"] for f in flows
                            if f["delay_mean_s"] is not None) / max(received, 1),
        "conserved": s["conservation"]["holds"],
    }


def shares(counts, total):
    """'A 60.1 %, B 39.9 %, C (3)', largest first; under 0.1 %, the count."""
    return ", ".join(f"{k} {100 * v / total:.1f} %" if 1000 * v >= total else f"{k} ({v})"
                     for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


def report(results):
    """The tables, ours beside the paper's."""
    lines = []
    add = lines.append
    add("Drops without PABO (TCP Reno, queues of 200) and with PABO (§VI-C/D)")
    add("| scenario | dropped, ours | where, ours | paper | with PABO |")
    add("| --- | --- | --- | --- | --- |")
    for name, (pabo, plain) in results.items():
        p = PAPER[name]
        add(f"| {LABELS[name]} | {100 * plain['dropped'] / plain['sent']:.2f} % "
            f"({plain['dropped']} of {plain['sent']}) | {shares(plain['drops'], plain['dropped'])} "
            f"| {p['drop']:.2f} % at {p['drop_at']} | {pabo['dropped']} dropped, "
            f"{pabo['lost']} lost |")
    add("")
    add("Bounces per switch (Fig. 11) and the maxBouncedDistance shares (Table II)")
    add("| scenario | bounces, ours (share of all bounces) | paper | maxBouncedDistance "
        "0 / 1 / 2 / 3+, ours | paper |")
    add("| --- | --- | --- | --- | --- |")
    for name, (pabo, _) in results.items():
        p = PAPER[name]
        total = sum(pabo["bounces"].values())
        dist = "/".join(f"{100 * d / pabo['received']:.2f}" for d in pabo["max_distance"])
        add(f"| {LABELS[name]} | {shares(pabo['bounces'], total)} ({total}) | {p['bouncers']} | "
            f"{dist} % | {100 - p['bounced']:.2f} / {p['bounced']:.2f} / – |")
    add("")
    add("Out of order (Fig. 12: RD's displacement d = r − s) and FCT (Fig. 14)")
    add("| scenario | out of order, PABO / Reno | max abs(d), PABO / Reno | mean FCT, PABO / Reno "
        "| max FCT, PABO / Reno | per-packet delay (Fig. 13), PABO / Reno | Reno's RTOs |")
    add("| --- | --- | --- | --- | --- | --- | --- |")
    for name, (pabo, plain) in results.items():
        def ooo(r):
            n = r["displaced"] if r["displaced"] is not None else r["reordered"]
            return f"{100 * n / r['received']:.1f} %"

        def most(r):
            return "–" if r["max_displacement"] is None else str(r["max_displacement"])

        add(f"| {LABELS[name]} | {ooo(pabo)} / {ooo(plain)} | {most(pabo)} / {most(plain)} | "
            f"{1e3 * pabo['fct_mean_s']:.1f} / {1e3 * plain['fct_mean_s']:.1f} ms | "
            f"{1e3 * pabo['fct_max_s']:.1f} / {1e3 * plain['fct_max_s']:.1f} ms | "
            f"{1e6 * pabo['delay_mean_s']:.0f} / {1e6 * plain['delay_mean_s']:.0f} µs | "
            f"{plain['timeouts']} |")
    add(f"Paper, 12 to 1: out of order ≈ {PAPER_DISPLACEMENT['pabo'][0]} % with PABO, "
        f"max abs(d) {PAPER_DISPLACEMENT['pabo'][1]} with PABO and "
        f"{PAPER_DISPLACEMENT['plain'][1]} without; FCT lower with PABO in every scenario; "
        "per-packet delay slightly higher with PABO (Fig. 13).")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fclab", default=str(ROOT / "build/app/fclab"))
    parser.add_argument("--out", help="keep each run's output here (DIR/<scenario>-pabo|plain)")
    parser.add_argument("--scenario", action="append", choices=list(SCENARIOS),
                        help="run only these (default: all five)")
    parser.add_argument("--print-commands", action="store_true",
                        help="print the fclab command of each run and exit")
    args = parser.parse_args()
    names = args.scenario or list(SCENARIOS)
    if args.print_commands:
        out = pathlib.Path(args.out or "OUT")
        for name in names:
            for pabo in (True, False):
                tag = f"{name}-{'pabo' if pabo else 'plain'}"
                print(" ".join(f"'{a}'" if " " in a or "[" in a else a
                               for a in command(args.fclab, name, pabo, out / tag)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(args.out or tmp)
        results = {}
        for name in names:
            print(f"running {LABELS[name]} …", file=sys.stderr, flush=True)
            results[name] = (run(args.fclab, name, True, out / f"{name}-pabo"),
                             run(args.fclab, name, False, out / f"{name}-plain"))
        print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())

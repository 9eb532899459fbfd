#!/usr/bin/env python3
"""Draws a lab run's time series (fclab's queues.csv and flows.csv) as PNGs in the same folder,
or a switch's [trace] CSV (the same columns as queues.csv) as PNGs beside it.

  tools/lab_plot.py OUT_DIR
  tools/lab_plot.py trace.csv      (fcswitch's high-resolution trace: occupancy and input rate)
  tools/lab_plot.py OUT_DIR --gfc-dcqcn NODE:PORT:PRIO FLOW [LINE_GBPS]

occupancy.png: ingress occupancy per (node, port, prio) over time (as GFC Figures 9 and 10).
input_rate.png: the input rate of the same queues.
flows.png: each flow's received rate.
transports.png (runs with transports.csv): each DCQCN flow's rate R_C, each window flow's window.
pabo.png (runs with pabo.csv): the utilisation of each switch port's normal and bounce
sub-queues (packets over capacity) over the run, and pabo_first_peak.png over its first busy
stretch (from the first packet held to the first sample with every sub-queue empty): PABO
Fig. 8 (a) and (b).
--gfc-dcqcn: gfc-dcqcn.png as GFC Fig. 20 — the ingress queue NODE:PORT:PRIO (the switch port
facing the flow's source), flow FLOW's DCQCN rate, and the rate buffer-based GFC holds that
source to, C/2^stage (GFC §4.2: R_k = C/2^k) from the stage the switch sent (fc_level).
Exits 3, saying so, when matplotlib is missing (Debian: python3-matplotlib).
"""
import csv
import os
import sys
from collections import defaultdict


def read_series(path, key_columns, value_column):
    series = defaultdict(lambda: ([], []))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = ":".join(row[c] for c in key_columns)
            series[key][0].append(float(row["time_s"]) * 1e3)
            series[key][1].append(float(row[value_column]))
    return series


def draw(series, ylabel, scale, title, path, plt):
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for key in sorted(series):
        t, v = series[key]
        if any(v):
            ax.plot(t, [x / scale for x in v], label=key, linewidth=1)
    ax.set_xlabel("time (ms)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def read_pabo(path):
    """pabo.csv as {node:port:prio: (times_ms, normal_util, bounce_util)} (rows only while a
    pair holds packets and at the first sample it is empty again: drawn as steps)."""
    series = defaultdict(lambda: ([], [], []))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t, normal, bounce = series[":".join((row["node"], row["port"], row["prio"]))]
            t.append(float(row["time_s"]) * 1e3)
            normal.append(int(row["normal_packets"]) / int(row["normal_capacity"]))
            bounce.append(int(row["bounce_packets"]) / int(row["bounce_capacity"]))
    return series


def first_peak_ms(series):
    """The first stretch during which some sub-queue holds packets: (start, end) in ms."""
    busy = defaultdict(bool)
    for t, normal, bounce in series.values():
        for when, n, b in zip(t, normal, bounce):
            busy[when] |= n > 0 or b > 0
    times = sorted(busy)
    start = next((w for w in times if busy[w]), None)
    end = next((w for w in times if start is not None and w > start and not busy[w]), None)
    return start, end


def draw_pabo(out, name, plt):
    series = read_pabo(os.path.join(out, "pabo.csv"))
    start, end = first_peak_ms(series)
    for path, window in (("pabo.png", None), ("pabo_first_peak.png", (start, end))):
        fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
        for ax, which, label in ((axes[0], 1, "normal"), (axes[1], 2, "bounce")):
            for key in sorted(series):
                t, util = series[key][0], series[key][which]
                if window and None not in window:
                    kept = [i for i, w in enumerate(t) if window[0] <= w <= window[1]]
                    t, util = [t[i] for i in kept], [util[i] for i in kept]
                if any(util):
                    ax.step(t, util, where="post", label=key, linewidth=1)
            ax.set_ylabel(f"{label} sub-queue utilisation")
            ax.set_ylim(0, 1.05)
            ax.grid(alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize="small", ncol=2)
        axes[0].set_title(f"{name}: PABO sub-queues" + (" (first peak)" if window else ""))
        axes[1].set_xlabel("time (ms)")
        fig.tight_layout()
        fig.savefig(os.path.join(out, path), dpi=110)
        plt.close(fig)
    return " pabo.png pabo_first_peak.png"


def draw_gfc_dcqcn(out, queue, flow, line_gbps, plt):
    queue_t, queue_kb, gfc_t, gfc_gbps = [], [], [], []
    with open(os.path.join(out, "queues.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if ":".join((row["node"], row["port"], row["prio"])) != queue:
                continue
            t = float(row["time_s"]) * 1e3
            queue_t.append(t)
            queue_kb.append(float(row["ingress_bytes"]) / 1e3)
            gfc_t.append(t)
            gfc_gbps.append(line_gbps / 2 ** int(row["fc_level"]))
    rate_t, rate_gbps = [], []
    with open(os.path.join(out, "transports.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if row["flow"] == str(flow):
                rate_t.append(float(row["time_s"]) * 1e3)
                rate_gbps.append(float(row["rate_bps"]) / 1e9)
    if not queue_t or not rate_t:
        print(f"lab_plot: no queue {queue} or no flow {flow} in {out}", file=sys.stderr)
        return 1
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    top.plot(queue_t, queue_kb, color="tab:blue", linewidth=1)
    top.set_ylabel("queue length (KB)")
    top.set_title(f"{os.path.basename(os.path.normpath(out))}: ingress queue {queue}")
    top.grid(alpha=0.3)
    bottom.step(rate_t, rate_gbps, where="post", label="DCQCN rate", linewidth=1)
    bottom.step(gfc_t, gfc_gbps, where="post", label="GFC rate", linewidth=1)
    bottom.set_ylabel("rate (Gb/s)")
    bottom.set_xlabel("time (ms)")
    bottom.grid(alpha=0.3)
    bottom.legend(fontsize="small")
    fig.tight_layout()
    path = os.path.join(out, "gfc-dcqcn.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"plot: {path}")
    return 0


def main():
    args = sys.argv[1:]
    fig20 = None
    if "--gfc-dcqcn" in args:
        i = args.index("--gfc-dcqcn")
        fig20 = args[i + 1:]
        args = args[:i]
        if len(fig20) not in (2, 3):
            print(__doc__, file=sys.stderr)
            return 2
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = args[0]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("lab_plot: matplotlib is missing (apt install python3-matplotlib): no plots",
              file=sys.stderr)
        return 3
    flows = None
    if out.endswith(".csv"):  # a switch's trace: no flows, plots beside the file
        queues = out
        name = os.path.splitext(os.path.basename(out))[0]
        out = os.path.dirname(os.path.abspath(out))
    else:
        queues = os.path.join(out, "queues.csv")
        flows = os.path.join(out, "flows.csv")
        name = os.path.basename(os.path.normpath(out))
    draw(read_series(queues, ["node", "port", "prio"], "ingress_bytes"), "ingress occupancy (KB)",
         1e3, f"{name}: ingress occupancy", os.path.join(out, "occupancy.png"), plt)
    draw(read_series(queues, ["node", "port", "prio"], "input_bps"), "input rate (Gb/s)", 1e9,
         f"{name}: input rate", os.path.join(out, "input_rate.png"), plt)
    if flows is None:
        print(f"plots: {out}/occupancy.png input_rate.png")
        return 0
    draw(read_series(flows, ["from", "to"], "rx_bps"), "received (Gb/s)", 1e9,
         f"{name}: flow throughput", os.path.join(out, "flows.png"), plt)
    printed = "occupancy.png input_rate.png flows.png"
    transports = os.path.join(out, "transports.csv")
    if os.path.exists(transports):
        draw(read_series(transports, ["flow", "from", "to"], "rate_bps"), "DCQCN rate (Gb/s)",
             1e9, f"{name}: DCQCN rates", os.path.join(out, "transports.png"), plt)
        printed += " transports.png"
    if os.path.exists(os.path.join(out, "pabo.csv")):
        printed += draw_pabo(out, name, plt)
    print(f"plots: {out}/{printed}")
    if fig20:
        return draw_gfc_dcqcn(out, fig20[0], int(fig20[1]),
                              float(fig20[2]) if len(fig20) == 3 else 10.0, plt)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Draws a lab run's time series (fclab's queues.csv and flows.csv) as PNGs in the same folder,
or a switch's [trace] CSV (the same columns as queues.csv) as PNGs beside it.

  tools/lab_plot.py OUT_DIR
  tools/lab_plot.py trace.csv      (fcswitch's high-resolution trace: occupancy and input rate)

occupancy.png: ingress occupancy per (node, port, prio) over time (as GFC Figures 9 and 10).
input_rate.png: the input rate of the same queues.
flows.png: each flow's received rate.
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


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
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
    print(f"plots: {out}/occupancy.png input_rate.png flows.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())

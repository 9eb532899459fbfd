#!/usr/bin/env python3
"""The library layers of docs/architecture.md point one way: each folder of lib/ includes only the
folders below it, and the pure ones include no DPDK, TOML or logging header. Fails naming
every include that goes the wrong way (file:line), and every folder of lib/ that is not in
the table (a new layer must say where it sits).

    layering_test.py LIB_DIR
"""
import pathlib
import re
import sys

# folder: the folders it may include (besides itself). Plain parameter structs (params) sit
# below the config reader (config); the node wires config to the datapath (switch) on top.
ALLOWED = {
    "core": set(),
    "wire": {"core"},
    "shaping": {"core"},
    "topology": {"core"},
    "workload": {"core"},
    "fc": {"core", "wire", "shaping"},
    "tagger": {"core", "topology"},
    "pabo": {"core", "wire"},
    # Pyrrha's table is pure (docs/architecture.md); its parameters are a plain struct in params.
    "pyrrha": {"core", "params"},
    "transport": {"core"},
    "ecn": {"core", "wire"},
    "params": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "transport", "ecn"},
    "config": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
               "transport", "ecn", "params"},
    "dpdk": {"core", "wire", "params"},
    "switch": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
               "transport", "ecn", "params", "dpdk"},
    "node": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
             "transport", "ecn", "params", "config", "dpdk", "switch"},
    "metrics": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
                "transport", "ecn", "params", "config", "dpdk", "switch", "node"},
    # The lab's scenario: its types and its reading (no DPDK).
    "scenario": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
                 "transport", "ecn", "workload", "params", "config"},
    # What a run measured and its summary.json, shared by the lab and fchost (no DPDK: it
    # reads Pyrrha's counter names from node's pure header).
    "results": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
                "transport", "ecn", "workload", "params", "config", "node", "scenario"},
    # Host traffic: flow frames, sources and sinks, the host on a port (the lab's and fchost's).
    "traffic": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
                "transport", "ecn", "workload", "params", "config", "dpdk", "switch", "node",
                "scenario", "results"},
    "lab": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
            "transport", "ecn", "workload", "params", "config", "dpdk", "switch", "node",
            "metrics", "scenario", "results", "traffic"},
    # fchost's host: the host traffic on an ethdev, with its config, summary and /metrics.
    "host": {"core", "wire", "shaping", "fc", "topology", "tagger", "pabo", "pyrrha",
             "transport", "ecn", "workload", "params", "config", "dpdk", "switch", "node",
             "metrics", "scenario", "results", "traffic"},
}
# Engines are pure (docs/architecture.md): no DPDK, no config file format, no logging.
PURE = {"core", "wire", "shaping", "topology", "workload", "fc", "tagger", "pabo", "pyrrha",
        "transport", "ecn", "params"}
IMPURE_HEADER = re.compile(r'#include\s*<(rte_|toml\+\+|spdlog)')
OURS = re.compile(r'#include\s*"([a-z_]+)/')


def check(lib: pathlib.Path) -> list[str]:
    problems = []
    folders = sorted(p.name for p in lib.iterdir() if p.is_dir())
    for folder in folders:
        if folder not in ALLOWED:
            problems.append(f"lib/{folder}: not in the layer table of {sys.argv[0]}")
    for path in sorted(lib.rglob("*")):
        if path.suffix not in (".h", ".cc"):
            continue
        folder = path.relative_to(lib).parts[0]
        allowed = ALLOWED.get(folder, set()) | {folder}
        for number, line in enumerate(path.read_text().splitlines(), 1):
            where = f"{path.relative_to(lib.parent)}:{number}"
            m = OURS.match(line.strip())
            if m and m.group(1) not in allowed:
                problems.append(f"{where}: lib/{folder} includes lib/{m.group(1)}, a layer above it")
            # FWD's features (lib/switch/fwd/) are below the task that calls them.
            if (path.relative_to(lib).parts[:2] == ("switch", "fwd") and
                    line.strip().startswith('#include "switch/fwd_task.h"')):
                problems.append(f"{where}: a FWD feature includes the FWD task above it")
            if folder in PURE and IMPURE_HEADER.match(line.strip()):
                problems.append(f"{where}: lib/{folder} is pure but includes {line.strip()[9:]}")
    return problems


def main() -> int:
    lib = pathlib.Path(sys.argv[1])
    problems = check(lib)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"layering: {sum(1 for _ in lib.rglob('*.[hc]*'))} files, every include points down")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""An experiment's run on the machines an inventory lists (docs/testbed.md, "The playbook"): checks
the inventory, then writes every process's config, the same network as an fclab scenario,
Prometheus's targets and plan.json, which the playbook (testbed.yml) follows.

    testbed_plan.py INVENTORY RUN_DIR EXPERIMENT ENGINE QUEUEING SECONDS
    testbed_plan.py links INVENTORY RUN_DIR

links (the playbook's check): for every switch and host with a cabled port, a config of its
ports for `fcswitch selftest --links`, and links.json: the order to start them in (a memif
cable's server first) and the nodes on other machines.

EXPERIMENT: gfc-ring (GFC §6.1: switches S1-S3 in a ring, cw to the next one's ccw, host Hi
on Si's port h; each host sends to the host two switches on). The inventory is Ansible's YAML
inventory: groups `switches`, `fchosts` and `monitor`; each machine's `fc_ports` (port name: a
PCI address, or "memif" for a cable inside one machine); `fc_cables` in all.vars, each
"A:port - B:port" (a memif cable's first end serves it). Everything wrong with it is said, each
problem on a line, and nothing is written (exit 2): a port named twice or cabled twice, a cable
to a port or machine that is not there, a memif cable to a PCI port, a host with no route to
its flow's destination, a wiring that is not the experiment's.
"""
import json
import pathlib
import re
import sys

import yaml

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import testbed_configs as tc  # noqa: E402

GROUPS = ("switches", "fchosts", "monitor")


class UniqueKeyLoader(yaml.SafeLoader):
    """YAML that refuses a key given twice in one table (PyYAML keeps the last one): a port
    named twice is a mistake to say, not to guess at."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"{key} is given twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def read_inventory(path, problems):
    """{node: {"group", "ports": {port: device}, "address", "machine"}}, [(a, pa, b, pb)].
    Each inventory host is a node (a switch, a host or the monitor); nodes with one
    ansible_host, or all local ones, share a machine."""
    not_yaml = (f"{path}: expected Ansible's YAML inventory (all: vars: …, children: "
                "switches/fchosts/monitor: hosts: …); an INI inventory is not read")
    try:
        text = pathlib.Path(path).read_text()
        doc = yaml.load(text, Loader=UniqueKeyLoader)
    except OSError as error:
        problems.append(f"{path}: {error}")
        return {}, []
    except yaml.YAMLError as error:
        ini = re.search(r"^\[[\w:-]+\]\s*$", text, re.MULTILINE)
        problems.append(not_yaml if ini else f"{path}: {error}")
        return {}, []
    if not isinstance(doc, dict) or not isinstance(doc.get("all"), dict):
        problems.append(not_yaml)
        return {}, []
    everything = doc["all"]
    local_by_default = (everything.get("vars") or {}).get("ansible_connection") == "local"
    machines = {}
    for group in GROUPS:
        children = (everything.get("children") or {}).get(group) or {}
        hosts = children.get("hosts") or {}
        for name, keys in hosts.items():
            # As Ansible takes them: the host's own keys over its group's vars.
            keys = {**(children.get("vars") or {}), **(keys or {})}
            if name in machines:
                problems.append(f"{path}: {name} is in both {machines[name]['group']} and "
                                f"{group}")
                continue
            ports = keys.get("fc_ports") or {}
            if group != "monitor" and not isinstance(ports, dict):
                problems.append(f"{path}: {name}: fc_ports: expected a table of port: device")
                ports = {}
            local = keys.get("ansible_connection", "local" if local_by_default else "") == "local"
            machine = "local" if local else keys.get("ansible_host", name)
            devices = [d for d in ports.values() if d != "memif"]
            for device in {d for d in devices if devices.count(d) > 1}:
                problems.append(f"{path}: {name}: fc_ports: {device} is given to two ports")
            machines[name] = {"group": group, "ports": ports, "machine": machine,
                              "address": "127.0.0.1" if local else keys.get("ansible_host", name)}
    cables = []
    seen = {}
    for i, text in enumerate((everything.get("vars") or {}).get("fc_cables") or []):
        where = f'{path}: fc_cables[{i}] "{text}"'
        ends = [e.strip() for e in str(text).split(" - ")]
        if len(ends) != 2 or not all(e.count(":") == 1 for e in ends):
            problems.append(f'{where}: expected "MACHINE:PORT - MACHINE:PORT"')
            continue
        (a, pa), (b, pb) = (e.split(":") for e in ends)
        ok = True
        for m, p in ((a, pa), (b, pb)):
            if m not in machines:
                problems.append(f"{where}: no machine {m} in {path}")
                ok = False
            elif p not in machines[m]["ports"]:
                problems.append(f"{where}: {m} has no port {p} (its fc_ports: "
                                f"{', '.join(machines[m]['ports']) or 'none'})")
                ok = False
            elif (m, p) in seen:
                problems.append(f"{where}: {m}:{p} is cabled twice "
                                f"(also fc_cables[{seen[(m, p)]}])")
                ok = False
            else:
                seen[(m, p)] = i
        if ok and (machines[a]["ports"][pa] == "memif") != (machines[b]["ports"][pb] == "memif"):
            problems.append(f"{where}: a memif cable joins two memif ports, a NIC's cable two "
                            "NICs")
            ok = False
        if ok and machines[a]["ports"][pa] == "memif" and \
                machines[a]["machine"] != machines[b]["machine"]:
            problems.append(f"{where}: a memif cable is a socket inside one machine: {a} and "
                            f"{b} are on {machines[a]['machine']} and {machines[b]['machine']}")
            ok = False
        if ok:
            cables.append((a, pa, b, pb))
    return machines, cables


def ring_problems(machines, cables):
    """What keeps the inventory from being the GFC ring."""
    problems = []
    want = {name: ("switches", ("h", "cw", "ccw")) for name in tc.RING_SWITCHES}
    want.update({name: ("fchosts", ("nic",)) for name in tc.RING_HOSTS})
    for name, (group, ports) in want.items():
        if name not in machines:
            problems.append(f"gfc-ring needs {name} in {group}, with ports {', '.join(ports)}")
        elif machines[name]["group"] != group or set(machines[name]["ports"]) != set(ports):
            problems.append(f"gfc-ring needs {name} in {group} with ports {', '.join(ports)}: "
                            f"found {machines[name]['group']} with "
                            f"{', '.join(machines[name]['ports']) or 'none'}")
    peer = {}
    for a, pa, b, pb in cables:
        peer[(a, pa)], peer[(b, pb)] = (b, pb), (a, pa)
    n = len(tc.RING_SWITCHES)
    for i, s in enumerate(tc.RING_SWITCHES):
        after = tc.RING_SWITCHES[(i + 1) % n]
        if peer.get((s, "cw")) != (after, "ccw"):
            problems.append(f"gfc-ring needs a cable {s}:cw - {after}:ccw, found {s}:cw "
                            f"{'to ' + ':'.join(peer[(s, 'cw')]) if (s, 'cw') in peer else 'free'}")
    for src, dst in tc.RING_FLOWS:
        host, switch = tc.RING_HOSTS[src], tc.RING_SWITCHES[src]
        if peer.get((host, "nic")) != (switch, "h"):
            problems.append(f"{host} has no route to {tc.RING_HOSTS[dst]} (its flow's "
                            f"destination): gfc-ring needs a cable {host}:nic - {switch}:h")
    return problems


def start_order(cables, nodes=tc.RING_SWITCHES):
    """The nodes in an order where each memif cable's server starts before its client (a
    client exits if its server is not there): None if the servers form a cycle."""
    before = {s: set() for s in nodes}
    for a, _, b, _ in cables:
        if a in before and b in before:
            before[b].add(a)
    order = []
    while len(order) < len(before):
        ready = [s for s in before if s not in order and before[s] <= set(order)]
        if not ready:
            return None
        order.append(ready[0])
    return order


def plan(inventory, run_dir, experiment, engine, queueing, seconds):
    problems = []
    machines, cables = read_inventory(inventory, problems)
    if experiment != "gfc-ring":
        problems.append(f"experiment {experiment}: expected gfc-ring")
    if not problems:
        problems += ring_problems(machines, cables)
    monitors = [m for m, v in machines.items() if v["group"] == "monitor"]
    if len(monitors) > 1:
        problems.append(f"{inventory}: one monitor, found {', '.join(monitors)}")
    # Prometheus on another machine scrapes each node at its address: a node on this one
    # (ansible_connection local) has none to give it.
    if monitors and machines[monitors[0]]["machine"] != "local":
        for name, node in machines.items():
            if node["machine"] == "local" and node["group"] != "monitor":
                problems.append(f"{inventory}: {name} runs on this machine (ansible_connection "
                                f"local) and the monitor {monitors[0]} on another, which could "
                                f"not scrape it: give {name} its ansible_host")
    kinds = {machines[m]["ports"][p] == "memif" for a, pa, b, pb in cables
             for m, p in ((a, pa), (b, pb))}
    memif = kinds == {True}
    if len(kinds) > 1:
        problems.append(f"{inventory}: the cables are all memif (one machine: the rehearsal) or "
                        "all NICs (a testbed), not some of each")
    order = start_order(cables) if not problems else None
    if not problems and memif and order is None:
        problems.append(f"{inventory}: the memif cables' servers (each cable's first end) form a "
                        "cycle: no switch can start first")
    if problems:
        return problems
    if not memif:
        order = list(tc.RING_SWITCHES)  # a NIC's link comes up whenever its peer does
    run = pathlib.Path(run_dir).resolve()
    run.mkdir(parents=True, exist_ok=True)
    links = [(a, pa, b, pb) for a, pa, b, pb in cables if a in order and b in order]
    pci = None if memif else {(m, p): d for m, v in machines.items() for p, d in v["ports"].items()}
    configs = tc.gfc_ring(run, engine, queueing, prefix=f"fcring{run.stat().st_ino}",
                          links=links, pci=pci,
                          metrics_address="127.0.0.1" if memif else "0.0.0.0")
    for name, text in configs.items():
        (run / f"{name.lower()}.toml").write_text(text)
    (run / "lab.toml").write_text(tc.lab_ring(engine, queueing, seconds))
    targets = [f"{machines[n]['address']}:{tc.RING_METRICS_PORT[n]}" for n in configs]
    # Per machine, the node the playbook acts through (the first of it), and the nodes there:
    # one command a machine starts or awaits all of them.
    leaders = {}
    for name in configs:
        leader = next(n for n in configs if machines[n]["machine"] == machines[name]["machine"])
        leaders.setdefault(leader, []).append(name)
    (run / "prometheus.yml").write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
        "  - job_name: testbed\n    static_configs:\n"
        f"      - targets: [{', '.join(repr(t) for t in targets)}]\n")
    (run / "plan.json").write_text(json.dumps({
        "experiment": experiment, "engine": engine, "queueing": queueing,
        "seconds": float(seconds), "run_dir": str(run), "switch_order": order,
        "host_order": list(tc.RING_HOSTS), "monitor": monitors[0] if monitors else None,
        "prometheus_url": (f"http://{machines[monitors[0]]['address']}:9490" if monitors
                           else None),
        "processes": {n: n.lower() for n in configs}, "leaders": leaders,
        # The nodes on other machines than this one: configs go there, reports come back.
        "remote": [n for n in list(configs) + monitors if machines[n]["machine"] != "local"]},
        indent=1))
    return []


def links_plan(inventory, run_dir):
    """Each node's ports as a config for `fcswitch selftest --links`, and links.json."""
    problems = []
    machines, cables = read_inventory(inventory, problems)
    nodes = [n for n in machines if machines[n]["group"] != "monitor"
             and any(n in (a, b) for a, _, b, _ in cables)]
    memif_cables = [c for c in cables if machines[c[0]]["ports"][c[1]] == "memif"]
    order = start_order(memif_cables, nodes) if not problems else None
    if not problems and order is None:
        problems.append(f"{inventory}: the memif cables' servers (each cable's first end) form a "
                        "cycle: no node can start first")
    if problems:
        return problems
    run = pathlib.Path(run_dir).resolve()
    run.mkdir(parents=True, exist_ok=True)
    device = {}
    for a, pa, b, pb in cables:
        if machines[a]["ports"][pa] == "memif":
            sock = f"{run}/{a.lower()}{pa}-{b.lower()}{pb}.sock"
            device[(a, pa)], device[(b, pb)] = (sock, "server"), (sock, "client")
        else:
            device[(a, pa)], device[(b, pb)] = machines[a]["ports"][pa], machines[b]["ports"][pb]
    processes = {}
    for name in order:
        ports = [(p, device[(name, p)]) for p in machines[name]["ports"] if (name, p) in device]
        pci = [d for _, d in ports if isinstance(d, str)]
        text = [f'[switch]\nname = "{name}"\n',
                tc._eal(f"fclinks_{name.lower()}", None, pci=pci)]
        for index, (port, d) in enumerate(ports):
            text.append(f'[[ports]]\nname = "{port}"\n'
                        f'device = "{d if isinstance(d, str) else tc.memif(index, *d)}"\n')
        processes[name] = f"{name.lower()}_links"
        (run / f"{processes[name]}.toml").write_text("\n".join(text))
    # Each selftest waits for the nodes started after it: one deadline for all, so that the
    # first to start (on a testbed server, an EAL on hugepages and its NICs probed: seconds)
    # still waits for the last.
    (run / "links.json").write_text(json.dumps({
        "run_dir": str(run), "link_order": order, "processes": processes,
        "link_timeout_ms": 20000 + 5000 * len(order),
        "remote": [n for n in order if machines[n]["machine"] != "local"]}, indent=1))
    return []


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "links":
        found = links_plan(*sys.argv[2:])
    elif len(sys.argv) == 7:
        found = plan(*sys.argv[1:])
    else:
        sys.exit(__doc__)
    for problem in found:
        print(problem, file=sys.stderr)
    sys.exit(2 if found else 0)

#!/usr/bin/env python3
"""Find the link failures behind GFC §6.2.2's fat-tree deadlock case study (Fig. 11).

The figure is not in our copy of the paper. This searches a k = 4 fat-tree, named as
lib/topology's fat_tree(4) names it (cores S1..S4 = S_C1.., aggregation L1..L8 = S_A1..,
edge T1..T8, hosts T<t>h<j> = H_n with n = 2(t-1) + (j-1)), for every set of three failed
switch-to-switch links under which shortest-path routing can carry the paper's four flows

    F1: H0 -> H8, F2: H4 -> H12, F3: H9 -> H1, F4: H13 -> H5

so that their buffer dependencies (a flow entering switch b from a and leaving it to c makes
the queue of link a->b wait on link b->c) hold the four-hop cycle
S_C1 -> S_A3 -> S_C2 -> S_A7 -> S_C1 (S1 -> L3 -> S2 -> L7 -> S1) and no other cycle.

Shortest paths tie (ECMP) in a fat-tree; a tie the flows' paths meet must be broken for the
paper's cycle to form, and the lab breaks it with a switch's own `routes` (they win over the
computed ones). For each failure set the script prints the fewest such pins, each a choice
among equally short next hops, so the routing stays shortest-path. F5: H4 -> H5 stays on S_E3
(T3) under any failures: both hosts hang off T3.

Usage: tools/fat_tree_cbd_search.py [--all]
"""

import argparse
import collections
import itertools
import sys

K = 4
CORES = [f"S{i}" for i in range(1, 5)]
AGGS = [f"L{i}" for i in range(1, 9)]
EDGES = [f"T{i}" for i in range(1, 9)]


def fat_tree_links():
    """The 32 switch-to-switch links of fat_tree(4) (lib/topology/topology_generators.cc)."""
    links = []
    for pod in range(K):
        edges = [f"T{2 * pod + 1}", f"T{2 * pod + 2}"]
        aggs = [f"L{2 * pod + 1}", f"L{2 * pod + 2}"]
        links += [(t, l) for t in edges for l in aggs]
        # The pod's first aggregation switch reaches cores S1, S2; its second S3, S4.
        links += [(aggs[0], "S1"), (aggs[0], "S2"), (aggs[1], "S3"), (aggs[1], "S4")]
    return links


def host_edge(n):
    """H_n's edge switch: T<t> with n = 2(t-1) + (j-1)."""
    return f"T{n // 2 + 1}"


def host_name(n):
    return f"T{n // 2 + 1}h{n % 2 + 1}"


FLOWS = {"F1": (0, 8), "F2": (4, 12), "F3": (9, 1), "F4": (13, 5)}
CYCLE = ["S1", "L3", "S2", "L7"]  # S_C1 -> S_A3 -> S_C2 -> S_A7 -> S_C1


def distances(adj, target):
    dist = {target: 0}
    queue = collections.deque([target])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def shortest_paths(adj, dist, src, dst):
    """Every shortest switch path src..dst, and at each hop the equally short next hops."""
    if src not in dist:
        return []
    out = []

    def walk(path):
        u = path[-1]
        if u == dst:
            out.append(list(path))
            return
        for v in sorted(adj[u]):
            if dist.get(v) == dist[u] - 1:
                walk(path + [v])

    walk([src])
    return out


def dependencies(path):
    """Buffer dependencies of a switch path: (a->b) waits on (b->c)."""
    return {((a, b), (b, c)) for a, b, c in zip(path, path[1:], path[2:])}


def cycles(edges):
    """The elementary cycles of a small directed graph, each as a frozenset of its edges."""
    graph = collections.defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    found = set()
    nodes = sorted(graph)

    def walk(start, node, path, seen):
        for nxt in graph[node]:
            if nxt == start:
                cyc = path + [start]
                found.add(frozenset(zip(cyc, cyc[1:])))
            elif nxt not in seen and nxt > start:
                walk(start, nxt, path + [nxt], seen | {nxt})

    for s in nodes:
        walk(s, s, [s], {s})
    return found


def wanted_cycle():
    links = [(CYCLE[i], CYCLE[(i + 1) % 4]) for i in range(4)]
    return frozenset((links[i], links[(i + 1) % 4]) for i in range(4))


def evaluate(failed):
    adj = collections.defaultdict(set)
    for a, b in fat_tree_links():
        if (a, b) in failed:
            continue
        adj[a].add(b)
        adj[b].add(a)
    options = {}
    dists = {}
    for name, (src, dst) in FLOWS.items():
        d = distances(adj, host_edge(dst))
        dists[name] = d
        options[name] = shortest_paths(adj, d, host_edge(src), host_edge(dst))
        if not options[name]:
            return None
    want = wanted_cycle()
    best = None
    for choice in itertools.product(*(options[n] for n in FLOWS)):
        deps = set()
        for path in choice:
            deps |= dependencies(path)
        if cycles(deps) != {want}:
            continue
        pins = []
        for name, path in zip(FLOWS, choice):
            dst = FLOWS[name][1]
            d = dists[name]
            for u, v in zip(path, path[1:]):
                ties = sorted(w for w in adj[u] if d.get(w) == d[u] - 1)
                if len(ties) > 1:
                    pins.append((u, host_name(dst), v, ties))
        if best is None or len(pins) < len(best[1]):
            best = (dict(zip(FLOWS, choice)), pins)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="print every failure set that works")
    args = parser.parse_args()
    results = []
    for failed in itertools.combinations(fat_tree_links(), 3):
        best = evaluate(set(failed))
        if best:
            results.append((len(best[1]), failed, best))
    if not results:
        print("no three failures give the cycle", file=sys.stderr)
        return 1
    results.sort(key=lambda r: (r[0], r[1]))
    fewest = results[0][0]
    print(f"{len(results)} failure sets of three give exactly the cycle "
          f"S1 -> L3 -> S2 -> L7 -> S1; the fewest ECMP pins any needs: {fewest}")
    for pins, failed, (paths, pin_list) in results:
        if pins > fewest and not args.all:
            break
        print("\nfailed:", ", ".join(f"{a}-{b}" for a, b in failed), f"({pins} pins)")
        for name, path in paths.items():
            src, dst = FLOWS[name]
            print(f"  {name} H{src} -> H{dst}: " + " -> ".join(path))
        for u, host, v, ties in pin_list:
            print(f"  pin {u}: {host} = \"{v}\"   (equally short: {', '.join(ties)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

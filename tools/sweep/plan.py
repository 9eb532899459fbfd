#!/usr/bin/env python3
"""plan.py: writes one fclab command line per run of a large sweep (docs/architecture.md).

    tools/sweep/plan.py SCENARIO.toml --out DIR [--set KEY=VALUE]... \
        [--vary KEY=V1,V2,...]... [--seeds N | --seeds A-B] [--cbd yes|no] \
        [--fclab PATH] [--force]

`fclab --sweep` runs a handful of values one after another in one process. A sweep of
thousands of runs (GFC Table 1: networks x engines x seeds) goes to an engine that already
schedules, retries and spreads jobs over machines (GNU parallel, Slurm): this script only
writes the work list, and tools/sweep/collect.py reads the results back.

Writes
  DIR/runs.txt   one shell command per line (shlex-quoted, absolute paths):
                 FCLAB SCENARIO --out DIR/runs/<id> --no-plots --set K=V ... --set lab.seed=S
  DIR/plan.json  the scenario, the fixed sets, the varied keys and, per run, its id, its
                 varied values, its seed, all its overrides and its command: collect labels
                 runs from it, never by parsing paths.

Run ids: `<name>-<value>` per varied key, in the order the keys were given, then
`seed-<S>`, joined by `_` (flow_control.engine=pfc, seed 3 -> engine-pfc_seed-3). A key's
name is the shortest dotted suffix of it that no other varied key shares. A value made only
of [A-Za-z0-9.+-] (at most 40 characters) is used as it is; any other value is cut to those
characters and followed by `~` and 8 hex digits of its SHA-1, so no two values map to one
name. A value never holds `_`, and the names and their order are the same for every run of a
plan, so each value ends at the first `_` after its name: two runs share an id only if they
share every value. Ids are unique, and the same plan gives the same ids.

Before writing anything it runs `FCLAB SCENARIO --check --set ...` once per combination of
varied values (with the first seed), and refuses (exit 2) with fclab's file:line:col message
if any is rejected. --cbd yes keeps only the runs whose network's routes have a cyclic buffer dependency, --cbd no
only those without (GFC §6.2.3: Table 1 counts deadlocks on the CBD networks; Figs. 16–17
compare the engines on CBD-free ones). It then checks every run, not one per combination
(`fclab --check` prints `cbd: yes …` or `cbd: no …` from the routes, lib/lab/routing_cbd.h;
a scenario without computed routes is refused), leaves the others out of runs.txt and lists
them in plan.json's `skipped` with the reason, which collect.py counts apart. Each kept run
has its `cbd` in plan.json.

It refuses a non-empty DIR unless --force, which removes what an earlier
plan/run/collect wrote there (runs.txt, plan.json, runs/, joblog, runs.csv, verdicts.txt)
and nothing else.
"""

import argparse
import concurrent.futures
import hashlib
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

SAFE_VALUE = re.compile(r"^[A-Za-z0-9.+-]{1,40}$")
UNSAFE_CHAR = re.compile(r"[^A-Za-z0-9.+-]")
UNSAFE_NAME_CHAR = re.compile(r"[^A-Za-z0-9._+-]")
# What plan, a run engine and collect write into DIR; --force removes only these.
OWN_OUTPUTS = ["runs.txt", "plan.json", "runs", "joblog", "runs.csv", "verdicts.txt"]
SEED_KEY = "lab.seed"


class PlanError(Exception):
    """A refusal: the message is printed and plan exits 2."""


def split_assignment(option, text):
    key, eq, value = text.partition("=")
    if not eq or not key or not value:
        raise PlanError(f"{option} {text}: expected KEY=VALUE")
    return key.strip(), value


def parse_vary(texts):
    """--vary KEY=V1,V2,... -> [(key, [values])] in the order given."""
    varied = []
    for text in texts:
        key, values_text = split_assignment("--vary", text)
        values = values_text.split(",")
        if any(v == "" for v in values):
            raise PlanError(f"--vary {text}: empty value (expected KEY=V1,V2,...)")
        seen = set()
        for v in values:
            if v in seen:
                raise PlanError(f"--vary {key}: value {v!r} given twice")
            seen.add(v)
        if any(key == k for k, _ in varied):
            raise PlanError(f"--vary {key}: key varied twice (give all its values in one --vary)")
        varied.append((key, values))
    return varied


def parse_seeds(text):
    """--seeds N -> 1..N; --seeds A-B -> A..B; None -> the scenario's own seed."""
    if text is None:
        return None
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", text.strip())
    if not m:
        raise PlanError(f"--seeds {text}: expected a count N (seeds 1..N) or a range A-B")
    if m.group(2) is None:
        n = int(m.group(1))
        if n < 1:
            raise PlanError(f"--seeds {text}: expected at least 1 seed")
        return list(range(1, n + 1))
    a, b = int(m.group(1)), int(m.group(2))
    if a > b:
        raise PlanError(f"--seeds {text}: range A-B needs A <= B")
    return list(range(a, b + 1))


def key_names(keys):
    """Shortest dotted suffix of each key that no other key has (engine, not flow_control.engine)."""
    names = {}
    for key in keys:
        parts = key.split(".")
        for n in range(1, len(parts) + 1):
            suffix = ".".join(parts[-n:])
            if not any(o != key and (o == suffix or o.endswith("." + suffix)) for o in keys):
                break
        names[key] = UNSAFE_NAME_CHAR.sub("", suffix) or "key"
    if len(set(names.values())) != len(names):  # keys that differ only in unsafe characters
        names = {key: f"k{i}" for i, key in enumerate(keys)}
    return names


def value_name(value):
    if SAFE_VALUE.match(value):
        return value
    digest = hashlib.sha1(value.encode()).hexdigest()[:8]
    return UNSAFE_CHAR.sub("", value)[:40] + "~" + digest


def run_id(names, combo, seed):
    parts = [f"{names[k]}-{value_name(v)}" for k, v in combo]
    if seed is not None:
        parts.append(f"seed-{seed}")
    return "_".join(parts) if parts else "run"


CBD_LINE = re.compile(r"^cbd: (yes|no)\b", re.MULTILINE)


def check_run(fclab, scenario, overrides):
    """fclab --check with these overrides -> (None, cbd) if accepted, else (fclab's message,
    None). cbd is "yes" or "no" from fclab's `cbd:` line, None when it printed none (routes
    not computed)."""
    command = [fclab, scenario, "--check"]
    for o in overrides:
        command += ["--set", o]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode == 0:
        m = CBD_LINE.search(proc.stdout)
        return None, (m.group(1) if m else None)
    message = (proc.stderr.strip() or proc.stdout.strip() or f"exit code {proc.returncode}")
    return message, None


def prepare_out_dir(out_dir, force):
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise PlanError(f"--out {out_dir}: exists and is not a directory")
    if os.path.isdir(out_dir) and os.listdir(out_dir):
        if not force:
            raise PlanError(f"--out {out_dir}: not empty (use --force to replace an earlier plan there)")
        for name in OWN_OUTPUTS:
            path = os.path.join(out_dir, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            elif os.path.lexists(path):
                os.remove(path)
    os.makedirs(os.path.join(out_dir, "runs"), exist_ok=True)


def main(argv):
    parser = argparse.ArgumentParser(
        description="Write DIR/runs.txt (one fclab command per run) and DIR/plan.json for "
        "GNU parallel or a Slurm job array; tools/sweep/collect.py DIR reads the results.")
    parser.add_argument("scenario", help="lab scenario (TOML)")
    parser.add_argument("--out", required=True, metavar="DIR", help="plan and output folder")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="fixed override for every run (as fclab --set)")
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="vary a key; several --vary give their cartesian product")
    parser.add_argument("--seeds", metavar="N|A-B",
                        help="seeds 1..N or A..B, set as lab.seed (default: the scenario's seed)")
    parser.add_argument("--cbd", choices=["yes", "no"],
                        help="keep only runs whose routes have (yes) or have no (no) cyclic buffer "
                        "dependency, as fclab --check says; the others are listed as skipped")
    parser.add_argument("--fclab", default="build/app/fclab",
                        help="fclab binary (default build/app/fclab), made absolute")
    parser.add_argument("--force", action="store_true",
                        help="replace an earlier plan, its runs and results in DIR")
    parser.add_argument("-j", "--check-jobs", type=int, default=os.cpu_count() or 1,
                        help="fclab --check processes at once (default: the CPU count)")
    args = parser.parse_args(argv)

    try:
        fclab = os.path.abspath(args.fclab)
        if not (os.path.isfile(fclab) and os.access(fclab, os.X_OK)):
            raise PlanError(f"--fclab {fclab}: no such executable (build it: ninja -C build app/fclab)")
        scenario = os.path.abspath(args.scenario)
        if not os.path.isfile(scenario):
            raise PlanError(f"{args.scenario}: no such scenario file")
        fixed = [split_assignment("--set", s) for s in args.set]
        varied = parse_vary(args.vary)
        seeds = parse_seeds(args.seeds)
        fixed_keys = {k for k, _ in fixed}
        for key, _ in varied:
            if key in fixed_keys:
                raise PlanError(f"--vary {key}: also given with --set")
        if seeds is not None and (SEED_KEY in fixed_keys or any(k == SEED_KEY for k, _ in varied)):
            raise PlanError(f"--seeds sets {SEED_KEY}: do not also --set or --vary it")

        keys = [k for k, _ in varied]
        names = key_names(keys)
        combos = [list(zip(keys, values)) for values in itertools.product(*(v for _, v in varied))]
        fixed_sets = [f"{k}={v}" for k, v in fixed]

        def overrides(combo, seed):
            sets = fixed_sets + [f"{k}={v}" for k, v in combo]
            return sets + ([f"{SEED_KEY}={seed}"] if seed is not None else [])

        # One check per combination, with the first seed: the seed cannot make a run invalid.
        # With --cbd, one per run: the seed draws the network (failures), which decides the CBD.
        first_seed = seeds[0] if seeds else None
        all_seeds = seeds if seeds is not None else [None]
        checked = ([(c, s) for c in combos for s in all_seeds] if args.cbd
                   else [(c, first_seed) for c in combos])
        with concurrent.futures.ThreadPoolExecutor(max(1, args.check_jobs)) as pool:
            checks = list(pool.map(
                lambda cs: check_run(fclab, scenario, overrides(*cs)), checked))
        results = []
        for combo in combos:  # the first refusal of each combination, if any
            found = [m for (c, _), (m, _) in zip(checked, checks) if c == combo and m is not None]
            results.append(found[0] if found else None)
        cbd_of = {(tuple(c), s): cbd for (c, s), (_, cbd) in zip(checked, checks)}
        failures = [(c, m) for c, m in zip(combos, results) if m is not None]
        if failures:
            lines = [f"{len(failures)} of {len(combos)} combinations rejected by fclab --check:"]
            for combo, message in failures:
                label = ", ".join(f"{k}={v}" for k, v in combo) or "(no --vary)"
                lines.append(f"  {label}:")
                lines += [f"    {line}" for line in message.splitlines()]
            raise PlanError("\n".join(lines))
        if args.cbd and any(cbd is None for cbd in cbd_of.values()):
            raise PlanError(f"--cbd {args.cbd}: fclab --check printed no `cbd:` line for "
                            f"{args.scenario} (the CBD is computed only with [topology] routing)")

        out_dir = os.path.abspath(args.out)
        runs, skipped = [], []
        for combo in combos:
            for seed in all_seeds:
                rid = run_id(names, combo, seed)
                run_dir = os.path.join(out_dir, "runs", rid)
                sets = overrides(combo, seed)
                cbd = cbd_of.get((tuple(combo), seed))
                if args.cbd and cbd != args.cbd:
                    skipped.append({"id": rid, "vary": dict(combo), "seed": seed,
                                    "reason": "no CBD" if cbd == "no" else "CBD"})
                    continue
                command = [fclab, scenario, "--out", run_dir, "--no-plots"]
                for s in sets:
                    command += ["--set", s]
                run = {"id": rid, "vary": dict(combo), "seed": seed, "overrides": sets,
                       "out": run_dir, "command": shlex.join(command)}
                if cbd is not None:
                    run["cbd"] = cbd
                runs.append(run)
        ids = [r["id"] for r in runs]
        assert len(set(ids)) == len(ids), "run ids are not unique"

        prepare_out_dir(out_dir, args.force)
        plan = {"scenario": scenario, "fclab": fclab, "sets": fixed_sets,
                "vary": [{"key": k, "name": names[k], "values": v} for k, v in varied],
                "seeds": seeds, "cbd": args.cbd, "runs": runs, "skipped": skipped}
        with open(os.path.join(out_dir, "plan.json"), "w") as f:
            json.dump(plan, f, indent=2)
            f.write("\n")
        with open(os.path.join(out_dir, "runs.txt"), "w") as f:
            for r in runs:
                f.write(r["command"] + "\n")
    except PlanError as error:
        print(f"plan: {error}", file=sys.stderr)
        return 2

    n_seeds = len(seeds) if seeds else 1
    print(f"{len(runs)} run{'s' * (len(runs) != 1)} ({len(combos)} combination"
          f"{'s' * (len(combos) != 1)} x {n_seeds} seed{'s' * (n_seeds != 1)}"
          + (f", {len(skipped)} skipped: --cbd {args.cbd}" if args.cbd else "") + ") in "
          f"{out_dir}/runs.txt; plan in {out_dir}/plan.json")
    print(f"run:     parallel --will-cite -j N --joblog {out_dir}/joblog < {out_dir}/runs.txt")
    print(f"collect: tools/sweep/collect.py {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

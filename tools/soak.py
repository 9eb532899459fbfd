#!/usr/bin/env python3
"""A soak under the sanitizers (issue 22): fcswitch and three fchost processes built with
ASan+UBSan, over net_memif, with every engine at once, for SECONDS; then SIGTERM while the
traffic still flows. Passes when every process exits 0 with its mempool full and neither
sanitizer said anything (their reports go to files in the run directory).

    H1 ─┐
        S ── H2     S's port to H2 sends at 300 Mb/s: every class backs up into S's inputs
    H3 ─┘           and S holds H1 and H3 back with that class's engine

Priorities: 0 lossy (S drops what it cannot hold), 1 PFC, 2 CBFC, 3 buffer-based GFC,
4 time-based GFC. H1 and H3 each send one flow per priority, mixed: line rate and paced, on-off
bursts, 64- to 1514-byte frames. The thresholds are the testbed rehearsal's
(tools/testbed/testbed_configs.py).

usage: soak.py [--seconds S] [--build DIR] [--out DIR]
CI runs a short one (tools/test.sh: 20 s); run it for minutes by hand.
"""
import argparse
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "testbed"))
import testbed_configs as tc  # noqa: E402

# Every engine, a priority each: (lossless priorities, [buffer] and [flow_control]).
MIXED = ([1, 2, 3, 4], f"""[buffer]
lossless_ingress = "{tc.BUFFER}"
[flow_control]
response_time = "300us"
limiter_catch_up = "200us"
[flow_control.priority.1]
engine = "pfc"
pfc = {{ xoff = "600KB", xon = "590KB" }}
[flow_control.priority.2]
engine = "cbfc"
cbfc = {{ period = "524us" }}
[flow_control.priority.3]
engine = "gfc-buffer"
gfc-buffer = {{ b1 = "500KB" }}
[flow_control.priority.4]
engine = "gfc-time"
gfc-time = {{ period = "524us", b0 = "600KB" }}
""")
MACS = {"H1": "02:00:00:00:01:01", "H2": "02:00:00:00:02:01", "H3": "02:00:00:00:03:01"}
BOTTLENECK_BPS = 300_000_000


def flows(first_id, frames):
    """One flow per priority to H2, each shaped differently."""
    to = {"to": '"H2"', "to_mac": f'"{MACS["H2"]}"', "to_ip": '"10.0.2.1"'}
    shapes = [
        {"priority": 0, "rate": '"100Mbps"', "frame": frames[0]},
        {"priority": 1, "rate": '"line"', "frame": frames[1]},
        {"priority": 2, "rate": '"line"', "pattern": '"on-off"', "on": '"5ms"', "off": '"3ms"',
         "frame": frames[2]},
        {"priority": 3, "rate": '"400Mbps"', "frame": frames[3]},
        {"priority": 4, "rate": '"line"', "pattern": '"on-off"', "on": '"2ms"', "off": '"2ms"',
         "burst": 16, "frame": frames[4]},
    ]
    return [{"id": first_id + i, **to, **shape} for i, shape in enumerate(shapes)]


def write_configs(d):
    sock = {h: f"{d}/{h.lower()}.sock" for h in ("H1", "H2", "H3")}
    ports = [("h1", tc.memif(0, sock["H1"], "server"), {}),
             ("h2", tc.memif(1, sock["H2"], "server"), {"rate_limit": BOTTLENECK_BPS}),
             ("h3", tc.memif(2, sock["H3"], "server"), {})]
    fib = {MACS[h]: h.lower() for h in ("H1", "H2", "H3")}
    (d / "s.toml").write_text(tc.switch_toml("S", ports, fib, MIXED, "fcsoak_s", cpus="1,0"))
    hosts = {"H1": flows(1, [1514, 1514, 512, 1024, 64]),
             "H2": [],
             "H3": flows(11, [64, 256, 1514, 128, 1514])}
    for i, (name, host_flows) in enumerate(hosts.items()):
        (d / f"{name.lower()}.toml").write_text(tc.host_toml(
            name, f"10.0.{i + 1}.1", MACS[name], tc.memif(0, sock[name], "client"), MIXED,
            host_flows, f"fcsoak_{name.lower()}", cpus=str(i % 2)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--build", default=str(ROOT / "build-san"))
    parser.add_argument("--out", default=str(ROOT / "out" / "soak"))
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    fcswitch, fchost = build / "app" / "fcswitch", build / "app" / "fchost"
    d = pathlib.Path(args.out).resolve()
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    write_configs(d)
    env = dict(os.environ,
               ASAN_OPTIONS=f"halt_on_error=1:detect_leaks=1:log_path={d}/asan",
               UBSAN_OPTIONS=f"halt_on_error=1:print_stacktrace=1:log_path={d}/ubsan",
               LSAN_OPTIONS=f"suppressions={ROOT}/tools/soak_lsan.supp:print_suppressions=0")
    procs = {}

    def start(name, argv):
        procs[name] = subprocess.Popen([str(a) for a in argv], env=env,
                                       stdout=open(d / f"{name}.log", "w"),
                                       stderr=subprocess.STDOUT)

    codes = {}
    failures = []
    try:
        start("s", [fcswitch, d / "s.toml", "--report-json", d / "s.json"])
        tc.wait_forwarding(d / "s.log", procs["s"], seconds=120)
        for name in ("h2", "h1", "h3"):
            start(name, [fchost, d / f"{name}.toml", "--summary", d / f"{name}.json"])
        time.sleep(args.seconds)
        # The switch first, while its queues hold traffic; then the hosts.
        for name in ("s", "h1", "h3", "h2"):
            procs[name].send_signal(signal.SIGTERM)
            codes[name] = procs[name].wait(timeout=120)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        failures.append(f"{e} (logs in {d})")
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()

    if any(codes.get(n) != 0 for n in procs):
        failures.append(f"exit codes {codes} (logs in {d})")
    reports = sorted(p.name for p in d.iterdir() if p.name.startswith(("asan", "ubsan")))
    if reports:
        failures.append(f"sanitizer reports: {', '.join(reports)} in {d}")
    load = lambda name: json.loads((d / name).read_text()) if (d / name).exists() else None  # noqa: E731
    sw = load("s.json")
    hosts = {n: load(f"{n}.json") for n in ("h1", "h2", "h3")}
    if sw is None or sw.get("mempool_in_use") != 0:
        failures.append(f"S's mbufs not all back: {sw and sw.get('mempool_in_use')}")
    for n, h in hosts.items():
        if h is None or h.get("mempool_in_use_after_shutdown") != 0:
            failures.append(f"{n}'s mbufs not all back")
    if sw:
        drops = {}
        for port in sw["ports"]:
            for reason, count in port["drops"].items():
                if count:
                    drops[reason] = drops.get(reason, 0) + count
        received = sum(f["received_packets"] for f in hosts["h2"]["flows"]) if hosts["h2"] else 0
        print(f"soak {args.seconds:.0f} s: H2 received {received} frames; S dropped {drops}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("no sanitizer report; every process exited 0 with its mempool full")


if __name__ == "__main__":
    main()

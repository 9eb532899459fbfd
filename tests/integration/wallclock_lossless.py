"""Two running switches, lossless in wall-clock time, under every engine.

Two fcswitch processes joined by net_memif, as two switches of a testbed joined by a cable.
The upstream (U) takes 1514-byte UDP frames of priority 0 from a pcap read without end and
forwards them into the link; the downstream (D) forwards them to a port capped at 1 Gb/s, so
D's link ingress fills and D holds U back with the engine under test. Every port 10 Gb/s,
lossless_ingress 4 MB, response_time 1 ms. U runs SECONDS, then D is stopped by SIGTERM.

For each engine (pfc, cbfc, gfc-buffer, gfc-time) in the compact layout, each switch given the
one CPU it needs:
  - no lossless frame lost on the link: D's link port has no lossless_overflow (U's source port
    does: the pcap is a fire hose that obeys nobody, and those drops are named);
  - no PFC pause of U ran out while D held XOFF, unless a CPU was taken away for longer than
    the pause allows: D's (it counts the pause frames it sent too late for the last pause) or
    U's (its link's RX or TX polled later than response_time); an expiry no TX poll of U saw
    let nothing through and is counted apart;
  - the bottleneck stayed busy: D's sink took ≥ 95 % of 1 Gb/s's wire time over U's run, less
    the time either switch's thread was away from its CPU (the gaps between its polls longer
    than response_time: D sends nothing then, and U nothing that refills D's queue);
  - under PFC, D measured τ after at least half of its pauses;
  - every frame U sent into the link left D by its sink (none lost between the processes),
    both exit 0 and both mempools are full again.
The testbed layout (RX and TX of each port and FWD on lcores of their own: 5 workers) is run
the same way where the machine has its 10 CPUs; with fewer, each switch is started on one CPU
and must say, before it forwards, that its workers share a CPU and what τ that implies.

Prints one line of figures per run.

usage: wallclock_lossless.py FCSWITCH WORK_DIR [--seconds S] [--engines E ...] [--bench]
  --bench: figures only (tools/bench/pause_response.sh): both layouts whatever the CPUs (the
  testbed layout on one CPU each where there are too few, as its warning says), exit 0.
"""
import argparse
import json
import os
import pathlib
import shutil
import signal
import struct
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "tools", "testbed"))
from pcap_files import write_pcap  # noqa: E402
import testbed_configs as tc  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("fcswitch")
parser.add_argument("work", type=pathlib.Path)
parser.add_argument("--seconds", type=float, default=5.0)
parser.add_argument("--engines", nargs="+", default=["pfc", "cbfc", "gfc-buffer", "gfc-time"])
parser.add_argument("--bench", action="store_true")
args = parser.parse_args()
fcswitch, work, seconds, engines = args.fcswitch, args.work, args.seconds, args.engines
BOTTLENECK_BPS = 1_000_000_000
FRAME_BYTES = 1514
WIRE_BYTES = FRAME_BYTES + 4 + 8 + 12  # FCS, preamble and SFD, inter-frame gap: the rate limiter's
TESTBED_WORKERS = 5  # rx:link, rx:sink (or rx:src), fwd, tx:link, tx:sink
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("  (a test would fail here):" if args.bench else "FAIL:", what)


def udp_frames(count=64):
    """1514-byte IPv4/UDP frames, untagged (priority 0), to a MAC nobody learns."""
    frames = []
    for i in range(count):
        payload = FRAME_BYTES - 14 - 20 - 8
        ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + 8 + payload, i, 0, 64, 17, 0,
                                   bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])))
        s = sum(struct.unpack("!10H", ip))
        s = (s & 0xFFFF) + (s >> 16)
        ip[10:12] = struct.pack("!H", ~((s & 0xFFFF) + (s >> 16)) & 0xFFFF)
        frames.append(bytes.fromhex("02000000000b02000000000a0800") + bytes(ip)
                      + struct.pack("!HHHH", 1000, 2000, 8 + payload, 0) + bytes(payload))
    return frames


def switch_toml(d, role, engine, layout, cpus, ports, response_time="1ms"):
    return f"""
[switch]
name = "{role}"
mac_learning = false         # the frames go to a MAC nobody learns: to the other port
lossless_priorities = [0]
mbufs = 65535
[eal]
args = ["--no-huge", "-m", "1024", "--no-pci", "--no-telemetry", "--log-level=warning",
        "--file-prefix=fcwc_{role}"]
cpus = "{cpus}"
[buffer]
lossless_ingress = "4MB"
[flow_control]
engine = "{engine}"
response_time = "{response_time}"
[layout]
preset = "{layout}"
{ports}
"""


def port(name, device, extra=""):
    return f'[[ports]]\nname = "{name}"\ndevice = "{device}"\nrate = "10Gbps"\n{extra}'


def memif(d, role):
    return (f"net_memif0,role={role},socket={d}/link.sock,socket-abstract=no,rsize=6")


def counters(report, port_name):
    (p,) = [p for p in report["ports"] if p["name"] == port_name]
    return p


def run(engine, layout, cpus_u, cpus_d, response_time="1ms", name=None, run_s=None):
    d = work / (name or f"{engine}-{layout}")
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    write_pcap(d / "src.pcap", udp_frames())
    # The sink is a port with no engine (a host that speaks none); the source's port too.
    none = '[ports.flow_control]\nengine = "none"\n'
    (d / "d.toml").write_text(switch_toml(
        d, "d", engine, layout, cpus_d,
        port("link", memif(d, "server")) +
        port("sink", "net_null1,size=1514,no-rx=1", f'rate_limit = "1Gbps"\n{none}'),
        response_time))
    (d / "u.toml").write_text(switch_toml(
        d, "u", engine, layout, cpus_u,
        port("src", f"net_pcap0,rx_pcap={d}/src.pcap,infinite_rx=1", none) +
        port("link", memif(d, "client")), response_time))
    procs = []
    try:
        down = subprocess.Popen([fcswitch, d / "d.toml", "--report-json", d / "d.json"],
                                stdout=open(d / "d.log", "w"), stderr=subprocess.STDOUT)
        procs.append(down)
        try:
            tc.wait_forwarding(d / "d.log", down)
        except RuntimeError:
            check(False, f"{engine} {layout}: D did not start (log {d}/d.log)")
            return None
        up = subprocess.Popen([fcswitch, d / "u.toml", "--duration", str(run_s or seconds),
                               "--report-json", d / "u.json"],
                              stdout=open(d / "u.log", "w"), stderr=subprocess.STDOUT)
        procs.append(up)
        code_u = up.wait(timeout=(run_s or seconds) + 60)
        down.send_signal(signal.SIGTERM)
        code_d = down.wait(timeout=60)
    finally:
        tc.kill_unfinished(procs)
    check(code_u == 0 and code_d == 0,
          f"{engine} {layout}: exit codes U {code_u}, D {code_d} (logs in {d})")
    if code_u != 0 or code_d != 0:
        return None
    return d, json.loads((d / "u.json").read_text()), json.loads((d / "d.json").read_text())


def engine_counter(port_report, name):
    return port_report["flow_control"]["0"].get(name, 0)


def task(report, name):
    (found,) = [t for t in report["tasks"] if t["name"] == name]
    return found


def check_run(engine, layout, result):
    d, u, dn = result
    u_link, d_link, sink = counters(u, "link"), counters(dn, "link"), counters(dn, "sink")
    lossless = d_link["drops"]["lossless_overflow"]
    sent_into_link = u_link["tx_packets"][0]
    delivered = sink["tx_packets"][0]
    busy = (delivered * WIRE_BYTES * 8) / (u["run_seconds"] * BOTTLENECK_BPS)
    # D on one lcore sends nothing while its thread is away, and U away refills nothing: the
    # bottleneck's time lost so is the machine's, not the engine's.
    away = min(1.0, (task(dn, "tx:sink")["late_poll_gaps_ns"]
                     + task(u, "tx:link")["late_poll_gaps_ns"]) / 1e9 / u["run_seconds"])
    # A pause that ran out while U's TX was not polled (U's own thread away) let nothing
    # through: it is counted apart (pause_expiries_unseen).
    expiries = (engine_counter(u_link, "pause_expiries")
                - engine_counter(u_link, "pause_expiries_unseen"))
    # Explained: a pause frame D sent too late for the last pause (D's CPU was away), or U's RX
    # or TX of the link not polled for longer than response_time (U's CPU was away).
    late = engine_counter(d_link, "late_pause_frames")
    u_late_polls = sum(t["late_polls"] for t in u["tasks"] if t["name"] in ("rx:link", "tx:link"))
    gap_us = engine_counter(d_link, "longest_pause_gap_ns") / 1e3
    tau = d_link["flow_control"]["0"]
    print(f"{engine:<10} {layout:<8} sent {sent_into_link:>7} delivered {delivered:>7} "
          f"bottleneck {100 * busy:5.1f} % (U or D away {100 * away:.1f} %)  lossless drops {lossless}  "
          f"pause expiries seen by TX {expiries} (late pause frames at D {late}, longest gap {gap_us:.0f} µs; U's link polled late {u_late_polls})  "
          f"τ p99 {tau.get('pause_response_p99_ns', 0) / 1e3:.0f} µs  "
          f"source drops {counters(u, 'src')['drops']['lossless_overflow']}  "
          f"τ over budget {d_link['response_time']['over_budget_s']} s")
    check(lossless == 0, f"{engine} {layout}: {lossless} lossless drops at D's link ({d})")
    check(delivered == sent_into_link,
          f"{engine} {layout}: U sent {sent_into_link} into the link, D's sink sent {delivered}")
    check(busy >= 0.95 * (1 - away),
          f"{engine} {layout}: the bottleneck was busy {100 * busy:.1f} % of U's run, U's or D's "
          f"thread away {100 * away:.1f} % of it")
    check(expiries <= late + u_late_polls,
          f"{engine} {layout}: {expiries} of U's pauses ran out under XOFF; D sent {late} pause "
          f"frames late and U's link tasks were polled late {u_late_polls} times")
    if engine == "pfc":
        # τ is measured after each XOFF: over memif a response ends only after a whole burst's
        # quiet (before, the gap between two bursts ended it, and no sample was ever taken).
        check(tau["pause_response_samples"] >= tau["xoff_transitions"] // 2,
              f"{engine} {layout}: τ measured after {tau['pause_response_samples']} of "
              f"{tau['xoff_transitions']} pauses")
    check(u["mempool_in_use"] == 0 and dn["mempool_in_use"] == 0,
          f"{engine} {layout}: mbufs not back in a pool")
    for name, report in (("U", u), ("D", dn)):
        for p in report["ports"]:
            if p["name"] != "src":
                check(p["drops"]["lossless_overflow"] == 0,
                      f"{engine} {layout}: {name} port {p['name']} dropped lossless frames")


work.mkdir(parents=True, exist_ok=True)
cpus = sorted(os.sched_getaffinity(0))
if len(cpus) < 2:
    print(f"FAIL: two CPUs needed, {len(cpus)} here")
    sys.exit(1)
testbed_fits = len(cpus) >= 2 * TESTBED_WORKERS
layouts = [("compact", str(cpus[0]), str(cpus[1]))]
if testbed_fits:
    layouts.append(("testbed", ",".join(map(str, cpus[:TESTBED_WORKERS])),
                    ",".join(map(str, cpus[TESTBED_WORKERS:2 * TESTBED_WORKERS]))))
elif args.bench:
    layouts.append(("testbed", str(cpus[0]), str(cpus[1])))  # oversubscribed: figures only
for layout, cpus_u, cpus_d in layouts:
    for engine in engines:
        result = run(engine, layout, cpus_u, cpus_d)
        if result:
            check_run(engine, layout, result)
if args.bench:
    sys.exit(0)
if not testbed_fits:
    # Too few CPUs for the testbed layout: the switch says so before it forwards, with the τ.
    d = work / "testbed-oversubscribed"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    (d / "s.toml").write_text(switch_toml(
        d, "o", "pfc", "testbed", cpus[0],
        port("a", "net_null0,size=64") + port("b", "net_null1,size=64,no-rx=1")))
    out = subprocess.run([fcswitch, d / "s.toml", "--duration", "0.2"], capture_output=True,
                         text=True, timeout=60)
    text = out.stdout + out.stderr
    (d / "s.log").write_text(text)
    warning = [line for line in text.splitlines() if "busy-polling workers on 1 CPU" in line]
    print(f"testbed layout on 1 CPU: {warning[0] if warning else 'no warning'}")
    check(out.returncode == 0, f"testbed on one CPU: exit {out.returncode} ({d}/s.log)")
    check(bool(warning) and "[warning]" in warning[0] and "response_time = 1.0 ms" in warning[0]
          and "pauses may run out" in warning[0],
          f"testbed on one CPU: no warning that names the τ it implies ({d}/s.log)")

# A response_time below the τ the switch then measures (5 µs: less than a burst of frames takes
# over memif): D says so each second, names the headroom it breaks, and counts the seconds.
result = run("pfc", "compact", cpus[0], cpus[1], response_time="5us", name="pfc-tau-over-budget",
             run_s=2)
if result:
    d, _, dn = result
    budget = counters(dn, "link")["response_time"]
    warned = [line for line in (d / "d.log").read_text().splitlines()
              if "[warning] port link: τ" in line and "over response_time = 5 µs" in line]
    print(f"pfc, response_time 5 µs: τ over budget {budget['over_budget_s']} s, worst "
          f"{budget['worst_ns'] / 1e3:.0f} µs: {budget['breaks']}")
    check(budget["over_budget_s"] >= 1 and len(warned) >= 1,
          f"response_time 5 µs: {budget['over_budget_s']} s over budget, {len(warned)} warnings")
    check(budget["breaks"].startswith("pfc priority 0: XOFF's headroom"),
          f"response_time 5 µs: the report does not name the headroom: {budget['breaks']}")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("lossless in wall-clock time: " + ", ".join(engines))

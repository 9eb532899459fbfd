#!/usr/bin/env python3
"""Observability end to end (issue 7): fcswitch on pcap vdevs with a two-into-one overload,
scraped by Debian's Prometheus server, checked by promtool, read with dpdk-telemetry.py, and
its occupancy trace compared with its own counters. Every check compares with what was sent.
A second, short run with [pabo] (which runs alone on its priorities: no Tagger, no engine)
exposes the PABO families the dashboard's PABO panels query, its bounces counted.

usage: observability_test.py FCSWITCH SOURCE_DIR WORK_DIR
"""

import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from pcap_files import read_pcap, write_pcap

FRAME_BYTES = 1000
ECT0 = 0b10  # RFC 3168's ECT(0)
FRAMES_PER_INPUT = 500  # 500 KB into each of two ports: past XOFF, below the 1 MB buffer
XOFF, XON = 200_000, 190_000
DRAIN_BPS = 1e9  # p2's rate_limit
TRACE_INTERVAL_S = 10e-6
MAC = {"p0": b"\x02\x00\x00\x00\x00\x0a", "p1": b"\x02\x00\x00\x00\x00\x0b",
       "p2": b"\x02\x00\x00\x00\x00\x0c"}

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def ipv4_checksum(header):
    total = sum(struct.unpack("!10H", header))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def frame(src, dst, dscp, seq, size, ecn=0):
    """Ethernet + IPv4 (DSCP and ECN as given) + UDP, `size` bytes without FCS."""
    ip_len = size - 14
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, dscp << 2 | ecn, ip_len, seq & 0xFFFF, 0, 64, 17, 0,
                     bytes([10, 0, 0, src[-1]]), bytes([10, 0, 0, dst[-1]]))
    ip = ip[:10] + struct.pack("!H", ipv4_checksum(ip)) + ip[12:]
    udp = struct.pack("!HHHH", 4791, 4791, ip_len - 20, 0)  # RoCEv2's port
    payload = bytes(ip_len - 28)
    return dst + src + b"\x08\x00" + ip + udp + payload


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def wait_until(what, probe, timeout_s):
    """Polls `probe` until it returns a true value: a bounded wait for a condition, not a
    sleep standing in for synchronisation."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            value = probe()
            if value:
                return value
        except (OSError, ValueError, KeyError, IndexError):
            pass
        time.sleep(0.2)
    check(False, f"{what} within {timeout_s} s")
    return None


def config_text(metrics_port, prefix):
    return f"""
[switch]
name = "obs"
lossless_priorities = [3, 4, 5, 6]
mac_learning = false
mbufs = 16383

[eal]
args = ["--no-huge", "-m", "512", "--no-pci", "--file-prefix={prefix}", "--log-level=warning"]

[buffer]
lossless_ingress = "1MB"

[flow_control]
engine = "pfc"
response_time = "20us"

[flow_control.pfc]
xoff = {XOFF}
xon = {XON}

# One priority per engine, so that every family a dashboard panel queries is exposed.
[flow_control.priority.4]
engine = "cbfc"
[flow_control.priority.5]
engine = "gfc-buffer"
[flow_control.priority.6]
engine = "gfc-time"

[tagger]
tags = {{ "26" = 3 }}
lossy_tag = 0
lossy_priority = 0
rules = [{{ tag = 26, in = ["p0", "p1"], out = "p2", new_tag = 26 }},
         {{ tag = 26, in = "p2", out = "p0", new_tag = 26 }}]

# ECN on p2's queue 3, where the two inputs meet (p1's frames are ECT(0), p0's Not-ECT).
[ecn]
queues = [3]
k_min = "100KB"
k_max = "400KB"
p_max = 0.5

[metrics]
port = {metrics_port}

[trace]
interval = "10us"
file = "trace.csv"
priorities = [3]

[[ports]]
name = "p0"
device = "net_pcap0,rx_pcap=in0.pcap,tx_pcap=out0.pcap"
[[ports]]
name = "p1"
device = "net_pcap1,rx_pcap=in1.pcap,tx_pcap=out1.pcap"
[[ports]]
name = "p2"
device = "net_pcap2,rx_pcap=in2.pcap,tx_pcap=out2.pcap"
rate_limit = "1Gbps"   # the overloaded egress: two inputs into 1 Gb/s

[[fib]]
mac = "02:00:00:00:00:0a"
port = "p0"
[[fib]]
mac = "02:00:00:00:00:0c"
port = "p2"
"""


PYRRHA_PREFIX = "fcswitch_pyrrha_"  # families only a lab switch exposes (see run_checks)
PABO_FRAMES = 40  # A → B into a 20 Mb/s port whose normal sub-queue holds 8: some bounce


def pabo_config_text(metrics_port, prefix):
    """PABO on priority 0 (as tests/integration/pabo_pcap_test.cc): frames from A arrive on p0
    for B behind the slow p1; bounces leave by A's port, p2."""
    return f"""
[switch]
name = "obs_pabo"
mac_learning = false
mbufs = 4095

[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--no-telemetry", "--file-prefix={prefix}_pabo",
        "--log-level=warning"]

[layout]
preset = "compact"

[pabo]
priorities = [0]
normal_capacity = 8
bounce_capacity = 64
guard = 3
theta = 0.5

[metrics]
port = {metrics_port}

[[ports]]
name = "p0"
device = "net_pcap0,rx_pcap=pabo_in0.pcap,tx_pcap=pabo_out0.pcap"
[[ports]]
name = "p1"
device = "net_pcap1,tx_pcap=pabo_out1.pcap"
rate_limit = "20Mbps"
[[ports]]
name = "p2"
device = "net_pcap2,tx_pcap=pabo_out2.pcap"

[[fib]]
mac = "02:00:00:00:00:0a"
port = "p2"
[[fib]]
mac = "02:00:00:00:00:0b"
port = "p1"
"""


def pabo_exposition(fcswitch, prefix):
    """Runs the PABO switch until every frame left (forwarded by p1 or bounced by p2) and
    returns its /metrics text (None if it never got there)."""
    metrics_port = free_port()
    write_pcap("pabo_in0.pcap", [frame(MAC["p0"], MAC["p1"], 0, i, 200)
                                 for i in range(PABO_FRAMES)])
    with open("pabo.toml", "w") as f:
        f.write(pabo_config_text(metrics_port, prefix))
    log = open("fcswitch_pabo.log", "w")
    switch = subprocess.Popen([fcswitch, "pabo.toml"], stdout=log, stderr=subprocess.STDOUT)

    def sent(text, port):
        m = re.search(r'^fcswitch_tx_packets_total\{node="obs_pabo",port="' + port +
                      r'",prio="0"\} (\S+)$', text, re.M)
        return float(m.group(1)) if m else 0

    def settled():
        text = http_get(f"http://127.0.0.1:{metrics_port}/metrics")
        return text if sent(text, "p1") + sent(text, "p2") == PABO_FRAMES else None
    try:
        text = wait_until(f"the PABO switch sent all {PABO_FRAMES} frames", settled, 60)
    finally:
        switch.send_signal(signal.SIGTERM)
        code = switch.wait(timeout=60)
    check(code == 0, f"the PABO switch stopped by SIGTERM with exit code 0 (got {code})")
    if text is not None:
        bounced = re.search(r'^fcswitch_pabo_bounced_total\{node="obs_pabo",port="p2",prio="0"\} '
                            r'(\S+)$', text, re.M)
        check(bounced and float(bounced.group(1)) == sent(text, "p2") > 0,
              f"/metrics: every frame p2 sent was bounced ({bounced and bounced.group(0)})")
    return text


def exposition_families(text):
    return set(re.findall(r"^# TYPE (\S+) ", text, re.M))


def dashboard_metrics(path):
    """Every fcswitch_* name in every panel target's expression."""
    with open(path) as f:
        dashboard = json.load(f)
    names = {}
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            for name in re.findall(r"\bfcswitch_[a-z0-9_]+", target["expr"]):
                names.setdefault(name, panel["title"])
    return names


def telemetry(prefix, command):
    out = subprocess.run(["dpdk-telemetry.py", "-f", prefix], input=command + "\n",
                         capture_output=True, text=True, timeout=30).stdout
    # The script prints a greeting, then one JSON object per command.
    for line in out.splitlines():
        if line.startswith("{") and command.split(",")[0] in line:
            return json.loads(line)[command.split(",")[0]]
    raise ValueError(f"no answer to {command}: {out!r}")


def main():
    fcswitch, source, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    prefix = f"fcsw_obs{os.getpid()}"
    metrics_port, prom_port = free_port(), free_port()
    seq = iter(range(1, 1 << 30))
    write_pcap("in0.pcap", [frame(MAC["p0"], MAC["p2"], 26, next(seq), FRAME_BYTES)
                            for _ in range(FRAMES_PER_INPUT)])
    write_pcap("in1.pcap", [frame(MAC["p1"], MAC["p2"], 26, next(seq), FRAME_BYTES, ECT0)
                            for _ in range(FRAMES_PER_INPUT)])
    write_pcap("in2.pcap", [frame(MAC["p2"], MAC["p0"], 26, next(seq), 200)])
    with open("switch.toml", "w") as f:
        f.write(config_text(metrics_port, prefix))
    with open("prometheus.yml", "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                "scrape_configs:\n  - job_name: fcswitch\n    static_configs:\n"
                f"      - targets: ['127.0.0.1:{metrics_port}']\n")

    # The PABO families first, from a short run of their own.
    pabo_text = pabo_exposition(fcswitch, prefix)

    switch_log = open("fcswitch.log", "w")
    switch = subprocess.Popen([fcswitch, "switch.toml", "--report-json", "report.json"],
                              stdout=switch_log, stderr=subprocess.STDOUT)
    prom_log = open("prometheus.log", "w")
    prom = subprocess.Popen(["prometheus", "--config.file=prometheus.yml",
                             "--storage.tsdb.path=tsdb", f"--web.listen-address=127.0.0.1:{prom_port}"],
                            stdout=prom_log, stderr=subprocess.STDOUT)
    scraped = {}
    try:
        scraped = run_checks(source, prefix, metrics_port, prom_port, pabo_text or "")
    finally:
        switch.send_signal(signal.SIGTERM)
        code = switch.wait(timeout=60)
        prom.terminate()
        prom.wait(timeout=30)
    check(code == 0, f"fcswitch stopped by SIGTERM with exit code 0 (got {code})")
    check_trace()
    check_ecn(scraped or {})
    check_task_time()
    print(f"observability: {len(failures)} failed", flush=True)
    if failures:
        print("see " + work, flush=True)
    return 1 if failures else 0


def run_checks(source, prefix, metrics_port, prom_port, pabo_text):
    sent_bytes = FRAMES_PER_INPUT * FRAME_BYTES

    # The switch forwarded everything: wait for its own exposition to say so.
    def settled():
        text = http_get(f"http://127.0.0.1:{metrics_port}/metrics")
        m = re.search(r'^fcswitch_tx_packets_total\{node="obs",port="p2",prio="3"\} (\S+)$', text,
                      re.M)
        return text if m and float(m.group(1)) == 2 * FRAMES_PER_INPUT else None
    text = wait_until("p2 sent all 1000 frames", settled, 60)
    if text is None:
        return {}
    # Everything has drained: the trace has what it needs (and stays a few MB).
    trace = telemetry(prefix, "/fcswitch/trace,stop")
    check(trace["recording"] == 0 and trace["samples"] > 0 and trace["samples_lost"] == 0,
          f"telemetry /fcswitch/trace,stop: {trace}")

    # promtool: the expositions follow the format and the naming conventions.
    for which, exposition in (("", text), (" (PABO run)", pabo_text)):
        lint = subprocess.run(["promtool", "check", "metrics"], input=exposition,
                              capture_output=True, text=True)
        check(lint.returncode == 0 and not lint.stdout.strip() and not lint.stderr.strip(),
              f"promtool check metrics reports no problem{which}: "
              f"{lint.stdout}{lint.stderr}".strip())

    # Every metric a dashboard panel queries is exposed (the PABO panels' by the PABO run).
    # Pyrrha's are not: fcswitch cannot run it alone (it predicts paths from fclab's routes);
    # tests/dpdk/pyrrha_outputs_test.cc checks them against a lab switch that runs it.
    families = exposition_families(text) | exposition_families(pabo_text)
    for name, panel in dashboard_metrics(os.path.join(source, "tools/grafana/fcswitch.json")).items():
        if name.startswith(PYRRHA_PREFIX):
            continue
        check(name in families, f"dashboard panel '{panel}' queries {name}, which is exposed")

    # Prometheus scraped us: counters moved by what the pcaps sent.
    api = f"http://127.0.0.1:{prom_port}/api/v1/query?query="

    def query(expr):
        answer = json.loads(http_get(api + urllib.parse.quote(expr)))
        return float(answer["data"]["result"][0]["value"][1])
    expected = {
        'fcswitch_rx_packets_total{port="p0"}': FRAMES_PER_INPUT,
        'fcswitch_admitted_bytes_total{port="p1",prio="3"}': sent_bytes,
        'fcswitch_tx_packets_total{port="p2",prio="3"}': 2 * FRAMES_PER_INPUT,
        'fcswitch_tx_bytes_total{port="p2",prio="3"}': 2 * sent_bytes,
        # Every data frame that left p2 was timed from its RX poll to its TX burst.
        'fcswitch_residence_seconds_count{port="p2"}': 2 * FRAMES_PER_INPUT,
        'fcswitch_tagger_rule_hits_total{rule="0"}': 2 * FRAMES_PER_INPUT,
        'sum(fcswitch_drops_total{port=~"p0|p1"})': 0,
    }
    for expr, want in expected.items():
        got = wait_until(f"Prometheus has scraped {expr} == {want}",
                         lambda: query(expr) == want and want + 1, 60)
        check(got is not None, f"Prometheus: {expr} == {want}")
    pauses = query('fcswitch_pause_frames_sent_total{port="p0",prio="3"}')
    check(pauses >= 1, f"Prometheus: p0 sent {pauses:.0f} pause frames (>= 1) for priority 3")
    # p2's queue went past K_min: ECT frames marked, Not-ECT ones chosen and passed on.
    scraped = {name: query(f'fcswitch_ecn_{name}_total{{port="p2",prio="3"}}')
               for name in ("marked", "not_ect", "ce_arrived")}
    check(scraped["marked"] >= 1 and scraped["not_ect"] >= 1 and scraped["ce_arrived"] == 0,
          f"Prometheus: p2 priority 3 ECN counters {scraped}")

    # DPDK telemetry reads the same counters.
    ports = telemetry(prefix, "/fcswitch/ports")
    check(ports["rx_packets"][ports["port"].index("p0")] == FRAMES_PER_INPUT,
          f"telemetry /fcswitch/ports: p0 rx_packets {ports['rx_packets']}")
    queues = telemetry(prefix, "/fcswitch/queues,p1")
    check(queues["admitted_packets"][3] == FRAMES_PER_INPUT,
          f"telemetry /fcswitch/queues,p1: priority 3 admitted {queues['admitted_packets'][3]}")
    fc = telemetry(prefix, "/fcswitch/fc,p0,3")
    check(fc["engine"] == "pfc" and fc["pause_frames_sent"] == pauses and fc["xoff_transitions"] >= 1,
          f"telemetry /fcswitch/fc,p0,3: {fc}")
    fc_all = telemetry(prefix, "/fcswitch/fc,obs,p2")
    check(fc_all["engine"] == ["pfc", "cbfc", "gfc-buffer", "gfc-time"],
          f"telemetry /fcswitch/fc,obs,p2 lists the engines: {fc_all.get('engine')}")
    samples = trace["samples"]
    trace = telemetry(prefix, "/fcswitch/trace")
    check(trace["recording"] == 0 and trace["samples"] == samples,
          f"telemetry /fcswitch/trace: stopped at {samples} samples: {trace}")
    return scraped


def check_ecn(scraped):
    """What left p2 against the report and the scrape: CE only on p1's ECT(0) frames, as many
    as the report's `marked`, every IPv4 checksum still right; nothing lost."""
    with open("report.json") as f:
        report = json.load(f)
    counters = next(p for p in report["ports"] if p["name"] == "p2")["ecn"]["3"]
    out = read_pcap("out2.pcap")
    data = [f for f in out if f[12:14] == b"\x08\x00"]
    ce = [f for f in data if f[15] & 3 == 3]
    check(len(data) == 2 * FRAMES_PER_INPUT, f"p2 sent {len(data)} data frames, none lost to ECN")
    check(all(f[6:12] == MAC["p1"] for f in ce), "only p1's ECT(0) frames were marked CE")
    check(all(f[15] & 3 == 0 for f in data if f[6:12] == MAC["p0"]),
          "p0's Not-ECT frames stay Not-ECT")
    check(all(ipv4_checksum(f[14:24] + b"\0\0" + f[26:34]) == struct.unpack("!H", f[24:26])[0]
              for f in data), "every IPv4 header checksum on p2 is right")
    check(len(ce) == counters["marked"] == scraped.get("marked"),
          f"p2 marked {len(ce)} frames CE; the report says {counters['marked']}, Prometheus "
          f"{scraped.get('marked')}")
    check(counters["not_ect"] == scraped.get("not_ect"),
          f"p2's not_ect: the report's {counters['not_ect']} is what Prometheus scraped "
          f"({scraped.get('not_ect')})")


def check_task_time():
    """Where the lcores' time went: per task its busy polls' TSC cycles and what it moved, RX's
    and TX's as the port counters give them; a task that moved packets took time doing so."""
    with open("report.json") as f:
        report = json.load(f)
    tasks = {t["name"]: t for t in report["tasks"]}
    check(report["tsc_hz"] > 0, f"the report gives the TSC rate ({report['tsc_hz']})")
    for port in report["ports"]:
        rx, tx = tasks[f"rx:{port['name']}"], tasks[f"tx:{port['name']}"]
        check(rx["packets"] == port["rx_packets"],
              f"rx:{port['name']} moved {rx['packets']}, the port received {port['rx_packets']}")
        sent = sum(port["tx_packets"]) + port["pfc_frames_sent"] + port["credit_frames_sent"]
        check(tx["packets"] == sent, f"tx:{port['name']} moved {tx['packets']}, the port sent {sent}")
    for name, t in tasks.items():
        if t["packets"]:
            check(t["busy_polls"] > 0 and t["busy_cycles"] > 0,
                  f"{name} moved {t['packets']} packets in {t['busy_polls']} busy polls, "
                  f"{t['busy_cycles']} cycles")
        if not t["busy_polls"]:
            check(t["busy_cycles"] == 0, f"{name}: no busy poll, {t['busy_cycles']} busy cycles")
    check(tasks["fwd"]["packets"] > 0, f"fwd moved {tasks['fwd']['packets']} packets")


def check_trace():
    with open("report.json") as f:
        report = json.load(f)
    port0 = next(p for p in report["ports"] if p["name"] == "p0")
    fc3 = port0["flow_control"]["3"]
    rows = []
    with open("trace.csv") as f:
        header = f.readline().strip().split(",")
        check(header == ["time_s", "node", "port", "prio", "ingress_bytes", "input_bps",
                         "pause_frames_sent", "fc_level"], f"trace columns {header}")
        for line in f:
            r = dict(zip(header, line.strip().split(",")))
            if r["port"] == "p0" and r["prio"] == "3":
                rows.append(r)
    check(len(rows) > 10, f"trace has {len(rows)} samples of p0 priority 3")
    if not rows:
        return
    occupancy = [int(r["ingress_bytes"]) for r in rows]
    pauses = [int(r["pause_frames_sent"]) for r in rows]
    levels = [int(r["fc_level"]) for r in rows]
    check(max(occupancy) >= XOFF, f"trace: p0's occupancy rose past XOFF (max {max(occupancy)})")
    check(any(float(r["input_bps"]) > 0 for r in rows), "trace: an input rate while the pcap played")
    # The first pause in the trace comes with the occupancy at XOFF: less only by what p2 can
    # drain in one sampling interval plus a frame, since the counter and the level were read.
    first = next((i for i, n in enumerate(pauses) if n > 0), None)
    check(first is not None, "trace: a pause frame counted")
    if first is not None:
        slack = DRAIN_BPS / 8 * TRACE_INTERVAL_S + FRAME_BYTES
        check(occupancy[first] >= XOFF - slack and levels[first] == 1,
              f"trace: first pause at {rows[first]['time_s']} s with occupancy "
              f"{occupancy[first]} (XOFF {XOFF}) and level {levels[first]}")
        check(first == 0 or occupancy[first - 1] < XOFF + slack,
              f"trace: the sample before the first pause was below XOFF ({occupancy[first - 1]})")
    check(pauses[-1] == fc3["pause_frames_sent"],
          f"trace ends with {pauses[-1]} pause frames, the report says {fc3['pause_frames_sent']}")
    check(levels[-1] == 0 and occupancy[-1] == 0, "trace ends drained, pause released")
    check(pauses == sorted(pauses), "trace: the pause count never goes back")


if __name__ == "__main__":
    sys.exit(main())

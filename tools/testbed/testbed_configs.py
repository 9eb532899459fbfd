"""Configs for fcswitch and fchost processes: the GFC ring (gfc_ring) of a testbed run, which
testbed_plan.py writes for the playbook — on one machine joined by net_memif (one socket per
cable: the rehearsal, tools/testbed_rehearsal.sh), or on the testbed's NICs — with the same ring
as an fclab scenario beside it (lab_ring); and the two- and three-process tests
(fchost_engines.py, link_flap.py, soak.py).

Every port is paced to its rate (emulate_wire: a memif has no wire of its own): LINK_RATE for
the tests of one bottleneck, RING_RATE for the rehearsal's six processes. Each worker sleeps
IDLE_SLEEP (RING_IDLE_SLEEP) when its tasks had nothing to do ([eal] idle_sleep), so a frame
or a pause waits for a wake-up. The engines' thresholds are the GFC testbed's (§6.1.1) in
bytes, B_m = 1 MB, with its times at each rate; every GFC bound is checked by fcswitch at
start. A memif ring of 64 slots (rsize=6) keeps what is in flight on a link to 97 KB."""

LINK_RATE = "1Gbps"
IDLE_SLEEP = "20us"
BUFFER = "1MB"

# The engines' halves, the same at both ends of every link: the GFC testbed's thresholds
# (§6.1.1: B_m = 1 MB, XOFF 600 KB, B_1 500 KB, B_0 600 KB, all in bytes) with its times at the
# link rate: τ (response_time) and T, CBFC's period and time-based GFC's, the time to send
# 65535 bytes (§6.1.1's 52.4 µs at 10 Gb/s). fcswitch checks every GFC bound at start.
FLOW_CONTROL = """[buffer]
lossless_ingress = "{buffer}"
[flow_control]
engine = "{engine}"
response_time = "{response_time}"
limiter_catch_up = "{catch_up}"
[flow_control.pfc]
xoff = "600KB"
xon = "590KB"
[flow_control.cbfc]
period = "{period}"
[flow_control.gfc-buffer]
b1 = "500KB"
[flow_control.gfc-time]
period = "{period}"
b0 = "600KB"
"""
# At 1 Gb/s (the two- and three-process tests): τ = 300 µs, T = 524 µs. GFC's bounds: B_1 ≤
# B_m − 2Cτ − (1+c)·F = 1000000 − 75000 − 51612 = 873388 bytes, the room below B_m holding a
# 1518-byte frame and the c = 33 TX committed past its gate (a burst of 32 and the one on the
# wire; the paper's bound, without it: B_m − 2Cτ = 925 KB); B_0 ≤ B_m − (√(τ/T)+1)²·C·T = 869 KB.
# The thresholds sit far below those bounds because a process here can lose its CPU for a few
# ms (measured: 2.7 ms) while frames keep arriving: buffer-based GFC's queue settles at B_3,
# and the room left above it must hold that.
TIMES_1G = {"response_time": "300us", "period": "524us", "catch_up": "200us"}


def memif(index, socket, role):
    return f"net_memif{index},role={role},socket={socket},socket-abstract=no,rsize=6"


def _eal(prefix, cpus, idle_sleep=IDLE_SLEEP, pci=()):
    """[eal]: without hugepages or PCI (memif cables), or, given the ports' `pci` addresses,
    on hugepages with those devices only (a testbed server)."""
    if pci:
        args = "".join(f'"-a", "{a}", ' for a in pci) + '"--no-telemetry", '
    else:
        args = '"--no-huge", "-m", "256", "--no-pci", "--no-telemetry", '
    lines = ["[eal]", f'args = [{args}"--log-level=warning", "--file-prefix={prefix}"]',
             f'idle_sleep = "{idle_sleep}"']
    if cpus:
        lines.append(f'cpus = "{cpus}"')
    return "\n".join(lines) + "\n"


def _metrics(port):
    return f'[metrics]\naddress = "127.0.0.1"\nport = {port}\n' if port else ""


def _flow_control(engine, buffer, times):
    """One engine on priority 3 (FLOW_CONTROL with B_m = `buffer` and `times`), or `engine` =
    (lossless priorities, the [buffer] and [flow_control] sections as TOML text) for anything
    else."""
    if isinstance(engine, tuple):
        return engine
    return [3], FLOW_CONTROL.format(buffer=buffer, engine=engine, **times)


def switch_model(queueing):
    """[switch] keys of a switch model: a queueing, or "input-hol-fair": input-hol with the
    fair crossbar (crossbar = "egress-round-robin"), the demo's second switch model."""
    if queueing == "input-hol-fair":
        return 'queueing = "input-hol"\ncrossbar = "egress-round-robin"\n'
    return f'queueing = "{queueing}"\n'


def _is_pci(device):
    """A PCI address (a testbed NIC, which is its own wire), not a vdev (memif: paced)."""
    return not device.startswith("net_")


def switch_toml(name, ports, fib, engine, prefix, metrics_port=None, cpus=None,
                queueing="output", buffer=BUFFER, rate=LINK_RATE, times=TIMES_1G,
                switch_keys="", extra="", idle_sleep=IDLE_SLEEP):
    """`ports`: [(name, device, {extra key: TOML value})]; `fib`: {mac: port name};
    `queueing`: as switch_model; `switch_keys`: more [switch] keys; `extra`: more TOML
    (sections after the ports')."""
    lossless, flow_control = _flow_control(engine, buffer, times)
    pci = [device for _, device, _ in ports if _is_pci(device)]
    out = [f'[switch]\nname = "{name}"\nlossless_priorities = {lossless}\nmbufs = 32767\n'
           f'mac_learning = false\n{switch_model(queueing)}{switch_keys}',
           _eal(prefix, cpus, idle_sleep, pci), flow_control]
    for port, device, keys in ports:
        out.append(f'[[ports]]\nname = "{port}"\ndevice = "{device}"\nrate = "{rate}"\n'
                   f'emulate_wire = {"false" if _is_pci(device) else "true"}\n' +
                   "".join(f"{k} = {v}\n" for k, v in keys.items()))
    for mac, port in fib.items():
        out.append(f'[[fib]]\nmac = "{mac}"\nport = "{port}"\n')
    out.append(_metrics(metrics_port))
    out.append(extra)
    return "\n".join(out)


def host_toml(name, ip, mac, device, engine, flows, prefix, metrics_port=None, cpus=None,
              buffer=BUFFER, rate=LINK_RATE, times=TIMES_1G, idle_sleep=IDLE_SLEEP, extra=""):
    """`flows`: [{key: TOML value}] as fchost's [[flows]] (host/host_program_config.h);
    `extra`: more TOML ([transport], [[receive]])."""
    lossless, flow_control = _flow_control(engine, buffer, times)
    pci = [device] if _is_pci(device) else []
    out = [f'[switch]\nname = "{name}"\nlossless_priorities = {lossless}\nmbufs = 8191\n',
           f'[host]\nip = "{ip}"\n', _eal(prefix, cpus, idle_sleep, pci), flow_control,
           f'[[ports]]\nname = "nic"\ndevice = "{device}"\nmac = "{mac}"\nrate = "{rate}"\n'
           f'emulate_wire = {"false" if pci else "true"}\n']
    for flow in flows:
        out.append("[[flows]]\n" + "".join(f"{k} = {v}\n" for k, v in flow.items()))
    out.append(_metrics(metrics_port))
    out.append(extra)
    return "\n".join(out)


# H1 → S → H2, the fchost tests' bottleneck (fchost_engines.py, link_flap.py): S's port to H2
# sends at 200 Mb/s, H1's flow leaves at its 1 Gb/s, so S holds H1 back with the engine.
BOTTLENECK_MACS = {"H1": "02:00:00:00:01:01", "H2": "02:00:00:00:02:01"}
BOTTLENECK_BPS = 200e6
# A bigger buffer than the ring's: buffer-based GFC settles between B_2 and B_3 here (200 Mb/s
# lies between C/4 and C/8), and the room above B_3 is (B_top − B_1)/4 + (1+c)·F, B_top = B_m −
# (1+c)·F the top of the stages (c = 33, F = 1518: 51 612 bytes). S forwards on two lcores:
# while its TX thread waits for a CPU, its RX thread admits what H1 sends at the stage's rate
# (250 Mb/s) with no stage going back. With B_m = 1 MB that room (164 KB; 125 KB in the paper's
# stages on B_m) holds 5 ms of it; with 2 MB (414 KB) it holds 13 ms.
BOTTLENECK_BUFFER = "2MB"


def bottleneck(run_dir, engine, prefix, flow_keys, receivers=("h2",), switch_extra="",
               host_extra=("", ""), bottleneck_bps=BOTTLENECK_BPS):
    """Writes s.toml, h1.toml (one flow to H2 at line rate, plus `flow_keys`: start, duration…)
    and one H2 config per name in `receivers` (each a process of its own, one at a time).
    `switch_extra`, `host_extra` (H1's, H2's): more TOML for S and the hosts; `bottleneck_bps`:
    S's rate to H2."""
    h1, h2 = BOTTLENECK_MACS["H1"], BOTTLENECK_MACS["H2"]
    s1, s2 = f"{run_dir}/h1.sock", f"{run_dir}/h2.sock"
    with open(f"{run_dir}/s.toml", "w") as f:
        f.write(switch_toml(
            "S", [("h1", memif(0, s1, "server"), {}),
                  ("h2", memif(1, s2, "server"), {"rate_limit": f"{int(bottleneck_bps)}"})],
            {h1: "h1", h2: "h2"}, engine, f"{prefix}_s", cpus="1,0", buffer=BOTTLENECK_BUFFER,
            extra=switch_extra))
    flow = {"id": 1, "to": '"H2"', "to_mac": f'"{h2}"', "to_ip": '"10.0.2.1"', "priority": 3,
            "rate": '"line"', **flow_keys}
    with open(f"{run_dir}/h1.toml", "w") as f:
        f.write(host_toml("H1", "10.0.1.1", h1, memif(0, s1, "client"), engine, [flow],
                          f"{prefix}_h1", buffer=BOTTLENECK_BUFFER, extra=host_extra[0]))
    for name in receivers:
        with open(f"{run_dir}/{name}.toml", "w") as f:
            f.write(host_toml("H2", "10.0.2.1", h2, memif(0, s2, "client"), engine, [],
                              f"{prefix}_{name}", buffer=BOTTLENECK_BUFFER,
                              extra=host_extra[1]))


def start(procs, args, log):
    """Starts `args` with its output to the file `log`, and appends it to `procs`."""
    import subprocess
    p = subprocess.Popen(args, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    procs.append(p)
    return p


def start_switch(procs, args, log):
    """start(), then wait_forwarding(): a switch whose memif servers are up."""
    p = start(procs, args, log)
    wait_forwarding(log, p)
    return p


def start_hosts_ready(procs, fchost, run_dir, names, extra=()):
    """Starts fchost for each of `names` (NAME.toml in `run_dir`, --start-at-file NAME.zero, its
    log NAME.log, `extra` arguments) and, once every one is ready, writes them one time zero
    0.3 s ahead: none starts late, and none waits longer than it must. Returns the processes and
    the time zero."""
    import os
    import time
    hosts = [start(procs, [fchost, f"{run_dir}/{n}.toml", "--start-at-file",
                           f"{run_dir}/{n}.zero", *extra(n)], f"{run_dir}/{n}.log")
             for n in names]
    deadline = time.time() + 30
    for n, p in zip(names, hosts):
        while "ready: waiting for time zero" not in open(f"{run_dir}/{n}.log").read():
            if time.time() > deadline or p.poll() is not None:
                raise RuntimeError(f"not ready: {run_dir}/{n}.log")
            time.sleep(0.01)
    zero = time.time() + 0.3
    for n in names:
        with open(f"{run_dir}/{n}.zero.new", "w") as f:
            f.write(f"{zero:.3f}\n")
        os.rename(f"{run_dir}/{n}.zero.new", f"{run_dir}/{n}.zero")
    return hosts, zero


def run_bottleneck(run_dir, fcswitch, fchost, seconds):
    """Runs the configs bottleneck() wrote in `run_dir`: S, then H2 and H1 from one time zero
    once both are ready (start_hosts_ready), each for `seconds`; S stops on SIGTERM once both
    have ended. Returns the exit codes of H2, H1 and S; S writes s.json, the hosts h1.json and
    h2.json."""
    import signal
    procs = []
    try:
        s = start_switch(procs, [fcswitch, f"{run_dir}/s.toml", "--report-json",
                                 f"{run_dir}/s.json"], f"{run_dir}/s.log")
        hosts, _ = start_hosts_ready(
            procs, fchost, run_dir, ("h2", "h1"),
            lambda n: ("--duration", f"{seconds}", "--summary", f"{run_dir}/{n}.json"))
        codes = [h.wait(timeout=60) for h in hosts]
        s.send_signal(signal.SIGTERM)
        codes.append(s.wait(timeout=30))
    finally:
        kill_unfinished(procs)
    return codes


def kill_unfinished(procs):
    """Kills and reaps each process of `procs` still running (a run that failed half-way)."""
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def wait_forwarding(log, proc, seconds=30):
    """Until the fcswitch writing `log` says it forwards: its memif servers are up. A client
    that finds no server exits, and one that connects while the server's port is still being
    set up may never get its link, so the socket file appearing is not enough."""
    import time
    deadline = time.time() + seconds
    while "forwarding on" not in open(log).read():
        if time.time() > deadline or proc.poll() is not None:
            raise RuntimeError(f"not forwarding: {log}")
        time.sleep(0.05)


# The GFC testbed's ring (§6.1, config/lab/gfc-ring.toml): S1, S2, S3 joined clockwise
# (cw → the next switch's ccw), one host on each (port h); each host sends to the host two
# switches away clockwise, so every ring link carries two flows and the three ring links form
# a cyclic buffer dependency.
RING_SWITCHES = ("S1", "S2", "S3")
RING_HOSTS = ("H1", "H2", "H3")
RING_FLOWS = ((0, 2), (1, 0), (2, 1))  # (from, to): H1 → H3, H2 → H1, H3 → H2
# Who serves each memif socket: a client cannot start before its server (it exits), so the
# servers form no cycle — S1 serves both its ring links, S3 serves none — and the switches
# start in order S1, S2, S3, then the hosts (clients of their switch's h).
RING_LINKS = (("S1", "cw", "S2", "ccw"),   # server first
              ("S2", "cw", "S3", "ccw"),
              ("S1", "ccw", "S3", "cw"))
# Two CPUs, six processes: three per CPU, so no CPU has two of a link's ends busy at once more
# than it must.
RING_CPUS = {"S1": "0", "S2": "1", "S3": "0", "H1": "1", "H2": "0", "H3": "1"}
RING_METRICS_PORT = {"S1": 9471, "S2": 9472, "S3": 9473, "H1": 9481, "H2": 9482, "H3": 9483}
# The rate this machine holds the ring at. Three processes a CPU, each sleeping when idle, wait
# for the CPU up to ~10 ms (CFS's slices: each switch's report gives its longest poll gap), so
# τ here is ~10 ms, not the testbed's 90 µs. At 100 Mb/s the GFC testbed's thresholds cover
# it: XOFF's headroom 400 KB ≥ Cτ = 125 KB; B_1 = 500 KB ≤ B_m − 2Cτ − (1+c)·F = 698 KB;
# B_0 = 600 KB ≤ B_m − (√(τ/T)+1)²·C·T = 629 KB with T = 5.243 ms (65535 bytes at 100 Mb/s).
# At 1 Gb/s they do not (Cτ = 1.25 MB), and frames are lost or the ring crawls for reasons
# the lab has not got.
RING_RATE = "100Mbps"
RING_BPS = 100e6
RING_TIMES = {"response_time": "10ms", "period": "5243us", "catch_up": "1ms"}
# A frame every 123 µs a port at most: workers that find nothing sleep 200 µs, not 20, so
# that six processes on two CPUs take less of them (and wait for them less: at 20 µs the
# flows ran 11 % below the lab's).
RING_IDLE_SLEEP = "200us"
# The output stage of the lab's switch model (config/lab/gfc-ring.toml: test-pipeline's TX
# ring of 128). With fcswitch's default (16384 frames, 24 MB) an input-hol switch never holds
# a frame at its input, and the fair crossbar's ring deadlocked where the lab's flows move at
# C/2.
RING_EGRESS_QUEUE_PACKETS = 128
# Each switch traces its ports' occupancy ([trace]) every RING_TRACE_INTERVAL: the host
# ingress's steady occupancy, as the lab's queues.csv gives it.
RING_TRACE_INTERVAL = "1ms"
# The lab's side of a memif cable: a wire of RING_RATE with (almost) no delay, and the c = 33
# frames TX commits past its gate (memif's burst of 32 and the one on the wire).
RING_LAB_DELAY = "10us"
RING_LAB_TX_FRAMES = 32


def ring_mac(host):
    return f"02:00:00:00:0{host + 1}:01"


# The GFC testbed itself (§6.1.1), for PCI cables: 10 Gb/s 82599 ports, τ = 90 µs measured,
# T = 52.4 µs (65535 bytes at 10 Gb/s), as config/testbed-82599.toml; no CPUs given (fcswitch
# spreads its workers over those it may use).
TESTBED_RATE = "10Gbps"
TESTBED_TIMES = {"response_time": "90us", "period": "52.4us", "catch_up": "200us"}


def gfc_ring(run_dir, engine, queueing="input-hol", prefix="fcring", links=RING_LINKS,
             pci=None, metrics_address="127.0.0.1"):
    """{name: TOML text} for the six processes of the ring in `run_dir`. Cables are memif
    sockets there, `links` saying who serves each ring link (server first); or, with `pci`
    {(machine, port): PCI address} for every port, the testbed's NICs at its rate and times."""
    sock = {}
    for a, pa, b, pb in links:
        sock[(a, pa)] = (f"{run_dir}/{a.lower()}{b.lower()}.sock", "server")
        sock[(b, pb)] = (f"{run_dir}/{a.lower()}{b.lower()}.sock", "client")
    rate, times, cpus, idle = ((TESTBED_RATE, TESTBED_TIMES, {}, "0s") if pci else
                               (RING_RATE, RING_TIMES, RING_CPUS, RING_IDLE_SLEEP))

    def device(machine, port, index):
        if pci:
            return pci[(machine, port)]
        path, role = sock[(machine, port)]
        return memif(index, path, role)
    configs = {}
    for i, name in enumerate(RING_SWITCHES):
        sock[(name, "h")] = (f"{run_dir}/{name.lower()}h.sock", "server")
        ports = [(port, device(name, port, index), {})
                 for index, port in enumerate(("h", "cw", "ccw"))]
        # Routes as the lab's ring: the own host on h, the others clockwise.
        fib = {ring_mac(h): ("h" if h == i else "cw") for h in range(3)}
        trace = (f'[trace]\ninterval = "{RING_TRACE_INTERVAL}"\nfile = "{run_dir}/{name.lower()}'
                 '_trace.csv"\nsamples = 65536\npriorities = [3]\n')
        configs[name] = switch_toml(
            name, ports, fib, engine, f"{prefix}_{name.lower()}", RING_METRICS_PORT[name],
            cpus.get(name), queueing, rate=rate, times=times,
            switch_keys=f"egress_queue_packets = {RING_EGRESS_QUEUE_PACKETS}\n", extra=trace,
            idle_sleep=idle)
    for i, name in enumerate(RING_HOSTS):
        flows = [{"id": i + 1, "to": f'"{RING_HOSTS[dst]}"', "to_mac": f'"{ring_mac(dst)}"',
                  "to_ip": f'"10.0.{dst + 1}.1"', "priority": 3, "rate": '"line"'}
                 for src, dst in RING_FLOWS if src == i]
        if pci:
            nic = pci[(name, "nic")]
        else:
            path, _ = sock[(RING_SWITCHES[i], "h")]
            nic = memif(0, path, "client")
        configs[name] = host_toml(name, f"10.0.{i + 1}.1", ring_mac(i), nic, engine, flows,
                                  f"{prefix}_{name.lower()}", RING_METRICS_PORT[name],
                                  cpus.get(name), rate=rate, times=times, idle_sleep=idle)
    if metrics_address != "127.0.0.1":
        for name in configs:
            configs[name] = configs[name].replace('address = "127.0.0.1"',
                                                  f'address = "{metrics_address}"')
    return configs


def lab_ring(engine, queueing, seconds):
    """The same ring as gfc_ring as one fclab scenario (TOML text): the same switch model,
    rates, buffers and engines' thresholds, `seconds` of virtual time; a deadlock, as the
    collector's, is a second with nothing moving."""
    lossless, flow_control = _flow_control(engine, BUFFER, RING_TIMES)
    out = [f'[lab]\nname = "gfc-ring-rehearsed"\nduration = "{seconds}s"\nclock = "virtual"\n'
           f'sample_interval = "{RING_TRACE_INTERVAL}"\ntx_ring_frames = {RING_LAB_TX_FRAMES}\n'
           'mbufs = 32767\n',
           '[deadlock]\nblocked_for = "1s"\ncheck_interval = "10ms"\n',
           f'[switch]\nlossless_priorities = {lossless}\nmac_learning = false\n'
           f'{switch_model(queueing)}egress_queue_packets = {RING_EGRESS_QUEUE_PACKETS}\n',
           flow_control]
    out += [f'[[hosts]]\nname = "{h}"\n' for h in RING_HOSTS]
    for i, name in enumerate(RING_SWITCHES):
        routes = ", ".join(f'{h} = "{"h" if j == i else "cw"}"' for j, h in enumerate(RING_HOSTS))
        out.append(f'[[switches]]\nname = "{name}"\n'
                   'ports = [{ name = "h" }, { name = "cw" }, { name = "ccw" }]\n'
                   f"routes = {{ {routes} }}\n")
    links = [(f"{a}:{pa}", f"{b}:{pb}") for a, pa, b, pb in RING_LINKS]
    links += [(h, f"{s}:h") for h, s in zip(RING_HOSTS, RING_SWITCHES)]
    for a, b in links:
        out.append(f'[[links]]\na = "{a}"\nb = "{b}"\nrate = "{RING_RATE}"\n'
                   f'delay = "{RING_LAB_DELAY}"\n')
    for src, dst in RING_FLOWS:
        out.append(f'[[flows]]\nfrom = "{RING_HOSTS[src]}"\nto = "{RING_HOSTS[dst]}"\n'
                   'priority = 3\n')
    return "\n".join(out)


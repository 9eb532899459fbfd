"""Configs for fcswitch and fchost processes on one machine, joined by net_memif (one socket
per link): the testbed rehearsal (tools/testbed_rehearsal.sh) and the fchost engine test
(tests/integration/fchost_engines.py).

Every port is paced to LINK_RATE (emulate_wire: a memif has no wire of its own). Up to six DPDK
processes share the 2-CPU machine, each worker sleeping IDLE_SLEEP when its tasks had nothing
to do ([eal] idle_sleep), so a frame or a pause waits for a wake-up — tens of µs, a few hundred
at worst. The engines' thresholds below are
the GFC testbed's (§6.1.1) at 1 Gb/s: B_m = 1 MB, response time 300 µs (measured here:
p99 ≈ 260 µs), every GFC bound checked by fcswitch at start. A memif ring of 64 slots
(rsize=6) keeps what is in flight on a link to 97 KB, as a short cable would."""

LINK_RATE = "1Gbps"
IDLE_SLEEP = "20us"
BUFFER = "1MB"

# The engines' halves, the same at both ends of every link. GFC's bounds at C = 1 Gb/s,
# τ = 300 µs: B_1 ≤ B_m − 2Cτ = 925 KB; B_0 ≤ B_m − (√(τ/T)+1)²·C·T = 869 KB with T = 524 µs,
# CBFC's period (the time to send 65535 bytes at 1 Gb/s, as §6.1.1's 52.4 µs at 10 Gb/s). The
# thresholds sit far below those bounds because a process here can lose its CPU for a few ms
# (measured: 2.7 ms) while frames keep arriving: buffer-based GFC's queue settles at B_3, and
# the room left above it must hold that.
FLOW_CONTROL = """[buffer]
lossless_ingress = "{buffer}"
[flow_control]
engine = "{engine}"
response_time = "300us"
limiter_catch_up = "200us"
[flow_control.pfc]
xoff = "600KB"
xon = "590KB"
[flow_control.cbfc]
period = "524us"
[flow_control.gfc-buffer]
b1 = "500KB"
[flow_control.gfc-time]
period = "524us"
b0 = "600KB"
"""


def memif(index, socket, role):
    return f"net_memif{index},role={role},socket={socket},socket-abstract=no,rsize=6"


def _eal(prefix, cpus):
    lines = ["[eal]",
             f'args = ["--no-huge", "-m", "256", "--no-pci", "--no-telemetry", '
             f'"--log-level=warning", "--file-prefix={prefix}"]',
             f'idle_sleep = "{IDLE_SLEEP}"']
    if cpus:
        lines.append(f'cpus = "{cpus}"')
    return "\n".join(lines) + "\n"


def _metrics(port):
    return f'[metrics]\naddress = "127.0.0.1"\nport = {port}\n' if port else ""


def switch_toml(name, ports, fib, engine, prefix, metrics_port=None, cpus=None,
                queueing="output"):
    """`ports`: [(name, device, {extra key: TOML value})]; `fib`: {mac: port name}."""
    out = [f'[switch]\nname = "{name}"\nlossless_priorities = [3]\nmbufs = 16383\n'
           f'mac_learning = false\nqueueing = "{queueing}"\n',
           _eal(prefix, cpus), FLOW_CONTROL.format(buffer=BUFFER, engine=engine)]
    for port, device, extra in ports:
        out.append(f'[[ports]]\nname = "{port}"\ndevice = "{device}"\nrate = "{LINK_RATE}"\n'
                   'emulate_wire = true\n' +
                   "".join(f"{k} = {v}\n" for k, v in extra.items()))
    for mac, port in fib.items():
        out.append(f'[[fib]]\nmac = "{mac}"\nport = "{port}"\n')
    out.append(_metrics(metrics_port))
    return "\n".join(out)


def host_toml(name, ip, mac, device, engine, flows, prefix, metrics_port=None, cpus=None):
    """`flows`: [{key: TOML value}] as fchost's [[flows]] (host/host_program_config.h)."""
    out = [f'[switch]\nname = "{name}"\nlossless_priorities = [3]\nmbufs = 8191\n',
           f'[host]\nip = "{ip}"\n', _eal(prefix, cpus),
           FLOW_CONTROL.format(buffer=BUFFER, engine=engine),
           f'[[ports]]\nname = "nic"\ndevice = "{device}"\nmac = "{mac}"\nrate = "{LINK_RATE}"\n'
           'emulate_wire = true\n']
    for flow in flows:
        out.append("[[flows]]\n" + "".join(f"{k} = {v}\n" for k, v in flow.items()))
    out.append(_metrics(metrics_port))
    return "\n".join(out)

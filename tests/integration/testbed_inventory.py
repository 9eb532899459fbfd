#!/usr/bin/env python3
"""The testbed's playbook refuses a bad inventory before it starts anything (testbed.sh run,
tools/testbed/testbed_plan.py): a port named twice, a cable to a port that is not there, a port
cabled twice, a host with no route to its flow's destination, memif and NIC cables mixed, a
memif cable between two machines — each said with the inventory's name for it, exit 2 and no
config written; a machine that cannot be reached — exit 1, that machine named, and no process
started anywhere. `check`
passes on the rehearsal's inventory, with `fcswitch selftest --links` on all six nodes: every
port heard every probe of its peer's, and was heard. The GFC testbed's example inventory gives
configs that fcswitch and fchost accept (--check), the check's selftest configs included.

usage: testbed_inventory.py SOURCE_DIR FCSWITCH FCHOST WORK_DIR
"""
import os
import pathlib
import shutil
import subprocess
import sys

from script_checks import Checks

source, fcswitch, fchost, work = (pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3],
                                  pathlib.Path(sys.argv[4]))
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
testbed = source / "tools" / "testbed"
REHEARSAL = (testbed / "inventory" / "rehearsal.yml").read_text()
checks = Checks()
check = checks.expect


def run(name, inventory_text):
    """testbed.sh run gfc-ring on `inventory_text`: (exit code, output, the run's folder)."""
    inventory = work / f"{name}.yml"
    inventory.write_text(inventory_text)
    out = work / name
    env = dict(os.environ, FCSWITCH=fcswitch, FCHOST=fchost, ANSIBLE_TIMEOUT="5")
    done = subprocess.run([testbed / "testbed.sh", "-i", inventory, "run", "gfc-ring", "--seconds",
                           "2", "--out", out], capture_output=True, text=True, timeout=120,
                          env=env)
    return done.returncode, done.stdout + done.stderr, out


refused = {
    "port_twice": (REHEARSAL.replace("S2: {fc_ports: {h: memif,",
                                     "S2: {fc_ports: {h: memif, h: memif,"), "h is given twice"),
    "no_such_port": (REHEARSAL.replace("- S1:cw - S2:ccw", "- S1:cx - S2:ccw"),
                     'fc_cables[0] "S1:cx - S2:ccw": S1 has no port cx (its fc_ports: h, cw, ccw)'),
    "cabled_twice": (REHEARSAL.replace("- S3:h - H3:nic", "- S3:h - H3:nic\n      - S3:h - H2:nic"),
                     "S3:h is cabled twice (also fc_cables[5])"),
    "no_route": (REHEARSAL.replace("      - S2:h - H2:nic\n", ""),
                 "H2 has no route to H1 (its flow's destination): gfc-ring needs a cable "
                 "H2:nic - S2:h"),
    "mixed_cables": (REHEARSAL.replace("S1: {fc_ports: {h: memif,",
                                       "S1: {fc_ports: {h: 0000:03:00.0,")
                     .replace("H1: {fc_ports: {nic: memif}}",
                              "H1: {fc_ports: {nic: 0000:04:00.0}}"),
                     "the cables are all memif (one machine: the rehearsal) or all NICs (a "
                     "testbed), not some of each"),
    "memif_between_machines": (REHEARSAL.replace("S3: {fc_ports:",
                                                 "S3: {ansible_connection: ssh, ansible_host: "
                                                 "192.0.2.1, fc_ports:"),
                               "a memif cable is a socket inside one machine: S2 and S3 are on "
                               "local and 192.0.2.1"),
    "ini": ("[switches]\nS1 ansible_host=192.0.2.1\n",
            "expected Ansible's YAML inventory (all: vars: …, children: switches/fchosts/monitor: "
            "hosts: …); an INI inventory is not read"),
    "monitor_elsewhere": (REHEARSAL.replace("M: {}", "M: {ansible_connection: ssh, ansible_host: "
                                                       "192.0.2.1}"),
                          "S1 runs on this machine (ansible_connection local) and the monitor M "
                          "on another, which could not scrape it: give S1 its ansible_host"),
}
for name, (text, message) in refused.items():
    code, output, out = run(name, text)
    check(code == 2 and message in output,
          f"{name}: expected exit 2 and \"{message}\", found exit {code}: {output[-600:]}")
    check(not out.exists() or not list(out.glob("*.toml")),
          f"{name}: configs were written for a refused inventory ({out})")

# S1 on a machine that cannot be reached (TEST-NET-1, RFC 5737); its NICs' PCI addresses are
# examples. The run stops before anything starts, and says which machine.
unreachable = (testbed / "inventory" / "gfc-testbed.yml").read_text().replace(
    "S2: {ansible_host: 192.0.2.12,", "S2: {ansible_connection: local,").replace(
    "ansible_user: root", "ansible_user: root\n    ansible_ssh_common_args: -o ConnectTimeout=3")
for host in ("S3", "H1", "H2", "H3", "M"):
    unreachable = unreachable.replace(f"{host}: {{ansible_host: ", f"{host}: {{ansible_connection: "
                                      "local, fc_was: ")
code, output, out = run("unreachable", unreachable)
check(code == 1 and "S1" in output and "UNREACHABLE" in output,
      f"unreachable: expected exit 1 naming S1 unreachable, found exit {code}: {output[-800:]}")
check(not list(out.glob("*.pid")), f"unreachable: processes were started ({out})")

# `check` on the rehearsal's inventory: the machine answers, the binaries are there, Prometheus
# on the monitor (memif cables need no NIC bound and no hugepages), and each node's selftest
# --links passed on every port of it, both ways.
done = subprocess.run([testbed / "testbed.sh", "-i", testbed / "inventory" / "rehearsal.yml",
                       "check", "--out", work / "check"], capture_output=True, text=True,
                      timeout=120, env=dict(os.environ, FCSWITCH=fcswitch, FCHOST=fchost))
check(done.returncode == 0, f"check on rehearsal.yml failed: {done.stdout[-800:]}{done.stderr}")
for node, ports in (("s1", 3), ("s2", 3), ("s3", 3), ("h1", 1), ("h2", 1), ("h3", 1)):
    log = work / "check" / f"{node}_links.log"
    text = log.read_text() if log.exists() else ""
    check(text.count("heard by its peer: yes") == ports and text.count(" 8 of 8") == 3 * ports
          and text.rstrip().endswith("passed"),
          f"check: {node}'s selftest --links did not pass on its {ports} port(s): {text[-600:]}")

# A group's vars are its hosts' unless a host says otherwise (Ansible's precedence): the hosts'
# ports given once, for the group.
grouped = work / "grouped.yml"
grouped.write_text(REHEARSAL.replace(
    "    fchosts:\n      hosts:\n        H1: {fc_ports: {nic: memif}}\n"
    "        H2: {fc_ports: {nic: memif}}\n        H3: {fc_ports: {nic: memif}}\n",
    "    fchosts:\n      vars: {fc_ports: {nic: memif}}\n      hosts: {H1: {}, H2: {}, H3: {}}\n"))
check("vars: {fc_ports" in grouped.read_text(), "grouped.yml: the rehearsal's inventory changed")
plan = subprocess.run([sys.executable, testbed / "testbed_plan.py", grouped, work / "grouped",
                       "gfc-ring", "pfc", "input-hol", "2"], capture_output=True, text=True)
check(plan.returncode == 0 and (work / "grouped" / "h2.toml").exists(),
      f"an inventory with its hosts' ports in the group's vars refused: {plan.stderr}")

# The GFC testbed's inventory: every config it gives passes fcswitch's and fchost's --check.
plan = subprocess.run([sys.executable, testbed / "testbed_plan.py",
                       testbed / "inventory" / "gfc-testbed.yml", work / "gfc-testbed",
                       "gfc-ring", "gfc-buffer", "input-hol", "10"], capture_output=True, text=True)
check(plan.returncode == 0, f"gfc-testbed.yml refused: {plan.stderr}")
links = subprocess.run([sys.executable, testbed / "testbed_plan.py", "links",
                        testbed / "inventory" / "gfc-testbed.yml", work / "gfc-testbed"],
                       capture_output=True, text=True)
check(links.returncode == 0, f"gfc-testbed.yml's links refused: {links.stderr}")
link_configs = sorted((work / "gfc-testbed").glob("[sh][0-9]_links.toml"))
check(len(link_configs) == 6, f"gfc-testbed.yml: {len(link_configs)} selftest configs, not 6")
for config in link_configs:
    done = subprocess.run([fcswitch, config, "--check"], capture_output=True, text=True)
    check(done.returncode == 0, f"{config.name}: {done.stdout}{done.stderr}")
for config in sorted((work / "gfc-testbed").glob("[sh][0-9].toml")):
    binary = fcswitch if config.name.startswith("s") else fchost
    done = subprocess.run([binary, config, "--check"], capture_output=True, text=True)
    check(done.returncode == 0, f"{config.name}: {done.stdout}{done.stderr}")
    check('"-a", "0000:03:00.0"' in config.read_text(), f"{config.name}: no PCI allow list")
checks.finish()

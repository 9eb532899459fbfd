# shellcheck shell=bash
# OVS-DPDK for the benchmarks, sourced (not run): Debian's openvswitch-switch-dpdk (OVS 3.1 on
# DPDK 22.11) run by the calling script, in a directory of its own, on vdevs, without
# hugepages unless told otherwise (ovs_start's MEMORY). Nothing goes to /etc/openvswitch,
# /var/lib/openvswitch, /var/run/openvswitch or /var/log/openvswitch: ovsdb-server and ovs-vswitchd get their database, sockets, pid files
# and logs in OVS_DIR (OVS_RUNDIR and friends, and explicit --pidfile/--unixctl/--log-file),
# and are children of the calling shell, so it waits for them to end. The system's
# openvswitch-switch service is never started, and stopped if installing the package did.
#
#   ovs_install                      installs the package if missing (a bench-only dependency)
#   ovs_start DIR PREFIX PMD_MASK [MEMORY]
#                                    ovsdb-server + ovs-vswitchd-dpdk, DPDK with file prefix
#                                    PREFIX, one PMD thread per bit of PMD_MASK; MEMORY: its
#                                    EAL memory options (default: without hugepages, below)
#   ovs_bridge BR DEVARGS1 DEVARGS2  a netdev bridge, two dpdk ports: OpenFlow ports 1 and 2
#   ovs_normal BR MAC                the NORMAL action (L2 learning), MAC static on port 2
#   ovs_one_rule BR                  one OpenFlow rule instead: in_port=1 actions=output:2
#   ovs_tx_packets BR PORT           the port's tx packets (the PMD's own count, read live)
#   ovs_stop                         both daemons told to exit and waited for (the datapath
#                                    and its taps go), the DPDK runtime directory removed
#
# Needs: bash, set -u safe. Every function returns non-zero on failure; ovs_stop never fails.

ovs_vswitchd_bin=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
ovs_schema=/usr/share/openvswitch/vswitch.ovsschema
OVS_DIR=
ovs_prefix=
ovs_db_pid=
ovs_switchd_pid=
ovs_taps=()  # taps ovs-vswitchd makes (the netdev datapath's, each bridge's LOCAL port)

# The DPDK build of ovs-vswitchd is called by its path: `update-alternatives` would change the
# system's /usr/sbin/ovs-vswitchd for everyone.
ovs_install() {
  [ -x "$ovs_vswitchd_bin" ] && command -v ovsdb-server > /dev/null && return 0
  echo "installing openvswitch-switch-dpdk (OVS-DPDK, for the comparison)" >&2
  local had_rundir=no sudo_cmd=()
  [ -e /var/run/openvswitch ] && had_rundir=yes
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  local install=("${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
    --no-install-recommends openvswitch-switch-dpdk)
  if ! "${install[@]}" > /dev/null; then
    "${sudo_cmd[@]}" apt-get update -qq && "${install[@]}" > /dev/null || return 1
  fi
  # Where a policy-rc.d does not forbid it, the package's postinst starts the system's switch
  # (with the non-DPDK ovs-vswitchd, its database in /etc/openvswitch): stop it again.
  if [ -e /var/run/openvswitch/ovs-vswitchd.pid ] || [ -e /var/run/openvswitch/ovsdb-server.pid ]; then
    echo "apt-get started the system's openvswitch-switch service: stopping it again" >&2
    if [ -d /run/systemd/system ]; then
      "${sudo_cmd[@]}" systemctl stop openvswitch-switch ovs-vswitchd ovsdb-server || true
    else
      "${sudo_cmd[@]}" /usr/share/openvswitch/scripts/ovs-ctl stop || true
    fi
    [ "$had_rundir" = yes ] || "${sudo_cmd[@]}" rm -rf /var/run/openvswitch
  fi
  [ -x "$ovs_vswitchd_bin" ]
}

ovs_vsctl() { ovs-vsctl --db="unix:$OVS_DIR/db.sock" --timeout=60 "$@"; }
ovs_appctl() { ovs-appctl -t "$OVS_DIR/ovs-vswitchd.ctl" "$@"; }

ovs_start() {  # dir, DPDK file prefix, PMD CPU mask[, EAL memory options]
  OVS_DIR=$1
  ovs_prefix=$2
  mkdir -p "$OVS_DIR"
  # The netdev datapath's own tap: ours to remove in ovs_stop only if no other OVS has it.
  ip link show dev ovs-netdev > /dev/null 2>&1 || ovs_taps+=(ovs-netdev)
  # ovs-ofctl finds a bridge's OpenFlow socket (BR.mgmt) in OVS_RUNDIR; the others keep the
  # tools off the system's directories should any path below be left out.
  export OVS_RUNDIR=$OVS_DIR OVS_DBDIR=$OVS_DIR OVS_LOGDIR=$OVS_DIR OVS_SYSCONFDIR=$OVS_DIR
  ovsdb-tool create "$OVS_DIR/conf.db" "$ovs_schema" || return 1
  ovsdb-server "$OVS_DIR/conf.db" --remote="punix:$OVS_DIR/db.sock" \
    --pidfile="$OVS_DIR/ovsdb-server.pid" --unixctl="$OVS_DIR/ovsdb-server.ctl" \
    --log-file="$OVS_DIR/ovsdb-server.log" > "$OVS_DIR/ovsdb-server.out" 2>&1 &
  ovs_db_pid=$!
  # --retry: wait for the server's socket (bounded by --timeout) instead of a sleep.
  ovs_vsctl --retry --no-wait init || return 1
  # Without hugepages: --no-huge takes -m MB of ordinary memory. --legacy-mem is what makes
  # it start: without it OVS 3.1 adds --in-memory, which DPDK 22.11 refuses beside --no-huge
  # ("Option --legacy-mem is not compatible with --in-memory": --no-huge implies legacy
  # memory). So DPDK keeps a runtime directory under the file prefix: ovs_stop removes it.
  # OVS adds -l itself (its main thread's core); its PMD threads come from pmd-cpu-mask.
  ovs_vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
    "other_config:dpdk-extra=${4:---no-huge -m 1024 --legacy-mem} --no-pci --no-telemetry --file-prefix=$ovs_prefix --log-level=warning" \
    "other_config:pmd-cpu-mask=$3" || return 1
  "$ovs_vswitchd_bin" "unix:$OVS_DIR/db.sock" --pidfile="$OVS_DIR/ovs-vswitchd.pid" \
    --unixctl="$OVS_DIR/ovs-vswitchd.ctl" --log-file="$OVS_DIR/ovs-vswitchd.log" \
    > "$OVS_DIR/ovs-vswitchd.out" 2>&1 &
  ovs_switchd_pid=$!
  # Up once DPDK is initialised; a failed rte_eal_init ends ovs-vswitchd (see its log).
  local tenths=600
  until [ "$(ovs_vsctl get Open_vSwitch . dpdk_initialized)" = true ]; do
    if [ "$tenths" -eq 0 ] || ! kill -0 "$ovs_switchd_pid" 2> /dev/null; then
      echo "OVS: ovs-vswitchd did not initialise DPDK: $(tail -3 "$OVS_DIR/ovs-vswitchd.log")" >&2
      return 1
    fi
    sleep 0.1
    tenths=$((tenths - 1))
  done
}

ovs_bridge() {  # bridge, devargs of OpenFlow port 1, of port 2
  ovs_taps+=("$1")
  # Without --no-wait, add-br returns once ovs-vswitchd has configured the ports (each probed
  # as a DPDK vdev); a port that failed has ofport -1.
  ovs_vsctl add-br "$1" -- set bridge "$1" datapath_type=netdev \
    -- add-port "$1" "$1-p1" -- set Interface "$1-p1" type=dpdk "options:dpdk-devargs=$2" \
    ofport_request=1 \
    -- add-port "$1" "$1-p2" -- set Interface "$1-p2" type=dpdk "options:dpdk-devargs=$3" \
    ofport_request=2 || return 1
  local p
  for p in p1 p2; do
    if [ "$(ovs_vsctl get Interface "$1-$p" ofport)" = -1 ]; then
      echo "OVS: port $1-$p did not come up: $(ovs_vsctl get Interface "$1-$p" error)" >&2
      return 1
    fi
  done
}

# After a table change the datapath's flows are flushed: the revalidator would keep a cached
# megaflow whose actions are still right, and the case would run on the previous one's match.
ovs_normal() {  # bridge, destination MAC behind port 2
  ovs-ofctl del-flows "$1" && ovs-ofctl add-flow "$1" "priority=0,actions=NORMAL" &&
    ovs_appctl fdb/add "$1" "$1-p2" 0 "$2" > /dev/null && ovs_appctl dpctl/del-flows > /dev/null
}

ovs_one_rule() {  # bridge
  ovs-ofctl del-flows "$1" && ovs-ofctl add-flow "$1" "in_port=1,actions=output:2" &&
    ovs_appctl dpctl/del-flows > /dev/null
}

ovs_tx_packets() {  # bridge, OpenFlow port
  ovs-ofctl dump-ports "$1" "$2" | sed -n 's/.*tx pkts=\([0-9]*\).*/\1/p'
}

# Waits up to $2 seconds for process $1 (a child) to end; kills it after that.
ovs_reap() {
  local pid=$1 tenths=$(($2 * 10))
  [ -n "$pid" ] || return 0
  while kill -0 "$pid" 2> /dev/null && [ "$tenths" -gt 0 ]; do
    sleep 0.1
    tenths=$((tenths - 1))
  done
  kill -0 "$pid" 2> /dev/null && kill -KILL "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null || true
}

ovs_stop() {
  [ -n "$OVS_DIR" ] || return 0
  local tap
  # --cleanup: the datapath goes with its ports, the taps among them.
  [ -z "$ovs_switchd_pid" ] || ovs_appctl exit --cleanup > /dev/null 2>&1 || true
  ovs_reap "$ovs_switchd_pid" 10
  [ -z "$ovs_db_pid" ] || ovs-appctl -t "$OVS_DIR/ovsdb-server.ctl" exit > /dev/null 2>&1 || true
  ovs_reap "$ovs_db_pid" 5
  # A killed ovs-vswitchd leaves its taps behind.
  for tap in "${ovs_taps[@]}"; do
    ! ip link show dev "$tap" > /dev/null 2>&1 || ip link delete dev "$tap" || true
  done
  # DPDK 22.11 leaves its runtime directory (lock and mp socket) when the process ends.
  [ -z "$ovs_prefix" ] || rm -rf "/var/run/dpdk/$ovs_prefix"
  ovs_taps=()
  ovs_db_pid=
  ovs_switchd_pid=
  OVS_DIR=
}

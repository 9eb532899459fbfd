#!/usr/bin/env bash
# Bad input around memif links (issue 17): a second server on a socket already served, and a
# client (fchost) whose server is not running, each refused with a message that says so, a
# non-zero exit and nothing left behind (DPDK runtime directory); the first server unharmed.
# Usage: memif_bad_input.sh FCSWITCH FCHOST
set -uo pipefail
fcswitch=$1 fchost=$2
work=$(mktemp -d)
failed=0
server=
cleanup() {
  [ -n "$server" ] && kill -TERM "$server" 2> /dev/null && wait "$server"
  rm -rf "$work" /var/run/dpdk/fcmemif_bad_$$_*
}
trap cleanup EXIT
switch_config() {  # name, socket
  cat <<EOT
[switch]
name = "$1"
mbufs = 4095
[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--no-telemetry", "--file-prefix=fcmemif_bad_$$_$1"]
idle_sleep = "100us"
[[ports]]
name = "link"
device = "net_memif0,role=server,socket=$2,socket-abstract=no"
[[ports]]
name = "other"
device = "net_null0,no-rx=1"
EOT
}
switch_config a "$work/x.sock" > "$work/a.toml"
switch_config b "$work/x.sock" > "$work/b.toml"
cat > "$work/h.toml" <<EOT
[switch]
name = "h"
mbufs = 4095
[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--no-telemetry", "--file-prefix=fcmemif_bad_$$_h"]
[host]
ip = "10.0.0.1"
[[ports]]
name = "nic"
device = "net_memif0,role=client,socket=$work/nobody.sock,socket-abstract=no"
EOT

expect_refusal() {  # what, log, exit code, text the log must hold, prefix
  if [ "$3" = 0 ]; then
    echo "FAIL: $1 exited 0"; failed=1
  elif ! grep -qF "$4" "$2"; then
    echo "FAIL: $1: no \"$4\" in its output:"; cat "$2"; failed=1
  else
    echo "ok: $1 refused (exit $3): $(grep -F "$4" "$2" | head -1 | cut -c1-160)"
  fi
  if [ -e "/var/run/dpdk/$5" ]; then
    echo "FAIL: $1 left /var/run/dpdk/$5"; failed=1
  fi
}

"$fcswitch" "$work/a.toml" > "$work/a.log" 2>&1 &
server=$!
for _ in $(seq 200); do [ -S "$work/x.sock" ] && break; sleep 0.05; done
[ -S "$work/x.sock" ] || { echo "FAIL: the first server did not listen"; cat "$work/a.log"; exit 1; }

timeout 60 "$fcswitch" "$work/b.toml" --duration 1 > "$work/b.log" 2>&1
expect_refusal "a second server on the same socket" "$work/b.log" $? "already in use" \
  "fcmemif_bad_$$_b"

timeout 60 "$fchost" "$work/h.toml" --duration 1 > "$work/h.log" 2>&1
expect_refusal "fchost, a client with no server" "$work/h.log" $? \
  "a memif client needs its server first" "fcmemif_bad_$$_h"

# The first server is unharmed: it stops on SIGTERM with its report and exit 0.
kill -TERM "$server"
wait "$server"
code=$?
server=
if [ "$code" != 0 ] || ! grep -q "mempool: 0 of" "$work/a.log"; then
  echo "FAIL: the first server exited $code after the refusals:"; cat "$work/a.log"; failed=1
else
  echo "ok: the first server ran on and stopped cleanly"
fi
[ -e "$work/x.sock" ] && { echo "FAIL: the socket file stayed"; failed=1; }
exit $failed

#!/usr/bin/env bash
# One switch forwarding a mixed pcap through four net_pcap ports (the first demo): installs,
# builds, replays the pcap and prints the counters.
# Output (pcaps, report.json) goes to ${OUT:-out/pcap-demo}.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
out=${OUT:-out/pcap-demo}
rm -rf "$out"
mkdir -p "$out"
build/tools/fcswitch-demo-traffic "$out"
fcswitch=$PWD/build/app/fcswitch  # OUT may be any path, relative or absolute
cp config/demo-pcap.toml "$out/switch.toml"
cd "$out"
"$fcswitch" switch.toml --exit-on-idle 300 --report-json report.json
echo "output pcaps and report.json in $out"

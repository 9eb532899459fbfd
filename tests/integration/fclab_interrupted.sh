#!/usr/bin/env bash
# SIGINT or SIGTERM to fclab mid-run: the run stops where it is, summary.json says so
# (interrupted, the simulated time reached) with every frame accounted for, the sweep's later
# runs do not start, and the exit status is 128 + the signal. It used to die with nothing
# written. Usage: fclab_interrupted.sh FCLAB SOURCE_ROOT
set -uo pipefail
fclab=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for sig in INT TERM; do
  out="$work/$sig"
  # Long enough never to end by itself here; progress lines into the pipe say it is running.
  coproc LAB { exec "$fclab" "$root/config/lab/gfc-ring.toml" --out "$out" --no-plots \
      --progress-every 0.2 --set lab.duration=60s \
      --sweep flow_control.engine=pfc,gfc-buffer 2>&1 >/dev/null; }
  pid=$LAB_PID
  started=no
  while IFS= read -r -t 120 line <&"${LAB[0]}"; do
    if [[ $line == *"simulated ms"* ]]; then started=yes; break; fi
  done
  kill -s "$sig" "$pid"
  cat <&"${LAB[0]}" > /dev/null 2>&1 || true
  wait "$pid"
  status=$?
  want=$((128 + $(kill -l "$sig")))
  summary="$out/pfc/summary.json"
  if [ "$started" = yes ] && [ "$status" -eq "$want" ] && [ -f "$summary" ] &&
     [ ! -e "$out/gfc-buffer" ] &&
     python3 - "$summary" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["conservation"]
ok = (s["interrupted"] is True and 0 < s["duration_s"] < 60
      and c["generated"] == c["received"] + c["dropped"] + c["in_flight"])
sys.exit(0 if ok else 1)
PY
  then
    echo "ok: SIG$sig: exit $status, summary.json interrupted and balanced, no later run"
  else
    echo "FAIL: SIG$sig: started=$started exit $status (want $want); $(ls "$out" 2>&1)"
    [ -f "$summary" ] && head -c 400 "$summary"
    failed=1
  fi
done
exit $failed

"""One fclab run for the lab tests: the scenario with --set overrides into `out`, quiet, its
summary.json returned. Fails (CalledProcessError) if fclab does."""
import json
import subprocess


def run_fclab(fclab, scenario, out, *sets, plots=True):
    args = [fclab, str(scenario), "--out", str(out), "--quiet"]
    if not plots:
        args.append("--no-plots")
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.loads((out / "summary.json").read_text())


#!/usr/bin/env bash
# Runs one line of a sweep's runs.txt (tools/sweep/plan.py) as one task of a Slurm job array:
# Slurm schedules and spreads the runs; this script only says which line is which task.
#
# Submit (from the source tree, on a file system the compute nodes share):
#   sbatch --array=1-$(wc -l < DIR/runs.txt) tools/sweep/slurm_array.sh DIR/runs.txt
# Task i runs line i; in a 0-based array (--array=0-<N-1>) task i runs line i+1. At most 64
# at once: --array=1-N%64. runs.txt holds absolute paths: every node must see them.
#
# Resources per task: one run of fclab is one process on one core (the lab polls everything on
# lcore 0), its EAL memory without hugepages (fclab's -m 2048 default: up to 2 GB, of which the
# GFC ring touches ≈ 230 MB). The GFC ring at its 60 ms default takes under 1 s of wall time;
# the limit below is for larger networks; give --time or --mem on the sbatch line to change it.
#
# Output: each run writes DIR/runs/<id>/ (summary.json, queues.csv, flows.csv), as named in
# runs.txt; fclab's own stdout and stderr go to slurm-<job>_<task>.out in the submit folder.
# Then: tools/sweep/collect.py DIR (a failed task leaves no summary.json and is reported).
#SBATCH --job-name=fclab-sweep
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=00:30:00
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail

runs=${1:?usage: sbatch --array=1-N tools/sweep/slurm_array.sh DIR/runs.txt}
task=${SLURM_ARRAY_TASK_ID:?not a Slurm array task (submit with sbatch --array=1-N)}
# A 0-based array (its lowest index is 0) runs line index+1; a 1-based one, line index.
line=$task
[ "${SLURM_ARRAY_TASK_MIN:-1}" -ne 0 ] || line=$((task + 1))
command=$(sed -n "${line}p" "$runs")
[ -n "$command" ] || { echo "slurm_array.sh: $runs has no line $line (task $task)" >&2; exit 2; }
echo "task $task, line $line: $command"
exec bash -c "$command"

"""Runs a command that must refuse: it exits with exactly EXPECTED_CODE (a crash, a signal or
another code fails) and its output (stdout and stderr) matches PATTERN (a regular
expression), so a refusal for another reason fails too. Prints the output either way.

  expect_exit.py EXPECTED_CODE PATTERN COMMAND [ARG...]
"""
import re
import subprocess
import sys

if len(sys.argv) < 4:
    sys.exit(__doc__)
expected, pattern, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                     timeout=120)
print(run.stdout, end="")
failures = []
if run.returncode != expected:
    died = f" (signal {-run.returncode})" if run.returncode < 0 else ""
    failures.append(f"exit code {run.returncode}{died}, expected {expected}")
if not re.search(pattern, run.stdout, re.MULTILINE):
    failures.append(f"no line matches {pattern!r}")
for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)

"""What the integration scripts share: running a command with its output shown, and checks
that print ok/FAIL and are counted (failures lists the failed ones)."""

import subprocess
import sys


class Checks:
    def __init__(self):
        self.failures = []

    @staticmethod
    def run(command, **kw):
        print("$", " ".join(command), flush=True)
        proc = subprocess.run(command, capture_output=True, text=True, **kw)
        sys.stdout.write(proc.stdout)
        sys.stdout.write(proc.stderr)
        return proc

    def expect(self, condition, what):
        print(("ok: " if condition else "FAIL: ") + what, flush=True)
        if not condition:
            self.failures.append(what)

    def finish(self):
        """Prints the verdict and exits 1 if any check failed."""
        print(f"{len(self.failures)} failed" if self.failures else "all passed")
        sys.exit(1 if self.failures else 0)

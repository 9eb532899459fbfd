#!/usr/bin/env python3
"""Each test file of a GoogleTest binary as its own meson test.

    gtest_suites.py filters FILE...      prints "NAME FILTER" a line for each FILE: its file
                                         name and the --gtest_filter of its suites (one call
                                         for a binary's files: meson runs it at setup)
    gtest_suites.py check BINARY FILE... fails naming every suite of BINARY that no FILE
                                         declares, every suite two FILEs declare and every
                                         FILE without a suite (so none runs twice or never)
"""
import pathlib
import re
import subprocess
import sys

SUITE = re.compile(r"^\s*(?:TEST|TEST_F|TEST_P|TYPED_TEST)\(\s*([A-Za-z0-9_]+)\s*,", re.M)
INSTANTIATED = re.compile(r"^\s*INSTANTIATE_TEST_SUITE_P\(\s*([A-Za-z0-9_]+)\s*,\s*([A-Za-z0-9_]+)", re.M)


def suites(path: str) -> list[str]:
    text = pathlib.Path(path).read_text()
    found = set(SUITE.findall(text))
    # A parameterised suite runs as PREFIX/Suite.
    for prefix, suite in INSTANTIATED.findall(text):
        found.discard(suite)
        found.add(f"{prefix}/{suite}")
    return sorted(found)


def binary_suites(binary: str) -> set[str]:
    listing = subprocess.run([binary, "--gtest_list_tests"], capture_output=True, text=True,
                             check=True).stdout
    return {line[:-1] for line in listing.splitlines() if line and not line.startswith(" ")
            and line.endswith(".")}


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "filters":
        for path in sys.argv[2:]:
            names = suites(path)
            if not names:
                print(f"{path}: no TEST in it", file=sys.stderr)
                return 1
            print(pathlib.Path(path).name, ":".join(f"{name}.*" for name in names))
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "check":
        problems = []
        owner: dict[str, str] = {}
        for path in sys.argv[3:]:
            names = suites(path)
            if not names:
                problems.append(f"{path}: declares no suite")
            for name in names:
                if name in owner:
                    problems.append(f"suite {name} in both {owner[name]} and {path}")
                owner[name] = path
        for name in sorted(binary_suites(sys.argv[2]) - owner.keys()):
            problems.append(f"{sys.argv[2]}: suite {name} is in no registered file (it never runs)")
        for problem in problems:
            print(problem)
        if not problems:
            print(f"{len(owner)} suites in {len(sys.argv) - 3} files, each registered once")
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

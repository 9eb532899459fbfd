#!/usr/bin/env python3
"""The reference pages under docs/reference/ say what the code and the programs do.

  docs_reference_check.py SOURCE_DIR FCSWITCH FCLAB FCHOST TAGGER_GEN [--write-programs]

Fails (exit 1, naming each problem) when
  (a) a key of config/reference.toml (every key of every table, read with tomllib) has no row
      in docs/reference/config.md's table for that TOML table (a `### [table]` heading under
      `## fcswitch`, the key in backticks in the table's first column);
  (b) a metric family the code defines has no row in docs/reference/metrics.md, or the page
      lists an fcswitch_/fchost_ family no code defines. The families are the string
      literals of `out.add("…")`/`add_histogram("…")` in lib/metrics/*.cc and
      lib/host/host_metrics.cc, and of the family argument of the counter tables' `counter(…)`
      and `gauge(…)` in lib/fc and lib/node (the metric catalogue's tables). Every
      "fcswitch_…" literal of those files must be one the patterns read: a family declared
      some other way fails the check instead of being missed;
  (c) a program's `--help` differs from its block on docs/reference/programs.md (a unified diff
      and the command that rewrites the blocks are printed).
--write-programs rewrites programs.md's blocks from the programs' output first.
Exit 0 with a one-line count when everything agrees.
"""

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

CONFIG_PAGE = Path("docs/reference/config.md")
METRICS_PAGE = Path("docs/reference/metrics.md")
PROGRAMS_PAGE = Path("docs/reference/programs.md")
REFERENCE_TOML = Path("config/reference.toml")

# ---------------------------------------------------------------------------------------------
# (a) config/reference.toml against config.md

# Keys whose value is a table of the user's own keys (codes, queues, tags), not a TOML table of
# the schema: documented as one key.
MAP_VALUED_KEYS = {"dscp_to_priority", "pcp_to_priority", "weights", "tags"}


def toml_table_keys(document):
    """{table name: [keys]} for every table holding a key that is not itself a table. Names are
    dotted TOML paths with each numeric part as N (flow_control.priority.N); an array of tables
    is named as its tables (ports, ports.scheduler)."""
    tables = {}

    def walk(table, path):
        for key, value in table.items():
            if isinstance(value, dict) and key not in MAP_VALUED_KEYS:
                walk(value, f"{path}.{key}" if path else key)
            elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                for item in value:
                    walk(item, f"{path}.{key}" if path else key)
            else:
                keys = tables.setdefault(re.sub(r"(?<=\.)\d+(?=\.|$)", "N", path), [])
                if key not in keys:
                    keys.append(key)

    walk(document, "")
    return tables


def table_candidates(table):
    """The headings whose rows may hold `table`'s keys, most specific first: a port's
    flow_control takes [flow_control]'s keys, a priority's engine table the engine's, a port's
    ecn [ecn]'s (config.md says so at those headings)."""
    names = [table]
    name = table
    if name.startswith("ports.flow_control"):
        name = "flow_control" + name[len("ports.flow_control"):]
        names.append(name)
    engine = re.fullmatch(r"flow_control\.priority\.N\.(.+)", name)
    if engine:
        names.append("flow_control." + engine.group(1))
    if name == "ports.ecn":
        names.append("ecn")
    return names


HEADING = re.compile(r"^###\s+`?\[\[?([A-Za-z0-9_.\-]+)\]\]?")
FIRST_CELL = re.compile(r"^\|([^|]*)\|")
CODE = re.compile(r"`([^`]+)`")


def documented_keys(page_text, section):
    """{table name: set of keys} from the `### [table]` headings of the `## SECTION` part."""
    tables = {}
    current = None
    inside = False
    for line in page_text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip().lower().startswith(section)
            current = None
            continue
        if not inside:
            continue
        if line.startswith("#"):
            heading = HEADING.match(line)
            current = tables.setdefault(heading.group(1), set()) if heading else None
            continue
        cell = FIRST_CELL.match(line)
        if current is not None and cell:
            current.update(CODE.findall(cell.group(1)))
    return tables


def check_config(source, problems):
    with open(source / REFERENCE_TOML, "rb") as f:
        wanted = toml_table_keys(tomllib.load(f))
    documented = documented_keys((source / CONFIG_PAGE).read_text(encoding="utf-8"), "fcswitch")
    count = 0
    for table, keys in wanted.items():
        candidates = table_candidates(table)
        headings = [c for c in candidates if c in documented]
        for key in keys:
            count += 1
            if any(key in documented[h] for h in headings):
                continue
            where = (
                " or ".join(f'"### [{h}]"' for h in headings)
                if headings
                else f'"### [{candidates[-1]}]" (no such heading under "## fcswitch")'
            )
            problems.append(
                f"{CONFIG_PAGE}: key `{key}` of [{table}] ({REFERENCE_TOML}) has no row under "
                f"{where}"
            )
    return count, len(wanted)


# ---------------------------------------------------------------------------------------------
# (b) metric families against metrics.md

LITERAL = r'"((?:fcswitch|fchost)_[a-z0-9_]+)"'
# A family added to a scrape by name: out.add("fcswitch_…", …), out.add_histogram("…", …).
ADDED = re.compile(r"\badd(?:_histogram)?\(\s*" + LITERAL)
# A counter table's entry: counter("name", "fcswitch_…", "help"), fc::gauge(name, "…", …).
DECLARED = re.compile(
    r"\b(?:fc::)?(?:counter|gauge)\(\s*(?:\"[a-z0-9_]*\"|[A-Za-z_]\w*)\s*,\s*" + LITERAL
)
ANY_LITERAL = re.compile(LITERAL)
# Comments out, string literals kept (a "//" in a string is not a comment).
COMMENT_OR_STRING = re.compile(r'("(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])\')|//[^\n]*|/\*.*?\*/',
                               re.S)


def strip_comments(code):
    def keep(m):
        if m.group(1):
            return m.group(1)
        return re.sub(r"[^\n]", " ", m.group(0))

    return COMMENT_OR_STRING.sub(keep, code)


def families_in(code):
    """(families the patterns read, literals they did not) of one C++ file's text."""
    code = strip_comments(code)
    found = set(ADDED.findall(code)) | set(DECLARED.findall(code))
    return found, set(ANY_LITERAL.findall(code)) - found


def self_test_patterns(problems):
    """The patterns against code written as the tree writes it, and against what they must
    not take; a case they get wrong is a problem."""
    cases = [
        ('out.add("fcswitch_rx_packets_total", C, "Frames", at_port, 1);',
         {"fcswitch_rx_packets_total"}, set()),
        ('out.add_histogram(\n    "fcswitch_residence_seconds",\n    "Time", at, b, n, s);',
         {"fcswitch_residence_seconds"}, set()),
        ('out.add("fchost_flow_sent_bytes_total", C, "Frame bytes", at_flow, v);',
         {"fchost_flow_sent_bytes_total"}, set()),
        ('counter("xoff_transitions", "fcswitch_pfc_xoff_transitions_total",\n  "Times");',
         {"fcswitch_pfc_xoff_transitions_total"}, set()),
        ('fc::counter("blocked_ns",\n    "fcswitch_blocked_seconds_total", "Time", u)',
         {"fcswitch_blocked_seconds_total"}, set()),
        ('return {fc::gauge(name, "fcswitch_pyrrha_iqs",\n "Isolation queues"), "iqs"};',
         {"fcswitch_pyrrha_iqs"}, set()),
        ('// counter("a", "fcswitch_commented_out_total", "x")\n/* out.add("fcswitch_b") */',
         set(), set()),
        ('const char* u = "http://h//p"; counter("a", "fcswitch_after_url_total", "h");',
         {"fcswitch_after_url_total"}, set()),
        ("char q = '\"'; counter(\"a\", \"fcswitch_after_quote_total\", \"h\");  // \"fcswitch_c\"",
         {"fcswitch_after_quote_total"}, set()),
        ('rte_mbuf_dynfield_register("fcswitch_packet_meta");', set(), {"fcswitch_packet_meta"}),
        ('constexpr auto kName = "fcswitch_named_elsewhere_total";', set(),
         {"fcswitch_named_elsewhere_total"}),
        ('counter("x", "fcswitch_…", "…")', set(), set()),
    ]
    for code, families, unread in cases:
        got = families_in(code)
        if got != (families, unread):
            problems.append(f"tests/docs_reference_check.py: the patterns read {code!r} as "
                            f"{got}, not {(families, unread)}")


def code_families(source, problems):
    files = sorted((source / "lib/metrics").glob("*.cc")) + [source / "lib/host/host_metrics.cc"]
    for folder in ("lib/fc", "lib/node"):
        files += sorted((source / folder).glob("*.h")) + sorted((source / folder).glob("*.cc"))
    families = set()
    for path in files:
        found, unread = families_in(path.read_text(encoding="utf-8"))
        families |= found
        for literal in sorted(unread):
            problems.append(
                f"{path.relative_to(source)}: \"{literal}\" is neither an out.add(…) name nor "
                "the family of a counter(…)/gauge(…) table entry: declare it as those are, or "
                "teach tests/docs_reference_check.py its form"
            )
    return families


def check_metrics(source, problems):
    self_test_patterns(problems)
    families = code_families(source, problems)
    page = (source / METRICS_PAGE).read_text(encoding="utf-8")
    listed = set()
    for line in page.splitlines():
        cell = FIRST_CELL.match(line)
        if cell:
            listed.update(n for n in CODE.findall(cell.group(1))
                          if re.fullmatch(r"(?:fcswitch|fchost)_[a-z0-9_]+", n))
    for family in sorted(families - listed):
        problems.append(f"{METRICS_PAGE}: metric family `{family}` has no row")
    for family in sorted(listed - families):
        problems.append(f"{METRICS_PAGE}: `{family}` has a row but no code defines it")
    return len(families)


# ---------------------------------------------------------------------------------------------
# (c) --help against programs.md

# Each block's command, as the page shows it; build/app/NAME runs the binary given for NAME.
HELP_COMMANDS = [
    "build/app/fcswitch --help",
    "build/app/fcswitch selftest --help",
    "build/app/fcswitch gfc-params --help",
    "build/app/fclab --help",
    "build/app/fchost --help",
    "build/app/tagger-gen --help",
    "build/app/tagger-gen verify --help",
]
BLOCK = re.compile(r"^<!-- generated: (?P<command>[^>]*?) -->\n```text\n(?P<body>.*?)^```$",
                   re.M | re.S)
# tagger-gen's --threads default is the machine's core count.
MACHINE_DEPENDENT = [(re.compile(r"(--threads INT=)\d+"), r"\1N")]


def tidy(text):
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def comparable(lines):
    out = []
    for line in lines:
        for pattern, replacement in MACHINE_DEPENDENT:
            line = pattern.sub(replacement, line)
        out.append(line)
    return out


def run_help(command, binaries, source):
    """The command's output, run as the page writes it (argv[0] build/app/NAME) from the
    source folder, whatever path the binary has; None (with the problem) if it fails."""
    argv = command.split()
    binary = binaries[argv[0].rsplit("/", 1)[-1]]
    try:
        done = subprocess.run(argv, executable=binary, cwd=source, capture_output=True,
                              text=True, timeout=60, env={**os.environ, "LC_ALL": "C"})
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"`{command}` ({binary}) did not run: {error}"
    if done.returncode != 0:
        return None, (f"`{command}` ({binary}) exited {done.returncode}: "
                      f"{(done.stderr or done.stdout).strip()[:400]}")
    return tidy(done.stdout), None


def check_programs(source, binaries, write, regenerate, problems):
    path = source / PROGRAMS_PAGE
    page = path.read_text(encoding="utf-8")
    blocks = {m.group("command"): m for m in BLOCK.finditer(page)}
    for command in blocks:
        if command not in HELP_COMMANDS:
            problems.append(f"{PROGRAMS_PAGE}: a block for `{command}`, which the check does not "
                            "run (HELP_COMMANDS in tests/docs_reference_check.py)")
    outputs = {}
    for command in HELP_COMMANDS:
        if command not in blocks:
            problems.append(f"{PROGRAMS_PAGE}: no block for `{command}` "
                            f"(a line `<!-- generated: {command} -->` before a ```text block)")
            continue
        output, problem = run_help(command, binaries, source)
        if problem:
            problems.append(problem)
            continue
        outputs[command] = output
    if write and outputs:
        def replace(m):
            command = m.group("command")
            if command not in outputs:
                return m.group(0)
            body = "".join(line + "\n" for line in outputs[command])
            return f"<!-- generated: {command} -->\n```text\n{body}```"
        page = BLOCK.sub(replace, page)
        path.write_text(page, encoding="utf-8")
        blocks = {m.group("command"): m for m in BLOCK.finditer(page)}
    differing = 0
    for command, output in outputs.items():
        shown = tidy(blocks[command].group("body"))
        if comparable(shown) == comparable(output):
            continue
        differing += 1
        diff = difflib.unified_diff(shown, output, f"{PROGRAMS_PAGE} ({command})",
                                    f"{command} (now)", lineterm="")
        problems.append(f"{PROGRAMS_PAGE}: the block of `{command}` differs from its output:\n"
                        + "\n".join(diff))
    if differing:
        problems.append(f"rewrite the blocks with: {regenerate}")
    return len(outputs)


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source_dir")
    parser.add_argument("fcswitch")
    parser.add_argument("fclab")
    parser.add_argument("fchost")
    parser.add_argument("tagger_gen")
    parser.add_argument("--write-programs", action="store_true",
                        help="rewrite programs.md's --help blocks from the programs first")
    args = parser.parse_args()
    source = Path(args.source_dir).resolve()
    binaries = {"fcswitch": str(Path(args.fcswitch).resolve()),
                "fclab": str(Path(args.fclab).resolve()),
                "fchost": str(Path(args.fchost).resolve()),
                "tagger-gen": str(Path(args.tagger_gen).resolve())}
    regenerate = " ".join(shlex.quote(a) for a in
                          ["python3", sys.argv[0], args.source_dir, args.fcswitch, args.fclab,
                           args.fchost, args.tagger_gen, "--write-programs"])
    problems = []
    keys, tables = check_config(source, problems)
    families = check_metrics(source, problems)
    helps = check_programs(source, binaries, args.write_programs, regenerate, problems)
    if problems:
        for problem in problems:
            print(f"FAIL: {problem}")
        print(f"docs reference: {len(problems)} problem(s)")
        return 1
    print(f"docs reference: {keys} keys of {tables} tables of {REFERENCE_TOML}, {families} metric "
          f"families and {helps} --help outputs are as docs/reference/ says"
          + (" (programs.md rewritten)" if args.write_programs else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

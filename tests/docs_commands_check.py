#!/usr/bin/env python3
"""Every command the documentation shows for our programs and scripts can still be run as
written, checked cheaply (no experiment is run).

  docs_commands_check.py SOURCE_DIR BUILD_DIR [--page PAGE.md]...

Reads the fenced code blocks of README.md and docs/**/*.md (or only the --page files given)
and takes each command line (backslash continuations joined, comments dropped, split at |,
&&, ||, ;, & and parentheses) whose command is
  - build/app/fcswitch, fclab, fchost or tagger-gen (run from BUILD_DIR/app/),
  - build/tools/NAME (BUILD_DIR/tools/NAME),
  - a script under tools/ or tests/ (SOURCE_DIR), or
  - `meson test -C build ...`,
also behind environment assignments and bash, python3, /usr/bin/python3, sudo, time, nice,
timeout, valgrind or sbatch. Usage synopses (`[--check] [--out DIR]`) count too: their
brackets and | are read as spaces. For each it checks that
  - the program or script exists;
  - every option it uses (before a bare `--`: EAL options are DPDK's) is one the program's
    `--help` lists (with a subcommand's: `fcswitch gfc-params --help`, `tagger-gen verify
    --help`), or, for a script, one its own text names (its usage comment, its argument
    parser); the environment variables set in front of a script are named in it too;
  - every repository path it names (config/…, tests/…, tools/…, docs/…, lib/…, app/…, with
    an extension) exists;
  - fclab with a scenario of the repository: `fclab SCENARIO <the same --set/--sweep> --check`
    exits 0; fcswitch and fchost with a config of the repository: `PROGRAM CONFIG --check`;
  - meson test: every test name and --suite exists in BUILD_DIR's test list
    (meson-info/intro-tests.json; nothing is rebuilt).
Placeholders (SCENARIO.toml, DIR, $d/s.toml) and files the reader writes (s1.toml) are not
looked for. Prints each command checked; exits 1 naming page:line and what is wrong, 2 on bad
arguments. Runs in a few seconds: the --check runs go two at a time.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

PROGRAMS = ("fcswitch", "fclab", "fchost", "tagger-gen")
SUBCOMMANDS = {"fcswitch": ("selftest", "gfc-params"), "tagger-gen": ("verify",)}
WRAPPERS = {"bash", "sh", "python3", "/usr/bin/python3", "sudo", "time", "nice", "exec"}
# Wrappers with options of their own before the command (timeout: and its duration).
OPTION_WRAPPERS = {"valgrind", "sbatch", "timeout"}
SHELL_LANGS = {"", "sh", "bash", "shell", "console", "text"}
SEPARATORS = {"|", "||", "&&", ";", "&", "(", ")", "((", "))", ";;"}
REDIRECTIONS = {">", ">>", "<", ">&", "&>", "<<", "<&", ">|"}
REPO_DIRS = ("config/", "tests/", "tools/", "docs/", "lib/", "app/")
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
CHECK_TIMEOUT_S = 20


class Command:
    def __init__(self, page, line, text, kind, program, args, env):
        self.page = page  # path relative to SOURCE_DIR
        self.line = line  # 1-based line of the command's first line
        self.text = text  # the command as the page shows it (continuations joined)
        self.kind = kind  # "app", "bench", "script", "meson"
        self.program = program  # the token as written
        self.args = args  # tokens after it
        self.env = env  # names assigned in front of it

    def where(self):
        return f"{self.page}:{self.line}"


def code_lines(path):
    """(line number, text) of each line of the page's fenced shell or text blocks, with
    backslash continuations joined onto the first line."""
    out = []
    fence = None
    lang = ""
    pending = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = raw.strip()
        marker = re.match(r"^(`{3,}|~{3,})\s*([\w+-]*)", stripped)
        if fence is None:
            if marker:
                fence, lang = marker.group(1), marker.group(2).lower()
            continue
        if stripped.startswith(fence) and stripped.strip("`~") == "":
            if pending:
                out.append(pending)
            fence, pending = None, None
            continue
        if lang not in SHELL_LANGS:
            continue
        if pending:
            pending = (pending[0], pending[1] + " " + stripped)
        else:
            pending = (number, stripped)
        if pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1].rstrip())
        else:
            out.append(pending)
            pending = None
    return out


def tokens_of(text):
    """Shell words of a line, separators and redirections as tokens of their own. A usage
    synopsis (`[--opt]`, `a|b`) is read as words. None where the line is not shell (an
    unbalanced quote in an output line)."""
    synopsis = re.search(r"(^|\s)\[-{1,2}[A-Za-z]", text) is not None
    if synopsis:
        text = re.sub(r"\.\.\.|…", " ", text)
        text = re.sub(r"[\[\]|]", " ", text)
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=not synopsis)
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:
        return None


def segments(tokens):
    """Split at separators; drop redirections and their targets (and a descriptor number
    right before a redirection)."""
    current = []
    skip_next = False
    for i, token in enumerate(tokens):
        if skip_next:
            skip_next = False
            continue
        if token in SEPARATORS:
            if current:
                yield current
            current = []
            continue
        if token in REDIRECTIONS:
            if current and current[-1].isdigit():
                current.pop()
            skip_next = True
            continue
        current.append(token)
    if current:
        yield current


def classify(token):
    """The kind of command a token is, or None."""
    if re.fullmatch(r"(\./)?build/app/(" + "|".join(map(re.escape, PROGRAMS)) + ")", token):
        return "app"
    if re.fullmatch(r"(\./)?build/tools/[\w.-]+", token):
        return "bench"
    if re.fullmatch(r"(\./)?(tools|tests)/[\w./-]+\.(sh|py)", token):
        return "script"
    return None


def find_commands(source, page):
    commands = []
    for number, text in code_lines(source / page):
        tokens = tokens_of(text)
        if not tokens:
            continue
        for segment in segments(tokens):
            env = []
            i = 0
            while i < len(segment):
                token = segment[i]
                if ENV_ASSIGNMENT.match(token):
                    env.append(token.split("=", 1)[0])
                    i += 1
                elif token in WRAPPERS:
                    i += 1
                elif token in OPTION_WRAPPERS:
                    wrapper = token
                    i += 1
                    while i < len(segment) and segment[i].startswith("-"):
                        i += 1
                    if wrapper == "timeout" and i < len(segment):
                        i += 1  # the duration
                else:
                    break
            if i >= len(segment):
                continue
            head = segment[i]
            kind = classify(head)
            if kind:
                commands.append(Command(page, number, text, kind, head, segment[i + 1:], env))
            elif head == "meson" and segment[i + 1:i + 2] == ["test"]:
                commands.append(Command(page, number, text, "meson", "meson test",
                                        segment[i + 2:], env))
    return commands


def options_in(args):
    """The options a command uses: --long (before =) and -x short ones, up to a bare --."""
    found = []
    for arg in args:
        if arg == "--":
            break
        if re.fullmatch(r"--[A-Za-z][\w-]*(=.*)?", arg, re.S):
            found.append(arg.split("=", 1)[0])
        elif re.fullmatch(r"-[A-Za-z]", arg):
            found.append(arg)
    return found


def repo_paths(args):
    """Arguments (or --opt=VALUE values) that name a file of the repository."""
    paths = []
    for arg in args:
        if arg == "--":
            break
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        value = re.sub(r"^lua_script:", "", value)
        if (value.startswith(REPO_DIRS) and re.search(r"\.\w+$", value)
                and not re.search(r"[$*?{}<>]", value)):
            paths.append(value)
    return paths


def named_in(option, text):
    return re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", text) is not None


class Checker:
    def __init__(self, source, build):
        self.source = source
        self.build = build
        self.help_cache = {}
        self.tests = None

    def help_text(self, argv):
        key = tuple(argv)
        if key not in self.help_cache:
            try:
                done = subprocess.run(argv + ["--help"], capture_output=True, text=True,
                                      timeout=CHECK_TIMEOUT_S)
                self.help_cache[key] = done.stdout + done.stderr if done.returncode == 0 else None
            except (OSError, subprocess.TimeoutExpired):
                self.help_cache[key] = None
        return self.help_cache[key]

    def meson_tests(self):
        if self.tests is None:
            intro = self.build / "meson-info" / "intro-tests.json"
            try:
                data = json.loads(intro.read_text())
                self.tests = ({t["name"] for t in data},
                              {s.split(":", 1)[-1] for t in data for s in t["suite"]})
            except (OSError, ValueError, KeyError):
                self.tests = (None, None)
        return self.tests

    def check_paths(self, command, problems):
        for path in repo_paths(command.args):
            if not (self.source / path).exists():
                problems.append(f"{path}: no such file in the repository")

    def check_app(self, command, problems, later):
        name = command.program.rsplit("/", 1)[1]
        binary = self.build / "app" / name
        if not os.access(binary, os.X_OK):
            problems.append(f"{binary}: no such program")
            return
        positionals = [a for a in command.args if not a.startswith("-")]
        sub = next((a for a in command.args if a in SUBCOMMANDS.get(name, ())), None)
        help_text = self.help_text([str(binary)])
        if help_text is None:
            problems.append(f"{name} --help failed")
            return
        if sub:
            sub_help = self.help_text([str(binary), sub])
            if sub_help is None:
                problems.append(f"{name} {sub} --help failed")
                return
            help_text += sub_help
        for option in options_in(command.args):
            if not named_in(option, help_text):
                problems.append(f"{option}: not an option of {name}"
                                + (f" {sub}" if sub else "") + " (its --help)")
        self.check_paths(command, problems)
        # The scenario or config: the first .toml positional that is a file of the repository.
        config = next((a for a in positionals if a.endswith(".toml") and a.startswith(REPO_DIRS)
                       and (self.source / a).is_file()), None)
        if config is None or problems:
            return
        if name == "fclab":
            argv = [str(binary), str(self.source / config)]
            args = command.args
            for i, arg in enumerate(args):
                if arg == "--":
                    break
                if arg in ("--set", "--sweep") and i + 1 < len(args):
                    argv += [arg, args[i + 1]]
                elif arg.startswith(("--set=", "--sweep=")):
                    argv.append(arg)
            later.append((argv + ["--check"], "fclab " + config + " … --check"))
        elif name in ("fcswitch", "fchost"):
            later.append(([str(binary), str(self.source / config), "--check"],
                          f"{name} {config} --check"))

    def check_bench(self, command, problems):
        binary = self.build / "tools" / command.program.rsplit("/", 1)[1]
        if not os.access(binary, os.X_OK):
            # Not built (meson test builds only what tests depend on): a target of
            # tools/meson.build is enough, its options are not checked.
            declared = (self.source / "tools" / "meson.build").read_text(encoding="utf-8")
            if f"executable('{binary.name}'" not in declared:
                problems.append(f"{binary}: no such program, nor a target of tools/meson.build")
            return
        options = options_in(command.args)
        if options:  # only Google Benchmark binaries take options; their --help lists them
            help_text = self.help_text([str(binary)]) or ""
            for option in options:
                if not named_in(option, help_text):
                    problems.append(f"{option}: not an option of {binary.name} (its --help)")

    def check_script(self, command, problems):
        script = self.source / re.sub(r"^\./", "", command.program)
        if not script.is_file():
            problems.append(f"{command.program}: no such script")
            return
        text = script.read_text(encoding="utf-8", errors="replace")
        for option in options_in(command.args):
            if not named_in(option, text):
                problems.append(f"{option}: not an option of {command.program} (its usage text)")
        for variable in command.env:
            if not re.search(r"\b" + re.escape(variable) + r"\b", text):
                problems.append(f"{variable}=: {command.program} does not read it")
        self.check_paths(command, problems)

    def check_meson(self, command, problems):
        names, suites = self.meson_tests()
        if names is None:
            problems.append(f"no test list in {self.build}/meson-info/intro-tests.json")
            return
        args = command.args
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in ("-C", "--suite", "--no-suite", "--setup", "--repeat", "--num-processes",
                       "--timeout-multiplier", "--wrapper", "--test-args", "--logbase"):
                value = args[i + 1] if i + 1 < len(args) else ""
                if arg in ("--suite", "--no-suite") and value.split(":", 1)[-1] not in suites:
                    problems.append(f"--suite {value}: no such suite in {self.build}")
                i += 2
                continue
            if not arg.startswith("-") and arg not in names:
                problems.append(f"{arg}: no such test in {self.build}")
            i += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source_dir", type=Path)
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--page", action="append", type=Path, default=[],
                        help="check only these Markdown files (a path, relative to SOURCE_DIR "
                             "or not), e.g. a deliberately broken copy")
    options = parser.parse_args()
    source = options.source_dir.resolve()
    build = options.build_dir.resolve()
    if options.page:
        pages = [p if p.is_absolute() else Path.cwd() / p for p in options.page]
        pages = [Path(os.path.relpath(p.resolve(), source)) for p in pages]
    else:
        pages = [Path("README.md")] + sorted(p.relative_to(source)
                                             for p in (source / "docs").rglob("*.md"))
    checker = Checker(source, build)
    failures = []
    checked = 0
    pending = []  # (command, argv, label) of --check runs
    for page in pages:
        for command in find_commands(source, page):
            problems = []
            later = []
            if command.kind == "app":
                checker.check_app(command, problems, later)
            elif command.kind == "bench":
                checker.check_bench(command, problems)
            elif command.kind == "script":
                checker.check_script(command, problems)
            else:
                checker.check_meson(command, problems)
            checked += 1
            first = command.text.split()[0]
            shown = command.text if command.kind == "meson" or first == command.program or first in \
                WRAPPERS else f"{command.text}  ({command.program})"
            print(f"{command.where()}: {shown}" + ("" if problems else "  [ok]"))
            for problem in problems:
                failures.append(f"{command.where()}: {problem}\n    {command.text}")
                print(f"    FAIL: {problem}")
            pending += [(command, argv, label) for argv, label in later]

    def run_check(item):
        command, argv, label = item
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=CHECK_TIMEOUT_S,
                                  cwd=source)
        except subprocess.TimeoutExpired:
            return item, f"{label}: no answer in {CHECK_TIMEOUT_S} s"
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
            return item, f"{label} exits {done.returncode}: " + " / ".join(said)
        return item, None

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for (command, argv, label), problem in pool.map(run_check, pending):
            print(f"{command.where()}: {label}" + (f"\n    FAIL: {problem}" if problem else
                                                   "  [ok]"))
            if problem:
                failures.append(f"{command.where()}: {problem}\n    {command.text}")

    if failures:
        print(f"\n{len(failures)} problem(s) in the documentation's commands:", file=sys.stderr)
        for failure in failures:
            print(failure, file=sys.stderr)
        return 1
    if checked == 0:
        print("no command found: wrong SOURCE_DIR?", file=sys.stderr)
        return 1
    print(f"{checked} commands and {len(pending)} --check runs of {len(pages)} pages: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs every shell block of README.md as written (CI step `readme`).

The fence convention
--------------------
A fenced block whose info string starts with `sh`, `bash`, `shell` or
`console` is a shell block, and runs, in README order, under
`bash -e -o pipefail` (so a failing command fails the block). A block that
cannot run in CI says so in its info string, with the reason beside it:

    ```sh no-run: the embedded step runs it (QEMU)

It is counted and listed, not run; `no-run` without a reason fails the
test. A `console` block is a session: its `$ ` lines are the commands,
run one after the other (a command may fail, as a session shows it:
`echo $?` prints its status), the other lines what they must print
(standard output and error together, line by line, trailing spaces
aside). Other blocks (python, rust, c,
cmake, ...) are not run here; a
block whose info string says `from PATH` (```c from examples/c/read_file.c)
must be a verbatim excerpt of that file, which CI compiles. Indented code
blocks are not looked at: write commands in fenced blocks.

Where the blocks run
--------------------
In a scratch folder laid out as a checkout: every top-level entry of the
repository linked into it, `../shared` beside it linked to the
repository's (so `../shared/corpus/...` paths, as the README writes the
corpus files, resolve), and on `PATH`:

- `gamefmt`: the CLI the tests step built (`target/debug/gamefmt`, or
  `$GAMEFMT_BIN`); the README's `cargo install --path gamefmt-cli` puts the
  same binary on a user's `PATH`;
- `duckdb`: `duckdb -c SQL` through DuckDB's Python package (the
  interpreter `$GAMEFMT_DUCKDB_PYTHON`, or this one), printing the result.

The blocks share the folder, so a block may read what an earlier one
wrote (the export read back by DuckDB). A block that names
`../shared/corpus` is SKIPPED when the corpus is absent, one that links
`target/release/libgamefmt_ffi.a` when it is not built (CI's ffi step,
which runs before this one, builds it). Sections other
helpers add follow the same rules: write commands on corpus files or on
what earlier blocks made, or mark the block `no-run` with the reason.

    python3 tests/readme/run.py [README.md]
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHELLS = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*(.*)$")
TIMEOUT = 600


def blocks(text):
    """(line, info, code) of every fenced block."""
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.groups()
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence[:3]):
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line)
            i += 1
        out.append((start, info.strip(), "\n".join(body) + "\n"))
        i += 1
    return out


def console_session(code):
    """A `console` block's commands (its `$ ` lines, the prompt taken
    off) and the output they must print (its other lines)."""
    commands, expected = [], []
    for line in code.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
        else:
            expected.append(line.rstrip())
    while expected and not expected[-1]:
        expected.pop()
    return "\n".join(commands) + "\n", expected


def no_run_reason(info):
    """The reason of a `no-run` block ('' when none is given), or None
    when the block runs."""
    words = info.split(None, 1)
    rest = words[1] if len(words) > 1 else ""
    m = re.match(r"no-run\b[:\s]*(.*)$", rest)
    if not m:
        return None
    return m.group(1).strip()


def duckdb_shim(bin_dir):
    python = os.environ.get("GAMEFMT_DUCKDB_PYTHON") or sys.executable
    check = subprocess.run([python, "-c", "import duckdb"], capture_output=True)
    if check.returncode != 0:
        return False
    shim = bin_dir / "duckdb"
    shim.write_text(
        f"#!{python}\n"
        "# `duckdb -c SQL` through DuckDB's Python package (tests/readme/run.py).\n"
        "import sys, duckdb\n"
        "args = sys.argv[1:]\n"
        "if len(args) != 2 or args[0] != '-c':\n"
        "    sys.exit('this duckdb stands in for the CLI: duckdb -c SQL only')\n"
        "result = duckdb.sql(args[1])\n"
        "if result is not None:\n"
        "    result.show(max_rows=20)\n"
    )
    shim.chmod(0o755)
    return True


def main():
    readme = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "README.md"
    found = [b for b in blocks(readme.read_text()) if b[1].split(None, 1)[:1] and b[1].split()[0] in SHELLS]
    gamefmt = Path(os.environ.get("GAMEFMT_BIN", REPO / "target" / "debug" / "gamefmt"))
    if not gamefmt.is_file():
        sys.exit(f"no gamefmt binary at {gamefmt}: build it (cargo build -p gamefmt-cli) or set GAMEFMT_BIN")
    corpus = REPO.parent / "shared" / "corpus"
    if os.environ.get("GAMEFMT_CORPUS"):
        corpus = Path(os.environ["GAMEFMT_CORPUS"])
    has_corpus = corpus.is_dir() and any(corpus.iterdir())

    scratch = Path(tempfile.mkdtemp(prefix="gamefmt-readme-"))
    work = scratch / "repo"
    work.mkdir()
    for entry in REPO.iterdir():
        if entry.name not in {".git"}:
            (work / entry.name).symlink_to(entry)
    if has_corpus:
        (scratch / "shared").mkdir()
        (scratch / "shared" / "corpus").symlink_to(corpus.resolve())
    bin_dir = scratch / "bin"
    bin_dir.mkdir()
    (bin_dir / "gamefmt").symlink_to(gamefmt.resolve())
    have_duckdb = duckdb_shim(bin_dir)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")

    ran = skipped = 0
    no_run = []
    failures = []
    excerpts = 0
    for line, info, code in blocks(readme.read_text()):
        m = re.match(r"\S+\s+from\s+(\S+)", info)
        if m:
            excerpts += 1
            source = REPO / m.group(1)
            if not source.is_file() or code not in source.read_text():
                failures.append(f"README.md:{line}: not a verbatim excerpt of {m.group(1)}")
    ffi_lib = REPO / "target" / "release" / "libgamefmt_ffi.a"
    for line, info, code in found:
        reason = no_run_reason(info)
        if reason is not None:
            if not reason:
                failures.append(f"README.md:{line}: `no-run` without a reason beside it")
            no_run.append((line, reason))
            continue
        if "../shared/corpus" in code and not has_corpus:
            print(f"SKIPPED README.md:{line}: the corpus is absent")
            skipped += 1
            continue
        if "target/release/libgamefmt_ffi.a" in code and not ffi_lib.is_file():
            print(f"SKIPPED README.md:{line}: {ffi_lib} is not built (the ffi step builds it)")
            skipped += 1
            continue
        if re.search(r"^\s*duckdb\b", code, re.M) and not have_duckdb:
            print(f"SKIPPED README.md:{line}: DuckDB's Python package is not installed")
            skipped += 1
            continue
        started = time.monotonic()
        expected, shell = None, ["bash", "-e", "-o", "pipefail", "-c"]
        if info.split()[0] == "console":
            code, expected = console_session(code)
            shell = ["bash", "-o", "pipefail", "-c"]
        try:
            done = subprocess.run(
                [*shell, code],
                cwd=work, env=env, text=True, timeout=TIMEOUT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if expected is not None else subprocess.PIPE,
            )
            status = done.returncode
            output = done.stdout + (done.stderr or "")
            printed = [line.rstrip() for line in done.stdout.rstrip("\n").splitlines()]
            if status == 0 and expected is not None and printed != expected:
                status = "output differs from the block's"
                output = "printed:\n" + done.stdout
        except subprocess.TimeoutExpired:
            status, output = "timeout", ""
        seconds = time.monotonic() - started
        ran += 1
        first = code.strip().splitlines()[0]
        if status != 0:
            failures.append(f"README.md:{line}: exit {status} ({seconds:.1f} s): {first}\n{output[-3000:]}")
            print(f"FAIL README.md:{line} ({seconds:.1f} s): {first}")
        else:
            print(f"ok   README.md:{line} ({seconds:.1f} s): {first}")

    shutil.rmtree(scratch, ignore_errors=True)
    print(f"\n{len(found)} shell blocks: {ran} ran, {skipped} skipped, {len(no_run)} marked no-run;"
          f" {excerpts} excerpts checked. No-run:")
    for line, reason in no_run:
        print(f"  README.md:{line}: {reason or '(no reason given)'}")
    if failures:
        print("\n" + "\n\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

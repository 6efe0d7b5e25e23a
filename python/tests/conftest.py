"""Corpus discovery for the Python tests, as tests/common does for Rust:
``$GAMEFMT_CORPUS`` or ``../shared/corpus`` beside the repository; tests
over corpus files are SKIPPED (with the reason) when it is absent."""

import csv
import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def corpus_root():
    """The corpus folder, or None when absent."""
    env = os.environ.get("GAMEFMT_CORPUS")
    root = Path(env) if env else REPO.parent / "shared" / "corpus"
    return root if root.is_dir() else None


def corpus_files(sub, pattern):
    """Parameters over the corpus files ``sub/pattern``; one SKIPPED
    parameter when there are none."""
    root = corpus_root()
    files = sorted((root / sub).glob(pattern)) if root else []
    if not files:
        reason = f"SKIPPED: no corpus files {sub}/{pattern} (set GAMEFMT_CORPUS)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="no-corpus")]
    return [pytest.param(f, id=f.name) for f in files]


def never_seen_files(pattern="*"):
    """Parameters over the files ``pattern`` of ``$GAMEFMT_NEVER_SEEN``:
    a folder of files the project has never seen, for the checks run by
    hand on them (none when it is unset)."""
    env = os.environ.get("GAMEFMT_NEVER_SEEN")
    files = sorted(p for p in Path(env).glob(pattern) if p.is_file()) if env else []
    return [pytest.param(f, id=f"never-seen/{f.name}") for f in files]


def expected_jsonl(name):
    """The facts of ``teeworlds/<name>.expected.jsonl`` by file name."""
    root = corpus_root()
    path = root / "teeworlds" / f"{name}.expected.jsonl" if root else None
    if not path or not path.is_file():
        return {}
    facts = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            facts[row["file"]] = row
    return facts


def expected_slippi():
    """The rows of ``slippi/expected.tsv`` by file name."""
    root = corpus_root()
    path = root / "slippi" / "expected.tsv" if root else None
    if not path or not path.is_file():
        return {}
    with open(path, newline="") as f:
        return {row["name"]: row for row in csv.DictReader(f, delimiter="\t")}


def gamefmt_cli():
    """The ``gamefmt`` command for the tests that compare with it:
    ``$GAMEFMT_BIN``, else ``target/debug/gamefmt`` (under ``$CARGO_TARGET_DIR``
    when set), built with ``cargo build -p gamefmt-cli`` when missing;
    None when it cannot be (the tests then SKIP)."""
    import shutil
    import subprocess

    env = os.environ.get("GAMEFMT_BIN")
    if env:
        return env
    binary = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "gamefmt"
    if not binary.is_file():
        cargo = shutil.which("cargo")
        if not cargo:
            return None
        subprocess.run([cargo, "build", "--quiet", "-p", "gamefmt-cli"], cwd=REPO, check=True)
    return str(binary)

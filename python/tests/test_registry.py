"""Python's registry: every format the core registers
(``gamefmt::Format::ALL``, seen here as ``gamefmt.FORMATS``: name and
magic bytes) is read by ``gamefmt.open`` from a file of that format (found
among the repository's sample files by its magic, so that a new format
fails here until it has a sample and a Python class), and is named the
same in Python (``.format``), by the CLI (``gamefmt inspect --json``'s
``format``) and by the Arrow export (``gamefmt export``'s
``format=NAME/table=TABLE`` folders, whose tables are Python's ``.tables``).
As gamefmt-cli/tests/cli/registry.rs, gamefmt-ffi/tests/registry.rs and
gamefmt-arrow/tests/registry.rs do for their surfaces."""

import json
import subprocess

import pyarrow as pa
import pytest

import gamefmt
from conftest import REPO, gamefmt_cli

# Every sample file the repository holds, of any format.
SAMPLES = sorted((REPO / "src").glob("*/sample.*")) + sorted(
    (REPO / "tests" / "data" / "demo-vectors").glob("*.demo")
)[:1]

CLASSES = (gamefmt.Replay, gamefmt.Teehistorian, gamefmt.Demo, gamefmt.Map)


def sample(magic):
    """The first sample file starting with magic, or None."""
    for path in SAMPLES:
        if path.read_bytes().startswith(magic):
            return path
    return None


def test_formats_are_the_cores():
    # The core's four formats today; a new one joins FORMATS by itself
    # and must pass the test below.
    assert {"datafile", "demo", "slippi", "teehistorian"} <= set(gamefmt.FORMATS)
    assert all(isinstance(m, bytes) and m for m in gamefmt.FORMATS.values())
    assert len(set(gamefmt.FORMATS.values())) == len(gamefmt.FORMATS)


@pytest.mark.parametrize("name", sorted(gamefmt.FORMATS))
def test_every_format_opens_and_is_named_alike(name, tmp_path):
    magic = gamefmt.FORMATS[name]
    path = sample(magic)
    assert path is not None, f"no sample file of {name} (magic {magic!r}) in the repository"
    f = gamefmt.open(path)
    assert isinstance(f, CLASSES), (name, type(f))
    # Every table of the format reads (and is listed once).
    tables = f.tables
    assert tables and len(set(tables)) == len(tables), name
    assert list(f.arrow_tables()) == tables
    for table in tables:
        pa.RecordBatchReader.from_stream(f.to_arrow(table)).read_all()

    cli = gamefmt_cli()
    if cli is None:
        pytest.skip("SKIPPED: no gamefmt CLI ($GAMEFMT_BIN unset, cargo not found)")
    out = subprocess.run([cli, "inspect", "--json", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["format"] == f.format, name

    dataset = tmp_path / "dataset"
    out = subprocess.run([cli, "export", str(dataset), str(path)], capture_output=True, text=True)
    if out.returncode == 2 and "export" in out.stderr and not dataset.exists():
        pytest.skip(f"SKIPPED: this gamefmt CLI has no export: {out.stderr.strip()}")
    assert out.returncode == 0, out.stderr
    if not dataset.exists():
        # No rows (the core's sample map has no layers): no folder written.
        assert " 0 rows" in out.stderr, (name, out.stderr)
        return
    folders = sorted(p.name for p in dataset.iterdir())
    assert folders == [f"format={f.format}"], (name, folders)
    written = {p.name.removeprefix("table=") for p in (dataset / folders[0]).iterdir()}
    assert written and written <= set(tables), (name, written, tables)

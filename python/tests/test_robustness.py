"""Hostile input from Python: every prefix and 1,000 corruptions of small
corpus files end in a clean result or a gamefmt.Error, never another
exception (no PanicException, no TypeError, ...).

The same checks run by hand on files the project has never seen:
``GAMEFMT_NEVER_SEEN=DIR`` adds every file of DIR to the corpus files
(``GAMEFMT_SAMPLES=N`` takes N corruptions instead of 1,000, and N evenly
spaced prefixes and N corruptions for the Arrow routes instead of 300:
each decodes the whole file, and these files are larger), e.g.

    GAMEFMT_NEVER_SEEN=/tmp/never-seen GAMEFMT_SAMPLES=40 pytest -q python/tests/test_robustness.py
"""

import os
import random

import pytest

import gamefmt
from conftest import corpus_root, gamefmt_cli, never_seen_files

# The smallest real file of each format (a prefix of a larger file is a
# cut file of that format, so the first PREFIX_LIMIT bytes of a file are
# what "every prefix" covers).
SMALL = [
    ("slippi", "v1.7.1_slippi-js_nametags.slp"),
    ("teeworlds/teehistorian", "ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian"),
    ("teeworlds/demos", "teeworlds-traffic-dumps__dumps__075_tw_tinycave_other_player_disconnect__client_bar.demo"),
    ("teeworlds/maps", "crate-twmap-0.16.0__tests__editor.map"),
]
PREFIX_LIMIT = 12288
SAMPLES = os.environ.get("GAMEFMT_SAMPLES")
CORRUPTIONS = int(SAMPLES or 1000)


def small_files():
    root = corpus_root()
    params = []
    for sub, name in SMALL:
        path = root / sub / name if root else None
        if path and path.is_file():
            params.append(pytest.param(path, id=name))
    params += never_seen_files()
    if not params:
        reason = "SKIPPED: corpus absent (set GAMEFMT_CORPUS)"
        params.append(pytest.param(None, marks=pytest.mark.skip(reason=reason), id="no-corpus"))
    return params


def decode_all(data):
    """Everything the API offers on `data`; only gamefmt.Error may escape."""
    try:
        f = gamefmt.open(data)
        f.header
        if f.format == "map":
            f.metadata
            for layer in f.layers:
                if "tile_kind" in layer:
                    try:
                        f.tiles(layer["index"])
                    except gamefmt.Error:
                        pass
            f.items()
            return
        for _ in f:
            pass
        if f.format == "slippi":
            f.metadata
            f.winners
            for _ in f.frames():
                pass
        if f.format == "demo":
            for _ in f.chunks(snapshots=True):
                pass
    except gamefmt.Error as e:
        assert e.offset is None or e.offset >= 0
        assert isinstance(e.kind, str)


@pytest.mark.parametrize("path", small_files())
def test_every_prefix(path):
    data = path.read_bytes()
    for n in range(min(len(data), PREFIX_LIMIT) + 1):
        decode_all(data[:n])


@pytest.mark.parametrize("path", small_files())
def test_corruptions(path):
    data = path.read_bytes()
    rng = random.Random(f"gamefmt:{path.name}")
    for _ in range(CORRUPTIONS):
        buf = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(buf))
            buf[at] = rng.randrange(256)
        decode_all(bytes(buf))


# The Arrow routes on damaged input: `to_arrow` (each table),
# `arrow_tables()` and `export` raise only gamefmt.Error, never the Arrow
# consumer's own exception (pyarrow.ArrowInvalid), and with the offset and
# message `gamefmt validate` gives for the same bytes (validate may name
# the part of the file before them). Prefixes: every one
# up to ARROW_PREFIX_EVERY bytes, then ARROW_PREFIXES evenly spaced;
# corruptions: ARROW_CORRUPTIONS fixed-seed ones of 1 to 4 bytes.
ARROW_PREFIX_EVERY = 1024
ARROW_PREFIXES = int(SAMPLES or 300)
ARROW_CORRUPTIONS = ARROW_PREFIXES


def arrow_errors(data):
    """The messages of every error the Arrow routes raise on `data` (none
    escapes but gamefmt.Error: another exception fails the test)."""
    import pyarrow as pa

    try:
        f = gamefmt.open(data)
    except gamefmt.Error:
        return []
    errors = []
    for table in f.tables:
        try:
            pa.table(f.to_arrow(table))
        except gamefmt.Error as e:
            assert e.offset is not None and e.offset >= 0, str(e)
            errors.append(str(e))
    try:
        f.arrow_tables()
    except gamefmt.Error as e:
        errors.append(str(e))
    return errors


def damaged_inputs(data, name):
    rng = random.Random(f"gamefmt-arrow:{name}")
    n = len(data)
    cuts = set(range(min(n, ARROW_PREFIX_EVERY)))
    cuts |= {n * i // ARROW_PREFIXES for i in range(ARROW_PREFIXES)}
    for cut in sorted(cuts):
        yield f"prefix-{cut}", data[:cut]
    for i in range(ARROW_CORRUPTIONS):
        buf = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            buf[rng.randrange(n)] = rng.randrange(256)
        yield f"corrupt-{i}", bytes(buf)


@pytest.mark.parametrize("path", small_files())
def test_arrow_routes_raise_gamefmt_errors_at_validates_offset(path, tmp_path):
    pytest.importorskip("pyarrow")
    import subprocess

    cli = gamefmt_cli()
    data = path.read_bytes()
    raised = {}
    for label, buf in damaged_inputs(data, path.name):
        errors = arrow_errors(buf)
        if errors:
            # Every route that fails says the same.
            assert len(set(errors)) == 1, (label, errors)
            raised[label] = (buf, errors[0])
    # A corpus file's sample is known to hold damage that fails; a file
    # never seen may take every cut and corruption of a small sample (a
    # Slippi replay cut short is a shorter game, not an error).
    root = corpus_root()
    known = root is not None and root in path.parents
    assert raised or path.suffix == ".map" or not known, "no damaged input made the Arrow routes fail"
    if cli is None:
        pytest.skip("SKIPPED: the gamefmt CLI is not built (cargo build -p gamefmt-cli): validate not compared")
    for label, (buf, _) in raised.items():
        (tmp_path / label).write_bytes(buf)
    out = subprocess.run([cli, "validate", "--jobs", "2", str(tmp_path)], capture_output=True, text=True)
    said = {}
    for line in out.stderr.splitlines():
        prefix = f"gamefmt: {tmp_path}/"
        if line.startswith(prefix) and ": warning: " not in line:
            label, _, message = line[len(prefix):].partition(": ")
            said[label] = message
    # validate may name the part (`layer 3 (tiles): `, `not a valid map: `)
    # before the same message and offset.
    differ = [
        (label, message, said.get(label))
        for label, (_, message) in sorted(raised.items())
        if not (said.get(label) or "").endswith(message)
    ]
    assert not differ, f"{len(differ)} of {len(raised)} differ from validate, e.g. {differ[:5]}"

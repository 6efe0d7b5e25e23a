"""Hostile input from Python: every prefix and 1,000 corruptions of small
corpus files end in a clean result or a gamefmt.Error, never another
exception (no PanicException, no TypeError, ...)."""

import random

import pytest

import gamefmt
from conftest import corpus_root

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
CORRUPTIONS = 1000


def small_files():
    root = corpus_root()
    params = []
    for sub, name in SMALL:
        path = root / sub / name if root else None
        if path and path.is_file():
            params.append(pytest.param(path, id=name))
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

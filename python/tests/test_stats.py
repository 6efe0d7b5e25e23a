"""``Replay.stats()``: the core's stats through pythonize, equal to the
CLI's ``gamefmt stats --json`` (the same ``Serialize``), and with
``slippi_js=True`` equal to slippi-js 9.1.2's own ``getStats()`` (the
committed oracle ``benches/peers/slippi-js/stats``). SKIPPED without the
corpus or the CLI."""

import json
import math
import struct
import subprocess

import pytest

import gamefmt
from conftest import REPO, corpus_root
from test_vocabulary import cli  # noqa: F401 (the fixture)

ORACLE = REPO / "benches" / "peers" / "slippi-js" / "stats"


def replays():
    root = corpus_root()
    files = sorted((root / "slippi").glob("*.slp")) if root else []
    if not files:
        pytest.skip("SKIPPED: no Slippi corpus")
    out = []
    for path in files:
        oracle = ORACLE / (path.name + ".json")
        if oracle.is_file():
            expected = json.loads(oracle.read_text())
            if "error" not in expected and expected["stats"] is not None:
                out.append((path, expected))
    return out


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def same(cli, py):
    """The CLI's JSON value equals Python's: a float as the f32 it may be
    (serde_json prints an f32 by its shortest f32 digits, pythonize hands
    over its f64 widening: 15.013274 against 15.013274192810059), NaN as
    null."""
    if isinstance(py, float):
        if math.isnan(py) or math.isinf(py):
            return cli is None
        return isinstance(cli, (int, float)) and (cli == py or f32(cli) == f32(py))
    if isinstance(py, dict):
        return isinstance(cli, dict) and cli.keys() == py.keys() and all(same(cli[k], py[k]) for k in py)
    if isinstance(py, list):
        return isinstance(cli, list) and len(cli) == len(py) and all(same(c, p) for c, p in zip(cli, py))
    return type(cli) is type(py) and cli == py


def test_stats_equal_the_cli_and_slippi_js(cli):  # noqa: F811
    compared = 0
    for path, expected in replays():
        replay = gamefmt.open(str(path))
        ours = replay.stats()
        proc = subprocess.run([cli, "stats", "--json", str(path)], capture_output=True, text=True, check=True)
        assert same(json.loads(proc.stdout), ours), path.name
        assert set(ours) >= {"stocks", "conversions", "combos", "overall", "action_counts"}
        for o in ours["overall"]:
            assert 1 <= o["port"] <= 4
        assert replay.stats(slippi_js=True) == expected["stats"], path.name
        compared += 1
    print(f"Replay.stats(): {compared} replays equal to the CLI and to slippi-js")
    assert compared > 50

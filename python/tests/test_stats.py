"""``Replay.stats()``: the core's stats through pythonize, equal to the
CLI's ``gamefmt stats --json`` (the same ``Serialize``), and with
``slippi_js=True`` equal to slippi-js 9.1.2's own ``getStats()`` (the
committed oracle ``benches/peers/slippi-js/stats``). SKIPPED without the
corpus or the CLI."""

import json
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


def test_stats_equal_the_cli_and_slippi_js(cli):  # noqa: F811
    compared = 0
    for path, expected in replays():
        replay = gamefmt.open(str(path))
        ours = replay.stats()
        proc = subprocess.run([cli, "stats", "--json", str(path)], capture_output=True, text=True, check=True)
        assert ours == json.loads(proc.stdout), path.name
        assert set(ours) >= {"stocks", "conversions", "combos", "overall", "action_counts"}
        for o in ours["overall"]:
            assert 1 <= o["port"] <= 4
        assert replay.stats(slippi_js=True) == expected["stats"], path.name
        compared += 1
    print(f"Replay.stats(): {compared} replays equal to the CLI and to slippi-js")
    assert compared > 50

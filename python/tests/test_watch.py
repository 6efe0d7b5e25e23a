"""``gamefmt.watch``: the live iterator of ``gamefmt watch``. A thread
appends a replay to a file in random chunks while the iterator follows
it; the lines it yields must equal what the command prints for the
finished file (``gamefmt watch --idle-timeout 0.5 FILE``, run by the test),
and its final stats equal ``Replay.stats()`` of the finished file. A
damaged replay raises ``gamefmt.DecodeError`` at the offset the command
names, after the same lines. Every corpus replay (SKIPPED without the
corpus), and the core's sample replay (always); a folder where the file
appears is followed the same. ``GAMEFMT_NEVER_SEEN=DIR`` adds the
``.slp`` files of DIR: replays the project has never seen (by hand)."""

import json
import math
import random
import re
import subprocess
import threading
import time

import pytest

import gamefmt
from conftest import REPO, corpus_files, gamefmt_cli, never_seen_files

SAMPLE = REPO / "src" / "slippi" / "sample.slp"
CHUNKS = 24


@pytest.fixture(scope="module")
def cli():
    binary = gamefmt_cli()
    if binary is None:
        pytest.skip("SKIPPED: no gamefmt CLI ($GAMEFMT_BIN unset, cargo not found)")
    return binary


def same(a, b):
    """Equal values, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def command(cli, path):
    """The command's lines for the finished file, and its error offset."""
    out = subprocess.run(
        [cli, "watch", "--idle-timeout", "0.5", str(path)], capture_output=True, text=True, timeout=300
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    offset = None
    if out.returncode != 0:
        found = re.findall(r"byte offset (\d+)", out.stderr)
        assert found, out.stderr
        offset = int(found[0])
    return lines, offset


def append(data, dst, seed):
    """Appends data to dst in CHUNKS random pieces, a little apart."""
    rnd = random.Random(seed)
    cuts = sorted(rnd.sample(range(1, len(data)), min(CHUNKS, len(data) - 1)))
    with open(dst, "ab") as f:
        at = 0
        for cut in cuts + [len(data)]:
            f.write(data[at:cut])
            f.flush()
            at = cut
            time.sleep(0.002)


def followed(watch, data, dst, seed):
    """Everything watch yields while dst grows, and its error if any."""
    writer = threading.Thread(target=append, args=(data, dst, seed))
    writer.start()
    lines, error = [], None
    try:
        for line in watch:
            lines.append(line)
    except gamefmt.Error as e:
        error = e
    writer.join()
    return lines, error


def check(cli, path, tmp_path):
    data = path.read_bytes()
    dst = tmp_path / "live.slp"
    dst.write_bytes(b"")
    watch = gamefmt.watch(dst, idle_timeout=2.0)
    lines, error = followed(watch, data, dst, seed=len(data))
    want, offset = command(cli, path)
    assert same(lines, want), path.name
    if offset is None:
        assert error is None, (path.name, error)
    else:
        assert isinstance(error, gamefmt.DecodeError) and error.offset == offset, (path.name, error)
    ended = [line["game"] for line in lines if line["kind"] == "game_end"]
    assert sorted(watch.stats) == ended, path.name
    if not ended:
        return "no game"
    assert lines[-1]["kind"] == "game_end", path.name
    try:
        want_stats = gamefmt.open(path).stats()
    except gamefmt.DecodeError:
        # Damaged before Game Start: Replay.stats() has no game to give.
        assert lines[0]["kind"] == "game_end" and not watch.stats[0]["players"], path.name
        return "damaged before game start"
    assert lines[0]["kind"] == "game_start", path.name
    assert same(watch.stats[0], want_stats), path.name
    return "stats equal"


def test_sample_followed_as_the_command_prints(cli, tmp_path):
    assert check(cli, SAMPLE, tmp_path) == "stats equal"


@pytest.mark.parametrize("path", corpus_files("slippi", "*.slp") + never_seen_files("*.slp"))
def test_corpus_followed_as_the_command_prints(cli, path, tmp_path):
    print(path.name, check(cli, path, tmp_path))


def test_folder_followed(cli, tmp_path):
    """A folder: the file appearing in it is the game (exit_on_game_end)."""
    folder = tmp_path / "dolphin"
    folder.mkdir()
    (folder / "old.slp").write_bytes(SAMPLE.read_bytes())  # there before: not a game
    watch = gamefmt.watch(folder, exit_on_game_end=True, idle_timeout=5.0)
    time.sleep(0.1)
    dst = folder / "Game_20261129T000000.slp"
    dst.write_bytes(b"")
    lines, error = followed(watch, SAMPLE.read_bytes(), dst, seed=1)
    assert error is None
    want, _ = command(cli, SAMPLE)
    assert same(lines, want)


def test_close_stops_a_watch_waiting_for_bytes(tmp_path):
    dst = tmp_path / "never.slp"
    dst.write_bytes(b"")
    with gamefmt.watch(dst) as watch:
        pass
    started = time.monotonic()
    assert list(watch) == []
    assert time.monotonic() - started < 5

"""gamefmt against the independent Python readers from PyPI, on every
corpus file they read: peppi-py (Slippi), teehistorian-py, twmap. Where a
peer fails on a file, the test says so and test_corpus.py checks that file
against the corpus facts instead (the README lists those files)."""

import math
from collections import Counter, defaultdict

import pytest

import gamefmt
from conftest import corpus_files

# peppi-py and twmap raise pyo3's PanicException (a BaseException) on some
# files: a peer failing is caught whatever it raises.
PEER_FAILURES = (BaseException,)


def peer(read, path):
    """The peer's result, or a skip naming how it failed."""
    try:
        return read(path)
    except PEER_FAILURES as e:  # noqa: BLE001 - any failure of the peer
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        pytest.skip(f"peer fails ({type(e).__name__}: {str(e)[:80]}); facts checked in test_corpus")


def same(a, b):
    """Equal, NaN equal to NaN, None to None."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


@pytest.mark.parametrize("path", corpus_files("slippi", "*.slp"))
def test_slippi_vs_peppi(path):
    peppi = pytest.importorskip("peppi_py")
    game = peer(lambda p: peppi.read_slippi(str(p)), path)
    # Every version of each frame in stream order, per port and
    # leader/follower: peppi-py keeps rolled-back frames as repeated ids.
    pre, post = defaultdict(list), defaultdict(list)
    for e in gamefmt.open(path):
        if e["kind"] == "pre_frame":
            pre[e["frame"], e["port"], e["follower"]].append(e)
        elif e["kind"] == "post_frame":
            post[e["frame"], e["port"], e["follower"]].append(e)
    frames = game.frames.id.to_pylist()
    seen = Counter()
    version = []
    for frame in frames:
        version.append(seen[frame])
        seen[frame] += 1
    assert frames, "peppi read frames"
    compared = 0
    for player, port_data in zip(game.start.players, game.frames.ports):
        port = player.port.value + 1
        for follower, data in ((False, port_data.leader), (True, port_data.follower)):
            if data is None:
                continue
            columns = {
                "pre": {
                    "x": data.pre.position.x.to_pylist(),
                    "y": data.pre.position.y.to_pylist(),
                    "action_state": data.pre.state.to_pylist(),
                    "buttons": data.pre.buttons.to_pylist(),
                    "percent": data.pre.percent.to_pylist() if data.pre.percent is not None else None,
                },
                "post": {
                    "x": data.post.position.x.to_pylist(),
                    "y": data.post.position.y.to_pylist(),
                    "action_state": data.post.state.to_pylist(),
                    "percent": data.post.percent.to_pylist(),
                    "stocks": data.post.stocks.to_pylist(),
                },
            }
            gap = False
            for i, frame in enumerate(frames):
                for kind, ours in (("pre", pre), ("post", post)):
                    versions = ours.get((frame, port, follower), [])
                    event = versions[version[i]] if version[i] < len(versions) else None
                    if event is None and any(c is not None and c[i] is not None for c in columns[kind].values()):
                        # The stream has no event for this port in this
                        # frame (a player out of a doubles game), yet
                        # peppi-py fills the row: it stores a port's events
                        # in sequence, so its rows after such a gap belong
                        # to later frames. Compare up to the gap only.
                        gap = True
                    if gap:
                        break
                    for field, column in columns[kind].items():
                        if column is None or column[i] is None:
                            continue
                        assert same(event[field], column[i]), (frame, port, kind, field)
                        compared += 1
                if gap:
                    break
    assert compared > 0


TEEHISTORIAN_KINDS = {
    "PyPlayerDiff": "PLAYER_DIFF",
    "PyTickSkip": "TICK_SKIP",
    "PyPlayerNew": "PLAYER_NEW",
    "PyPlayerOld": "PLAYER_OLD",
    "PyInputDiff": "INPUT_DIFF",
    "PyInputNew": "INPUT_NEW",
    "PyNetMessage": "MESSAGE",
    "PyJoin": "JOIN",
    "PyDrop": "DROP",
    "PyConsoleCommand": "CONSOLE_COMMAND",
    "PyEos": "FINISH",
}


@pytest.mark.parametrize("path", corpus_files("teeworlds/teehistorian", "*.teehistorian"))
def test_teehistorian_vs_teehistorian_py(path):
    th = pytest.importorskip("teehistorian_py")
    theirs = peer(lambda p: list(th.open(str(p))), path)
    ours = list(gamefmt.open(path))
    # Every other chunk class is an EX record (typed or not).
    counts = Counter(TEEHISTORIAN_KINDS.get(type(c).__name__, "EX") for c in theirs)
    assert Counter(r["kind"] for r in ours) == counts
    their_inputs = [
        (type(c).__name__, c.client_id, list(c.input))
        for c in theirs
        if type(c).__name__ in ("PyInputNew", "PyInputDiff")
    ]
    our_inputs = [
        ("PyInputNew" if r["kind"] == "INPUT_NEW" else "PyInputDiff", r["cid"], r.get("input", r.get("diff")))
        for r in ours
        if r["kind"] in ("INPUT_NEW", "INPUT_DIFF")
    ]
    assert our_inputs == their_inputs


# twmap's tile arrays: the fields of each kind, in twmap's order.
TWMAP_FIELDS = {
    "Game": ("index", "flags"),
    "Tiles": ("index", "flags"),
    "Front": ("index", "flags"),
    "Tele": ("number", "type"),
    "Tune": ("number", "type"),
    "Switch": ("number", "type", "flags", "delay"),
    "Speedup": ("force", "max_speed", "type", "angle"),
}


@pytest.mark.parametrize("path", corpus_files("teeworlds/maps", "*.map"))
def test_map_vs_twmap(path):
    twmap = pytest.importorskip("twmap")
    np = pytest.importorskip("numpy")
    theirs = peer(lambda p: twmap.Map(str(p)), path)
    m = gamefmt.open(path)
    by_group = defaultdict(list)
    for layer in m.layers:
        by_group[layer["group"]].append(layer)
    # Groups with no layers count too (DDNetPP's maps have some).
    assert len(m.groups) == len(theirs.groups)
    for g, group in enumerate(theirs.groups):
        ours = by_group[g]
        assert m.groups[g]["layer_count"] == len(ours) == len(group.layers), g
        if m.groups[g]["name"]:
            # twmap names an unnamed physics group "Game"; compare names
            # the file has.
            assert m.groups[g]["name"] == group.name, g
        for layer, their in zip(ours, group.layers):
            kind = their.kind()
            expected = {"Quads": "quads", "Sounds": "sounds"}.get(kind, "tiles")
            assert layer["kind"] in (expected, kind.lower()), (layer, kind)
            if kind not in TWMAP_FIELDS:
                continue
            assert layer["tile_kind"] == kind.lower(), (layer, kind)
            tiles = m.tiles(layer["index"])
            their_tiles = their.tiles
            assert tiles.shape == their_tiles.shape[:2]
            for i, field in enumerate(TWMAP_FIELDS[kind]):
                assert np.array_equal(tiles[field], their_tiles[..., i]), (layer, field)

"""Every corpus file decodes completely, and what it decodes to matches the
corpus facts (expected.tsv, *.expected.jsonl)."""

from collections import Counter

import pytest

import gamefmt
from conftest import corpus_files, expected_jsonl, expected_slippi

SLIPPI = expected_slippi()
TEEHISTORIAN = expected_jsonl("teehistorian")
DEMOS = expected_jsonl("demos")
MAPS = expected_jsonl("maps")


@pytest.mark.parametrize("path", corpus_files("slippi", "*.slp"))
def test_slippi(path):
    facts = SLIPPI.get(path.name, {})
    try:
        replay = gamefmt.open(path)
        assert replay.format == "slippi"
        counts = Counter(e["code"] for e in replay)
    except gamefmt.DecodeError as e:
        # Damaged files: the decoder names where, and slippi-js failed too.
        assert e.offset is not None and e.offset >= 0
        assert path.name.startswith("bad_") or facts.get("js_errors"), facts
        return
    if facts.get("n37"):
        for code in ("35", "36", "37", "38", "39", "3a", "3b", "3c", "3f", "40", "41"):
            if facts.get(f"n{code}", "") != "":
                assert counts.get(int(code, 16), 0) == int(facts[f"n{code}"]), code
    header = replay.header
    if facts.get("spec_version"):
        assert header["version"] == facts["spec_version"]
    if facts.get("stage"):
        assert header["stage"] == int(facts["stage"])
    frames = {f["frame"] for f in replay.frames()}
    if facts.get("js_unique_frames"):
        assert len(frames) == int(facts["js_unique_frames"])
    if facts.get("meta_lastFrame"):
        assert replay.metadata["lastFrame"] == int(facts["meta_lastFrame"])


@pytest.mark.parametrize("path", corpus_files("teeworlds/teehistorian", "*.teehistorian"))
def test_teehistorian(path):
    facts = TEEHISTORIAN.get(path.name)
    if facts and "error" in facts:
        with pytest.raises(gamefmt.DecodeError):
            list(gamefmt.open(path))
        return
    th = gamefmt.open(path)
    assert th.format == "teehistorian"
    records = list(th) if facts else refused_with_reason(path, lambda: list(th))
    if records is None:
        return
    assert th.header["version"] is not None
    if facts:
        assert Counter(r["kind"] for r in records) == facts["counts"]
        assert th.end == {"finish": "complete"}.get(facts["end"], facts["end"])
        assert int(th.header["version"]) == facts["version"]
        if records:
            assert records[-1]["tick"] == facts["last_tick"]
    check_names_and_messages(path, records, known=facts is not None)


def check_names_and_messages(path, records, known):
    """Network messages decode, checked through two records: the name a
    client sends in ClStartInfo and the name the server records for it
    (EX player-name).

    These agree only where nobody renamed: DDNet renames a duplicate name
    ("(1)name"), cuts long ones, records a ClChangeInfo rename, and a map
    change makes clients send their start info again. So the agreement is
    a fact only of the corpus recordings (files in
    teehistorian.expected.jsonl, where it was checked); on any other
    recording a disagreement is reported with its reason, not failed.
    Likewise every corpus MESSAGE is a typed message (each was compared
    with libtw2 by tests/netmsg_corpus.rs); elsewhere a message gamefmt
    cannot type must keep its bytes (`data`), so that it says why."""
    recorded = {}
    for r in records:
        if r["kind"] == "EX" and r.get("name") == "teehistorian-player-name@ddnet.org":
            recorded.setdefault(r["fields"]["cid"], set()).add(r["fields"]["name"])
    renamed = {r["cid"] for r in records if r["kind"] == "MESSAGE" and r["message"] == "ClChangeInfo"}
    started = [(r["cid"], r["text"]) for r in records if r["kind"] == "MESSAGE" and r["message"] == "ClStartInfo"]
    checked = [(cid, name) for cid, name in started if cid in recorded]
    differ = [(cid, name) for cid, name in checked if name not in recorded[cid]]
    if known:
        assert not differ, differ
        assert checked or not (started and recorded)
    for cid, name in differ:
        why = "renamed by ClChangeInfo" if cid in renamed else "renamed by the server or a map change"
        print(f"NOTE {path.name}: client {cid} started as {name!r}, recorded as {sorted(recorded[cid])}: {why}")
    untyped = [r for r in records if r["kind"] == "MESSAGE" and r["message"] is None]
    if known:
        assert not untyped, untyped[:3]
    for r in untyped:
        assert isinstance(r.get("data"), (bytes, bytearray, list)), r
    if untyped:
        print(f"NOTE {path.name}: {len(untyped)} messages gamefmt does not type, kept as bytes")


def refused_with_reason(path, call):
    """Calls `call()`; a file the corpus facts say nothing about may be
    refused, with a gamefmt.Error that says why and where (never another
    exception). Returns the result, or None when refused."""
    try:
        return call()
    except gamefmt.Error as e:
        assert str(e) and (e.offset is None or e.offset >= 0), e
        print(f"NOTE {path.name}: refused: {e}")
        return None


@pytest.mark.parametrize("path", corpus_files("teeworlds/demos", "*.demo"))
def test_demo(path):
    facts = DEMOS.get(path.name)
    if facts and "error" in facts:
        with pytest.raises(gamefmt.DecodeError):
            list(gamefmt.open(path))
        return
    demo = gamefmt.open(path)
    assert demo.format == "demo"
    chunks = list(demo) if facts else refused_with_reason(path, lambda: list(demo))
    if chunks is None:
        return
    if facts:
        kinds = Counter(c["kind"] for c in chunks)
        assert len(chunks) == facts["chunks"]
        assert kinds["snapshot"] == facts["snapshots"]
        assert kinds["delta"] == facts["deltas"]
        assert kinds["message"] == facts["messages"]
        assert kinds["tick"] == facts["tick_markers"]
        assert demo.header["map_name"] == facts["map_name"]
        assert demo.header["net_version"] == facts["net_version"]
        assert demo.end == facts["end"]
        last = [c for c in chunks if "crc" in c][-1]
        assert (last["item_count"], last["crc"]) == (
            facts["final_snapshot_items"],
            facts["final_snapshot_crc"],
        )


@pytest.mark.parametrize("path", corpus_files("teeworlds/maps", "*.map"))
def test_map(path):
    pytest.importorskip("numpy")
    facts = MAPS.get(path.name)
    if facts and "error" in facts:
        with pytest.raises(gamefmt.DecodeError):
            gamefmt.open(path)
        return
    # Some maps in the wild are refused by every engine: only a map the
    # corpus facts describe must open.
    m = gamefmt.open(path) if facts else refused_with_reason(path, lambda: gamefmt.open(path))
    if m is None:
        return
    assert m.format == "map"
    items = m.items()
    if facts:
        assert m.header["version"] == facts["version"]
        assert len(items) == facts["items"]
        assert m.header["data"] == facts["data_items"]
        checksum = 0
        for item in items:
            for v in item["data"]:
                checksum = (checksum + v + 2**31) % 2**32 - 2**31
        assert checksum == facts["item_checksum"]
    for layer in m.layers:
        if "tile_kind" in layer:
            try:
                tiles = m.tiles(layer["index"])
            except gamefmt.DecodeError as e:
                assert e.offset is not None
                continue
            assert tiles.shape == (layer["height"], layer["width"])

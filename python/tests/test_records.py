"""Teehistorian records as light objects: each reads the same through its
attributes, its mapping keys and `to_dict()`; the records of a pass come
in file order, every one before a damaged byte delivered before the error;
and the corpus recordings give the records the Arrow tables hold (counted
by the columnar route, a separate walk)."""

from collections import Counter
from collections.abc import Mapping

import pyarrow as pa
import pytest

import gamefmt
from conftest import REPO, corpus_files

SAMPLE = REPO / "src" / "teehistorian" / "sample.teehistorian"


def check_record(r):
    assert isinstance(r, gamefmt.TeehistorianRecord) and isinstance(r, Mapping)
    d = r.to_dict()
    assert type(d) is dict and d == dict(r) and r == d
    assert list(d) == r.keys() == list(r) and len(r) == len(d)
    assert list(d.keys())[:3] == ["kind", "tick", "offset"]
    assert r.items() == list(d.items()) and r.values() == list(d.values())
    for key, value in d.items():
        assert r[key] == value and r.get(key) == value and key in r
        assert getattr(r, key) == value
    assert r.get("no such field") is None and r.get("no such field", 7) == 7
    with pytest.raises(KeyError):
        r["no such field"]
    with pytest.raises(AttributeError):
        r.no_such_field
    assert r.player == d.get("player")


def test_sample_records():
    th = gamefmt.open(SAMPLE)
    records = list(th)
    assert th.end == "complete"
    assert records and records[-1].kind == "FINISH"
    offsets = [r.offset for r in records]
    assert offsets == sorted(offsets) and len(set(offsets)) == len(offsets)
    for r in records:
        check_record(r)
    # The same pass again, from bytes.
    assert list(gamefmt.open(SAMPLE.read_bytes())) == records


def test_records_before_damage_come_first():
    data = SAMPLE.read_bytes()
    whole = list(gamefmt.open(data))
    for r in whole[1:]:
        bad = bytearray(data)
        bad[r.offset] = 0x80  # a packed int that never ends here
        got = []
        try:
            for record in gamefmt.open(bytes(bad)):
                got.append(record)
        except gamefmt.Error as e:
            # Every record wholly before the damage came first, and none
            # from past the error.
            assert e.offset is not None and e.offset >= r.offset
            before = [w for w in whole if w.offset < r.offset]
            assert got[: len(before)] == before
            assert all(g.offset < e.offset for g in got)


@pytest.mark.parametrize("path", corpus_files("teeworlds/teehistorian", "*.teehistorian"))
def test_corpus_records_match_the_tables(path):
    try:
        th = gamefmt.open(path)
        records = list(th)
    except gamefmt.Error:
        pytest.skip("refused (test_corpus checks it)")
    tables = {name: pa.table(t) for name, t in th.arrow_tables().items()}
    kinds = Counter(r.kind for r in records)
    assert tables["positions"].num_rows == kinds["PLAYER_NEW"] + kinds["PLAYER_DIFF"] + kinds["PLAYER_OLD"]
    assert tables["inputs"].num_rows == kinds["INPUT_NEW"] + kinds["INPUT_DIFF"]
    moves = [r for r in records if r.kind in ("PLAYER_NEW", "PLAYER_DIFF", "PLAYER_OLD")]
    assert tables["positions"].column("tick").to_pylist() == [r.tick for r in moves]
    assert tables["positions"].column("client").to_pylist() == [r.cid for r in moves]
    kind = {"PLAYER_NEW": "new", "PLAYER_DIFF": "move", "PLAYER_OLD": "old"}
    assert tables["positions"].column("kind").to_pylist() == [kind[r.kind] for r in moves]
    for r in records[:2000]:
        check_record(r)

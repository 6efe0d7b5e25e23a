"""The corpus tests on files the project has never seen: they compare
with facts known per file, and on any other file they only require that
nothing crashes and that a refusal says why (test_corpus's
`check_names_and_messages` and `refused_with_reason`)."""

import pytest

import test_corpus
from conftest import corpus_root


def test_a_map_every_engine_refuses_is_reported_not_failed(tmp_path, capsys):
    pytest.importorskip("numpy")
    root = corpus_root()
    src = root / "teeworlds/maps/ddnet__data__maps__dm1.map" if root else None
    if not src or not src.is_file():
        pytest.skip("SKIPPED: corpus absent")
    # Cut inside its data: a map no engine loads, not in the corpus facts.
    path = tmp_path / "never_seen_cut.map"
    path.write_bytes(src.read_bytes()[:3000])
    test_corpus.test_map(path)
    assert "never_seen_cut.map: refused: " in capsys.readouterr().out


def test_a_recording_never_seen_may_rename_and_carry_untyped_messages(capsys):
    ex = "teehistorian-player-name@ddnet.org"
    records = [
        {"kind": "MESSAGE", "cid": 0, "message": "ClStartInfo", "text": "nameless tee"},
        {"kind": "EX", "name": ex, "fields": {"cid": 0, "name": "(1)nameless tee"}},
        {"kind": "MESSAGE", "cid": 1, "message": "ClStartInfo", "text": "brainless"},
        {"kind": "MESSAGE", "cid": 1, "message": "ClChangeInfo", "text": "brainful"},
        {"kind": "EX", "name": ex, "fields": {"cid": 1, "name": "brainful"}},
        {"kind": "MESSAGE", "cid": 2, "message": None, "data": b"\x99\x01"},
    ]

    class Path:
        name = "never_seen.teehistorian"

    test_corpus.check_names_and_messages(Path, records, known=False)
    out = capsys.readouterr().out
    assert "client 0 started as 'nameless tee', recorded as ['(1)nameless tee']: renamed by the server" in out
    assert "client 1 started as 'brainless'" in out and "renamed by ClChangeInfo" in out
    assert "1 messages gamefmt does not type" in out
    # A corpus recording (its facts known) holds none of this.
    with pytest.raises(AssertionError):
        test_corpus.check_names_and_messages(Path, records, known=True)
    # An untyped message without its bytes says nothing: that fails.
    with pytest.raises(AssertionError):
        test_corpus.check_names_and_messages(Path, [{"kind": "MESSAGE", "cid": 0, "message": None}], known=False)

"""The kinds of source gamefmt.open takes give the same records; errors
are gamefmt.Error subclasses with offsets. Needs no corpus: small files
are made here."""

import io
import os
import zipfile
from pathlib import Path

import pytest

import gamefmt
from conftest import corpus_root


def sample():
    """A small real replay from the corpus (SKIPPED without it)."""
    root = corpus_root()
    path = root / "slippi" / "v1.7.1_slippi-js_nametags.slp" if root else None
    if not path or not path.is_file():
        pytest.skip("SKIPPED: corpus absent (set GAMEFMT_CORPUS)")
    return path


class Unseekable(io.RawIOBase):
    """A pipe-like stream: read only."""

    def __init__(self, data):
        self._inner = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, b):
        return self._inner.readinto(b)


def test_every_source_kind_reads_the_same(tmp_path):
    path = sample()
    data = path.read_bytes()
    expected = list(gamefmt.open(data))
    assert expected
    archive = tmp_path / "replays.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("game.slp", data)
    with zipfile.ZipFile(archive) as z, z.open("game.slp") as member:
        from_zip = list(gamefmt.open(member))
    for src in (str(path), Path(path), bytearray(data), memoryview(data), io.BytesIO(data)):
        assert list(gamefmt.open(src)) == expected, type(src)
    assert from_zip == expected


def test_seekable_file_gives_several_passes():
    data = sample().read_bytes()
    replay = gamefmt.open(io.BytesIO(data))
    first = list(replay)
    assert replay.header["version"] == first[1]["version"]
    assert list(replay) == first


def test_unseekable_stream_reads_once():
    data = sample().read_bytes()
    replay = gamefmt.open(Unseekable(data))
    assert len(list(replay)) == len(list(gamefmt.open(data)))
    with pytest.raises(gamefmt.UsageError):
        list(replay)


def test_a_failing_read_is_a_source_error_with_its_cause():
    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise OSError("disk on fire")

    with pytest.raises(gamefmt.SourceError) as info:
        gamefmt.open(Broken())
    assert isinstance(info.value.__cause__, OSError)


def test_errors():
    with pytest.raises(gamefmt.DecodeError) as info:
        gamefmt.open(b"not a game file")
    assert (info.value.offset, info.value.kind) == (0, "bad_magic")
    with pytest.raises(gamefmt.SourceError):
        gamefmt.open(os.path.join(os.sep, "no", "such", "file.slp"))
    with pytest.raises(gamefmt.UsageError):
        gamefmt.open(42)
    assert issubclass(gamefmt.DecodeError, gamefmt.Error)
    assert issubclass(gamefmt.Error, Exception)

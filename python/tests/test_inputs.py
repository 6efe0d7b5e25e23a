"""Zip members and ``.slpz`` replays as inputs, read as the CLI reads them
(``gamefmt_cli::input``, the same code): a zip built here (deflated and
stored members, a folder in it, a hidden member, an ``.slpz``) lists with
``gamefmt.files`` as a folder of its members would, each member path opens
with ``gamefmt.open`` and gives the same records as the file itself; the
``.slpz`` (made by the slpz crate 1.3.0 from the core's sample replay,
``tests/data/sample.slpz``) gives the sample's records. Damage is a
``gamefmt.Error``: a damaged ``.slpz`` a ``DecodeError`` at the offset the
CLI names, a member whose CRC-32 differs or that is missing a
``SourceError``.

The repository's sample files are used, so the tests run without the
corpus; the corpus's v3.1x replays join them when it is present."""

import re
import subprocess
import zipfile

import pytest

import gamefmt
from conftest import REPO, corpus_root, gamefmt_cli

SAMPLES = [
    REPO / "src" / "slippi" / "sample.slp",
    REPO / "src" / "teehistorian" / "sample.teehistorian",
    REPO / "src" / "datafile" / "sample.map",
    REPO / "tests" / "data" / "demo-vectors" / "generated-100-06.demo",
]
SLPZ = REPO / "tests" / "data" / "sample.slpz"


def records(f):
    """Everything a file gives, comparable: format, header, its records."""
    if f.format == "map":
        return ("map", f.header, f.items())
    if f.format == "teehistorian":
        return ("teehistorian", f.header, [r.to_dict() for r in f.records()])
    if f.format == "demo":
        return ("demo", f.header, list(f.chunks()))
    return ("slippi", f.header, list(f.events()), f.metadata)


def inputs():
    files = list(SAMPLES)
    root = corpus_root()
    if root:
        files += sorted(p for p in (root / "slippi").glob("v3.1*.slp"))
    return files


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """replays.zip: every input under games/ (deflated and stored in
    turn), sample.slpz at the top, a hidden member; and the plain file of
    each member path."""
    path = tmp_path_factory.mktemp("zip") / "replays.zip"
    members = {}
    with zipfile.ZipFile(path, "w") as z:
        for i, f in enumerate(inputs()):
            method = zipfile.ZIP_DEFLATED if i % 2 == 0 else zipfile.ZIP_STORED
            name = f"games/{f.name}"
            z.write(f, name, compress_type=method)
            members[name] = f
        z.write(SLPZ, "sample.slpz")
        members["sample.slpz"] = REPO / "src" / "slippi" / "sample.slp"
        z.writestr(".hidden", b"not a replay")
    return path, members


def test_files_lists_a_zip_as_a_folder(archive):
    path, members = archive
    assert gamefmt.files(path) == [path / name for name in sorted(members)]
    # A folder holding the zip lists the zip's members, as the CLI does.
    assert gamefmt.files(path.parent) == [path / name for name in sorted(members)]


def test_zip_members_read_as_the_files(archive):
    path, members = archive
    for name, plain in sorted(members.items()):
        from_zip = records(gamefmt.open(f"{path}/{name}"))
        assert from_zip == records(gamefmt.open(plain)), name
    # A stream format read twice from the member (a second pass reopens it).
    replay = gamefmt.open(path / "games" / "sample.slp")
    assert list(replay.events()) == list(replay.events())
    assert replay.stats() == gamefmt.open(SAMPLES[0]).stats()


def test_slpz_decodes_to_the_sample():
    assert SLPZ.read_bytes()[:8] == bytes([0, 0, 0, 0, 0, 0, 0, 24])
    assert records(gamefmt.open(SLPZ)) == records(gamefmt.open(SAMPLES[0]))
    assert gamefmt.open(SLPZ).to_arrow("frames").__arrow_c_stream__() is not None


def test_damaged_slpz_fails_at_the_clis_offset(tmp_path):
    data = bytearray(SLPZ.read_bytes())
    damaged = tmp_path / "damaged.slpz"
    damaged.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(gamefmt.DecodeError) as err:
        gamefmt.open(damaged)
    assert isinstance(err.value, gamefmt.Error)
    assert isinstance(err.value.offset, int) and 0 <= err.value.offset <= len(data)
    cli = gamefmt_cli()
    if cli is None:
        pytest.skip("SKIPPED: no gamefmt CLI to compare the offset with")
    out = subprocess.run([cli, "inspect", str(damaged)], capture_output=True, text=True)
    assert out.returncode != 0
    offsets = re.findall(r"byte offset (\d+)", out.stderr)
    assert offsets and int(offsets[0]) == err.value.offset, out.stderr


def test_damaged_and_missing_members_are_source_errors(archive, tmp_path):
    path, _ = archive
    with pytest.raises(gamefmt.SourceError) as err:
        gamefmt.open(path / "games" / "missing.slp")
    assert "missing.slp" in str(err.value)
    # A stored member whose bytes changed: its CRC-32 differs at the end.
    bad = tmp_path / "bad.zip"
    sample = SAMPLES[0].read_bytes()
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("a.slp", sample, compress_type=zipfile.ZIP_STORED)
    raw = bytearray(bad.read_bytes())
    at = raw.index(sample) + len(sample) - 1
    raw[at] ^= 0xFF
    bad.write_bytes(bytes(raw))
    with pytest.raises(gamefmt.Error):
        replay = gamefmt.open(bad / "a.slp")
        list(replay.events())
        replay.metadata


def test_compressed_paths_read_as_the_files(tmp_path):
    """gzip (and, through the same code, zstd and xz) decompressed on the
    fly, as the CLI's inputs are."""
    import gzip

    for plain in SAMPLES:
        packed = tmp_path / (plain.name + ".gz")
        packed.write_bytes(gzip.compress(plain.read_bytes()))
        assert records(gamefmt.open(packed)) == records(gamefmt.open(plain)), plain.name

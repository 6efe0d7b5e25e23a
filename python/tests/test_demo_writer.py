"""gamefmt.DemoWriter: demos recorded from Python read back equal through
gamefmt.open — synthetic ones into memory, a path, a seekable and a
non-seekable file object; and every corpus demo decoded, recorded again
and read back with the same snapshots and messages."""

import io

import pytest

import gamefmt

from conftest import corpus_files


def character(tick):
    return [tick, 1000 + 4 * (tick % 500), 800, 1024] + [0] * 18


def record(writer):
    for tick in range(0, 501):
        writer.snapshot(tick, [(10, 0, [1, 0, 0, tick // 500, 20]), (9, 0, character(tick))])
        if tick % 100 == 50:
            writer.message(b"\x06\x00\x40hello from Python\x00")
        if tick == 250:
            assert writer.add_marker()
    assert not writer.add_marker(260)  # less than a second after the last


def read_back(demo):
    """(tick, items) of every snapshot and every message's bytes."""
    snaps, messages = [], []
    for chunk in gamefmt.open(demo).chunks(snapshots=True):
        if chunk["kind"] in ("snapshot", "delta"):
            snaps.append((chunk["tick"], sorted(chunk["items"])))
        elif chunk["kind"] == "message":
            messages.append((chunk["tick"], chunk["data"]))
    return snaps, messages


def test_memory_path_and_file_objects_agree(tmp_path):
    w = gamefmt.DemoWriter(map_name="dm1", map_crc=0xF2159E6E, map_sha256=bytes(32),
                           timestamp="2026-11-29_00-00-00")
    record(w)
    assert (w.length_seconds, w.markers) == (10, [250])
    demo = w.finish()
    assert isinstance(demo, bytes)
    header = gamefmt.open(demo).header
    assert (header["version"], header["map_name"], header["length_seconds"], header["markers"]) == (
        6, "dm1", 10, [250])
    snaps, messages = read_back(demo)
    assert [t for t, _ in snaps][:3] == [0, 1, 2] and snaps[-1][0] == 500
    assert snaps[7][1] == sorted([(10, 0, [1, 0, 0, 0, 20]), (9, 0, character(7))])
    # Read back padded with zeros to a multiple of 4 bytes, as DDNet's
    # recorder pads every chunk (21 bytes given, 24 read).
    assert messages == [(t, b"\x06\x00\x40hello from Python\x00" + bytes(3)) for t in range(50, 500, 100)]

    path = tmp_path / "out.demo"
    with gamefmt.DemoWriter(path, map_name="dm1", map_crc=0xF2159E6E, map_sha256=bytes(32),
                            timestamp="2026-11-29_00-00-00") as w:
        record(w)
    assert path.read_bytes() == demo

    f = io.BytesIO(b"prefix")
    f.seek(6)
    w = gamefmt.DemoWriter(f, map_name="dm1", map_crc=0xF2159E6E, map_sha256=bytes(32),
                           timestamp="2026-11-29_00-00-00")
    record(w)
    assert w.finish() is None
    assert f.getvalue() == b"prefix" + demo

    class Pipe:
        def __init__(self):
            self.data = bytearray()

        def write(self, b):
            self.data += b

    pipe = Pipe()
    w = gamefmt.DemoWriter(pipe, map_name="dm1", map_crc=0xF2159E6E, map_sha256=bytes(32),
                           timestamp="2026-11-29_00-00-00")
    record(w)
    patch = w.finish()
    assert [at for at, _ in patch] == [152, 176]
    for at, b in patch:
        pipe.data[at:at + len(b)] = b
    assert bytes(pipe.data) == demo


def test_errors():
    w = gamefmt.DemoWriter(map_name="dm1")
    w.snapshot(100, [(9, 0, [0] * 22)])
    with pytest.raises(gamefmt.DecodeError) as e:
        w.snapshot(99, [(9, 0, [0] * 22)])
    assert e.value.kind == "corrupt" and "backwards" in str(e.value)
    with pytest.raises(gamefmt.DecodeError):
        w.snapshot(101, [(9, 0, [0] * 22), (9, 0, [1] * 22)])  # a duplicate key
    with pytest.raises(gamefmt.UsageError):
        w.snapshot(101, "not a snapshot")
    with pytest.raises(gamefmt.UsageError):
        gamefmt.DemoWriter(map_name="dm1", map_sha256=b"short")
    with pytest.raises(gamefmt.DecodeError) as e:
        gamefmt.DemoWriter(map_name="dm1", version=7)
    assert e.value.kind == "unsupported_version"
    w.finish()
    with pytest.raises(gamefmt.UsageError):
        w.message(b"\x06")


@pytest.mark.parametrize("path", corpus_files("teeworlds/demos", "*.demo"))
def test_corpus_demos_recorded_again(path):
    demo = gamefmt.open(path)
    h = demo.header
    w = gamefmt.DemoWriter(
        map_name=h["map_name"], map_crc=h["map_crc"], map_sha256=h["map_sha256"],
        version=max(h["version"], 4), net_version=h["net_version"], kind=h["type"],
        timestamp=h["timestamp"])
    snaps, messages = [], []
    tick, pending = None, False
    last_items = None

    def flush():
        nonlocal pending
        if pending and last_items is not None:
            w.snapshot(tick, last_items)
            snaps.append((tick, sorted(last_items)))
        pending = False

    try:
        for chunk in demo.chunks(snapshots=True):
            if chunk["kind"] == "tick":
                flush()
                tick, pending = chunk["tick"], True
            elif chunk["kind"] in ("snapshot", "delta"):
                last_items = [(t, i, list(d)) for t, i, d in chunk["items"]]
                flush()
            elif chunk["kind"] == "message":
                flush()
                w.message(chunk["data"])
                messages.append((tick, chunk["data"]))
    except gamefmt.DecodeError:
        pass  # the truncated demo: what decodes
    flush()
    out = w.finish()
    got_snaps, got_messages = read_back(out)
    # Every snapshot read back is the original's at its tick (a tick whose
    # snapshot equals the one before has no chunk, in DDNet's files too).
    assert got_messages == messages
    assert {t for t, _ in got_snaps} <= {t for t, _ in snaps}
    by_tick = dict(snaps)
    assert all(by_tick[t] == items for t, items in got_snaps)

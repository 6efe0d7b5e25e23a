"""to_arrow: the gamefmt-arrow tables through the Arrow PyCapsule
interface, read by pyarrow (and polars and duckdb when installed), checked
against peppi-py's and twmap's own readings."""

import pytest

import gamefmt
from conftest import corpus_files, corpus_root

pa = pytest.importorskip("pyarrow")


def one_file_per_format():
    root = corpus_root()
    picks = [
        "slippi/v3.12.0_peppi_v3.12.slp",
        "teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian",
        "teeworlds/demos/teeworlds-traffic-dumps__dumps__075_tw_tinycave_other_player_disconnect__client_bar.demo",
        "teeworlds/maps/crate-twmap-0.16.0__tests__editor.map",
    ]
    params = [pytest.param(root / p, id=p.rsplit("/", 1)[-1]) for p in picks if root and (root / p).is_file()]
    return params or [pytest.param(None, marks=pytest.mark.skip(reason="SKIPPED: corpus absent"), id="no-corpus")]


@pytest.mark.parametrize("path", one_file_per_format())
def test_every_table_reads_into_pyarrow(path):
    f = gamefmt.open(path)
    assert f.tables
    for name in f.tables:
        table = pa.table(f.to_arrow(name, batch_rows=1000))
        assert table.num_columns > 1, name
    with pytest.raises(gamefmt.UsageError):
        f.to_arrow("no such table")


@pytest.mark.parametrize("path", one_file_per_format())
def test_arrow_tables_decodes_once_into_the_same_tables(path):
    f = gamefmt.open(path)
    tables = f.arrow_tables(batch_rows=1000)
    assert list(tables) == f.tables
    for name, rows in tables.items():
        table = pa.table(rows)
        assert table.equals(pa.table(f.to_arrow(name, batch_rows=1000))), name
        assert len(rows) == table.num_rows
        assert pa.table(rows).equals(table)  # read again
        assert pa.schema(rows) == table.schema
    # Damaged (cut in half, garbage after): arrow_tables raises a
    # gamefmt.Error exactly when reading some table through to_arrow fails.
    damaged = bytes(path.read_bytes()[: path.stat().st_size // 2] + b"\xff" * 64)
    failed = False
    for name in f.tables:
        try:
            pa.table(gamefmt.open(damaged).to_arrow(name))
        except Exception:  # noqa: BLE001 - the consumer's own error type
            failed = True
    if failed:
        with pytest.raises(gamefmt.Error):
            gamefmt.open(damaged).arrow_tables()
    else:
        assert list(gamefmt.open(damaged).arrow_tables()) == f.tables
    # A cut replay ends as truncated, and so does a demo cut inside its
    # embedded map (the map's bytes are not read as chunks).
    assert failed or f.format in ("slippi", "map", "demo")


def test_a_stream_reads_again_and_has_a_schema():
    root = corpus_root()
    path = root / "slippi" / "v3.12.0_peppi_v3.12.slp" if root else None
    if not path or not path.is_file():
        pytest.skip("SKIPPED: corpus absent")
    with open(path, "rb") as f:
        stream = gamefmt.open(f).to_arrow("games")
    first = pa.table(stream)
    assert first.num_rows == 1
    assert pa.table(stream).equals(first)
    assert pa.schema(stream) == first.schema
    assert first.column("stage_name").to_pylist() == [gamefmt.open(path).header["stage_name"]]


def test_polars_and_duckdb_accept_it():
    root = corpus_root()
    path = root / "slippi" / "v3.12.0_peppi_v3.12.slp" if root else None
    if not path or not path.is_file():
        pytest.skip("SKIPPED: corpus absent")
    replay = gamefmt.open(path)
    rows = pa.table(replay.to_arrow("frames")).num_rows
    polars = pytest.importorskip("polars")
    assert polars.DataFrame(replay.to_arrow("frames")).height == rows
    duckdb = pytest.importorskip("duckdb")
    frames = replay.to_arrow("frames")  # noqa: F841 - read by name below
    assert duckdb.sql("SELECT count(*) FROM frames").fetchall() == [(rows,)]


@pytest.mark.parametrize("path", corpus_files("slippi", "*.slp"))
def test_frames_table_vs_peppi(path):
    peppi = pytest.importorskip("peppi_py")
    try:
        game = peppi.read_slippi(str(path))
    except BaseException as e:  # noqa: BLE001 - the peer panics on some files
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        pytest.skip(f"peppi-py fails ({type(e).__name__}); facts checked in test_corpus")
    frames = pa.table(gamefmt.open(path).to_arrow("frames")).to_pydict()
    # peppi-py keeps every version of a frame in stream order, as the
    # table does (rollback re-sends included).
    for player, data in zip(game.start.players, game.frames.ports):
        port = player.port.value + 1
        rows = [
            i for i, (p, f) in enumerate(zip(frames["port"], frames["follower"])) if p == port and not f
        ]
        theirs = data.leader.post.stocks.to_pylist()
        ours = [frames["post_stocks_remaining"][i] for i in rows]
        if len(ours) != len(theirs):
            # A port missing from some frames (see test_peers): peppi-py
            # fills rows the stream does not have; test_peers compares
            # such a port up to the gap.
            continue
        assert ours == theirs, port
        assert [frames["post_position_x"][i] for i in rows] == data.leader.post.position.x.to_pylist()


@pytest.mark.parametrize("path", one_file_per_format())
def test_the_file_column_names_the_source(path):
    """`file` holds the path given (or a file-like object's `name`), as in
    `gamefmt export`, so tables of several files join on it; bytes have
    no name."""
    import io

    for src, want in [
        (path, str(path)),
        (str(path), str(path)),
        (open(path, "rb"), str(path)),
        (path.read_bytes(), None),
        (io.BytesIO(path.read_bytes()), None),
    ]:
        f = gamefmt.open(src)
        for name, table in f.arrow_tables().items():
            files = set(pa.table(table).column("file").to_pylist())
            assert files <= {want}, (name, files)
        for name in f.tables:
            files = set(pa.table(f.to_arrow(name)).column("file").to_pylist())
            assert files <= {want}, (name, files)
        first = next(pa.table(f.to_arrow(t)) for t in f.tables if pa.table(f.to_arrow(t)).num_rows)
        assert first.column("file").to_pylist()[0] == want


def test_a_damaged_file_raises_gamefmt_error_unless_streamed():
    root = corpus_root()
    path = root / "teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian" if root else None
    if not path or not path.is_file():
        pytest.skip("SKIPPED: corpus absent")
    # Cut in the middle and followed by bytes no recording holds there:
    # damage well after the start, raised as gamefmt.Error with its offset.
    data = path.read_bytes()
    data = data[: len(data) // 2]
    f = gamefmt.open(data + b"\xff" * 64)
    with pytest.raises(gamefmt.Error) as caught:
        pa.table(f.to_arrow("positions"))
    assert caught.value.offset > 0
    with pytest.raises(Exception) as streamed:
        pa.table(f.to_arrow("positions", stream=True))
    assert str(caught.value) in str(streamed.value)

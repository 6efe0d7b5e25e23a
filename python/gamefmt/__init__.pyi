"""Type stubs of gamefmt (the native module gamefmt._gamefmt)."""

import os
import pathlib
from collections.abc import Sequence
from typing import IO, Any, Iterator, Literal, Optional, Union, final, overload

from .records import (
    ExError,
    ExFields,
    SlippiEvent,
    SlippiFrame,
    SlippiHeader,
    SlippiStats,
    SlippiWinner,
    TeehistorianRecordDict,
)

_Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]
_Record = dict[str, Any]
_End = Literal["complete", "eof", "truncated"]

__all__ = [
    "FORMATS",
    "ArrowStream",
    "ArrowTable",
    "Chunks",
    "DecodeError",
    "Demo",
    "DemoWriter",
    "Error",
    "Events",
    "Frames",
    "Map",
    "Records",
    "Replay",
    "SourceError",
    "Teehistorian",
    "TeehistorianRecord",
    "UsageError",
    "Watch",
    "files",
    "open",
    "watch",
]

FORMATS: dict[str, bytes]
"""The core's registry of formats (gamefmt::Format::ALL): each format's
name (as the core names it: "datafile", "demo", "slippi", "teehistorian")
and the bytes its files start with."""

class Error(Exception):
    """Every error gamefmt raises."""

    offset: int | None
    """Byte offset in the input where decoding failed (None when not about a byte)."""
    kind: str
    """Short name of the cause: truncated, bad_magic, corrupt, source, usage, ..."""

class DecodeError(Error):
    """The input is damaged or not a format gamefmt reads."""

class SourceError(Error):
    """Reading the source failed (the source's exception is the __cause__)."""

class UsageError(Error):
    """An unsupported source type, unknown table or layer, or a second pass
    over a file-like object that cannot seek."""

@final
class ArrowStream:
    """One table as Arrow data (Arrow PyCapsule interface); each read decodes again."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...
    def __arrow_c_schema__(self) -> object: ...

@final
class ArrowTable:
    """One table's rows from arrow_tables(), held in memory (Arrow PyCapsule
    interface); can be read any number of times."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...
    def __arrow_c_schema__(self) -> object: ...
    def __len__(self) -> int: ...

class _File:
    """What every format's class offers."""

    @property
    def header(self) -> _Record:
        """The file's header as a dict (per format: see the class)."""
    @property
    def metadata(self) -> _Record | None:
        """Metadata beyond the header (the header again where there is none)."""
    @property
    def tables(self) -> list[str]:
        """The names of this format's Arrow tables."""
    def to_arrow(self, table: str, batch_rows: int = 65536, stream: bool = False) -> ArrowStream:
        """Table `table` as Arrow data, the same table gamefmt export writes.
        Each read decodes the file whole first (a damaged file raises
        gamefmt.Error); stream=True hands batches over as they are decoded,
        and damage then reaches the consumer as its own exception."""
    def arrow_tables(self, batch_rows: int = 65536) -> dict[str, ArrowTable]:
        """Every table from one decode (rows held in memory), by name."""

class _Stream(_File):
    @property
    def end(self) -> _End | None:
        """How the last complete pass ended (None before one ended)."""

@final
class Events(Iterator[SlippiEvent]):
    """A replay's events (gamefmt.records.SlippiEvent), in stream order."""

    def __next__(self) -> SlippiEvent: ...

@final
class Frames(Iterator[SlippiFrame]):
    """A replay's frames (gamefmt.records.SlippiFrame)."""

    def __next__(self) -> SlippiFrame: ...

@final
class Records(Iterator[list[TeehistorianRecord]]):
    """A pass's records in chunks (lists of up to 256), which records() chains."""

    def __next__(self) -> list[TeehistorianRecord]: ...

@final
class TeehistorianRecord:
    """One teehistorian record: attributes, and a read-only mapping of the
    same keys (kind, tick, offset, the kind's fields, player when known),
    as the record dicts of earlier versions were. A field the record's kind
    lacks raises AttributeError (KeyError by key)."""

    __hash__: None  # type: ignore[assignment]

    @property
    def kind(self) -> str:
        """PLAYER_DIFF, PLAYER_NEW, PLAYER_OLD, INPUT_DIFF, INPUT_NEW, TICK_SKIP,
        MESSAGE, JOIN, DROP, CONSOLE_COMMAND, EX or FINISH."""
    @property
    def tick(self) -> int: ...
    @property
    def offset(self) -> int:
        """The record's byte offset in the file."""
    @property
    def player(self) -> str | None:
        """The name of the client the record is about, None when unknown."""
    @property
    def cid(self) -> int: ...
    @property
    def dx(self) -> int: ...
    @property
    def dy(self) -> int: ...
    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...
    @property
    def dt(self) -> int: ...
    @property
    def input(self) -> list[int]: ...
    @property
    def diff(self) -> list[int]: ...
    @property
    def data(self) -> bytes: ...
    @property
    def message(self) -> str | None: ...
    @property
    def text(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def flags(self) -> int: ...
    @property
    def source(self) -> str: ...
    @property
    def cmd(self) -> str: ...
    @property
    def args(self) -> list[str]: ...
    @property
    def uuid(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def fields(self) -> ExFields: ...
    @property
    def error(self) -> ExError: ...
    def __getitem__(self, key: str, /) -> Any: ...
    def get(self, key: str, default: Any | None = None) -> Any: ...
    def __contains__(self, key: str, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> list[str]: ...
    def values(self) -> list[Any]: ...
    def items(self) -> list[tuple[str, Any]]: ...
    def to_dict(self) -> TeehistorianRecordDict:
        """The record as a dict (gamefmt.records.TeehistorianRecordDict)."""
    def __eq__(self, value: object, /) -> bool: ...

@final
class Chunks(Iterator[_Record]):
    def __next__(self) -> _Record: ...

@final
class Replay(_Stream):
    """A Slippi .slp replay. header: Game Start (version, stage, stage_name,
    is_pal, players, raw_len, ...); metadata: the metadata element after the
    events, None when absent."""

    @property
    def format(self) -> Literal["slippi"]: ...
    @property
    def header(self) -> SlippiHeader:  # type: ignore[override]
        """Game Start: version, stage, players, ..., raw_len."""
    @property
    def winners(self) -> list[SlippiWinner]:
        """Winning ports with positions: [{"port": 1, "position": 0}]."""
    def events(self) -> Events:
        """The events as dicts, in stream order."""
    def frames(self) -> Frames:
        """The frames: {"frame", "rollback", "start", "players", "items", "end"}."""
    @overload
    def stats(self, slippi_js: Literal[False] = False) -> SlippiStats:
        """The game's stats (slippi-js 9.1.2's definitions, the core's names)."""
    @overload
    def stats(self, slippi_js: Literal[True]) -> Optional[dict[str, Any]]:
        """slippi-js's own getStats() dict (camelCase), None where undefined."""
    def __iter__(self) -> Events: ...

@final
class Teehistorian(_Stream):
    """A DDNet teehistorian recording. header: the JSON header."""

    @property
    def format(self) -> Literal["teehistorian"]: ...
    def records(self) -> Iterator[TeehistorianRecord]:
        """The records (a new pass): kind, tick, offset, fields, player."""
    def __iter__(self) -> Iterator[TeehistorianRecord]: ...

@final
class Demo(_Stream):
    """A Teeworlds/DDNet demo. header: version, net_version, map_name,
    map_size, map_crc, map_sha256, type, length_seconds, timestamp, markers."""

    @property
    def format(self) -> Literal["demo"]: ...
    def chunks(self, snapshots: bool = False) -> Chunks:
        """The chunks as dicts; with snapshots, the rebuilt snapshot's items."""
    def __iter__(self) -> Chunks: ...

@final
class DemoWriter:
    """Records a Teeworlds/DDNet demo byte for byte as DDNet's recorder.

    dest: None (kept in memory; finish() returns the demo), a path, or a
    binary file-like object with write() (its header patched through seek()
    at the end when seekable(), else finish() returns the patch)."""

    def __new__(
        cls,
        dest: str | os.PathLike[str] | IO[bytes] | None = None,
        *,
        map_name: str,
        map_crc: int = 0,
        map_sha256: bytes | None = None,
        map_data: bytes | None = None,
        version: int = 6,
        net_version: str = "0.6 626fce9a778df4d4",
        kind: str = "server",
        timestamp: str = "1970-01-01_00-00-00",
        trailing_zero: bool = False,
    ) -> DemoWriter: ...
    def snapshot(
        self, tick: int, snap: bytes | bytearray | memoryview | Sequence[tuple[int, int, Sequence[int]]]
    ) -> None:
        """Records the snapshot of tick: CSnapshot bytes or (type_id, id, [ints]) items."""
    def message(self, data: bytes | bytearray | memoryview) -> None:
        """Records a message (its bytes as the network carries them)."""
    def add_marker(self, tick: int | None = None) -> bool:
        """Adds a timeline marker (None: at the last tick); False when refused."""
    @property
    def length_seconds(self) -> int: ...
    @property
    def markers(self) -> list[int]: ...
    def finish(self) -> bytes | list[tuple[int, bytes]] | None:
        """The demo (in memory), None (path or seekable object, patched) or the
        header patch [(offset, bytes)] for an object that cannot seek."""
    def __enter__(self) -> DemoWriter: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool: ...

@final
class Map(_File):
    """A Teeworlds/DDNet map (any datafile). header: version, item_types,
    items, data, size; metadata: the info item (author, map_version,
    credits, license, settings) and the map version."""

    @property
    def format(self) -> Literal["map"]: ...
    @property
    def groups(self) -> list[_Record]:
        """index, name, offset, parallax, clip, start_layer, layer_count (empty groups too)."""
    @property
    def layers(self) -> list[_Record]:
        """index, group, kind, name, detail; tile_kind, width, height, ... for tile layers."""
    def tiles(self, layer: int) -> Any:
        """Layer `layer`'s tiles: a numpy structured array of shape (height, width)."""
    def items(self) -> list[_Record]:
        """The datafile items: type_id, id, data."""
    def to_bytes(self) -> bytes: ...
    def __iter__(self) -> Iterator[_Record]: ...

def open(src: _Source) -> Replay | Teehistorian | Demo | Map:
    """Opens src (path, bytes-like or binary file object) as its format.
    A path may name a zip archive's member (replays.zip/games/a.slp,
    streamed from the archive); .slpz replays are decoded, gzip, zstd and
    xz files decompressed, as the CLI reads its inputs."""

def files(*paths: str | os.PathLike[str]) -> list[pathlib.Path]:
    """The files paths stand for, as the CLI reads them: a directory's
    files (recursively, sorted, hidden ones skipped), a zip archive's
    members as archive.zip/MEMBER (each readable by open()), other paths
    as given."""

@final
class Watch(Iterator[_Record]):
    """The lines gamefmt watch prints, as dicts, as they happen: game_start,
    stock_lost, combo_start/combo_end, conversion_start/conversion_end,
    game_end (with winners, last_frame, end, recorded); handshake for a
    console. Each has kind and game (the game's number, from 0)."""

    @property
    def stats(self) -> dict[int, SlippiStats]:
        """Each ended game's final stats by game number (as Replay.stats())."""
    def close(self) -> None:
        """Stops watching; the iterator ends."""
    def __next__(self) -> _Record: ...
    def __enter__(self) -> Watch: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool: ...

def watch(
    source: str | os.PathLike[str],
    *,
    record: str | os.PathLike[str] | None = None,
    exit_on_game_end: bool = False,
    idle_timeout: float | None = None,
    start_at: str | None = None,
    reconnect: bool = False,
) -> Watch:
    """Follows a Slippi game as gamefmt watch does: a .slp file being
    written (until its game ends), a folder where Dolphin writes replays,
    or "HOST:PORT" of a console or relay; keyword arguments as the
    command's options (--record, --exit-on-game-end, --idle-timeout in
    seconds, --start-at, --reconnect)."""

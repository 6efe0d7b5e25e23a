"""Type stubs of gamefmt (the native module gamefmt._gamefmt)."""

import os
from typing import IO, Any, Iterator, Literal, Protocol, Union

Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]
Record = dict[str, Any]
End = Literal["complete", "eof", "truncated"]

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

class ArrowStream:
    """One table as an Arrow stream (Arrow PyCapsule interface); consumed once."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

class _Tables(Protocol):
    @property
    def tables(self) -> list[str]:
        """The names of this format's Arrow tables."""
    def to_arrow(self, table: str, batch_rows: int = 65536) -> ArrowStream:
        """Table `table` as an Arrow stream, the same table gamefmt-export writes."""

class Events(Iterator[Record]):
    def __next__(self) -> Record: ...

class Frames(Iterator[Record]):
    def __next__(self) -> Record: ...

class Records(Iterator[Record]):
    def __next__(self) -> Record: ...

class Chunks(Iterator[Record]):
    def __next__(self) -> Record: ...

class Replay(_Tables):
    """A Slippi .slp replay."""

    @property
    def format(self) -> Literal["slippi"]: ...
    @property
    def header(self) -> Record:
        """Game Start: version, stage, stage_name, is_pal, players, raw_len, ..."""
    @property
    def metadata(self) -> Record | None:
        """The metadata element after the events (None when absent)."""
    @property
    def winners(self) -> list[Record]:
        """Winning ports with positions: [{"port": 1, "position": 0}]."""
    @property
    def end(self) -> End | None:
        """How the last complete pass ended."""
    def events(self) -> Events:
        """The events as dicts, in stream order."""
    def frames(self) -> Frames:
        """The frames: {"frame", "rollback", "start", "players", "items", "end"}."""
    def __iter__(self) -> Events: ...

class Teehistorian(_Tables):
    """A DDNet teehistorian recording."""

    @property
    def format(self) -> Literal["teehistorian"]: ...
    @property
    def header(self) -> Record:
        """The JSON header."""
    @property
    def metadata(self) -> Record: ...
    @property
    def end(self) -> End | None: ...
    def records(self) -> Records:
        """The records as dicts: kind, tick, offset, fields, player."""
    def __iter__(self) -> Records: ...

class Demo(_Tables):
    """A Teeworlds/DDNet demo."""

    @property
    def format(self) -> Literal["demo"]: ...
    @property
    def header(self) -> Record:
        """version, net_version, map_name, map_size, map_crc, map_sha256, type, ..."""
    @property
    def metadata(self) -> Record: ...
    @property
    def end(self) -> End | None: ...
    def chunks(self, snapshots: bool = False) -> Chunks:
        """The chunks as dicts; with snapshots, the rebuilt snapshot's items."""
    def __iter__(self) -> Chunks: ...

class Map(_Tables):
    """A Teeworlds/DDNet map (any datafile)."""

    @property
    def format(self) -> Literal["map"]: ...
    @property
    def header(self) -> Record:
        """version, item_types, items, data, size."""
    @property
    def metadata(self) -> Record:
        """The info item: author, map_version, credits, license, settings; version."""
    @property
    def layers(self) -> list[Record]:
        """index, group, kind, name, detail; tile_kind, width, height, ... for tile layers."""
    def tiles(self, layer: int) -> Any:
        """Layer `layer`'s tiles: a numpy structured array of shape (height, width)."""
    def items(self) -> list[Record]:
        """The datafile items: type_id, id, data."""
    def to_bytes(self) -> bytes: ...
    def __iter__(self) -> Iterator[Record]: ...

def open(src: Source) -> Replay | Teehistorian | Demo | Map:
    """Opens src (path, bytes-like or binary file object) as its format."""

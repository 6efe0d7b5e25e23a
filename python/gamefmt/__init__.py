"""gamefmt: streaming decoders for Teeworlds/DDNet maps, demos and
teehistorian recordings, and Slippi replays (Super Smash Bros. Melee).

``gamefmt.open(src)`` takes a path, ``bytes``/``bytearray``/``memoryview`` or
a binary file-like object (a ``zipfile`` member streams without a temporary
file; so does a path into a zip, ``replays.zip/games/a.slp``, and ``.slpz``
replays are decoded, as the CLI reads them), tells the format by its first bytes and returns a ``Replay``,
``Teehistorian``, ``Demo`` or ``Map``. Stream formats are read in constant
memory; teehistorian records come as light ``TeehistorianRecord`` objects
(attributes, and read as mappings like the dicts of earlier versions),
other formats' records as dicts. Their shapes, as ``TypedDict`` types, are in
``gamefmt.records`` (the names the CLI's ``gamefmt dump`` uses too). Every failure is a ``gamefmt.Error`` (or a
subclass) whose ``offset`` is the byte offset where decoding failed.

``gamefmt.files(path)`` lists what a folder or zip holds, as the CLI reads
it; ``gamefmt.watch(src)`` follows a game being played (a growing ``.slp``,
a Dolphin folder, a console's ``HOST:PORT``) and yields the lines
``gamefmt watch`` prints, as dicts. ``gamefmt.FORMATS`` is the core's
registry of formats (name: magic bytes).
"""

from collections.abc import Mapping

from ._gamefmt import (
    FORMATS,
    ArrowStream,
    ArrowTable,
    Chunks,
    DecodeError,
    Demo,
    DemoWriter,
    Error,
    Events,
    Frames,
    Map,
    Records,
    Replay,
    SourceError,
    Teehistorian,
    TeehistorianRecord,
    UsageError,
    Watch,
    files,
    open,
    watch,
)

# A record reads as a read-only mapping (keys, items, get, ...).
Mapping.register(TeehistorianRecord)

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

#!/usr/bin/env python3
"""Variants of a teehistorian recording, to tell what a row of
`gamefmt-peers teehistorian` pays for: its messages by kind, and its size.

    python3 teehistorian_variants.py FILE OUTDIR

writes, under OUTDIR/teeworlds/teehistorian/ (a corpus of its own for
`GAMEFMT_CORPUS=OUTDIR gamefmt-peers repeat corpus NAME ours|peer for N`):

- `no-input-diff.teehistorian`: FILE without its INPUT_DIFF messages;
- `only-input-diff.teehistorian`: its header, its INPUT_DIFFs and FINISH;
- `only-player-diff.teehistorian`: its header, its PLAYER_DIFFs and FINISH;
- `rare.teehistorian`: its header, its messages that are neither
  PLAYER_DIFF nor INPUT_DIFF, and FINISH;
- `copies-K.teehistorian` (K = 1, 2, 4, 8, 11): its header and its
  messages up to FINISH (or the last whole one) K times over, FINISH once.

Each keeps FILE's messages byte for byte, so their kinds and shapes (only
the ticks at the seams of copies may differ: INPUT_DIFF starts no tick,
spec section 2.3). The time a pass takes, per message, across these tells
apart the cost of a kind (no-input-diff against FILE) and that of the
file's size alone (copies-K).
"""
import sys
from pathlib import Path

MAGIC_LEN = 16


class UnknownMessage(Exception):
    """A message id the spec does not define."""


def varint(data, at):
    """The packed int at `at` and its length in bytes."""
    first = data[at]
    value = first & 0x3F
    shift = 6
    length = 1
    while data[at + length - 1] & 0x80:
        value |= (data[at + length] & 0x7F) << shift
        shift += 7
        length += 1
    return (~value if first & 0x40 else value), length


def messages(data, at):
    """(id, start, end) of each message from `at`, up to FINISH or the
    last whole message."""
    # Ints after the id, per message id (negative ids; PLAYER_DIFF is any
    # non-negative id, the cid, with two more ints).
    fixed = {-2: 1, -3: 3, -4: 1, -5: 11, -6: 11, -8: 1}
    while at < len(data):
        try:
            mid, n = varint(data, at)
            end = at + n

            def ints(k):
                nonlocal end
                for _ in range(k):
                    end += varint(data, end)[1]

            def string():
                nonlocal end
                end = data.index(b"\0", end) + 1

            if mid >= 0:
                ints(2)
            elif mid == -1:
                pass
            elif mid in fixed:
                ints(fixed[mid])
            elif mid == -7:  # MESSAGE: cid, length, bytes
                ints(1)
                size, m = varint(data, end)
                end += m + size
            elif mid == -9:  # DROP: cid, reason
                ints(1)
                string()
            elif mid == -10:  # CONSOLE_COMMAND: cid, flags, cmd, args
                ints(2)
                string()
                count, m = varint(data, end)
                end += m
                for _ in range(count):
                    string()
            elif mid == -11:  # EX: UUID, length, bytes
                end += 16
                size, m = varint(data, end)
                end += m + size
            else:
                raise UnknownMessage(f"message id {mid} at byte {at}")
        except (IndexError, ValueError):
            return  # the file ends inside this message (or its string)
        if end > len(data):
            return
        yield mid, at, end
        if mid == -1:
            return
        at = end


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = Path(sys.argv[1]).read_bytes()
    header_end = data.index(b"\0", MAGIC_LEN) + 1
    header = data[:header_end]
    body = bytearray()
    no_input = bytearray()
    only_input = bytearray()
    only_player = bytearray()
    rare = bytearray()
    for mid, start, end in messages(data, header_end):
        if mid == -1:
            break
        body += data[start:end]
        if mid == -5:
            only_input += data[start:end]
        else:
            no_input += data[start:end]
            if mid >= 0:
                only_player += data[start:end]
            else:
                rare += data[start:end]
    finish = bytes([0x40])  # FINISH: the packed int -1
    out = Path(sys.argv[2]) / "teeworlds" / "teehistorian"
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "no-input-diff": header + no_input + finish,
        "only-input-diff": header + only_input + finish,
        "only-player-diff": header + only_player + finish,
        "rare": header + rare + finish,
    }
    for k in (1, 2, 4, 8, 11):
        files[f"copies-{k:02}"] = header + body * k + finish
    for name, content in files.items():
        (out / f"{name}.teehistorian").write_bytes(content)
        print(f"{name}.teehistorian: {len(content)} bytes")


if __name__ == "__main__":
    main()

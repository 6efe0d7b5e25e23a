#!/usr/bin/env python3
"""Shrinks a .slp replay into a small, still valid seed: the Event Payloads
table, Game Start, the first Message Splitter chunks, frame events up to a
byte budget, the last Game End, and the metadata; the raw length patched.
Usage: trim_slp.py IN OUT [BUDGET]. Exits 1 (writing nothing) when IN is
not a well-formed .slp."""
import struct
import sys

SIG = b"{U\x03raw[$U#l"
META = b"U\x08metadata"


def main():
    src, dst = sys.argv[1], sys.argv[2]
    budget = int(sys.argv[3]) if len(sys.argv) > 3 else 12288
    data = open(src, "rb").read()
    if not data.startswith(SIG) or len(data) < 17 or data[15] != 0x35:
        return 1
    raw_len = struct.unpack(">I", data[11:15])[0]
    n = data[16]
    table = data[15 : 15 + n + 1]
    if n % 3 != 1 or len(table) < n + 1:
        return 1
    sizes = {}
    for i in range(2, n + 1, 3):
        sizes[table[i]] = struct.unpack(">H", table[i + 1 : i + 3])[0]
    end = 15 + raw_len if raw_len else len(data)
    pos = 15 + n + 1
    kept, splitters, frames_bytes, game_end = [], 0, 0, None
    while pos < end:
        code = data[pos]
        if code not in sizes:
            break
        ev = data[pos : pos + sizes[code] + 1]
        if len(ev) < sizes[code] + 1:
            break
        pos += len(ev)
        if code == 0x39:
            game_end = ev
        elif code == 0x36:
            kept.append(ev)
        elif code == 0x10:
            if splitters < 2:
                kept.append(ev)
            splitters += 1
        elif frames_bytes < budget:
            kept.append(ev)
            frames_bytes += len(ev)
    if game_end:
        kept.append(game_end)
    raw = table + b"".join(kept)
    tail = b"}"
    if raw_len and data[end : end + len(META)] == META:
        tail = data[end:]
    out = SIG + struct.pack(">I", len(raw)) + raw + tail
    open(dst, "wb").write(out)
    return 0


sys.exit(main())

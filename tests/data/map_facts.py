#!/usr/bin/env python3
"""Independent reader for the `map` object of `gamefmt inspect --json`.

Written from the format description (spec/teeworlds.md §3, DDNet's
mapitems.h field order) with the standard library only; it shares no code
with the crate. It walks the datafile's item table directly and prints, per
corpus map, one JSON line: {"file": ..., "map": {...}} (or "error" when the
file is not a datafile). Regenerate with:

    python3 tests/data/map_facts.py ../shared/corpus/teeworlds/maps > tests/data/map_facts.jsonl
"""
import json
import os
import struct
import sys


def items(data):
    if data[:4] not in (b"DATA", b"ATAD"):
        raise ValueError("bad magic")
    (version, size, swaplen, ntypes, nitems, ndata, isize, dsize) = struct.unpack_from("<8i", data, 4)
    expected = 36 + 12 * ntypes + 4 * nitems + 4 * ndata * (2 if version == 4 else 1) + isize + dsize
    if expected != len(data):
        raise ValueError("length mismatch")
    pos = 36 + 12 * ntypes
    offsets = struct.unpack_from("<%di" % nitems, data, pos)
    start = 36 + 12 * ntypes + 4 * nitems + 4 * ndata * (2 if version == 4 else 1)
    out = []
    for off in offsets:
        p = start + off
        type_and_id, length = struct.unpack_from("<2i", data, p)
        ints = struct.unpack_from("<%di" % (length // 4), data, p + 8)
        out.append(((type_and_id >> 16) & 0xFFFF, type_and_id & 0xFFFF, ints))
    return out


KINDS = [(1, "game"), (2, "tele"), (4, "speedup"), (8, "front"), (16, "switch"), (32, "tune")]


def facts(data):
    its = items(data)
    of = lambda t: [i for (ty, _, i) in its if ty == t]
    if not any(ty == 0 for (ty, _, _) in its):
        return {"groups": 0, "layers": 0, "layer_kinds": {}, "images": 0, "embedded_images": 0,
                "envelopes": 0, "envelope_points": 0, "quads": 0, "sounds": 0,
                "game_layer": None, "legacy": True}
    kinds = {}
    quads = 0
    game = None
    for layer in of(5):
        t = layer[1]
        if t == 2:
            name = "tiles"
            for bit, n in KINDS:
                if layer[6] & bit:
                    name = n
                    break
            if name == "game":
                game = {"width": layer[4], "height": layer[5]}
        elif t == 3:
            name = "quads"
            quads += layer[4]
        elif t == 10:
            name = "sounds"
        elif t == 9:
            name = "sounds_deprecated"
        else:
            name = "unknown"
        kinds[name] = kinds.get(name, 0) + 1
    envs = of(3)
    per_point = 22 if any(e[0] >= 3 for e in envs) else 6
    points = sum(len(p) for p in of(6)) // per_point
    images = of(2)
    return {
        "groups": len(of(4)),
        "layers": len(of(5)),
        "layer_kinds": kinds,
        "images": len(images),
        "embedded_images": sum(1 for i in images if i[3] == 0),
        "envelopes": len(envs),
        "envelope_points": points,
        "quads": quads,
        "sounds": len(of(7)),
        "game_layer": game,
        "legacy": False,
    }


def main(folder):
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".map"):
            continue
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        try:
            line = {"file": name, "map": facts(data)}
        except ValueError as e:
            line = {"file": name, "error": str(e)}
        print(json.dumps(line, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])

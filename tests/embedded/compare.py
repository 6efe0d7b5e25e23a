#!/usr/bin/env python3
"""Checks the firmware's lines (run.sh) against `gamefmt inspect --json`.

Usage: compare.py GAMEFMT_BINARY FIRMWARE_OUTPUT FILE_LIST

Each firmware line is `PATH key=value ...`; every key but `stack` (and the
map's `tiles`, which inspect does not count) must equal what the host's
CLI reports for the same file, and every listed file must have a line.
"""
import json
import subprocess
import sys


def facts_of(line):
    """Splits `PATH k=v k=v` from the right: paths may hold spaces."""
    words = line.split(" ")
    facts = {}
    while words and "=" in words[-1] and words[-1].split("=", 1)[0].isidentifier():
        key, value = words.pop().split("=", 1)
        facts[key] = value
    return " ".join(words), facts


def expected(info):
    """The firmware's keys, computed from inspect's JSON object."""
    fmt = info.get("format")
    if fmt == "teehistorian":
        # The CLI keeps its earlier name for a recording's clean end.
        end = "complete" if info["end"] == "finish" else info["end"]
        return {"format": fmt, "records": info["messages"], "end": end,
                "last_tick": info["last_tick"]}
    if fmt == "slippi":
        return {"format": fmt, "records": sum(info["event_counts"].values()),
                "end": info["end"], "first_frame": info["first_frame"],
                "last_frame": info["last_frame"], "unique_frames": info["unique_frames"]}
    if fmt == "demo":
        return {"format": fmt, "records": info["chunks"], "end": info["end"],
                "snapshots": info["snapshots"], "deltas": info["deltas"],
                "messages": info["messages"], "last_tick": info["last_tick"]}
    if fmt in ("map", "datafile"):
        m = info["map"]
        g = m.get("game_layer") or {}
        return {"format": "map", "items": info["items"], "data_items": info["data_items"],
                "groups": m["groups"], "layers": m["layers"],
                "game": f"{g.get('width')}x{g.get('height')}"}
    return {"format": fmt}


def normal(v):
    return "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def main():
    cli, out_path, list_path = sys.argv[1:4]
    wanted = [l.rstrip("\n") for l in open(list_path) if l.strip()]
    lines = {}
    for line in open(out_path, errors="replace"):
        line = line.rstrip("\n")
        path, facts = facts_of(line)
        if path in wanted:
            lines[path] = facts
    bad = 0
    for path in wanted:
        facts = lines.get(path)
        if facts is None:
            print(f"MISSING {path}")
            bad += 1
            continue
        run = subprocess.run([cli, "inspect", "--json", path], capture_output=True, text=True)
        if "error" in facts:
            ok = run.returncode != 0
            print(f"{'ok' if ok else 'MISMATCH'} {path}: firmware refused ({facts['error']}), "
                  f"host {'refused' if run.returncode else 'decoded'}")
            bad += not ok
            continue
        if run.returncode != 0 and facts.get("end") == "damaged":
            print(f"ok {path}: damaged, host refused too ({run.stderr.strip()})")
            continue
        if run.returncode != 0:
            print(f"MISMATCH {path}: host refused: {run.stderr.strip()}")
            bad += 1
            continue
        want = {k: normal(v) for k, v in expected(json.loads(run.stdout)).items()}
        got = {k: v for k, v in facts.items() if k not in ("stack", "tiles")}
        if got != want:
            print(f"MISMATCH {path}:\n  firmware {got}\n  host     {want}")
            bad += 1
        else:
            print(f"ok {path}")
    print(f"{len(wanted) - bad} of {len(wanted)} files agree with the host")
    sys.exit(1 if bad else 0)


main()

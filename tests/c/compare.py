#!/usr/bin/env python3
"""Checks the C ABI against the Rust CLI on every corpus file.

For each teehistorian recording, Slippi replay (damaged ones included),
demo and map/datafile of the corpus ($GAMEFMT_CORPUS or ../shared/corpus),
the JSON line tests/c/run.sh prints (decoded through the C API) must equal
the object `gamefmt inspect --json FILE` prints, key for key (every key of
inspect is exposed by the C API), and a file inspect refuses must give an
object with an `error` key. The C++ build of the same program is checked on
a sample (every fourth file), the teehistorian recordings once more
through a 1 KiB buffer (headers in pieces), and the snapshot builder, delta creation and
application through C against DDNet's own outputs in
teeworlds/snapshot-vectors. Prints SKIPPED when the corpus is absent.
The gzip-compressed teehistorian in teeworlds/large is left out: the C
programs read files as they are (inspect decompresses gzip itself).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
corpus = Path(os.environ.get("GAMEFMT_CORPUS", root.parent / "shared" / "corpus"))
if not corpus.is_dir():
    print(f"SKIPPED C ABI comparison: corpus folder {corpus} not found (set GAMEFMT_CORPUS)")
    sys.exit(0)

patterns = [
    ("teeworlds/teehistorian", "*.teehistorian"),
    ("slippi", "*.slp"),
    ("teeworlds/demos", "*.demo"),
    ("teeworlds/maps", "*.map"),
]
files = []
for sub, pattern in patterns:
    found = sorted((corpus / sub).glob(pattern))
    if not found:
        print(f"SKIPPED C ABI comparison of {sub}/{pattern}: no such files")
    files += found
if not files:
    sys.exit(0)

def run_c(paths, program, buffer=None):
    env = dict(os.environ, GAMEFMT_C_PROGRAM=program)
    if buffer:
        env["GAMEFMT_C_BUFFER"] = str(buffer)
    out = subprocess.run([str(root / "tests/c/run.sh"), *map(str, paths)],
                         env=env, check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    assert len(lines) == len(paths), f"{program}: {len(lines)} lines for {len(paths)} files"
    return [json.loads(line) for line in lines]

# The CLI: $GAMEFMT_BIN (CI's tests step built it), else built here.
gamefmt = os.environ.get("GAMEFMT_BIN") or str(root / "target/debug/gamefmt")
if not os.environ.get("GAMEFMT_BIN"):
    subprocess.run(["cargo", "build", "--quiet", "-p", "gamefmt-cli"],
                   cwd=root, check=True)

def inspect(path):
    """inspect --json's object, or None when it refuses the file."""
    p = subprocess.run([gamefmt, "inspect", "--json", str(path)],
                       capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 else None

expected = [inspect(f) for f in files]
failures = 0
# Teehistorian is streamed through a buffer: 128 KiB, and 1 KiB, where
# DDNet's 4 KiB headers come in pieces.
teehistorian = [f for f in files if f.suffix == ".teehistorian"]
for program, paths, buffer in [("c", files, None), ("cxx", files[::4], None),
                               ("c, 1 KiB buffer", teehistorian, 1024)]:
    got = run_c(paths, program.split(",")[0], buffer)
    refused = 0
    for path, ours in zip(paths, got):
        theirs = expected[files.index(path)]
        if theirs is None:
            refused += 1
            ok = "error" in ours
        else:
            ok = ours == theirs
        if not ok:
            failures += 1
            print(f"MISMATCH ({program}) {path.name}:\n  C:       {ours}\n  inspect: {theirs}")
    print(f"{program}: {len(paths)} files, C output equals `gamefmt inspect --json` "
          f"({refused} refused by both)" if not failures else f"{program}: mismatches")

vectors = corpus / "teeworlds/snapshot-vectors"
if (vectors / "manifest.jsonl").is_file():
    p = subprocess.run([str(root / "target/c/snapshot-vectors"), str(vectors)],
                       capture_output=True, text=True)
    print(p.stdout.strip())
    if p.returncode != 0:
        failures += 1
        print(p.stderr)
else:
    print(f"SKIPPED snapshot vectors through C: no {vectors}/manifest.jsonl")

# The recorder through C: tests/c/record_demo.c decodes every corpus demo
# through the C API, records it again (file and callback: the same bytes)
# and reads it back equal through C (every snapshot and message); here
# `gamefmt inspect --json` reads the recorded demos back: complete, with
# the length the recorder patched, and the original's messages, ticks,
# final snapshot and map.
demos = [f for f in files if f.suffix == ".demo"]
recorded_dir = root / "target/c/recorded"
recorded_dir.mkdir(parents=True, exist_ok=True)
p = subprocess.run([str(root / "target/c/record-demo"), str(recorded_dir), *map(str, demos)],
                   capture_output=True, text=True)
if p.returncode != 0:
    failures += 1
    print(f"record-demo failed:\n{p.stdout}{p.stderr}")
made = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
same = 0
keys = ["messages", "first_tick", "last_tick", "final_snapshot_crc", "final_snapshot_items",
        "map_name", "map_size", "map_sha256", "net_version"]
for rec in made:
    theirs = expected[files.index(next(f for f in demos if f.name == rec["file"]))]
    ours = inspect(rec["recorded"])
    ok = (ours is not None and theirs is not None and ours["end"] == "complete"
          and ours["length_seconds"] == rec["length_seconds"]
          and all(ours[k] == theirs[k] for k in keys))
    same += ok
    if not ok:
        failures += 1
        print(f"MISMATCH recorded through C: {rec['file']}\n  recorded: {ours}\n  original: {theirs}")
print(f"recorder through C: {same} of {len(demos)} corpus demos recorded again (file and "
      f"callback alike), read back equal through C and by `gamefmt inspect --json`")

# Slippi stats through C: tests/c/slp_stats.c prints gamefmt_slp_stats's
# game facts and per-player overall numbers; they must equal the same keys
# of `gamefmt stats --json` (floats read back from %.17g: to the bit), and
# a replay the CLI refuses must have no stats through C either.
slps = [f for f in files if f.suffix == ".slp"]
p = subprocess.run([str(root / "target/c/slp-stats"), *map(str, slps)],
                   capture_output=True, text=True)
got = [json.loads(line) for line in p.stdout.splitlines()]
if p.returncode != 0 or len(got) != len(slps):
    failures += 1
    print(f"slp-stats failed:\n{p.stderr}")
same = refused = 0
for path, ours in zip(slps, got):
    q = subprocess.run([gamefmt, "stats", "--json", str(path)],
                       capture_output=True, text=True)
    if q.returncode != 0:
        ok = "error" in ours
        refused += ok
    else:
        theirs = json.loads(q.stdout)
        keys = ["last_frame", "playable_frame_count", "game_complete"]
        mine = [{k: v for k, v in o.items() if k != "character"} for o in ours.get("overall", [])]
        ok = all(ours.get(k) == theirs[k] for k in keys) and mine == theirs["overall"]
    same += ok
    if not ok:
        failures += 1
        print(f"MISMATCH stats through C: {path.name}\n  C:   {ours}\n  CLI: {q.stdout[:2000]}")
print(f"stats through C: {same} of {len(slps)} replays equal to `gamefmt stats --json` "
      f"(game facts and every player's overall numbers; {refused} without stats in both)")
sys.exit(1 if failures else 0)

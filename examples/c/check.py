"""Runs examples/c/read_file on a corpus file of each format and on a
damaged copy, and checks what it prints against `gamefmt inspect --json`
(examples/c/run.sh builds it; CI's ffi step runs this)."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FILES = {
    "map": "teeworlds/maps/ddnet__data__maps__dm1.map",
    "teehistorian": "teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian",
    "slippi": "slippi/v3.12.0_peppi_v3.12.slp",
    "demo": "teeworlds/demos/ddnet-server__dm1-30s-6bots-2dummies.demo",
}


def facts(program, path):
    done = subprocess.run([program, str(path)], capture_output=True, text=True)
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    return done.returncode, lines, done.stderr


def main():
    program = sys.argv[1]
    corpus = Path(os.environ.get("GAMEFMT_CORPUS") or REPO.parent / "shared" / "corpus")
    gamefmt = os.environ.get("GAMEFMT_BIN") or str(REPO / "target" / "debug" / "gamefmt")
    if not all((corpus / f).is_file() for f in FILES.values()):
        print("SKIPPED: examples/c/read_file on corpus files (corpus absent)")
        return
    failures = []

    def check(what, got, want):
        if str(got) != str(want):
            failures.append(f"{what}: read_file says {got!r}, gamefmt inspect {want!r}")

    for fmt, rel in FILES.items():
        path = corpus / rel
        status, got, err = facts(program, path)
        print(f"read_file {rel}: exit {status}, {len(got)} lines")
        if status != 0:
            failures.append(f"{rel}: exit {status}: {err}")
            continue
        want = json.loads(subprocess.run([gamefmt, "inspect", "--json", str(path)],
                                         capture_output=True, text=True, check=True).stdout)
        check(f"{rel} format", got["format"].split(" ")[0], fmt)
        if fmt == "map":
            m = want["map"]
            check(f"{rel} groups", got["groups"].split(",")[0], m["groups"])
            g = m["game_layer"]
            check(f"{rel} game layer", got["game layer"], f"{g['width']} x {g['height']} tiles")
        elif fmt == "teehistorian":
            check(f"{rel} messages", got["messages"], f"{want['messages']}, last tick: {want['last_tick']}")
            check(f"{rel} end", got["end"], want["end"])
        elif fmt == "slippi":
            check(f"{rel} stage", got["stage"], want["stage_name"])
            check(f"{rel} events", got["events"], sum(want["event_counts"].values()))
            check(f"{rel} end", got["end"], want["end"])
        elif fmt == "demo":
            check(f"{rel} chunks", got["chunks"], want["chunks"])
            check(f"{rel} end", got["end"], want["end"])

    # A damaged copy: exit status 1 and the message `validate` gives.
    data = bytearray((corpus / FILES["teehistorian"]).read_bytes())
    with tempfile.TemporaryDirectory() as tmp:
        for at in range(len(data) // 2, len(data) // 2 + 64):
            data[at] ^= 0xFF
        damaged = Path(tmp) / "damaged.teehistorian"
        damaged.write_bytes(bytes(data))
        status, got, err = facts(program, damaged)
        validate = subprocess.run([gamefmt, "validate", str(damaged)], capture_output=True, text=True)
        print(f"read_file on a damaged recording: exit {status}: {err.strip()}")
        check("damaged exit status", status, 1)
        message = validate.stderr.strip().split(": ", 2)[-1]
        if message not in err:
            failures.append(f"damaged: read_file says {err.strip()!r}, validate {message!r}")
    if failures:
        sys.exit("\n".join(failures))
    print("examples/c/read_file agrees with gamefmt inspect on 4 files and a damaged one")


if __name__ == "__main__":
    main()

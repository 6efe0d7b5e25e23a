"""The Parquet export of Slippi replays against peppi-py, file by file
(run by hand on folders the project has never seen; not in CI):

    python benches/export_check.py GAMEFMT_EXPORT OUT_DIR INPUTS...

exports INPUTS (files or folders) with `gamefmt export` (the gamefmt binary) into
OUT_DIR (`--to parquet`), reads `format=slippi/table=frames` back with
DuckDB, and, for every replay peppi-py 0.8 (`read_slippi`) reads, checks
per port (leader): the number of frame rows, and the stocks, x and y
positions and percent of every Post-Frame Update in stream order (for
a player who left early, up to their last frame: peppi-py's arrays run
on to the game's end), and per file the number of games rows. Needs duckdb, pyarrow and peppi-py.
Prints one line per disagreement and a summary; exit status 1 if any.
"""

import math
import subprocess
import sys
from pathlib import Path

import duckdb
import peppi_py

FIELDS = {
    "post_stocks_remaining": lambda d: d.leader.post.stocks,
    "post_position_x": lambda d: d.leader.post.position.x,
    "post_position_y": lambda d: d.leader.post.position.y,
    "post_percent": lambda d: d.leader.post.percent,
}


def same(a, b):
    """Equal, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


def replays(inputs):
    for i in map(Path, inputs):
        yield from sorted(i.rglob("*.slp")) if i.is_dir() else [i]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tool, out, inputs = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    run = subprocess.run([tool, "export", "--to", "parquet", str(out), *inputs], check=False)
    if run.returncode not in (0, 1):
        sys.exit(f"gamefmt export exited with {run.returncode}")
    frames = str(out / "format=slippi" / "table=frames" / "*.parquet")
    games = str(out / "format=slippi" / "table=games" / "*.parquet")
    db = duckdb.connect()
    cols = ", ".join(FIELDS)
    checked = peer_failed = bad = gaps = 0
    for path in replays(inputs):
        try:
            game = peppi_py.read_slippi(str(path))
        except BaseException as e:  # noqa: BLE001 - the peer panics on some files
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            peer_failed += 1
            print(f"peer fails: {path.name}: {type(e).__name__}: {str(e)[:80]}")
            continue
        name = str(path)
        n_games = db.execute(f"SELECT count(*) FROM '{games}' WHERE file = ?", [name]).fetchone()[0]
        if n_games != 1:
            bad += 1
            print(f"DIFFERS {path.name}: {n_games} games rows")
            continue
        for player, data in zip(game.start.players, game.frames.ports):
            port = player.port.value + 1
            ours = db.execute(
                f"SELECT {cols} FROM read_parquet('{frames}', filename = true, file_row_number = true)"
                " WHERE file = ? AND port = ? AND NOT follower ORDER BY filename, file_row_number",
                [name, port],
            ).fetchall()
            for i, (field, theirs_of) in enumerate(FIELDS.items()):
                theirs = theirs_of(data).to_pylist()
                mine = [row[i] for row in ours]
                if len(mine) < len(theirs) and i == 0:
                    # A player who left (eliminated in a 4-player game)
                    # has no Post-Frame Updates after; peppi-py's arrays
                    # still run to the last frame. Compared up to the gap.
                    gaps += 1
                    print(f"gap: {path.name} port {port}: {len(mine)} rows, peppi-py {len(theirs)}")
                theirs = theirs[: len(mine)] if len(mine) < len(theirs) else theirs
                if len(mine) != len(theirs) or not all(map(same, mine, theirs)):
                    bad += 1
                    at = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if not same(a, b)), None)
                    print(f"DIFFERS {path.name} port {port} {field}: {len(mine)} rows vs {len(theirs)}, first at {at}")
        checked += 1
    print(
        f"{checked} replays compared with peppi-py, {bad} disagreements"
        f" ({gaps} ports compared up to a player's last frame); peppi-py failed on {peer_failed}"
    )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

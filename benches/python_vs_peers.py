"""Python gamefmt against the Python peers on the corpus (not in CI):

- Slippi: every .slp that peppi-py reads, into Arrow: gamefmt's `frames`
  table (`pyarrow.table(replay.to_arrow("frames"))`) against
  `peppi_py.read_slippi` (whose frames are Arrow arrays);
- teehistorian: every recording teehistorian-py reads (the large one
  decompressed first), iterated record by record: gamefmt's light record
  objects (`TeehistorianRecord`) against teehistorian-py's chunk objects; and gamefmt's Arrow tables of the same
  records (inputs, positions, events), the columnar route, both by
  `to_arrow(table)` (a decode per table) and by `arrow_tables()` (one
  decode for all). A last line gives the floor of any per-record route in
  CPython: a `for` loop over as many items that builds nothing.

    python benches/python_vs_peers.py [CORPUS]

Each side runs 3 times, alternating; the best time is kept, and the
ratio peer / gamefmt printed.
"""

import gzip
import itertools
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

import gamefmt


def best(fn, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def readable(read, paths):
    ok = []
    for p in paths:
        try:
            read(p)
            ok.append(p)
        except BaseException as e:  # noqa: BLE001 - peers panic
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
    return ok


def main():
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GAMEFMT_CORPUS", "../shared/corpus"))
    import peppi_py
    import teehistorian_py

    slps = readable(lambda p: peppi_py.read_slippi(str(p)), sorted((corpus / "slippi").glob("*.slp")))
    size = sum(p.stat().st_size for p in slps)
    rows = sum(pa.table(gamefmt.open(p).to_arrow("frames")).num_rows for p in slps)
    ours = best(lambda: [pa.table(gamefmt.open(p).to_arrow("frames")) for p in slps])
    theirs = best(lambda: [peppi_py.read_slippi(str(p)) for p in slps])
    print(f"slippi -> Arrow, {len(slps)} replays, {size / 1e6:.1f} MB, {rows} frame rows")
    print(f"  gamefmt  {ours:8.3f} s  {size / ours / 1e6:7.1f} MB/s")
    print(f"  peppi-py {theirs:8.3f} s  {size / theirs / 1e6:7.1f} MB/s   ratio {theirs / ours:.1f}x")

    tmp = Path(tempfile.mkdtemp())
    try:
        ths = sorted((corpus / "teeworlds" / "teehistorian").glob("*.teehistorian"))
        for gz in (corpus / "teeworlds" / "large").glob("*.teehistorian.gz"):
            plain = tmp / gz.name[: -len(".gz")]
            with gzip.open(gz) as src, open(plain, "wb") as dst:
                shutil.copyfileobj(src, dst)
            ths.append(plain)
        ths = readable(lambda p: list(teehistorian_py.open(str(p))), ths)
        size = sum(p.stat().st_size for p in ths)
        records = sum(1 for p in ths for _ in gamefmt.open(p))
        ours = best(lambda: [sum(1 for _ in gamefmt.open(p)) for p in ths])
        theirs = best(lambda: [sum(1 for _ in teehistorian_py.open(str(p))) for p in ths])
        tables = ("inputs", "positions", "events")
        per_table = best(lambda: [pa.table(gamefmt.open(p).to_arrow(t)) for p in ths for t in tables])

        def one_decode():
            for p in ths:
                all_tables = gamefmt.open(p).arrow_tables()
                for t in tables:
                    pa.table(all_tables[t])

        columnar = best(one_decode)
        floor = best(lambda: sum(1 for _ in itertools.repeat(None, records)))
        rate = lambda t: f"{t:8.3f} s  {records / t / 1e6:6.2f} M records/s"  # noqa: E731
        print(f"teehistorian records, {len(ths)} recordings, {size / 1e6:.1f} MB, {records} records")
        print(f"  teehistorian-py, an object each        {rate(theirs)}")
        print(f"  gamefmt, a light object per record     {rate(ours)}   ratio {theirs / ours:.2f}x")
        print(f"  gamefmt, to_arrow per table (3 decodes) {rate(per_table)}   ratio {theirs / per_table:.2f}x")
        print(f"  gamefmt, arrow_tables (1 decode)       {rate(columnar)}   ratio {theirs / columnar:.2f}x")
        print(f"  CPython floor, an empty for loop       {rate(floor)}   ratio {theirs / floor:.2f}x")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

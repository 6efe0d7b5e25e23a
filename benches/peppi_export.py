"""The peppi-py side of benches/export_vs_peppi.sh: each replay read with
peppi_py.read_slippi and its frames written with pyarrow.parquet.write_table
(one wide table per replay: every frame array peppi-py returns, as
columns), on N processes.

    peppi_export.py --check FILE...            print the files peppi-py reads
    peppi_export.py --jobs N OUT_DIR FILE...   export them; prints a summary
"""
import dataclasses
import multiprocessing
import os
import sys
import time

import peppi_py
import pyarrow as pa
import pyarrow.parquet as pq


def flatten(prefix, obj, out):
    if obj is None:
        return
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            flatten(f"{prefix}_{f.name}" if prefix else f.name, getattr(obj, f.name), out)
    elif isinstance(obj, (tuple, list)):
        for i, x in enumerate(obj):
            flatten(f"{prefix}{i}", x, out)
    else:
        out[prefix] = obj


def export(job):
    path, out_dir = job
    try:
        game = peppi_py.read_slippi(path)
        columns = {}
        flatten("", game.frames, columns)
        if out_dir is not None:
            name = os.path.basename(path) + ".parquet"
            pq.write_table(pa.table(columns), os.path.join(out_dir, name))
        return True
    except BaseException:  # peppi-py's Rust panics arrive as PanicException
        return False


def main():
    args = sys.argv[1:]
    if args[0] == "--check":
        for path in args[1:]:
            if export((path, None)):
                print(path)
        return
    assert args[0] == "--jobs"
    jobs, out_dir, files = int(args[1]), args[2], args[3:]
    os.makedirs(out_dir, exist_ok=True)
    started = time.monotonic()
    with multiprocessing.Pool(jobs) as pool:
        ok = sum(pool.map(export, [(f, out_dir) for f in files], chunksize=8))
    secs = time.monotonic() - started
    print(f"peppi-py: {ok} of {len(files)} files exported in {secs:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()

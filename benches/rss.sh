#!/usr/bin/env bash
# Peak RSS of `gamefmt inspect|validate|dump|export` on large stream
# files, to check that the CLI reads them in constant memory (target:
# <= 16 MB whatever the size). `export` writes Parquet into $RSS_DIR/out
# through `gamefmt export` (gamefmt-arrow), whose RSS /usr/bin/time counts
# (the largest of the process and its children). Slow: run by hand, not
# in CI.
#
#   benches/rss.sh [MB...]        default: 1024 (one ~1 GB file per format)
#
# Files (in $RSS_DIR, default /tmp/gamefmt-rss, deleted afterwards):
# - teehistorian: written by TeehistorianWriter (examples/teehistorian.rs
#   --generate: 64 clients moving, inputs, chat, commands, EX names);
# - slippi: SlippiWriter's header and Game Start, then a corpus replay's
#   frame events repeated (examples/large_streams.rs);
# - demo: a corpus demo's header and map, then its chunk stream repeated,
#   each repetition starting again with its keyframe and full snapshot
#   (examples/large_streams.rs; the crate has no demo writer).
# Prints one Markdown table row per (format, size, command): peak RSS in
# KiB from /usr/bin/time -v and the wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/corpus
dir=${RSS_DIR:-/tmp/gamefmt-rss}
sizes=("${@:-1024}")
mkdir -p "$dir"
trap 'rm -rf "$dir"/big.* "$dir/out"' EXIT

nice cargo build -q --release -p gamefmt-cli --bin gamefmt \
    --example teehistorian --example large_streams
true # (export is part of gamefmt)
bin=target/release

echo "| format | file MB | command | peak RSS (KiB) | wall (s) |"
echo "|---|---|---|---|---|"
for mb in "${sizes[@]}"; do
    "$bin"/examples/teehistorian --generate "$dir/big.teehistorian" "$mb" >/dev/null
    "$bin"/examples/large_streams slippi "$dir/big.slp" "$mb" \
        "$corpus/slippi/v3.12.0_peppi_ics2.slp" >/dev/null
    "$bin"/examples/large_streams demo "$dir/big.demo" "$mb" \
        "$corpus/teeworlds/demos/ddnet-server__dm1-30s-6bots-2dummies.demo" >/dev/null
    for f in big.teehistorian big.slp big.demo; do
        size=$(($(stat -c %s "$dir/$f") >> 20))
        for cmd in inspect validate dump export; do
            args=("$cmd" "$dir/$f")
            [ "$cmd" = export ] && args=(export "$dir/out" "$dir/$f")
            /usr/bin/time -v -o "$dir/time.txt" "$bin/gamefmt" "${args[@]}" >/dev/null 2>&1
            rm -rf "$dir/out"
            rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$dir/time.txt")
            wall=$(awk -F': ' '/Elapsed/ {print $2}' "$dir/time.txt")
            echo "| ${f#big.} | $size | $cmd | $rss | $wall |"
        done
    done
    rm -f "$dir"/big.*
done

#!/usr/bin/env bash
# Export of the Slippi corpus replicated to ~N replays (default 2000,
# symlinks in $BENCH_DIR, default /tmp/gamefmt-export-bench): gamefmt-export
# --to parquet on 2 threads (games, frames and items tables) against
# peppi-py's read_slippi + pyarrow.parquet.write_table of its frames on 2
# processes (benches/peppi_export.py), on the same files: the replays
# peppi-py reads (it refuses some of the corpus). Whole-process wall and
# CPU times (user + system, of the process and its children: steadier than
# wall time on a loaded machine), one run each, caches warm. Slow-ish and
# needs PyPI: run by hand, not in CI.
#
#   benches/export_vs_peppi.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${GAMEFMT_CORPUS:-../shared/corpus}/slippi
n=${1:-2000}
dir=${BENCH_DIR:-/tmp/gamefmt-export-bench}
venv=target/peppi-venv
if ! "$venv/bin/python" -c 'import peppi_py, pyarrow' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet peppi-py pyarrow
fi
nice cargo build -q --release -p gamefmt-cli --bin gamefmt
rm -rf "$dir"
mkdir -p "$dir/in"
trap 'rm -rf "$dir"' EXIT

"$venv/bin/python" benches/peppi_export.py --check "$corpus"/*.slp > "$dir/ok.txt"
mapfile -t ok < "$dir/ok.txt"
i=0
while [ "$i" -lt "$n" ]; do
    for f in "${ok[@]}"; do
        [ "$i" -ge "$n" ] && break
        ln -s "$(realpath "$f")" "$dir/in/$(printf '%05d' "$i")-$(basename "$f")"
        i=$((i + 1))
    done
done
bytes=$(cat "$dir"/in/* | wc -c)
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "$n replays ($mb MB) replicated from the ${#ok[@]} corpus replays peppi-py reads, of $(ls "$corpus"/*.slp | wc -l)"

run() {  # name, command...: prints one table row
    local name=$1
    shift
    /usr/bin/time -f '%e %M %U %S' -o "$dir/time.txt" "$@" 2> "$dir/stderr.txt" >/dev/null
    read -r wall rss user sys < "$dir/time.txt"
    awk -v name="$name" -v w="$wall" -v n="$n" -v mb="$mb" -v rss="$rss" -v u="$user" -v s="$sys" \
        'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %.1f | %d |\n", name, w, u + s, n / w, mb / w, rss / 1024 }'
    tail -1 "$dir/stderr.txt" >&2
    echo "$wall" > "$dir/$name.wall"
    awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }' > "$dir/$name.cpu"
}

echo "| tool (2 cores) | wall (s) | CPU (s) | files/s | MB/s | peak RSS (MB) |"
echo "|---|---|---|---|---|---|"
run gamefmt-export target/release/gamefmt export --to parquet --jobs 2 "$dir/out-gamefmt" "$dir/in"
run peppi-py "$venv/bin/python" benches/peppi_export.py --jobs 2 "$dir/out-peppi" "$dir"/in/*.slp
awk -v a="$(cat "$dir/gamefmt-export.wall")" -v b="$(cat "$dir/peppi-py.wall")" \
    -v c="$(cat "$dir/gamefmt-export.cpu")" -v d="$(cat "$dir/peppi-py.cpu")" \
    'BEGIN { printf "gamefmt export is %.1fx peppi-py (wall), %.1fx (CPU time, user + system)\n", b / a, d / c }'
echo "output: gamefmt $(du -sh "$dir/out-gamefmt" | cut -f1), peppi-py $(du -sh "$dir/out-peppi" | cut -f1)"

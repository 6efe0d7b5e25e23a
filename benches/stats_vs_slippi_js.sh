#!/usr/bin/env bash
# Slippi stats over the whole corpus: gamefmt (SlippiStats, decode included)
# against slippi-js 9.1.2's getStats() under Node (new SlippiGame(buffer),
# parse included), same files, all held in memory, warm (one unmeasured
# pass), best wall time of ROUNDS and mean CPU time per pass (the CPU time
# is what to quote on a loaded machine: Node's counts its GC threads too).
# Also the cost of stats on top of decoding alone. Then the whole
# processes, cold, as a user runs them: `gamefmt stats --slippi-js --jobs 1`
# (release build) against Node printing the same JSON with slippi-js
# (benches/peers/slippi-js/stats_all.cjs), RUNS runs each after one
# warm-up, wall time min / median / max.
#
#   benches/stats_vs_slippi_js.sh [ROUNDS]      default 5 (RUNS=5)
#
# slippi-js is installed outside the checkout, once:
#   mkdir -p /tmp/slippijs && cd /tmp/slippijs && npm init -y \
#     && npm install @slippi/slippi-js@9.1.2
# (SLIPPI_JS_MODULES=/path/to/node_modules to use another install.)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
corpus=${GAMEFMT_CORPUS:-../shared/corpus}/slippi
modules=${SLIPPI_JS_MODULES:-/tmp/slippijs/node_modules}
files=("$corpus"/*.slp)
nice cargo build -q --release --no-default-features --features std,slippi --example slippi_stats
ours=$(target/release/examples/slippi_stats --bench "$rounds" "${files[@]}")
theirs=$(NODE_PATH="$modules" node benches/peers/slippi-js/bench_stats.cjs "$rounds" "${files[@]}")
echo "$ours"
echo "$theirs"
num() { sed -E "s/.*$1 ([0-9.]+) ms.*/\\1/" <<<"$2"; }
cpus() { sed -E 's/.*CPU ms per pass: ([0-9., ]+);.*/\1/' <<<"$1" | tr -d ' '; }
IFS=, read -r cpu_decode cpu_frames cpu_stats <<<"$(cpus "$ours")"
cpu_js=$(cpus "$theirs")
awk -v d="$(num 'decode alone' "$ours")" -v f="$(num 'decode into frames' "$ours")" \
    -v s="$(num 'decode \+ stats' "$ours")" -v j="$(num 'getStats' "$theirs")" \
    -v cd="$cpu_decode" -v cf="$cpu_frames" -v cs="$cpu_stats" -v cj="$cpu_js" 'BEGIN {
    printf "wall (best pass): gamefmt %.0fx faster than slippi-js; decode + stats = %.2fx decoding the events alone, %.2fx decoding into frames\n", j / s, s / d, s / f
    printf "CPU (mean pass):  gamefmt %.0fx faster than slippi-js; decode + stats = %.2fx decoding the events alone, %.2fx decoding into frames\n", cj / cs, cs / cd, cs / cf
}'

# Whole processes, cold (startup, file reading and, for Node, JIT warm-up
# included), one thread each.
nice cargo build -q --release -p gamefmt-cli --no-default-features
runs=${RUNS:-5}
time_runs() {
    local label=$1 ts=() i s e
    shift
    for ((i = 0; i <= runs; i++)); do
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1 || true
        e=$(date +%s%N)
        ((i > 0)) && ts+=($(((e - s) / 1000000)))
    done
    printf '%s\n' "${ts[@]}" | sort -n | awk -v l="$label" '{a[NR] = $1} END {
        printf "%s: wall ms min %d, median %d, max %d (%d runs after one warm-up)\n", l, a[1], a[int((NR + 1) / 2)], a[NR], NR
    }'
}
time_runs "gamefmt stats --slippi-js --jobs 1" target/release/gamefmt stats --slippi-js --jobs 1 "${files[@]}"
time_runs "node + slippi-js getStats      " env NODE_PATH="$modules" node benches/peers/slippi-js/stats_all.cjs "${files[@]}"

#!/usr/bin/env bash
# Slippi stats over the whole corpus: gamefmt (SlippiStats, decode included)
# against slippi-js 9.1.2's getStats() under Node (new SlippiGame(buffer),
# parse included), same files, all held in memory, warm (one unmeasured
# pass), best of ROUNDS. Also the cost of stats on top of decoding alone.
#
#   benches/stats_vs_slippi_js.sh [ROUNDS]      default 5
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
decode=$(sed -E 's/.*decode alone ([0-9.]+) ms.*/\1/' <<<"$ours")
frames=$(sed -E 's/.*decode into frames ([0-9.]+) ms.*/\1/' <<<"$ours")
stats=$(sed -E 's/.*decode \+ stats ([0-9.]+) ms.*/\1/' <<<"$ours")
js=$(sed -E 's/.*getStats ([0-9.]+) ms.*/\1/' <<<"$theirs")
awk -v d="$decode" -v f="$frames" -v s="$stats" -v j="$js" 'BEGIN {
    printf "gamefmt is %.0fx faster than slippi-js; decode + stats cost %.2fx decoding the events alone, %.2fx decoding into frames\n", j / s, s / d, s / f
}'

#!/bin/sh
# Slippi live measurements (issue 33):
#  1. throughput: console framing + game split + event decode, without and
#     with slippi-js's stats computed live, over the corpus sent as a
#     console would (frames per second, one core);
#  2. latency of `gamefmt watch` on a fake console on the loopback
#     interface: each stock_lost / game_end line timed from the replay
#     message holding the frame that decides it (GAMEFMT_FRAME_US: the
#     pace, 1000 us a frame by default, 16x game speed);
#  3. .slpz decompression against the slpz crate: benches/peers/slpz.
# Needs the corpus (../shared/corpus or GAMEFMT_CORPUS).
set -eu
cd "$(dirname "$0")/.."
cargo bench --bench slippi_live
cargo test --release -p gamefmt-cli --no-default-features --test cli -- --ignored --nocapture watch_latency

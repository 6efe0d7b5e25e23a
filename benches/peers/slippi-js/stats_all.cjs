#!/usr/bin/env node
// What `gamefmt stats --slippi-js FILES` prints, done by slippi-js 9.1.2
// itself: one line per replay, JSON.stringify(getStats()) (or
// getStadiumStats() for Target Test and Home-Run Contest games), files
// read from disk in the order given. The Node side of the whole-process
// timing in benches/stats_vs_slippi_js.sh (a cold process: startup, JIT
// warm-up and file reading included, as for the gamefmt process).
//
//   NODE_PATH=/tmp/slippijs/node_modules node stats_all.cjs FILE... > out.jsonl
"use strict";
const { SlippiGame } = require("@slippi/slippi-js/node");

const out = [];
for (const file of process.argv.slice(2)) {
  try {
    const game = new SlippiGame(file);
    const stats = game.getStats();
    const stadium = game.getStadiumStats();
    out.push(JSON.stringify(stadium ?? stats ?? null));
  } catch (e) {
    out.push(JSON.stringify({ error: String(e && e.message ? e.message : e) }));
  }
}
process.stdout.write(out.join("\n") + "\n");

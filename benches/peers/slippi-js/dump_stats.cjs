#!/usr/bin/env node
// Dumps slippi-js's getStats() and getStadiumStats() for .slp files as JSON,
// the oracle of tests/slippi_stats.rs. slippi-js is installed outside the
// repository:
//
//   mkdir -p /tmp/slippijs && cd /tmp/slippijs && npm init -y \
//     && npm install @slippi/slippi-js@9.1.2
//   NODE_PATH=/tmp/slippijs/node_modules node dump_stats.cjs OUT_DIR FILE...
//
// Writes OUT_DIR/<file name>.json per replay: {"stats": getStats(),
// "stadium": getStadiumStats()} (undefined members dropped, as
// JSON.stringify does), or {"error": message} when slippi-js throws.
"use strict";
const fs = require("fs");
const path = require("path");
const { SlippiGame } = require("@slippi/slippi-js/node");

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  console.error("usage: dump_stats.cjs OUT_DIR FILE...");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
const version = require("@slippi/slippi-js/package.json").version;
for (const file of files) {
  let out;
  try {
    const game = new SlippiGame(file);
    const stats = game.getStats();
    const stadium = game.getStadiumStats();
    out = { slippi_js: version, stats: stats ?? null, stadium: stadium ?? null };
  } catch (e) {
    out = { slippi_js: version, error: String(e && e.message ? e.message : e) };
  }
  fs.writeFileSync(path.join(outDir, path.basename(file) + ".json"), JSON.stringify(out) + "\n");
}

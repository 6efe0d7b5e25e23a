#!/usr/bin/env node
// slippi-js 9.1.2's getStats() over replays held in memory: the Node half of
// benches/stats_vs_slippi_js.sh. Every file is read first; one unmeasured
// pass, then ROUNDS measured passes of `new SlippiGame(buffer).getStats()`
// (parse and stats), printing the best wall time in ms and the mean CPU
// time of a pass (process.cpuUsage: every thread of the process).
//
//   NODE_PATH=/tmp/slippijs/node_modules node bench_stats.cjs ROUNDS FILE...
"use strict";
const fs = require("fs");
const { SlippiGame } = require("@slippi/slippi-js/node");

const [roundsArg, ...paths] = process.argv.slice(2);
const rounds = Number(roundsArg);
const files = paths.map((p) => fs.readFileSync(p));
const bytes = files.reduce((n, b) => n + b.length, 0);
let checksum = 0;
const pass = () => {
  for (const buf of files) {
    try {
      const stats = new SlippiGame(buf).getStats();
      if (stats) checksum += stats.lastFrame + stats.conversions.length;
    } catch (e) {
      checksum += 1;
    }
  }
};
pass();
let best = Infinity;
const cpu0 = process.cpuUsage();
for (let i = 0; i < rounds; i++) {
  const t = process.hrtime.bigint();
  pass();
  best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
}
// CPU time of the process (all threads: the garbage collector's too).
const used = process.cpuUsage(cpu0);
const cpu = (used.user + used.system) / 1000 / rounds;
console.log(`slippi-js ${require("@slippi/slippi-js/package.json").version} (node ${process.version}): ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB; parse + getStats ${best.toFixed(1)} ms (best wall time of ${rounds}; CPU ms per pass: ${cpu.toFixed(1)}; checksum ${checksum})`);

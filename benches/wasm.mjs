// The npm package under Node against slippi-js 9.1.2 and the native CLI,
// on the corpus replays (one run, warm: every measured call comes after
// one unmeasured pass over the same files).
//
//   gamefmt-wasm/build.sh && (cd gamefmt-wasm && npm ci) && cargo build --release -p gamefmt-cli --no-default-features
//   node benches/wasm.mjs
//
// Prints, per operation, the total milliseconds of each side and the
// ratio; then the module's size, gzipped, for each build in
// gamefmt-wasm/dist* (build.sh with FEATURES and OUT, see its header).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'gamefmt-wasm');
const { open } = await import(join(pkgDir, 'dist', 'index.js'));
const require = createRequire(join(pkgDir, 'package.json'));
const { SlippiGame } = require('@slippi/slippi-js/node');
const facade = existsSync(join(pkgDir, 'dist', 'slippi-game.js'))
  ? (await import(join(pkgDir, 'dist', 'slippi-game.js'))).SlippiGame
  : null;

const corpus = process.env.GAMEFMT_CORPUS ?? resolve(root, '..', 'shared', 'corpus');
const dir = join(corpus, 'slippi');
const files = readdirSync(dir).filter((f) => f.endsWith('.slp') && !f.startsWith('bad_')).map((f) => join(dir, f));
const buffers = files.map((f) => readFileSync(f));
const total = buffers.reduce((n, b) => n + b.length, 0);
console.log(`${files.length} replays, ${(total / 1e6).toFixed(1)} MB`);

function time(f) {
  for (const b of buffers) { try { f(b); } catch { /* the same files fail the same way each pass */ } }
  const t = performance.now();
  for (const b of buffers) { try { f(b); } catch { /* as above */ } }
  return performance.now() - t;
}

const rows = [];
function compare(what, ours, theirs, theirName) {
  const a = time(ours);
  const b = time(theirs);
  rows.push({ what, gamefmt_ms: a.toFixed(0), [theirName]: b.toFixed(0), ratio: `${(b / a).toFixed(1)}x` });
  console.log(JSON.stringify(rows.at(-1)));
}

const sjs = (b) => new SlippiGame(b);
compare('frames: slippi-js getFrames() vs SlippiFile.frames() (columns)',
  (b) => open(b).frames(), (b) => sjs(b).getFrames(), 'slippi_js_ms');
// Only where the facade has the getter (a throw would be timed as a result).
const has = (name) => { try { new facade(buffers.at(-1))[name](); return true; } catch { return false; } };
if (facade && has('getFrames')) compare('frames: facade getFrames() vs slippi-js getFrames()',
  (b) => new facade(b).getFrames(), (b) => sjs(b).getFrames(), 'slippi_js_ms');
compare('stats: slippi-js getStats() vs SlippiFile.stats()',
  (b) => open(b).stats(), (b) => sjs(b).getStats(), 'slippi_js_ms');
if (facade && has('getStats')) compare('stats: facade getStats() vs slippi-js getStats()',
  (b) => new facade(b).getStats(), (b) => sjs(b).getStats(), 'slippi_js_ms');

// The package against the native CLI: every event as a value (package:
// JS objects; CLI: `gamefmt dump`, JSON text, one process for all files).
const cli = [join(root, 'target', 'release', 'gamefmt'), join(root, 'target', 'debug', 'gamefmt')].find(existsSync);
if (cli) {
  const t = performance.now();
  spawnSync(cli, ['dump', '-j', '1', ...files], { maxBuffer: 2 ** 31 });
  const cliMs = performance.now() - t;
  const ours = time((b) => open(b).events());
  rows.push({ what: 'all events: package events() vs CLI `gamefmt dump -j 1`', gamefmt_ms: ours.toFixed(0), cli_ms: cliMs.toFixed(0), ratio: `${(cliMs / ours).toFixed(2)}x` });
  const t2 = performance.now();
  spawnSync(cli, ['validate', '-j', '1', ...files]);
  const cliVal = performance.now() - t2;
  const ours2 = time((b) => { const f = open(b); f.end(); f.free(); });
  rows.push({ what: 'decode only: package end() vs CLI `gamefmt validate -j 1`', gamefmt_ms: ours2.toFixed(0), cli_ms: cliVal.toFixed(0), ratio: `${(cliVal / ours2).toFixed(2)}x` });
}
console.table(rows);

for (const d of readdirSync(pkgDir).filter((d) => d.startsWith('dist'))) {
  const wasm = join(pkgDir, d, 'wasm', 'gamefmt_bg.wasm');
  if (!existsSync(wasm)) continue;
  const bytes = readFileSync(wasm);
  console.log(`${d}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
}

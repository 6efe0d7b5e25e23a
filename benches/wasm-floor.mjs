// The floor of any eager getFrames() in this Node: what the event
// objects of slippi-js's shapes cost V8 alone, against slippi-js's
// getFrames() on the same replays (issue 32 asks the facade for 10x).
//
//   (cd gamefmt-wasm && npm ci && ./build.sh) && node benches/wasm-floor.mjs [ROUNDS]
//
// Before any timing, slippi-js's own event objects of each corpus replay
// (every pre- and post-frame with its selfInducedSpeeds, item update and
// frame start that getFrames() files; keys in its order) are taken apart
// into their values and one object literal per shape. A value is kept in
// an Int32Array unless some value of its field was ever not an integer,
// then in a Float64Array, as a decoder reads integer fields as ints and
// f32 fields as floats (booleans as 0/1). A timed pass then builds every
// replay's objects again from those values, keeping them until the
// replay is done, as the benchmark's caller keeps a getFrames() result:
// no decoding, no frame or player objects, no filing; only the literals
// and the garbage collector's work for them. Timed as benches/wasm.mjs
// times getFrames(): one unmeasured pass over the replays, then one
// measured, each side in turn.
//
// slippi-js's getFrames() time over this floor bounds the ratio that any
// getFrames() building these objects can reach here (and the real bound
// is lower: the frame and player objects around them are not counted);
// printed per round (each side's time over the replays, timed as above),
// with the facade's getFrames() beside it; then the least decoding costs
// on top of the floor (the module's rows alone).
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'gamefmt-wasm');
const require = createRequire(join(pkgDir, 'package.json'));
const { SlippiGame } = require('@slippi/slippi-js/node');
const facade = (await import(join(pkgDir, 'dist', 'slippi-game.js'))).SlippiGame;
const { open } = await import(join(pkgDir, 'dist', 'index.js'));

const corpus = process.env.GAMEFMT_CORPUS ?? resolve(root, '..', 'shared', 'corpus');
const dir = join(corpus, 'slippi');
const buffers = readdirSync(dir)
  .filter((f) => f.endsWith('.slp') && !f.startsWith('bad_'))
  .map((f) => readFileSync(join(dir, f)));
const rounds = Number(process.argv[2] ?? 5);

// A shape: the keys, nesting and kinds of value (number, boolean,
// undefined) of an event object.
const shapeOf = (x) => Object.keys(x).map((k) => {
  const v = x[k];
  if (v !== null && typeof v === 'object') return `${k}:{${shapeOf(v)}}`;
  return `${k}:${v === undefined ? 'u' : typeof v === 'boolean' ? 'b' : 'n'}`;
}).join(',');
const flat = (x, out) => {
  for (const v of Object.values(x)) {
    if (v !== null && typeof v === 'object') flat(v, out);
    else if (v !== undefined) out.push(typeof v === 'boolean' ? Number(v) : v);
  }
  return out;
};
/** Per shape: an example object and, per value, whether it is a float. */
const shapes = new Map();

// Per replay: its events as [shape, values], and its first objects, to
// check the rebuilt ones against.
let replays = [];
for (const buf of buffers) {
  let frames;
  try {
    frames = new SlippiGame(buf).getFrames();
  } catch {
    continue; // as benches/wasm.mjs: a file that fails fails every pass
  }
  const events = [];
  const add = (e) => {
    const key = shapeOf(e);
    const values = flat(e, []);
    let shape = shapes.get(key);
    if (!shape) shapes.set(key, (shape = { example: e, float: values.map(() => false) }));
    values.forEach((v, k) => { if (!Number.isInteger(v) || Object.is(v, -0) || Math.abs(v) >= 2 ** 31) shape.float[k] = true; });
    events.push([key, values]);
    if (sample.length < 500) sample.push(e);
  };
  const sample = [];
  for (const f of Object.values(frames)) {
    if (f.start) add(f.start);
    for (const list of [f.players, f.followers]) {
      for (const p of list ?? []) {
        if (p?.pre) add(p.pre);
        if (p?.post) add(p.post);
      }
    }
    for (const e of f.items ?? []) add(e);
  }
  replays.push({ buf, events, sample });
}

// One builder per shape: `new Function` over the keys, each value read
// in key order from `p` onwards (nested objects inline), from `f` (a
// Float64Array) where a value of that field of that shape was ever not an
// integer in the corpus, else from `i` (an Int32Array), as a decoder
// reads f32 fields as floats and integer fields as ints.
const builders = new Map();
for (const [key, { example, float }] of shapes) {
  let k = 0;
  const literal = (x) => `{${Object.keys(x).map((name) => {
    const v = x[name];
    if (v !== null && typeof v === 'object') return `${name}: ${literal(v)}`;
    if (v === undefined) return `${name}: undefined`;
    const at = `${float[k] ? 'f' : 'i'}[p + ${k}]`;
    k++;
    return `${name}: ${typeof v === 'boolean' ? `${at} === 1` : at}`;
  }).join(', ')}}`;
  builders.set(key, new Function('f', 'i', 'p', `return ${literal(example)};`));
}

const plans = replays.map(({ buf, events, sample }) => {
  const n = events.reduce((m, [, values]) => m + values.length, 0);
  const f = new Float64Array(n);
  const i = new Int32Array(n);
  const plan = [];
  let p = 0;
  for (const [key, values] of events) {
    plan.push(builders.get(key), p);
    for (const v of values) {
      f[p] = v;
      i[p] = v;
      p++;
    }
  }
  return { buf, events: plan, f, i, sample };
});
// Only the compact plans stay: a large heap of the taken-apart objects
// slowed every side's garbage collection (slippi-js's getFrames() 2.1-2.8 s
// against 1.5-1.6 s).
replays = null;

const build = ({ events, f, i }) => {
  const out = new Array(events.length / 2);
  for (let e = 0; e < events.length; e += 2) out[e / 2] = events[e](f, i, events[e + 1]);
  return out;
};
// The rebuilt objects are slippi-js's own, value for value (each
// replay's first 500).
for (const plan of plans) {
  if (!isDeepStrictEqual(build(plan).slice(0, plan.sample.length), plan.sample)) {
    throw new Error('rebuilt event objects differ from slippi-js\'s');
  }
  delete plan.sample;
}
const objects = plans.reduce((n, p) => n + p.events.length / 2, 0);

function time(f) {
  for (const p of plans) { try { f(p); } catch { /* the same each pass */ } }
  const t = performance.now();
  for (const p of plans) { try { f(p); } catch { /* as above */ } }
  return performance.now() - t;
}

console.log(`${plans.length} replays, ${objects} event objects, ${builders.size} shapes`);
// Round 0 is not printed: the garbage of the set-up and of the check
// above fell into it (slippi-js's getFrames() 2.5 s against 1.4-1.6 s).
for (let i = 0; i <= rounds; i++) {
  const floor = time(build);
  const theirs = time((p) => new SlippiGame(p.buf).getFrames());
  const ours = time((p) => new facade(p.buf).getFrames());
  if (i === 0) continue;
  console.log(JSON.stringify({
    floor_ms: Math.round(floor),
    slippi_js_ms: Math.round(theirs),
    facade_ms: Math.round(ours),
    'slippi-js / floor': `${(theirs / floor).toFixed(1)}x`,
    'slippi-js / facade': `${(theirs / ours).toFixed(1)}x`,
  }));
}

// What decoding costs on top of the floor, at the least that the facade
// knows: the module's rows (SlippiFile.frameRows(): every event the
// facade files, decoded into one Uint32Array) alone, each replay's best
// of 15 calls, summed.
let rowsMs = 0;
for (const { buf } of plans) {
  let file;
  try {
    file = open(buf);
  } catch {
    continue; // a replay the module refuses: no rows to time
  }
  let best = Infinity;
  for (let k = 0; k < 15; k++) {
    const t = performance.now();
    file.frameRows();
    best = Math.min(best, performance.now() - t);
  }
  file.free();
  rowsMs += best;
}
console.log(JSON.stringify({ module_rows_ms: Math.round(rowsMs) }));

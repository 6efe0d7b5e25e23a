// Truncated and corrupted files: every method either returns or throws
// the package's GamefmtError (with a numeric offset), never a wasm trap
// (WebAssembly.RuntimeError) or another error. Plus the push decoder: fed
// in pieces, the same records as the whole-file methods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { open, detect, Decoder, GamefmtError } from 'gamefmt';
import { canonical, corpus, corpusFiles } from './common.js';

const skip = !corpus;
if (skip) console.log('SKIPPED: no corpus');

/** The calls made on an opened file, each separately (one error must
 * not hide the others). */
const METHODS = {
  datafile: (f) => [() => f.items(), () => f.info(), () => f.groups(), () => f.envelopes(), () => f.warnings(),
    () => f.gameLayer(),
    ...Array.from({ length: 64 }, (_, i) => () => f.tiles(i)),
    ...Array.from({ length: 16 }, (_, i) => () => f.image(i))],
  demo: (f) => [() => f.header(), () => f.chunks(), () => f.chat(), () => f.players(), () => f.end(),
    () => f.mapBytes(), () => f.snapshot(3), () => f.snapshotCount()],
  teehistorian: (f) => [() => f.header(), () => f.records(), () => f.chat(), () => f.players(), () => f.end()],
  slippi: (f) => [() => f.events(), () => f.end(), () => f.gameStart(), () => f.gameEnd(), () => f.metadata(),
    () => f.winners(), () => f.stats(), () => f.frames(), () => f.settings(), () => f.eventColumns(), () => f.frameRows(), () => f.frameRowsView()],
};

/** Every method on `bytes`; counts what threw (only GamefmtError). */
function exercise(bytes, tally) {
  const call = (f) => {
    try {
      f();
      tally.ok++;
    } catch (e) {
      if (!(e instanceof GamefmtError) || typeof e.offset !== 'number' || typeof e.kind !== 'string') {
        throw new assert.AssertionError({ message: `not a GamefmtError: ${e?.stack ?? e}` });
      }
      tally.errors++;
    }
  };
  let file;
  call(() => { file = open(bytes); });
  if (!file) return;
  for (const method of METHODS[file.format](file)) call(method);
  file.free();
}

/** A small deterministic PRNG (mulberry32). */
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SAMPLES = [
  ['teeworlds/maps', '.map', 'ddnet__data__maps__dm1.map'],
  ['teeworlds/maps', '.map', 'teeworlds__data__maps__ctf1.map'],
  ['teeworlds/demos', '.demo', 'teeworlds-traffic-dumps__dumps__075_tw_dm1_join_chat_walk_disconnect__client.demo'],
  ['teeworlds/teehistorian', '.teehistorian', 'ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian'],
  ['slippi', '.slp', 'v1.7.1_slippi-js_nametags.slp'],
  ['slippi', '.slp', 'v3.14.0_SlpProcess_Game_20230130T190101.slp'],
];

test('truncated and corrupted inputs throw only GamefmtError', { skip }, () => {
  const tally = { ok: 0, errors: 0, inputs: 0 };
  for (const [dir, ext, name] of SAMPLES) {
    const file = corpusFiles(dir, [ext]).find((f) => basename(f) === name);
    if (!file) continue;
    const bytes = readFileSync(file);
    const random = rng(bytes.length);
    // Every prefix length at 40 points, and the first 64 bytes one by one.
    const cuts = new Set();
    for (let i = 0; i < 64 && i < bytes.length; i++) cuts.add(i);
    for (let i = 1; i < 40; i++) cuts.add(Math.floor((bytes.length * i) / 40));
    for (const cut of cuts) {
      exercise(bytes.subarray(0, cut), tally);
      tally.inputs++;
    }
    // 40 corruptions: a few random bytes overwritten (the header region
    // more often, where sizes live).
    for (let i = 0; i < 40; i++) {
      const copy = Uint8Array.from(bytes);
      for (let k = 0; k < 1 + (i % 4); k++) {
        const at = Math.floor(random() * (i % 2 ? Math.min(copy.length, 4096) : copy.length));
        copy[at] = Math.floor(random() * 256);
      }
      exercise(copy, tally);
      tally.inputs++;
    }
  }
  // Not a format at all, and empty.
  for (const bytes of [new Uint8Array(0), new TextEncoder().encode('not a game file at all')]) {
    assert.equal(detect(bytes), undefined);
    assert.throws(() => open(bytes), (e) => e instanceof GamefmtError && e.kind === 'unknown_format');
  }
  console.log(`robustness: ${tally.inputs} damaged inputs, ${tally.ok} calls returned, ${tally.errors} threw GamefmtError`);
});

test('push decoding in pieces gives the whole-file records', { skip }, () => {
  const files = [
    ...corpusFiles('slippi', ['.slp']).filter((f) => /nametags|SlpProcess|v3\.12\.0_peppi_v3\.12/.test(f)),
    ...corpusFiles('teeworlds/teehistorian', ['.teehistorian']),
  ];
  let compared = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    let whole;
    try {
      const f = open(bytes);
      whole = f.format === 'slippi' ? f.events() : f.records();
    } catch (e) {
      assert.ok(e instanceof GamefmtError);
      continue;
    }
    for (const piece of [1, 7, 4096]) {
      const d = new Decoder();
      const got = [];
      for (let at = 0; at < bytes.length; at += piece) {
        got.push(...d.push(bytes.subarray(at, at + piece)));
        if (piece === 1 && at > 20000) break;
      }
      const want = piece === 1 ? whole.slice(0, got.length) : whole;
      assert.equal(got.length, want.length, `${basename(file)} in pieces of ${piece}`);
      assert.deepEqual(canonical(got), canonical(want), `${basename(file)} in pieces of ${piece}`);
      compared++;
    }
  }
  console.log(`push decoding: ${compared} file × piece-size runs equal`);
});

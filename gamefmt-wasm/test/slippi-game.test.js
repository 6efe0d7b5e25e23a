// The SlippiGame facade against slippi-js 9.1.2 (npm) on every corpus
// replay: each getter the facade has deep-equals slippi-js's under JSON
// (JSON.parse(JSON.stringify(...)) on both sides: slippi-js's NaN and the
// core's null for it compare equal, undefined members are left out).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createRequire } from 'node:module';

import { SlippiGame } from 'gamefmt/slippi-game';
import { GamefmtError } from 'gamefmt';
import { corpus, corpusFiles } from './common.js';

const require = createRequire(import.meta.url);
let slippiJs = null;
try {
  slippiJs = require('@slippi/slippi-js/node');
} catch {
  console.log('SKIPPED: @slippi/slippi-js is not installed (npm ci)');
}
const skip = !corpus || !slippiJs;
if (!corpus) console.log('SKIPPED: no corpus');

// Differences known: getMetadata on the py-slippi streaming replay, whose
// raw array declares length 0 (written while streaming): slippi-js then
// takes the raw array to run to the end of the file, looks for the
// metadata past it and finds none (undefined); the core reads the raw
// events to their end and finds the metadata after them.
const KNOWN = {
  getMetadata: ['v1.0.0_py-slippi_streaming_game.slp'],
};

const json = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

function theirs(f) {
  try {
    return { value: json(f()) };
  } catch (e) {
    return { threw: String(e) };
  }
}

for (const getter of ['getSettings', 'getStats', 'getStadiumStats', 'getWinners', 'getMetadata', 'getGameEnd']) {
  test(`SlippiGame.${getter}() equals slippi-js 9.1.2's on every corpus replay`, { skip }, () => {
    let equal = 0;
    let bothThrew = 0;
    const differ = [];
    const oneThrew = [];
    const files = corpusFiles('slippi', ['.slp']);
    for (const file of files) {
      const bytes = readFileSync(file);
      const want = theirs(() => new slippiJs.SlippiGame(bytes)[getter]());
      let got;
      try {
        got = { value: json(new SlippiGame(bytes)[getter]()) };
      } catch (e) {
        assert.ok(e instanceof GamefmtError, `${basename(file)}: ${e?.stack ?? e}`);
        got = { threw: e.message };
      }
      if (want.threw !== undefined || got.threw !== undefined) {
        // Where one side throws (the package refuses damage slippi-js
        // reads past; slippi-js fails with a TypeError on a file the core
        // reads), reported, not a failure: only returned values are held
        // equal.
        if (want.threw !== undefined && got.threw !== undefined) bothThrew++;
        else oneThrew.push(`${basename(file)}: slippi-js ${want.threw ? `threw ${want.threw}` : 'returned'}, facade ${got.threw ? `threw ${got.threw}` : 'returned'}`);
        continue;
      }
      try {
        assert.deepEqual(got.value, want.value);
        equal++;
      } catch {
        differ.push(basename(file));
      }
    }
    console.log(`${getter}: ${equal} of ${files.length} replays equal, ${bothThrew} where both throw; one side threw: ${oneThrew.join('; ') || 'none'}; differ: ${differ.join('; ') || 'none'}`);
    assert.deepEqual(differ, KNOWN[getter] ?? []);
  });
}

// Frames: both sides parse every replay once; getFrames() is compared
// frame by frame (each frame under JSON; the same key order makes the
// strings equal, deepEqual decides otherwise) on every frame of the
// replays up to FULL_BYTES and of FULL_NAMES (rollbacks, items,
// followers, stage events, the oldest versions), and on every 61st frame,
// the first and the last of the rest; the frame numbers always.
// getLatestFrame() and getRollbackFrames() ({frames, count, lengths})
// are compared whole (rolled-back frames by their numbers and counts on
// the sampled replays).
const FULL_BYTES = 800_000;
const FULL_NAMES = ['v3.9.0_slippi-js_rollbackFrameTest.slp', 'v3.7.0_peppi_items.slp', 'v3.17.0_slippi-js_FodPlatforms.slp'];
const STRIDE = 61;

function sameJson(a, b) {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  if (x === y) return true;
  try {
    assert.deepEqual(x === undefined ? x : JSON.parse(x), y === undefined ? y : JSON.parse(y));
    return true;
  } catch {
    return false;
  }
}

test("SlippiGame.getFrames(), getLatestFrame(), getRollbackFrames() equal slippi-js 9.1.2's on every corpus replay", { skip }, () => {
  const counts = { full: 0, sampled: 0, frames: 0, bothThrew: 0 };
  const differ = [];
  const oneThrew = [];
  for (const file of corpusFiles('slippi', ['.slp'])) {
    const name = basename(file);
    const bytes = readFileSync(file);
    let want;
    let got;
    try {
      const g = new slippiJs.SlippiGame(bytes);
      want = { frames: g.getFrames(), latest: g.getLatestFrame(), rollbacks: g.getRollbackFrames() };
    } catch (e) {
      want = { threw: String(e) };
    }
    try {
      const g = new SlippiGame(bytes);
      got = { frames: g.getFrames(), latest: g.getLatestFrame(), rollbacks: g.getRollbackFrames() };
    } catch (e) {
      assert.ok(e instanceof GamefmtError, `${name}: ${e?.stack ?? e}`);
      got = { threw: e.message };
    }
    if (want.threw !== undefined || got.threw !== undefined) {
      if (want.threw !== undefined && got.threw !== undefined) counts.bothThrew++;
      else oneThrew.push(`${name}: slippi-js ${want.threw ? `threw ${want.threw}` : 'returned'}, facade ${got.threw ? `threw ${got.threw}` : 'returned'}`);
      continue;
    }
    const full = bytes.length <= FULL_BYTES || FULL_NAMES.includes(name);
    const keys = Object.keys(want.frames);
    const bad = [];
    if (!sameJson(Object.keys(got.frames), keys)) bad.push('frame numbers');
    const sample = full ? keys : keys.filter((_, i) => i % STRIDE === 0 || i === keys.length - 1);
    for (const k of sample) {
      if (!sameJson(got.frames[k], want.frames[k])) {
        bad.push(`frame ${k}`);
        break;
      }
    }
    counts.frames += sample.length;
    if (!sameJson(got.latest, want.latest)) bad.push('getLatestFrame');
    const rb = (r) => (full ? r : { ...r, frames: Object.fromEntries(Object.entries(r.frames).map(([k, v]) => [k, v.length])) });
    if (!sameJson(rb(got.rollbacks), rb(want.rollbacks))) bad.push('getRollbackFrames');
    if (bad.length > 0) differ.push(`${name} (${bad.join(', ')})`);
    counts[full ? 'full' : 'sampled']++;
  }
  console.log(
    `frames: ${counts.full} replays compared frame by frame, ${counts.sampled} sampled (${counts.frames} frames), ${counts.bothThrew} where both throw; one side threw: ${oneThrew.join('; ') || 'none'}; differ: ${differ.join('; ') || 'none'}`,
  );
  assert.deepEqual(differ, []);
});

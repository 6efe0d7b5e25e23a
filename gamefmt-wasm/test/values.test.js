// On every corpus file: the package's values equal the native CLI's
// (`gamefmt dump`, `gamefmt dump --map`, `gamefmt chat --json`), value by
// value after one canonical form (test/common.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { open, GamefmtError } from 'gamefmt';
import { canonical, cli, corpus, corpusFiles, runCli } from './common.js';

const skip = !corpus || !cli;
if (skip) console.log(`SKIPPED: ${!corpus ? 'no corpus' : 'no gamefmt binary (cargo build -p gamefmt-cli)'}`);

/** Calls `f`; returns its value, or the GamefmtError it threw (any other
 * throw fails the test). */
function attempt(f) {
  try {
    return { value: f() };
  } catch (e) {
    assert.ok(e instanceof GamefmtError, `not a GamefmtError: ${e?.stack ?? e}`);
    return { error: e };
  }
}

/** Compares the CLI's lines with the package's array: equal on success;
 * when the CLI refused the file the package throws too (and, when it
 * gives the records before the damage, they are the CLI's). */
function same(file, cliResult, got, what) {
  if (cliResult.ok) {
    assert.ok(!got.error, `${file}: ${what} threw ${got.error?.message} but the CLI decoded it`);
    assert.equal(got.value.length, cliResult.lines.length, `${file}: ${what} count`);
    for (let i = 0; i < cliResult.lines.length; i++) {
      assert.deepEqual(canonical(got.value[i]), canonical(cliResult.lines[i]), `${file}: ${what} ${i}`);
    }
  } else {
    assert.ok(got.error, `${file}: the CLI refused it (${cliResult.stderr.trim()}) but ${what} did not throw`);
  }
}

const counts = { map: 0, demo: 0, teehistorian: 0, slippi: 0, chat: 0 };

test('maps: items equal `gamefmt dump --map`', { skip }, () => {
  for (const file of corpusFiles('teeworlds/maps', ['.map'])) {
    const bytes = readFileSync(file);
    const c = runCli(['dump', '--map', file]);
    const got = attempt(() => open(bytes).items());
    same(basename(file), c, got, 'item');
    counts.map++;
  }
  console.log(`maps compared: ${counts.map}`);
});

test('demos: chunks equal `gamefmt dump`, chat equals `gamefmt chat --json`', { skip }, () => {
  for (const file of corpusFiles('teeworlds/demos', ['.demo'])) {
    const bytes = readFileSync(file);
    const c = runCli(['dump', file]);
    const got = attempt(() => open(bytes).chunks());
    same(basename(file), c, got, 'chunk');
    const chat = runCli(['chat', '--json', file]);
    chat.lines.forEach((l) => delete l.file);
    same(basename(file), chat, attempt(() => open(bytes).chat()), 'chat line');
    counts.demo++;
    counts.chat++;
  }
  console.log(`demos compared: ${counts.demo}`);
});

test('teehistorian: header, records and end equal `gamefmt dump`; chat equals `gamefmt chat --json`', { skip }, () => {
  for (const file of corpusFiles('teeworlds/teehistorian', ['.teehistorian'])) {
    const bytes = readFileSync(file);
    const name = basename(file);
    const c = runCli(['dump', file]);
    const opened = attempt(() => open(bytes));
    if (opened.error) {
      assert.ok(!c.ok || c.lines.length === 0, `${name}: open threw but the CLI decoded it`);
      counts.teehistorian++;
      continue;
    }
    const f = opened.value;
    if (!c.lines.length || !('header' in c.lines[0])) {
      // The CLI refused it before any record: so must the package.
      const r = attempt(() => f.records());
      const end = attempt(() => f.end());
      assert.ok(r.error || end.value?.kind !== 'complete', `${name}: the CLI refused it (${c.stderr.trim()})`);
      counts.teehistorian++;
      continue;
    }
    assert.deepEqual(canonical(f.header()), canonical(c.lines[0].header), `${name}: header`);
    const last = c.lines.at(-1);
    const body = c.lines.slice(1, 'end' in last ? -1 : undefined);
    const records = attempt(() => f.records());
    // The CLI prints every record, then fails on a cut: the package gives
    // the records and tells the cut in end().
    const endKind = f.end().kind;
    if ('end' in last) {
      assert.equal(endKind, last.end, `${name}: end`);
      same(name, { ok: true, lines: body }, records, 'record');
    } else {
      same(name, { ...c, lines: body }, records, 'record');
    }
    const chat = runCli(['chat', '--json', file]);
    chat.lines.forEach((l) => delete l.file);
    same(name, chat, attempt(() => f.chat()), 'chat line');
    counts.teehistorian++;
    counts.chat++;
  }
  console.log(`teehistorian recordings compared: ${counts.teehistorian}`);
});

test('slippi: events equal `gamefmt dump`', { skip }, () => {
  for (const file of corpusFiles('slippi', ['.slp'])) {
    const bytes = readFileSync(file);
    const c = runCli(['dump', file]);
    const got = attempt(() => open(bytes).events());
    same(basename(file), c, got, 'event');
    counts.slippi++;
  }
  console.log(`replays compared: ${counts.slippi}`);
});

// On every corpus file: the package's values equal the native CLI's
// (`gamefmt dump`, `gamefmt dump --map`, `gamefmt chat --json`), value by
// value after one canonical form (test/common.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { open } from 'gamefmt';
import { attempt, canonical, cliComparisonsSkipped, corpusFiles, same, withCli } from './common.js';

const skip = cliComparisonsSkipped();

const counts = { map: 0, demo: 0, teehistorian: 0, chat: 0 };

test('maps: items equal `gamefmt dump --map`', { skip }, async () => {
  for await (const [file, [c]] of withCli(corpusFiles('teeworlds/maps', ['.map']), (f) => [['dump', '--map', f]])) {
    const bytes = readFileSync(file);
    const got = attempt(() => open(bytes).items());
    same(basename(file), c, got, 'item');
    counts.map++;
  }
  console.log(`maps compared: ${counts.map}`);
});

test('demos: chunks equal `gamefmt dump`, chat equals `gamefmt chat --json`', { skip }, async () => {
  const runs = (f) => [['dump', f], ['chat', '--json', f]];
  for await (const [file, [c, chat]] of withCli(corpusFiles('teeworlds/demos', ['.demo']), runs)) {
    const bytes = readFileSync(file);
    const got = attempt(() => open(bytes).chunks());
    same(basename(file), c, got, 'chunk');
    chat.lines.forEach((l) => delete l.file);
    same(basename(file), chat, attempt(() => open(bytes).chat()), 'chat line');
    counts.demo++;
    counts.chat++;
  }
  console.log(`demos compared: ${counts.demo}`);
});

test('teehistorian: header, records and end equal `gamefmt dump`; chat equals `gamefmt chat --json`', { skip }, async () => {
  const runs = (f) => [['dump', f], ['chat', '--json', f]];
  for await (const [file, [c, chat]] of withCli(corpusFiles('teeworlds/teehistorian', ['.teehistorian']), runs)) {
    const bytes = readFileSync(file);
    const name = basename(file);
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
    chat.lines.forEach((l) => delete l.file);
    same(name, chat, attempt(() => f.chat()), 'chat line');
    counts.teehistorian++;
    counts.chat++;
  }
  console.log(`teehistorian recordings compared: ${counts.teehistorian}`);
});

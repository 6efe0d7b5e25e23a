// On every corpus replay: the package's Slippi events equal the native
// CLI's (`gamefmt dump`), value by value after one canonical form
// (test/common.js). Its own file: the largest comparison, which the test
// runner runs beside the others (node --test --test-concurrency=2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { open } from 'gamefmt';
import { attempt, cliComparisonsSkipped, corpus, corpusFiles, same, withCli } from './common.js';

const skip = cliComparisonsSkipped();

test('slippi: events equal `gamefmt dump`', { skip }, async () => {
  let replays = 0;
  for await (const [file, [c]] of withCli(corpusFiles('slippi', ['.slp']), (f) => [['dump', f]])) {
    const got = attempt(() => open(readFileSync(file)).events());
    same(basename(file), c, got, 'event');
    replays++;
  }
  console.log(`replays compared: ${replays}`);
});

test('slippi: frameRowsView() shows the slots of frameRows()', { skip: !corpus }, () => {
  let replays = 0;
  for (const file of corpusFiles('slippi', ['.slp'])) {
    let f;
    try {
      f = open(readFileSync(file));
    } catch {
      continue; // a file the package refuses (the bad_ ones)
    }
    try {
      let copy;
      try {
        copy = f.frameRows();
      } catch (e) {
        assert.throws(() => f.frameRowsView(), { message: e.message }, basename(file));
        continue;
      }
      const view = f.frameRowsView();
      // The module's memory, not a buffer of its own as a copy has.
      assert.ok(view.byteOffset > 0 && view.buffer.byteLength > view.byteLength, basename(file));
      assert.deepEqual(view, copy, basename(file));
      replays++;
    } finally {
      f.free();
    }
  }
  assert.ok(replays > 0);
  console.log(`replays compared: ${replays}`);
});

// On every corpus replay: the package's Slippi events equal the native
// CLI's (`gamefmt dump`), value by value after one canonical form
// (test/common.js). Its own file: the largest comparison, which the test
// runner runs beside the others (node --test --test-concurrency=2).
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { open } from 'gamefmt';
import { attempt, cliComparisonsSkipped, corpusFiles, same, withCli } from './common.js';

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

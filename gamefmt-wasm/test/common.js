// Shared by the Node tests: the corpus, the native CLI (run ahead of the
// comparisons), the one canonical form both sides' values are compared in,
// and the comparison itself.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { GamefmtError } from 'gamefmt';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');

/** The corpus (`GAMEFMT_CORPUS`, else `../shared/corpus` beside the
 * checkout), or null when absent. */
export const corpus = (() => {
  const candidates = [process.env.GAMEFMT_CORPUS, resolve(root, '..', 'shared', 'corpus')];
  return candidates.find((c) => c && existsSync(c)) ?? null;
})();

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Corpus files under `sub` whose names end with one of `exts`, sorted. */
export function corpusFiles(sub, exts) {
  if (!corpus || !existsSync(join(corpus, sub))) return [];
  return walk(join(corpus, sub))
    .filter((p) => exts.some((e) => p.endsWith(e)))
    .sort();
}

/** The native `gamefmt` binary (`GAMEFMT_BIN`, else target/release or
 * target/debug; built by `cargo build -p gamefmt-cli`). */
export const cli = (() => {
  const candidates = [
    process.env.GAMEFMT_BIN,
    join(root, 'target', 'release', 'gamefmt'),
    join(root, 'target', 'debug', 'gamefmt'),
  ];
  return candidates.find((c) => c && existsSync(c)) ?? null;
})();

/** Whether the comparisons with the CLI cannot run (no corpus, or no
 * CLI binary); when so, says why. */
export function cliComparisonsSkipped() {
  if (corpus && cli) return false;
  console.log(`SKIPPED: ${!corpus ? 'no corpus' : 'no gamefmt binary (cargo build -p gamefmt-cli)'}`);
  return true;
}

/** Runs the CLI: a promise of `{lines, ok, stderr}`, `lines` its stdout's
 * JSON lines. Its output goes to files, not pipes: the CLI runs on while
 * the caller compares (a pipe would fill while the event loop is busy). */
export function runCli(args) {
  const dir = mkdtempSync(join(tmpdir(), 'gamefmt-cli-'));
  const out = openSync(join(dir, 'out'), 'w');
  const err = openSync(join(dir, 'err'), 'w');
  const child = spawn(cli, args, { stdio: ['ignore', out, err] });
  closeSync(out);
  closeSync(err);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      const stdout = readFileSync(join(dir, 'out'), 'utf8');
      const stderr = readFileSync(join(dir, 'err'), 'utf8');
      rmSync(dir, { recursive: true });
      const lines = stdout
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l));
      resolve({ lines, ok: status === 0, stderr });
    });
  });
}

/** Each of `files` with the CLI's results for it (one per argument list
 * `argsOf(file)` gives), the CLI already running on the next file while
 * the caller compares this one: the two share the machine's cores. */
export async function* withCli(files, argsOf) {
  const start = (file) => Promise.all(argsOf(file).map(runCli));
  let next = files.length > 0 ? start(files[0]) : null;
  for (let i = 0; i < files.length; i++) {
    const results = await next;
    next = i + 1 < files.length ? start(files[i + 1]) : null;
    yield [files[i], results];
  }
}

/** One canonical form for values from serde_json (the CLI) and from
 * serde-wasm-bindgen (the package): keys sorted, typed arrays as arrays,
 * `undefined` and NaN as null, and every non-integer number rounded to
 * f32 (serde_json prints an f32 by its shortest f32 digits, JavaScript
 * holds it widened to f64: the same value, two spellings). */
export function canonical(v) {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return null;
    return Number.isInteger(v) ? v : Math.fround(v);
  }
  if (ArrayBuffer.isView(v)) return Array.from(v, canonical);
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical(v[k]);
    return out;
  }
  return v;
}

/** Calls `f`; returns its value, or the GamefmtError it threw (any other
 * throw fails the test). */
export function attempt(f) {
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
export function same(file, cliResult, got, what) {
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

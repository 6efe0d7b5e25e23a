// Shared by the Node tests: the corpus, the native CLI and the one
// canonical form both sides' values are compared in.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Runs the CLI: `{lines, ok, stderr}`, `lines` its stdout's JSON lines. */
export function runCli(args) {
  const r = spawnSync(cli, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));
  return { lines, ok: r.status === 0, stderr: r.stderr };
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

export { execFileSync };

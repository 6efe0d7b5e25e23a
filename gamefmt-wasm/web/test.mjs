// The page in a real browser: Debian's chromium (installed here when
// missing) driven by playwright-core, the page served by a tiny static
// server on localhost. Loads a corpus map, demo and replay through the
// file input and checks what the page shows; screenshots go to
// target/wasm-web-*.png.
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { extname, join, resolve, dirname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

import { chromium } from 'playwright-core';
import { corpus, root } from '../test/common.js';

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';

if (!corpus) {
  console.log('SKIPPED: no corpus');
  process.exit(0);
}
if (!existsSync(CHROMIUM)) {
  console.log('installing chromium (apt-get)');
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit' });
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(pkg, path);
  if (!file.startsWith(pkg) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const shots = join(root, 'target');
mkdirSync(shots, { recursive: true });
const failures = [];
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
  await page.goto(`${base}/web/index.html`);

  async function load(file) {
    await page.evaluate(() => { document.getElementById('status').dataset.state = 'busy'; });
    await page.setInputFiles('#file', file);
    await page.waitForSelector('#status[data-state="done"]', { timeout: 120000 });
    const status = await page.textContent('#status');
    assert.ok(!(await page.$('#status.error')), `${file}: ${status}`);
    return status;
  }

  /** Distinct colours in a sample of the canvas's pixels. */
  const canvasColours = () => page.evaluate(() => {
    const c = document.getElementById('map');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  });

  // A map: layer count, a canvas that is not blank.
  const map = join(corpus, 'teeworlds/maps/ddnet__data__maps__ctf2.map');
  await load(map);
  const layers = Number(await page.getAttribute('#layer-count', 'data-count'));
  assert.ok(layers > 0, 'map: no layers shown');
  const colours = await canvasColours();
  assert.ok(colours > 2, `map: canvas looks blank (${colours} colours)`);
  await page.screenshot({ path: join(shots, 'wasm-web-map.png'), fullPage: true });
  console.log(`map: ${layers} layers, ${colours} colours on the canvas`);

  // A demo: scoreboard rows, chat, its map drawn.
  const demo = join(corpus, 'teeworlds/demos/ddnet-server__dm1-30s-6bots-2dummies.demo');
  await load(demo);
  const rows = await page.$$eval('#scoreboard tr.row', (r) => r.length);
  assert.ok(rows > 0, 'demo: no scoreboard rows');
  const chat = await page.$$eval('#chat .line', (r) => r.length);
  await page.screenshot({ path: join(shots, 'wasm-web-demo.png'), fullPage: true });
  console.log(`demo: ${rows} scoreboard rows, ${chat} chat lines, ${await canvasColours()} colours on the map`);

  // A replay: players, winners, stats table.
  const replay = join(corpus, 'slippi/v3.14.0_slippi-js_ranked_game1_tiebreak.slp');
  await load(replay);
  const players = await page.$$eval('#players tr.row', (r) => r.length);
  const stats = await page.$$eval('#stats tr.row', (r) => r.length);
  assert.ok(players >= 2, `replay: ${players} player rows`);
  assert.ok(stats >= 2, `replay: ${stats} stats rows`);
  await page.screenshot({ path: join(shots, 'wasm-web-replay.png'), fullPage: true });
  console.log(`replay: ${players} player rows, ${stats} stats rows`);

  // A recording: players and chat.
  const rec = join(corpus, 'teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian');
  await load(rec);
  const recPlayers = await page.$$eval('#players tr.row', (r) => r.length);
  assert.ok(recPlayers > 0, 'recording: no players');
  await page.screenshot({ path: join(shots, 'wasm-web-teehistorian.png'), fullPage: true });
  console.log(`recording: ${recPlayers} player rows`);
  assert.deepEqual(failures, []);
  for (const s of ['map', 'demo', 'replay', 'teehistorian']) console.log(`screenshot: ${join(shots, `wasm-web-${s}.png`)}`);
} finally {
  await browser.close();
  server.close();
}

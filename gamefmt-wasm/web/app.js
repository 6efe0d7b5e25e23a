// The page: hands the file to the worker, shows what comes back.
import { drawMap } from '../dist/canvas.js';

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const $ = (id) => document.getElementById(id);
const status = $('status');

function table(el, rows) {
  el.replaceChildren();
  if (!rows.length) return;
  const keys = Object.keys(rows[0]);
  const head = el.insertRow();
  for (const k of keys) head.appendChild(Object.assign(document.createElement('th'), { textContent: k }));
  for (const r of rows) {
    const tr = el.insertRow();
    tr.className = 'row';
    for (const k of keys) tr.insertCell().textContent = r[k] ?? '';
  }
}

function show(out) {
  for (const s of document.querySelectorAll('section')) s.hidden = true;
  $('summary-section').hidden = false;
  table($('summary'), Object.entries(out.summary).map(([k, v]) => ({ field: k, value: v })));
  if (out.scene) {
    $('map-section').hidden = false;
    $('layer-count').textContent = `${out.layerCount} layers`;
    $('layer-count').dataset.count = out.layerCount;
    drawMap(out.scene, $('map'), { maxSize: 2048 });
  }
  if (out.scoreboard) {
    $('scoreboard-section').hidden = false;
    table($('scoreboard'), out.scoreboard.map((p) => ({ cid: p.client_id, name: p.name, team: p.team, score: p.score })));
  }
  if (out.players) {
    $('players-section').hidden = false;
    table($('players'), out.players);
  }
  if (out.stats) {
    $('stats-section').hidden = false;
    table($('stats'), out.stats);
  }
  if (out.chat) {
    $('chat-section').hidden = false;
    $('chat').replaceChildren(...out.chat.map((l) => Object.assign(document.createElement('div'), {
      className: 'line',
      textContent: `${l.tick ?? '-'}  ${l.client_id < 0 ? '***' : l.name ?? `#${l.client_id}`}${l.channel === 'all' ? '' : ` (${l.channel})`}: ${l.message}`,
    })));
  }
}

worker.onmessage = (e) => {
  if (e.data.ok) {
    show(e.data.out);
    status.textContent = `decoded a ${e.data.out.summary.format} file`;
    status.className = '';
  } else {
    const err = e.data.error;
    status.textContent = `${err.name}: ${err.message}${err.offset !== undefined ? ` (byte ${err.offset})` : ''}`;
    status.className = 'error';
  }
  status.dataset.state = 'done';
};

async function load(file) {
  status.dataset.state = 'busy';
  status.textContent = `decoding ${file.name}…`;
  const bytes = await file.arrayBuffer();
  worker.postMessage(bytes, [bytes]);
}

$('file').addEventListener('change', (e) => e.target.files[0] && load(e.target.files[0]));
const drop = $('drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (e.dataTransfer.files[0]) load(e.dataTransfer.files[0]);
});

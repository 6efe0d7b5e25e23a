// Decodes the dropped file with the gamefmt package and posts back what
// the page shows (typed arrays transferred, not copied).
import { open, mapScene } from '../dist/index.js';

function sceneMessage(map) {
  const scene = mapScene(map);
  const transfer = [
    ...scene.layers.map((l) => l.data.buffer),
    ...scene.images.filter((i) => i && i.rgba).map((i) => i.rgba.buffer),
  ];
  return { scene, layers: map.layers().length, transfer };
}

function ratio(v) {
  if (v && typeof v === 'object' && 'ratio' in v) return v.ratio === null ? '' : Number(v.ratio).toFixed(3);
  if (typeof v === 'number') return Number.isInteger(v) ? v : v.toFixed(2);
  return v ?? '';
}

function decode(bytes) {
  const file = open(bytes);
  const out = { format: file.format, transfer: [] };
  switch (file.format) {
    case 'datafile': {
      const s = sceneMessage(file);
      Object.assign(out, { scene: s.scene, layerCount: s.layers, info: file.info() });
      out.transfer = s.transfer;
      out.summary = { format: 'map', layers: s.layers, groups: file.groups().length, images: file.images().length,
        width: s.scene.width, height: s.scene.height };
      break;
    }
    case 'demo': {
      const h = file.header();
      out.summary = { format: 'demo', map: h.map_name, net_version: h.net_version, length_seconds: h.length_seconds };
      out.scoreboard = file.players().sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
      out.chat = file.chat();
      const map = file.mapBytes();
      if (map) {
        try {
          const s = sceneMessage(open(map));
          Object.assign(out, { scene: s.scene, layerCount: s.layers });
          out.transfer = s.transfer;
        } catch { /* a demo whose map does not decode: no picture */ }
      }
      break;
    }
    case 'teehistorian': {
      const h = file.header();
      out.summary = { format: 'teehistorian', map: h.map_name ?? '', server: h.server_version ?? '', game: h.game_uuid ?? '' };
      out.players = file.players();
      out.chat = file.chat();
      break;
    }
    case 'slippi': {
      const gs = file.gameStart() ?? {};
      const winners = file.winners().map((w) => w.port);
      out.summary = { format: 'slippi', stage: gs.stage_name ?? gs.stage ?? '', version: gs.version ?? '',
        winners: winners.map((p) => `P${p}`).join(', ') || 'nobody' };
      out.players = (gs.players ?? []).filter((p) => p && p.type !== 'empty' && p.type !== 3).map((p) => ({
        port: p.port, character: p.character_name ?? p.character, type: p.type,
        name: p.display_name || p.nametag || '', winner: winners.includes(p.port) ? 'yes' : '' }));
      const stats = file.stats();
      out.stats = (stats.overall ?? []).map((o) => ({ port: o.port, kills: o.kill_count, damage: ratio(o.total_damage),
        conversions: o.conversion_count, openings_per_kill: ratio(o.openings_per_kill),
        neutral_wins: ratio(o.neutral_win_ratio), inputs_per_minute: ratio(o.inputs_per_minute) }));
      break;
    }
  }
  file.free();
  return out;
}

self.onmessage = (e) => {
  try {
    const out = decode(new Uint8Array(e.data));
    const { transfer } = out;
    delete out.transfer;
    self.postMessage({ ok: true, out }, transfer);
  } catch (err) {
    self.postMessage({ ok: false, error: { name: err.name, kind: err.kind, offset: err.offset, message: err.message } });
  }
};

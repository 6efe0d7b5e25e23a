// A map on a canvas: `mapScene(map)` takes what drawing needs out of a
// `MapFile` as plain, transferable data (so a worker can decode and the
// page draw), `drawMap(scene, canvas)` draws it: the tile layers with
// their embedded images, then the game layer's tiles as colours.

/** The tile layers (tiles as typed arrays) and the embedded images (RGBA)
 * of a map, as plain data: `{width, height, layers, images}`. */
export function mapScene(map) {
  const layers = [];
  const game = map.gameLayer();
  for (const layer of map.layers()) {
    if (!layer || layer.width === undefined || layer.kind === 'quads') continue;
    try {
      const t = map.tiles(layer.index);
      layers.push({ index: layer.index, game: layer.index === game, ...t });
    } catch {
      // A layer whose data does not decode is left out of the picture.
    }
  }
  const images = map.images().map((img, i) => {
    if (!img || img.external) return null;
    try {
      return map.image(i);
    } catch {
      return null;
    }
  });
  const g = layers.find((l) => l.game);
  const width = g ? g.width : Math.max(0, ...layers.map((l) => l.width));
  const height = g ? g.height : Math.max(0, ...layers.map((l) => l.height));
  return { width, height, layers, images };
}

const GAME_COLOURS = { 1: '#7a7a7a', 2: '#d03030', 3: '#404880' };

/** Draws a `mapScene` on a canvas (resized to fit at most `maxSize`
 * pixels a side); returns the tile size used. */
export function drawMap(scene, canvas, { maxSize = 4096 } = {}) {
  const ts = Math.max(1, Math.min(16, Math.floor(maxSize / Math.max(1, scene.width, scene.height))));
  canvas.width = Math.max(1, scene.width * ts);
  canvas.height = Math.max(1, scene.height * ts);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#8ab4d8';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const atlases = scene.images.map((img) => {
    if (!img || !img.rgba || img.width <= 0 || img.height <= 0) return null;
    const c = typeof OffscreenCanvas !== 'undefined'
      ? new OffscreenCanvas(img.width, img.height)
      : Object.assign(document.createElement('canvas'), { width: img.width, height: img.height });
    c.getContext('2d').putImageData(new ImageData(img.rgba, img.width, img.height), 0, 0);
    return c;
  });
  // The game layer last, over the design layers.
  const ordered = [...scene.layers.filter((l) => !l.game), ...scene.layers.filter((l) => l.game)];
  for (const layer of ordered) {
    const { width, height, data, element_size: size } = layer;
    if (layer.kind === 'game' || layer.game) {
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const id = data[(y * width + x) * size];
          if (id === 0) continue;
          ctx.fillStyle = GAME_COLOURS[id] ?? '#40a040';
          ctx.fillRect(x * ts, y * ts, ts, ts);
        }
      }
      continue;
    }
    if (layer.kind !== 'tiles') continue;
    const atlas = layer.image >= 0 ? atlases[layer.image] : null;
    const [r, g, b, a] = layer.color;
    ctx.globalAlpha = a / 255;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * size;
        const id = data[at];
        if (id === 0) continue;
        if (atlas) {
          const sw = atlas.width / 16;
          const sh = atlas.height / 16;
          ctx.drawImage(atlas, (id % 16) * sw, Math.floor(id / 16) * sh, sw, sh, x * ts, y * ts, ts, ts);
        } else {
          // An external image (not in the file): the layer's colour, darkened.
          ctx.fillStyle = `rgb(${r * 0.45},${g * 0.5},${b * 0.4})`;
          ctx.fillRect(x * ts, y * ts, ts, ts);
        }
      }
    }
    ctx.globalAlpha = 1;
  }
  return ts;
}

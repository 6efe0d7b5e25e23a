// The npm package `gamefmt`: Teeworlds/DDNet maps, demos, teehistorian
// recordings and Slippi replays, decoded by the gamefmt core compiled to
// WebAssembly. ESM for browsers (and Web Workers) and Node 20+.
import init, * as wasm from './wasm/gamefmt.js';

/** The one error the package throws: `kind` (the core's `ErrorKind`
 * name, e.g. `truncated`, `corrupt`, `unknown_format`), `offset` (the
 * byte offset in the file) and a message. */
export class GamefmtError extends Error {
  constructor(message, kind, offset) {
    super(message);
    this.name = 'GamefmtError';
    this.kind = kind;
    this.offset = offset;
  }
}

const url = new URL('./wasm/gamefmt_bg.wasm', import.meta.url);
if (url.protocol === 'file:') {
  const { readFile } = await import('node:fs/promises');
  await init({ module_or_path: await readFile(url) });
} else {
  await init({ module_or_path: url });
}
wasm.setErrorClass(GamefmtError);

export const { detect, formats, Decoder, MapFile, DemoFile, TeehistorianFile, SlippiFile } = wasm;

/** Opens a file of any supported format, told by its first bytes. */
export function open(bytes) {
  return wasm.open(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
}

export { drawMap, mapScene } from './canvas.js';

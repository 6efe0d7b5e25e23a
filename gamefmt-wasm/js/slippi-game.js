// A `SlippiGame`-shaped class over the package, for slippi-js users:
// `import { SlippiGame } from 'gamefmt/slippi-game'` in place of
// `@slippi/slippi-js`. The getters below return what slippi-js 9.1.2
// returns (its shapes, camelCase), computed by the gamefmt core.
//
// Done: getStats, getStadiumStats (the core's slippi-js stats JSON),
// getWinners, getGameEnd, getMetadata. Not yet: getSettings, getFrames,
// getLatestFrame, getRollbackFrames (they throw a GamefmtError of kind
// `unsupported`); use SlippiFile.gameStart() and SlippiFile.frames().
import { open, GamefmtError } from './index.js';

const nullToUndefined = (v) => (v === null ? undefined : v);

export class SlippiGame {
  /** A replay from its bytes (`Uint8Array`, `ArrayBuffer`, Node
   * `Buffer`). slippi-js also takes a file path; read the file first. */
  constructor(input) {
    if (typeof input === 'string') {
      throw new GamefmtError('SlippiGame from a path: read the file and pass its bytes', 'unsupported', 0);
    }
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    this.file = open(bytes);
    if (this.file.format !== 'slippi') {
      throw new GamefmtError(`not a Slippi replay (a ${this.file.format} file)`, 'bad_magic', 0);
    }
    this.cache = {};
  }

  #once(key, f) {
    if (!(key in this.cache)) this.cache[key] = f();
    return this.cache[key];
  }

  /** slippi-js's `getStats()`: `undefined` until the settings are
   * complete. */
  getStats() {
    return this.#once('stats', () => nullToUndefined(this.file.slippiJsStats()));
  }

  /** slippi-js's `getStadiumStats()` (Target Test, Home-Run Contest). */
  getStadiumStats() {
    return this.#once('stadium', () => nullToUndefined(this.file.slippiJsStadiumStats()));
  }

  /** slippi-js's `getWinners()`: `[{playerIndex, position}]`. */
  getWinners() {
    return this.file.winners().map((w) => ({ playerIndex: w.port - 1, position: w.position }));
  }

  /** slippi-js's `getMetadata()`: the metadata element, `undefined` when
   * the file has none. */
  getMetadata() {
    return this.#once('metadata', () => nullToUndefined(this.file.metadata()));
  }

  /** slippi-js's `getGameEnd()`, `undefined` before Game End. */
  getGameEnd() {
    const e = this.file.gameEnd();
    if (!e) return undefined;
    const placements = e.placements ?? [];
    // Fields by the replay's version, as slippi-js reads them (absent in
    // the payload: undefined): LRAS initiator from 2.0.0.
    const [major] = String(this.file.gameStart()?.version ?? '0').split('.').map(Number);
    const lras = major >= 2 ? (e.lras_initiator === null ? -1 : e.lras_initiator - 1) : undefined;
    return {
      gameEndMethod: nullToUndefined(e.method),
      lrasInitiatorIndex: lras,
      placements: [0, 1, 2, 3].map((playerIndex) => ({ playerIndex, position: placements[playerIndex] ?? undefined })),
    };
  }

  getSettings() { return unsupported('getSettings'); }
  getFrames() { return unsupported('getFrames'); }
  getLatestFrame() { return unsupported('getLatestFrame'); }
  getRollbackFrames() { return unsupported('getRollbackFrames'); }
}

function unsupported(name) {
  throw new GamefmtError(`SlippiGame.${name}() is not in this version of gamefmt's facade`, 'unsupported', 0);
}

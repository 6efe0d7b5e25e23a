// A `SlippiGame`-shaped class over the package, for slippi-js users:
// `import { SlippiGame } from 'gamefmt/slippi-game'` in place of
// `@slippi/slippi-js`. The getters below return what slippi-js 9.1.2
// returns (its shapes, camelCase), computed by the gamefmt core.
//
// Every getter: getSettings, getFrames, getLatestFrame,
// getRollbackFrames, getGameEnd, getWinners, getMetadata, getStats,
// getStadiumStats. The facts come from the core's vocabulary (the wasm
// module's `settings()`, `gameEnd()`, ...) and, for the frames, from its
// accessors (`frameRows()`, fields already in slippi-js's order): the
// mapping to slippi-js's names is the SLIPPI_JS table below and the few
// getters' bodies, nowhere else. How frames are filed (rollbacks, items,
// `isTransferComplete`) follows slippi-js's `SlpParser` step by step.
import { open, detect, GamefmtError } from './index.js';

const nullToUndefined = (v) => (v === null ? undefined : v);

// The frames' events arrive as rows (SlippiFile.frameRows(): one
// Uint32Array, each event a header, `kind | present << 8`, then its
// fields in slippi-js's order, one 32-bit slot each, read from the bytes
// as slippi-js reads them): I, U and R view the same slots as Int32,
// Uint32 and Float32 (an f32 widened as DataView.getFloat32 does),
// booleans 0/1. Fields are in offset order, so those an older (shorter)
// event lacks, slippi-js's `undefined`, are the last: `n` counts the
// others. Each reader below takes the row at `p`; it reads the first
// BASE fields of its kind as they are (a reader is only called when
// `n >= BASE`, else `shortRow` builds the row) and checks the others.
// Typed reads and fixed literals keep integers as small integers and
// the objects of one shape (V8), the cost of getFrames() being mostly
// the garbage collector's.
const num = (v) => (v === null ? undefined : v);
/** Per kind (by code): its name, its fields' types (I: i32, U: u32, R:
 * f32, B: boolean) and the number of fields its first version has. */
const KINDS = [
  ['game_start', '', 0],
  ['frame_start', 'IUU', 2],
  ['pre_frame', 'IIBUIRRRRRRRRUIRRIR', 17],
  ['post_frame', 'IIBIIRRRRRIIIIRRBIIIIRRRRRRUII', 14],
  ['item_update', 'IIIRRRRRIRUIIIIII', 11],
  ['frame_bookend', 'II', 1],
  ['game_end', '', 0],
  ['fod_platform', 'IIR', 3],
  ['whispy', 'II', 2],
  ['stadium_transformation', 'III', 3],
];
/** Each kind's row length in slots, header included. */
const STRIDE = KINDS.map(([, types]) => 1 + types.length);

/** slippi-js's names for the core's facts, per event kind: the one place
 * they are mapped. */
const SLIPPI_JS = {
  frame_start: (I, U, R, p, n) => ({ frame: I[p + 1], seed: U[p + 2], sceneFrameCounter: n > 2 ? U[p + 3] : undefined }),
  pre_frame: (I, U, R, p, n) => ({
    frame: I[p + 1],
    playerIndex: I[p + 2],
    isFollower: I[p + 3] === 1,
    seed: U[p + 4],
    actionStateId: I[p + 5],
    positionX: R[p + 6],
    positionY: R[p + 7],
    facingDirection: R[p + 8],
    joystickX: R[p + 9],
    joystickY: R[p + 10],
    cStickX: R[p + 11],
    cStickY: R[p + 12],
    trigger: R[p + 13],
    buttons: U[p + 14],
    physicalButtons: I[p + 15],
    physicalLTrigger: R[p + 16],
    physicalRTrigger: R[p + 17],
    rawJoystickX: n > 17 ? I[p + 18] : undefined,
    percent: n > 18 ? R[p + 19] : undefined,
  }),
  post_frame: (I, U, R, p, n) => ({
    frame: I[p + 1],
    playerIndex: I[p + 2],
    isFollower: I[p + 3] === 1,
    internalCharacterId: I[p + 4],
    actionStateId: I[p + 5],
    positionX: R[p + 6],
    positionY: R[p + 7],
    facingDirection: R[p + 8],
    percent: R[p + 9],
    shieldSize: R[p + 10],
    lastAttackLanded: I[p + 11],
    currentComboCount: I[p + 12],
    lastHitBy: I[p + 13],
    stocksRemaining: I[p + 14],
    actionStateCounter: n > 14 ? R[p + 15] : undefined,
    miscActionState: n > 15 ? R[p + 16] : undefined,
    isAirborne: n > 16 ? I[p + 17] === 1 : undefined,
    lastGroundId: n > 17 ? I[p + 18] : undefined,
    jumpsRemaining: n > 18 ? I[p + 19] : undefined,
    lCancelStatus: n > 19 ? I[p + 20] : undefined,
    hurtboxCollisionState: n > 20 ? I[p + 21] : undefined,
    selfInducedSpeeds: {
      airX: n > 21 ? R[p + 22] : undefined,
      y: n > 22 ? R[p + 23] : undefined,
      attackX: n > 23 ? R[p + 24] : undefined,
      attackY: n > 24 ? R[p + 25] : undefined,
      groundX: n > 25 ? R[p + 26] : undefined,
    },
    hitlagRemaining: n > 26 ? R[p + 27] : undefined,
    animationIndex: n > 27 ? U[p + 28] : undefined,
    instanceHitBy: n > 28 ? I[p + 29] : undefined,
    instanceId: n > 29 ? I[p + 30] : undefined,
  }),
  item_update: (I, U, R, p, n) => ({
    frame: I[p + 1],
    typeId: I[p + 2],
    state: I[p + 3],
    facingDirection: R[p + 4],
    velocityX: R[p + 5],
    velocityY: R[p + 6],
    positionX: R[p + 7],
    positionY: R[p + 8],
    damageTaken: I[p + 9],
    expirationTimer: R[p + 10],
    spawnId: U[p + 11],
    missileType: n > 11 ? I[p + 12] : undefined,
    turnipFace: n > 12 ? I[p + 13] : undefined,
    chargeShotLaunched: n > 13 ? I[p + 14] : undefined,
    chargePower: n > 14 ? I[p + 15] : undefined,
    owner: n > 15 ? I[p + 16] : undefined,
    instanceId: n > 16 ? I[p + 17] : undefined,
  }),
  frame_bookend: (I, U, R, p, n) => ({ frame: I[p + 1], latestFinalizedFrame: n > 1 ? I[p + 2] : undefined }),
  fod_platform: (I, U, R, p) => ({ frame: I[p + 1], platform: I[p + 2], height: R[p + 3] }),
  whispy: (I, U, R, p) => ({ frame: I[p + 1], direction: I[p + 2] }),
  stadium_transformation: (I, U, R, p) => ({ frame: I[p + 1], event: I[p + 2], transformation: I[p + 3] }),

  // Game Start (from settings(), serde-wasm-bindgen: numbers exact).
  // slippi-js reads the eight player flags from the team-shade byte (0x6C
  // of the event; the player bitfield is 0x71): so do we, to be equal.
  player: (p) => {
    const shade = p.team_shade;
    const flag = (bit) => Boolean(shade & bit);
    const dashback = nullToUndefined(p.dashback_fix);
    const shieldDrop = nullToUndefined(p.shield_drop_fix);
    let controllerFix = 'None';
    if (dashback !== shieldDrop) controllerFix = 'Mixed';
    else if (dashback === 1) controllerFix = 'UCF';
    else if (dashback === 2) controllerFix = 'Dween';
    return {
      playerIndex: p.port - 1,
      port: p.port,
      characterId: num(p.character),
      type: num(p.type),
      startStocks: num(p.stocks),
      characterColor: num(p.costume),
      teamShade: num(shade),
      handicap: num(p.handicap),
      teamId: num(p.team_id),
      staminaMode: flag(0x01),
      silentCharacter: flag(0x02),
      lowGravity: flag(0x04),
      invisible: flag(0x08),
      blackStockIcon: flag(0x10),
      metal: flag(0x20),
      startOnAngelPlatform: flag(0x40),
      rumbleEnabled: flag(0x80),
      cpuLevel: num(p.cpu_level),
      offenseRatio: num(p.offense_ratio),
      defenseRatio: num(p.defense_ratio),
      modelScale: num(p.model_scale),
      controllerFix,
      nametag: p.name_tag ?? '',
      displayName: p.display_name ?? '',
      connectCode: p.connect_code ?? '',
      userId: p.user_id ?? '',
    };
  },
  settings: (g) => {
    const items = g.item_spawn_bitfields;
    const sessionId = g.match_id ?? '';
    return {
      slpVersion: g.version,
      timerType: num(g.timer_type),
      // slippi-js keeps the mode in place (bits 5-7 of bitfield 1).
      inGameMode: g.game_bitfield1 === null ? undefined : g.game_bitfield1 & 0xe0,
      friendlyFireEnabled: Boolean(g.friendly_fire),
      isTeams: num(g.is_teams),
      // slippi-js reads the byte unsigned: "off" (-1) is 255.
      itemSpawnBehavior: g.item_spawn_behavior === null ? undefined : g.item_spawn_behavior & 0xff,
      stageId: num(g.stage),
      startingTimerSeconds: num(g.timer_seconds),
      enabledItems: items ? items.reduce((acc, b, i) => acc + b * 2 ** (8 * i), 0) : NaN,
      players: g.players.map(SLIPPI_JS.player),
      scene: num(g.minor_scene),
      gameMode: num(g.major_scene),
      language: num(g.language),
      gameInfoBlock: {
        gameBitfield1: num(g.game_bitfield1),
        gameBitfield2: num(g.game_bitfield2),
        gameBitfield3: num(g.game_bitfield3),
        gameBitfield4: num(g.game_bitfield4),
        bombRainEnabled: (g.bomb_rain & 0xff) > 0,
        selfDestructScoreValue: num(g.self_destruct_score),
        itemSpawnBitfield1: items?.[0],
        itemSpawnBitfield2: items?.[1],
        itemSpawnBitfield3: items?.[2],
        itemSpawnBitfield4: items?.[3],
        itemSpawnBitfield5: items?.[4],
        damageRatio: num(g.damage_ratio),
      },
      randomSeed: num(g.random_seed),
      isPAL: num(g.is_pal),
      isFrozenPS: num(g.is_frozen_ps),
      matchInfo: { sessionId, gameNumber: num(g.game_number), tiebreakerNumber: num(g.tiebreaker_number), matchId: sessionId },
    };
  },
};

/** `a >= b` for `major.minor.build` versions. */
function versionAtLeast(a, b) {
  const x = String(a).split('.').map(Number);
  const y = String(b).split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return true;
}

/** slippi-js's `RollbackCounter`: rollbacks seen by the Pre-Frame Updates
 * of the first player to send one. */
class RollbackCounter {
  frames = {};
  count = 0;
  lengths = [];
  #player;
  #lastWasRollback = false;
  #length = 0;

  check(current, playerIndex) {
    if (this.#player === undefined) this.#player = playerIndex;
    else if (this.#player !== playerIndex) return;
    if (current?.players) {
      (this.frames[current.frame] ??= []).push(current);
      this.count++;
      this.#length++;
      this.#lastWasRollback = true;
    } else if (this.#lastWasRollback) {
      this.lengths.push(this.#length);
      this.#length = 0;
      this.#lastWasRollback = false;
    }
  }
}

/** A row shorter than its kind's first version (a damaged or unusual
 * event): the reader's object, built field by field (slippi-js's keys in
 * its order), `undefined` past the `n` present fields. */
function shortRow(code, I, U, R, p, n) {
  const [name, types] = KINDS[code];
  // The reader's keys (and nesting), from a row with every field.
  const full = SLIPPI_JS[name](I, U, R, p, types.length);
  const fill = (shape, k) => {
    const out = {};
    for (const key of Object.keys(shape)) {
      if (shape[key] !== null && typeof shape[key] === 'object') {
        [out[key], k] = fill(shape[key], k);
        continue;
      }
      const t = types[k];
      out[key] = k >= n ? undefined : t === 'R' ? R[p + 1 + k] : t === 'U' ? U[p + 1 + k] : t === 'B' ? I[p + 1 + k] === 1 : I[p + 1 + k];
      k++;
    }
    return [out, k];
  };
  return fill(full, 0)[0];
}

/** The frames as slippi-js's `SlpParser` files them, from the core's
 * events (frameRows()) and Game Start's version: `{frames, rollbacks,
 * latestFrameIndex, gameEnd}`. */
function parseFrames(U, version) {
  const I = new Int32Array(U.buffer, U.byteOffset, U.length);
  const R = new Float32Array(U.buffer, U.byteOffset, U.length);
  const frames = {};
  const rollbacks = new RollbackCounter();
  let settingsComplete = false;
  let latestFrameIndex;
  let gameEnd = false;
  const old = version !== undefined && !versionAtLeast(version, '2.2.1');
  const from160 = version !== undefined && versionAtLeast(version, '1.6.0');
  // The frame last looked up (frames[n] is only ever set once, here).
  let lastN = NaN;
  let last = null;
  const frameAt = (n) => {
    if (n === lastN) return last;
    let f = frames[n];
    if (f === null || typeof f !== 'object') f = frames[n] = {};
    lastN = n;
    last = f;
    return f;
  };
  const update = (payload, pre) => {
    if (!pre && !settingsComplete && payload.frame > -123) settingsComplete = true;
    const n = payload.frame;
    latestFrameIndex = n;
    if (pre && !payload.isFollower) rollbacks.check(frames[n], payload.playerIndex);
    const frame = frameAt(n);
    const field = payload.isFollower ? 'followers' : 'players';
    // lodash's set: a missing list of players is an array (holes for
    // absent ports).
    let list = frame[field];
    if (list === null || typeof list !== 'object') list = frame[field] = [];
    const slot = list[payload.playerIndex];
    const player = slot !== null && typeof slot === 'object' ? slot : (list[payload.playerIndex] = {});
    if (pre) player.pre = payload;
    else player.post = payload;
    frame.frame = n;
    // Before Frame Bookends (2.2.0 and older, once the settings are
    // complete) slippi-js finalizes frame by frame; else the frame
    // waits for its bookend.
    if (!(settingsComplete && old)) frame.isTransferComplete = false;
  };
  const row = (code, p, n) => {
    const [name, , base] = KINDS[code];
    return n >= base ? SLIPPI_JS[name](I, U, R, p, n) : shortRow(code, I, U, R, p, n);
  };
  const length = U.length;
  let p = 0;
  while (p < length) {
    const head = I[p];
    const code = head & 0xff;
    const n = head >>> 8;
    switch (code) {
      case 0:
        if (from160) settingsComplete = true;
        break;
      case 1:
        frameAt(n > 0 ? I[p + 1] : undefined).start = n >= 2 ? SLIPPI_JS.frame_start(I, U, R, p, n) : shortRow(code, I, U, R, p, n);
        break;
      case 2:
        update(n >= 17 ? SLIPPI_JS.pre_frame(I, U, R, p, n) : shortRow(code, I, U, R, p, n), true);
        break;
      case 3:
        update(n >= 14 ? SLIPPI_JS.post_frame(I, U, R, p, n) : shortRow(code, I, U, R, p, n), false);
        break;
      case 4: {
        const frame = frameAt(n > 0 ? I[p + 1] : undefined);
        (frame.items ??= []).push(n >= 11 ? SLIPPI_JS.item_update(I, U, R, p, n) : shortRow(code, I, U, R, p, n));
        break;
      }
      case 5:
        frameAt(n > 0 ? I[p + 1] : undefined).isTransferComplete = true;
        break;
      case 6:
        gameEnd = true;
        break;
      case 7:
      case 8:
      case 9: {
        const frame = frameAt(n > 0 ? I[p + 1] : undefined);
        (frame.stageEvents ??= []).push(row(code, p, n));
        break;
      }
      default:
        throw new GamefmtError(`frameRows: unknown row kind ${code} at ${p}`, 'corrupt', 0);
    }
    p += STRIDE[code];
  }
  return { frames, rollbacks, latestFrameIndex, gameEnd };
}

export class SlippiGame {
  /** A replay from its bytes (`Uint8Array`, `ArrayBuffer`, Node
   * `Buffer`). slippi-js also takes a file path; read the file first. */
  constructor(input) {
    if (typeof input === 'string') {
      throw new GamefmtError('SlippiGame from a path: read the file and pass its bytes', 'unsupported', 0);
    }
    this.#bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    // Told by the first bytes alone: opening copies the whole file.
    const format = detect(this.#bytes.subarray(0, 64));
    if (format !== 'slippi') {
      throw new GamefmtError(`not a Slippi replay (a ${format ?? 'unknown'} file)`, format ? 'bad_magic' : 'unknown_format', 0);
    }
    this.cache = {};
  }

  #bytes;

  /** `f(file)` on the replay opened in the module's memory, freed after:
   * no copy of the file stays there between calls (the module's memory
   * never shrinks, and a copy kept until the object is collected made
   * every later call slower). */
  #with(f) {
    const file = open(this.#bytes);
    try {
      return f(file);
    } finally {
      file.free();
    }
  }

  #once(key, f) {
    if (!(key in this.cache)) this.cache[key] = f();
    return this.cache[key];
  }

  /** slippi-js's `getStats()`: `undefined` until the settings are
   * complete. */
  getStats() {
    return this.#once('stats', () => nullToUndefined(this.#with((f) => f.slippiJsStats())));
  }

  /** slippi-js's `getStadiumStats()` (Target Test, Home-Run Contest). */
  getStadiumStats() {
    return this.#once('stadium', () => nullToUndefined(this.#with((f) => f.slippiJsStadiumStats())));
  }

  /** slippi-js's `getWinners()`: `[{playerIndex, position}]`. */
  getWinners() {
    return this.#with((f) => f.winners()).map((w) => ({ playerIndex: w.port - 1, position: w.position }));
  }

  /** slippi-js's `getMetadata()`: the metadata element, `undefined` when
   * the file has none. */
  getMetadata() {
    return this.#once('metadata', () => nullToUndefined(this.#with((f) => f.metadata())));
  }

  /** slippi-js's `getGameEnd()`, `undefined` before Game End. */
  getGameEnd() {
    const [e, start] = this.#with((f) => [f.gameEnd(), f.gameStart()]);
    if (!e) return undefined;
    const placements = e.placements ?? [];
    // Fields by the replay's version, as slippi-js reads them (absent in
    // the payload: undefined): LRAS initiator from 2.0.0.
    const [major] = String(start?.version ?? '0').split('.').map(Number);
    const lras = major >= 2 ? (e.lras_initiator === null ? -1 : e.lras_initiator - 1) : undefined;
    return {
      gameEndMethod: nullToUndefined(e.method),
      lrasInitiatorIndex: lras,
      placements: [0, 1, 2, 3].map((playerIndex) => ({ playerIndex, position: placements[playerIndex] ?? undefined })),
    };
  }

  /** slippi-js's `getSettings()`: `undefined` until complete (from
   * 1.6.0 at Game Start, before that after frame -123, with the
   * Zelda/Sheik fix). */
  getSettings() {
    return this.#once('settings', () => {
      const g = this.#with((f) => f.settings());
      return g ? SLIPPI_JS.settings(g) : undefined;
    });
  }

  #parsed() {
    return this.#once('frames', () => this.#with((f) => {
      const version = f.gameStart()?.version ?? undefined;
      // A view of the module's memory, read at once: no call into the
      // module until parseFrames is done.
      return parseFrames(f.frameRowsView(), version);
    }));
  }

  /** slippi-js's `getFrames()`: `{[frame]: {frame, start, players:
   * [{pre, post}], followers, items, stageEvents, isTransferComplete}}`,
   * players by index (0-3). */
  getFrames() {
    return this.#parsed().frames;
  }

  /** slippi-js's `getLatestFrame()`: the last frame after Game End, the
   * one before it while the game is going on. */
  getLatestFrame() {
    const { frames, latestFrameIndex, gameEnd } = this.#parsed();
    const n = latestFrameIndex ?? -123;
    return frames[gameEnd ? n : n - 1] || undefined;
  }

  /** slippi-js's `getRollbackFrames()`: `{frames: {[frame]: [frame,
   * ...]}, count, lengths}`. */
  getRollbackFrames() {
    const { rollbacks } = this.#parsed();
    return { frames: rollbacks.frames, count: rollbacks.count, lengths: rollbacks.lengths };
  }
}

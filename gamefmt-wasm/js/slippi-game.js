// A `SlippiGame`-shaped class over the package, for slippi-js users:
// `import { SlippiGame } from 'gamefmt/slippi-game'` in place of
// `@slippi/slippi-js`. The getters below return what slippi-js 9.1.2
// returns (its shapes, camelCase), computed by the gamefmt core.
//
// Every getter: getSettings, getFrames, getLatestFrame,
// getRollbackFrames, getGameEnd, getWinners, getMetadata, getStats,
// getStadiumStats. The facts come from the core's vocabulary (the wasm
// module's `settings()`, `eventColumns()`, `gameEnd()`, ...): the mapping
// from its names to slippi-js's is the SLIPPI_JS table below and the few
// getters' bodies, nowhere else. How frames are filed (rollbacks, items,
// `isTransferComplete`) follows slippi-js's `SlpParser` step by step.
import { open, GamefmtError } from './index.js';

const nullToUndefined = (v) => (v === null ? undefined : v);

// The frames' events arrive as rows (SlippiFile.frameRows(): one
// Float64Array, each event a kind code then its fields in slippi-js's
// order, read from the bytes as slippi-js reads them: f32 widened as
// DataView.getFloat32 does, booleans 0/1, a field past the end of the
// event ABSENT, slippi-js's `undefined`). Each function below reads the
// fields of the row whose kind code is at `d[p]`; ROW is each kind's
// code and length (code included).
const ABSENT = 1e300;
const u = (v) => (v === ABSENT ? undefined : v);
const flag = (v) => (v === ABSENT ? undefined : v === 1);
const ROW = {
  game_start: [0, 1],
  frame_start: [1, 4],
  pre_frame: [2, 20],
  post_frame: [3, 31],
  item_update: [4, 18],
  frame_bookend: [5, 3],
  game_end: [6, 1],
  fod_platform: [7, 4],
  whispy: [8, 3],
  stadium_transformation: [9, 4],
};
const num = (v) => (v === null ? undefined : v);

/** slippi-js's names for the core's facts, per event kind: the one place
 * they are mapped. */
const SLIPPI_JS = {
  frame_start: (d, p) => ({ frame: u(d[p + 1]), seed: u(d[p + 2]), sceneFrameCounter: u(d[p + 3]) }),
  pre_frame: (d, p) => ({
    frame: u(d[p + 1]),
    playerIndex: u(d[p + 2]),
    isFollower: flag(d[p + 3]),
    seed: u(d[p + 4]),
    actionStateId: u(d[p + 5]),
    positionX: u(d[p + 6]),
    positionY: u(d[p + 7]),
    facingDirection: u(d[p + 8]),
    joystickX: u(d[p + 9]),
    joystickY: u(d[p + 10]),
    cStickX: u(d[p + 11]),
    cStickY: u(d[p + 12]),
    trigger: u(d[p + 13]),
    buttons: u(d[p + 14]),
    physicalButtons: u(d[p + 15]),
    physicalLTrigger: u(d[p + 16]),
    physicalRTrigger: u(d[p + 17]),
    rawJoystickX: u(d[p + 18]),
    percent: u(d[p + 19]),
  }),
  post_frame: (d, p) => ({
    frame: u(d[p + 1]),
    playerIndex: u(d[p + 2]),
    isFollower: flag(d[p + 3]),
    internalCharacterId: u(d[p + 4]),
    actionStateId: u(d[p + 5]),
    positionX: u(d[p + 6]),
    positionY: u(d[p + 7]),
    facingDirection: u(d[p + 8]),
    percent: u(d[p + 9]),
    shieldSize: u(d[p + 10]),
    lastAttackLanded: u(d[p + 11]),
    currentComboCount: u(d[p + 12]),
    lastHitBy: u(d[p + 13]),
    stocksRemaining: u(d[p + 14]),
    actionStateCounter: u(d[p + 15]),
    miscActionState: u(d[p + 16]),
    isAirborne: flag(d[p + 17]),
    lastGroundId: u(d[p + 18]),
    jumpsRemaining: u(d[p + 19]),
    lCancelStatus: u(d[p + 20]),
    hurtboxCollisionState: u(d[p + 21]),
    selfInducedSpeeds: {
      airX: u(d[p + 22]),
      y: u(d[p + 23]),
      attackX: u(d[p + 24]),
      attackY: u(d[p + 25]),
      groundX: u(d[p + 26]),
    },
    hitlagRemaining: u(d[p + 27]),
    animationIndex: u(d[p + 28]),
    instanceHitBy: u(d[p + 29]),
    instanceId: u(d[p + 30]),
  }),
  item_update: (d, p) => ({
    frame: u(d[p + 1]),
    typeId: u(d[p + 2]),
    state: u(d[p + 3]),
    facingDirection: u(d[p + 4]),
    velocityX: u(d[p + 5]),
    velocityY: u(d[p + 6]),
    positionX: u(d[p + 7]),
    positionY: u(d[p + 8]),
    damageTaken: u(d[p + 9]),
    expirationTimer: u(d[p + 10]),
    spawnId: u(d[p + 11]),
    missileType: u(d[p + 12]),
    turnipFace: u(d[p + 13]),
    chargeShotLaunched: u(d[p + 14]),
    chargePower: u(d[p + 15]),
    owner: u(d[p + 16]),
    instanceId: u(d[p + 17]),
  }),
  frame_bookend: (d, p) => ({ frame: u(d[p + 1]), latestFinalizedFrame: u(d[p + 2]) }),
  fod_platform: (d, p) => ({ frame: u(d[p + 1]), platform: u(d[p + 2]), height: u(d[p + 3]) }),
  whispy: (d, p) => ({ frame: u(d[p + 1]), direction: u(d[p + 2]) }),
  stadium_transformation: (d, p) => ({ frame: u(d[p + 1]), event: u(d[p + 2]), transformation: u(d[p + 3]) }),

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

/** The frames as slippi-js's `SlpParser` files them, from the core's
 * events (frameRows()) and Game Start's version: `{frames, rollbacks,
 * latestFrameIndex, gameEnd}`. */
function parseFrames(d, version) {
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
  const length = d.length;
  let p = 0;
  while (p < length) {
    switch (d[p]) {
      case 0:
        if (from160) settingsComplete = true;
        p += 1;
        break;
      case 1:
        frameAt(u(d[p + 1])).start = SLIPPI_JS.frame_start(d, p);
        p += 4;
        break;
      case 2:
        update(SLIPPI_JS.pre_frame(d, p), true);
        p += 20;
        break;
      case 3:
        update(SLIPPI_JS.post_frame(d, p), false);
        p += 31;
        break;
      case 4: {
        const frame = frameAt(u(d[p + 1]));
        (frame.items ??= []).push(SLIPPI_JS.item_update(d, p));
        p += 18;
        break;
      }
      case 5:
        frameAt(u(d[p + 1])).isTransferComplete = true;
        p += 3;
        break;
      case 6:
        gameEnd = true;
        p += 1;
        break;
      case 7:
      case 8:
      case 9: {
        const kind = d[p] === 7 ? 'fod_platform' : d[p] === 8 ? 'whispy' : 'stadium_transformation';
        const frame = frameAt(u(d[p + 1]));
        (frame.stageEvents ??= []).push(SLIPPI_JS[kind](d, p));
        p += ROW[kind][1];
        break;
      }
      default:
        throw new GamefmtError(`frameRows: unknown row kind ${d[p]} at ${p}`, 'corrupt', 0);
    }
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
    this.#with((file) => {
      if (file.format !== 'slippi') {
        throw new GamefmtError(`not a Slippi replay (a ${file.format} file)`, 'bad_magic', 0);
      }
    });
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
    return this.#once('frames', () => this.#with((f) => parseFrames(f.frameRows(), f.gameStart()?.version ?? undefined)));
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

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

// The frames' events arrive as columns (SlippiFile.eventColumns(): one
// Float64Array per key of the vocabulary, numbers exact, booleans 0/1, a
// missing value, a field the event is too short for, is slippi-js's
// `undefined`). Each function below reads row `i` of its kind's columns
// `c`.
const num = (v) => (v === null ? undefined : v);
const bool = (v) => (v === undefined ? undefined : v === 1);
const index = (port) => (port === undefined ? undefined : port - 1);

/** slippi-js's names for the vocabulary's, per event kind: the one place
 * they are mapped. */
const SLIPPI_JS = {
  frame_start: (c, i) => ({ frame: c.frame[i], seed: c.random_seed[i], sceneFrameCounter: c.scene_frame_counter[i] }),
  pre_frame: (c, i) => ({
    frame: c.frame[i],
    playerIndex: index(c.port[i]),
    isFollower: bool(c.follower[i]),
    seed: c.random_seed[i],
    actionStateId: c.action_state[i],
    positionX: c.x[i],
    positionY: c.y[i],
    facingDirection: c.facing_direction[i],
    joystickX: c.joystick_x[i],
    joystickY: c.joystick_y[i],
    cStickX: c.cstick_x[i],
    cStickY: c.cstick_y[i],
    trigger: c.trigger[i],
    buttons: c.buttons[i],
    physicalButtons: c.physical_buttons[i],
    physicalLTrigger: c.physical_l[i],
    physicalRTrigger: c.physical_r[i],
    rawJoystickX: c.raw_joystick_x[i],
    percent: c.percent[i],
  }),
  post_frame: (c, i) => ({
    frame: c.frame[i],
    playerIndex: index(c.port[i]),
    isFollower: bool(c.follower[i]),
    internalCharacterId: c.internal_character[i],
    actionStateId: c.action_state[i],
    positionX: c.x[i],
    positionY: c.y[i],
    facingDirection: c.facing_direction[i],
    percent: c.percent[i],
    shieldSize: c.shield_size[i],
    lastAttackLanded: c.last_attack_landed[i],
    currentComboCount: c.combo_count[i],
    lastHitBy: c.last_hit_by[i],
    stocksRemaining: c.stocks[i],
    actionStateCounter: c.action_state_frame_counter[i],
    miscActionState: c.misc_action_state[i],
    isAirborne: bool(c.is_airborne[i]),
    lastGroundId: c.last_ground_id[i],
    jumpsRemaining: c.jumps_remaining[i],
    lCancelStatus: c.l_cancel_status[i],
    hurtboxCollisionState: c.hurtbox_state[i],
    selfInducedSpeeds: {
      airX: c.self_induced_air_x_speed[i],
      y: c.self_induced_y_speed[i],
      attackX: c.attack_based_x_speed[i],
      attackY: c.attack_based_y_speed[i],
      groundX: c.self_induced_ground_x_speed[i],
    },
    hitlagRemaining: c.hitlag_remaining[i],
    animationIndex: c.animation_index[i],
    instanceHitBy: c.instance_hit_by[i],
    instanceId: c.instance_id[i],
  }),
  // `ownerField`: whether the event has the owner byte (3.6.0); the
  // vocabulary's `owner` is a port, missing for "nobody" (-1 to slippi-js).
  item_update: (c, i, ownerField) => ({
    frame: c.frame[i],
    typeId: c.type[i],
    state: c.state[i],
    facingDirection: c.facing_direction[i],
    velocityX: c.velocity_x[i],
    velocityY: c.velocity_y[i],
    positionX: c.x[i],
    positionY: c.y[i],
    damageTaken: c.damage_taken[i],
    expirationTimer: c.expiration_timer[i],
    spawnId: c.spawn_id[i],
    missileType: c.missile_type[i],
    turnipFace: c.turnip_face[i],
    chargeShotLaunched: c.charge_shot_launched[i],
    chargePower: c.charge_power[i],
    owner: c.owner[i] !== undefined ? c.owner[i] - 1 : ownerField ? -1 : undefined,
    instanceId: c.instance_id[i],
  }),
  frame_bookend: (c, i) => ({ frame: c.frame[i], latestFinalizedFrame: c.latest_finalized_frame[i] }),
  fod_platform: (c, i) => ({ frame: c.frame[i], platform: c.platform[i], height: c.height[i] }),
  whispy: (c, i) => ({ frame: c.frame[i], direction: c.direction[i] }),
  stadium_transformation: (c, i) => ({ frame: c.frame[i], event: c.event[i], transformation: c.type[i] }),

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

/** One table of eventColumns() with its missing values as `undefined`
 * (a column with none stays a Float64Array). */
function readable(table) {
  const c = { ...table.columns };
  for (const [key, present] of Object.entries(table.present)) {
    c[key] = Array.from(c[key], (v, i) => (present[i] ? v : undefined));
  }
  return c;
}

/** The frames as slippi-js's `SlpParser` files them, from the core's
 * events (eventColumns()) and Game Start's version: `{frames, rollbacks,
 * latestFrameIndex, gameEnd}`. */
function parseFrames({ order, tables }, version) {
  const frames = {};
  const rollbacks = new RollbackCounter();
  let settingsComplete = false;
  let latestFrameIndex;
  let gameEnd = false;
  const columns = tables.map(readable);
  const kinds = tables.map((t) => t.kind);
  const rows = tables.map(() => 0);
  const old = version !== undefined && !versionAtLeast(version, '2.2.1');
  const ownerField = version !== undefined && versionAtLeast(version, '3.6.0');
  const frameAt = (n) => (frames[n] !== null && typeof frames[n] === 'object' ? frames[n] : (frames[n] = {}));
  for (let k = 0; k < order.length; k++) {
    const t = order[k];
    const kind = kinds[t];
    const c = columns[t];
    const i = rows[t]++;
    switch (kind) {
      case 'game_start':
        if (version !== undefined && versionAtLeast(version, '1.6.0')) settingsComplete = true;
        break;
      case 'frame_start':
        frameAt(c.frame[i]).start = SLIPPI_JS.frame_start(c, i);
        break;
      case 'pre_frame':
      case 'post_frame': {
        const pre = kind === 'pre_frame';
        const payload = SLIPPI_JS[kind](c, i);
        if (!pre && !settingsComplete && payload.frame > -123) settingsComplete = true;
        const n = payload.frame;
        latestFrameIndex = n;
        if (pre && !payload.isFollower) rollbacks.check(frames[n], payload.playerIndex);
        const frame = frameAt(n);
        const field = payload.isFollower ? 'followers' : 'players';
        // lodash's set: a missing list of players is an array (holes for
        // absent ports).
        if (frame[field] === null || typeof frame[field] !== 'object') frame[field] = [];
        const slot = frame[field][payload.playerIndex];
        const player = slot !== null && typeof slot === 'object' ? slot : (frame[field][payload.playerIndex] = {});
        player[pre ? 'pre' : 'post'] = payload;
        frame.frame = n;
        // Before Frame Bookends (2.2.0 and older, once the settings are
        // complete) slippi-js finalizes frame by frame; else the frame
        // waits for its bookend.
        if (!(settingsComplete && old)) frame.isTransferComplete = false;
        break;
      }
      case 'item_update': {
        const frame = frameAt(c.frame[i]);
        (frame.items ??= []).push(SLIPPI_JS.item_update(c, i, ownerField));
        break;
      }
      case 'frame_bookend':
        frameAt(c.frame[i]).isTransferComplete = true;
        break;
      case 'game_end':
        gameEnd = true;
        break;
      case 'fod_platform':
      case 'whispy':
      case 'stadium_transformation': {
        const frame = frameAt(c.frame[i]);
        (frame.stageEvents ??= []).push(SLIPPI_JS[kind](c, i));
        break;
      }
      default:
        break;
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
    this.bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    const format = this.#with((file) => file.format);
    if (format !== 'slippi') {
      throw new GamefmtError(`not a Slippi replay (a ${format} file)`, 'bad_magic', 0);
    }
    this.cache = {};
  }

  // The replay's bytes stay in JavaScript (the caller's, not copied, as
  // slippi-js keeps them); each getter copies them into the module and
  // frees that copy when it returns. A module-side file kept per game
  // held every replay in wasm memory until the garbage collector ran:
  // getStats() on 60 replays in a row took twice as long.
  #with(f) {
    const file = open(this.bytes);
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
    return this.#once('stats', () => this.#with((file) => nullToUndefined(file.slippiJsStats())));
  }

  /** slippi-js's `getStadiumStats()` (Target Test, Home-Run Contest). */
  getStadiumStats() {
    return this.#once('stadium', () => this.#with((file) => nullToUndefined(file.slippiJsStadiumStats())));
  }

  /** slippi-js's `getWinners()`: `[{playerIndex, position}]`. */
  getWinners() {
    return this.#with((file) => file.winners()).map((w) => ({ playerIndex: w.port - 1, position: w.position }));
  }

  /** slippi-js's `getMetadata()`: the metadata element, `undefined` when
   * the file has none. */
  getMetadata() {
    return this.#once('metadata', () => this.#with((file) => nullToUndefined(file.metadata())));
  }

  /** slippi-js's `getGameEnd()`, `undefined` before Game End. */
  getGameEnd() {
    const [e, start] = this.#with((file) => [file.gameEnd(), file.gameStart()]);
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
      const g = this.#with((file) => file.settings());
      return g ? SLIPPI_JS.settings(g) : undefined;
    });
  }

  #parsed() {
    return this.#once('frames', () => this.#with((file) => parseFrames(file.eventColumns(), file.gameStart()?.version ?? undefined)));
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

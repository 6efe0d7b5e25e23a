// Types of the npm package `gamefmt`. The classes are wasm-bindgen's
// (dist/wasm/gamefmt.d.ts); their methods are typed here with the record
// shapes the core's `Serialize` gives (the one vocabulary: snake_case
// keys, `kind` tags, Slippi `port` 1-based, Teeworlds `cid`, `null` for an
// absent field).

/** The one error the package throws. */
export declare class GamefmtError extends Error {
  constructor(message: string, kind: string, offset: number);
  name: 'GamefmtError';
  /** The core's `ErrorKind` name: `truncated`, `corrupt`, `bad_magic`,
   * `unknown_format`, `out_of_memory`, ... */
  kind: string;
  /** Byte offset in the file where decoding failed. */
  offset: number;
}

export type Format = 'datafile' | 'demo' | 'teehistorian' | 'slippi';

/** How a stream ended. */
export interface End {
  kind: 'complete' | 'eof' | 'truncated' | 'damaged';
  offset: number | null;
  error: { kind: string; offset: number; message: string } | null;
}

/** A quirk read with a warning. */
export interface Warning {
  kind: string;
  offset: number;
  message: string;
}

// ---- maps ---------------------------------------------------------------

/** One item of a map, in map terms (`gamefmt dump --map`). */
export type MapItem =
  | { item: 'version'; version: number; id: number }
  | { item: 'info'; author: string | null; map_version: string | null; credits: string | null; license: string | null; settings: string[] | null; id: number }
  | MapImage
  | MapEnvelope
  | MapGroup
  | MapLayer
  | { item: 'envpoints'; points: number; ints_per_point: number; id: number }
  | { item: 'sound'; index: number; name: string | null; external: boolean; data_size: number | null; id: number }
  | { item: 'uuid_type'; type_id: number; uuid: string | null; id: number }
  | { item: 'automapper_config'; group?: number; layer?: number; config?: number; seed?: number; automatic?: boolean; ints?: number; id: number }
  | { item: 'envpoints_bezier'; points: number; id: number }
  | { item: 'unknown'; type_id: number; type_uuid: string | null; ints: number; id: number }
  | null;

export interface MapImage {
  item: 'image';
  index: number;
  name: string | null;
  width: number;
  height: number;
  external: boolean;
  format: 'rgb' | 'rgba' | number;
  data_size: number | null;
  id?: number;
}

export interface MapEnvelope {
  item: 'envelope';
  index: number;
  version: number;
  name: string | null;
  channels: number;
  start_point: number;
  points: number;
  synchronized: boolean | null;
  id?: number;
}

export interface MapGroup {
  item: 'group';
  index: number;
  version: number;
  name: string | null;
  offset: [number, number];
  parallax: [number, number];
  clipping: { x: number; y: number; w: number; h: number } | null;
  start_layer: number;
  layers: number;
  id?: number;
}

export interface MapLayer {
  item: 'layer';
  index: number;
  group: number | null;
  kind: 'game' | 'tiles' | 'front' | 'tele' | 'speedup' | 'switch' | 'tune' | 'quads' | 'sounds' | string;
  name: string | null;
  detail: boolean;
  version?: number;
  width?: number;
  height?: number;
  image?: number;
  color?: [number, number, number, number];
  data?: number;
  quads?: number;
  sources?: number;
  sound?: number;
  type?: number;
  ints?: number;
  id?: number;
}

/** A tile layer's tiles: `data` holds width × height elements of
 * `element_size` bytes, row by row (the tile index first). */
export interface Tiles {
  kind: string;
  width: number;
  height: number;
  element_size: number;
  image: number;
  color: [number, number, number, number];
  data: Uint8Array;
}

/** An image, its pixels RGBA (null when external). */
export interface ImagePixels {
  name: string | null;
  width: number;
  height: number;
  external: boolean;
  rgba: Uint8ClampedArray | null;
}

export declare class MapFile {
  private constructor();
  free(): void;
  readonly format: 'datafile';
  readonly version: number;
  items(): MapItem[];
  info(): MapItem;
  layers(): (MapLayer | null)[];
  groups(): (MapGroup | null)[];
  images(): (MapImage | null)[];
  envelopes(): (MapEnvelope | null)[];
  warnings(): Warning[];
  gameLayer(): number | undefined;
  tiles(layer: number): Tiles;
  image(index: number): ImagePixels;
}

// ---- demos --------------------------------------------------------------

/** A player of a snapshot (the scoreboard). */
export interface SnapshotPlayer {
  client_id: number;
  name: string | null;
  team: number | null;
  score: number | null;
  pos: [number, number] | null;
}

/** A network message, as the core names it (DDNet's datasrc names). */
export interface NetMessage {
  kind: string;
  [field: string]: unknown;
}

/** One chunk (`gamefmt dump`). */
export interface DemoChunk {
  tick: number | null;
  kind: 'tick' | 'snapshot' | 'delta' | 'message' | 'unknown';
  keyframe?: boolean;
  size?: number;
  items?: number;
  crc?: number;
  players?: SnapshotPlayer[];
  msg_id?: number;
  system?: boolean;
  message?: NetMessage;
}

/** A typed snapshot object (`kind`, DDNet's field names). */
export interface SnapshotObject {
  kind: string;
  id: number;
  type_id: number;
  [field: string]: unknown;
}

export interface DemoHeader {
  version: number;
  net_version: string;
  map_name: string;
  map_size: number;
  map_crc: number;
  map_sha256: string | null;
  kind: string;
  length_seconds: number;
  timestamp: string;
  markers: number[];
}

/** One line of chat (`gamefmt chat --json`). */
export interface ChatLine {
  tick: number | null;
  kind: 'chat' | 'command';
  client_id: number;
  name: string | null;
  channel: 'all' | 'team' | 'whisper';
  message: string;
}

export declare class DemoFile {
  private constructor();
  free(): void;
  readonly format: 'demo';
  header(): DemoHeader;
  mapBytes(): Uint8Array | null;
  chunks(): DemoChunk[];
  end(): End;
  snapshotCount(): number;
  snapshot(index: number): { tick: number | null; items: number; crc: number; players: SnapshotPlayer[]; objects: SnapshotObject[] } | null;
  players(): SnapshotPlayer[];
  chat(): ChatLine[];
}

// ---- teehistorian -------------------------------------------------------

/** One record (`gamefmt dump`): `tick`, `offset`, `kind`, the kind's
 * fields; `message` for a MESSAGE record, `player` once the client is
 * named. */
export interface TeehistorianRecord {
  tick: number;
  offset: number;
  kind: string;
  cid?: number;
  message?: NetMessage | null;
  player?: string;
  [field: string]: unknown;
}

export declare class TeehistorianFile {
  private constructor();
  free(): void;
  readonly format: 'teehistorian';
  header(): Record<string, unknown>;
  records(): TeehistorianRecord[];
  end(): End;
  players(): { cid: number; name: string }[];
  chat(): ChatLine[];
}

// ---- slippi -------------------------------------------------------------

/** One event (`gamefmt dump`): `offset`, `kind`, `code`, the event's
 * fields (`frame`, `port` 1-based, ...). */
export interface SlippiEvent {
  offset: number;
  kind: 'event_payloads' | 'game_start' | 'pre_frame' | 'post_frame' | 'game_end' | 'frame_start'
    | 'item_update' | 'frame_bookend' | 'message_splitter' | 'gecko_list' | 'fod_platform' | 'whispy'
    | 'stadium_transformation' | 'unknown' | string;
  code: number;
  frame?: number;
  port?: number;
  [field: string]: unknown;
}

/** One port's columns: one slot per frame. */
export interface PortColumns {
  action_state: Uint16Array;
  position_x: Float32Array;
  position_y: Float32Array;
  facing_direction: Float32Array;
  percent: Float32Array;
  shield_size: Float32Array;
  stocks_remaining: Uint8Array;
  /** 1 where the frame has an update for this port. */
  present: Uint8Array;
}

export interface FrameColumns {
  first_frame: number;
  frame: Int32Array;
  ports: { [port: string]: PortColumns };
}

export declare class SlippiFile {
  private constructor();
  free(): void;
  readonly format: 'slippi';
  events(): SlippiEvent[];
  end(): End;
  gameStart(): SlippiEvent | null;
  gameEnd(): SlippiEvent | null;
  /** Game Start once slippi-js's `getSettings()` would give it (players'
   * `character` with the pre-1.6.0 Zelda/Sheik fix), else null. */
  settings(): SlippiEvent | null;
  /** Every event in file order as columns of the vocabulary's keys:
   * `order` names each event's table; a table holds one kind's events,
   * one Float64Array per key (booleans 0/1, text left out) and, for a
   * key with missing values, `present` (0 where missing). Game Start,
   * Game End and the events frames do not hold are in `order` only. */
  eventColumns(): {
    order: Uint8Array;
    tables: { kind: string; rows: number; columns: Record<string, Float64Array>; present: Record<string, Uint8Array> }[];
  };
  /** The events slippi-js's `getFrames()` files (Game Start, Frame
   * Start, Pre-/Post-Frame Update, Item Update, Frame Bookend, Game End,
   * stage events), in file order, as rows of 32-bit slots for the
   * `SlippiGame` facade: each row a header `kind | present << 8`, then
   * the kind's fields in slippi-js's order (integers as Int32, u32 fields
   * as Uint32, f32 fields as Float32 bits, booleans 0/1); `present`
   * counts the fields the event holds, the rest (an older, shorter
   * event's last fields) are 0. The layout is the facade's, documented
   * at `FrameRow` in gamefmt-wasm/src/slippi.rs. */
  frameRows(): Uint32Array;
  /** The rows of `frameRows()` as a view of the module's memory instead
   * of a copy (what the facade's `getFrames()` reads). The view shows
   * them until the next `frameRowsView()` on this file or until the file
   * is freed; any call into the package that grows the module's memory
   * empties it. Read it at once, or copy it with `slice()`. */
  frameRowsView(): Uint32Array;
  metadata(): Record<string, unknown> | null;
  winners(): { port: number; position: number }[];
  /** The core's stats (slippi-js's computers) in the one vocabulary. */
  stats(): Record<string, unknown>;
  frames(): FrameColumns;
}

/** Push decoding (Slippi, teehistorian): records as their bytes arrive. */
export declare class Decoder {
  constructor();
  free(): void;
  readonly format: 'slippi' | 'teehistorian' | undefined;
  readonly header: Record<string, unknown> | null;
  push(piece: Uint8Array): (SlippiEvent | TeehistorianRecord)[];
  end(): End;
}

export declare function detect(head: Uint8Array): Format | undefined;
export declare function formats(): Format[];
export declare function open(bytes: Uint8Array | ArrayBuffer): MapFile | DemoFile | TeehistorianFile | SlippiFile;

// ---- canvas -------------------------------------------------------------

export interface MapScene {
  width: number;
  height: number;
  layers: (Tiles & { index: number; game: boolean })[];
  images: (ImagePixels | null)[];
}
export declare function mapScene(map: MapFile): MapScene;
export declare function drawMap(
  scene: MapScene,
  canvas: HTMLCanvasElement | OffscreenCanvas,
  options?: { maxSize?: number },
): number;

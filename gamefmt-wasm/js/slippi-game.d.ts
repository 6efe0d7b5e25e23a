// A `SlippiGame`-shaped class over gamefmt (see slippi-game.js): the
// getters return slippi-js 9.1.2's shapes; their types are slippi-js's
// (`StatsType`, `StadiumStatsType`, `PlacementType`, `GameEndType`,
// `MetadataType`), given here structurally.
/** slippi-js's `FrameEntryType`. */
export interface FrameEntry {
  frame: number;
  start?: Record<string, number>;
  players: ({ pre: Record<string, unknown>; post: Record<string, unknown> } | undefined)[];
  followers?: ({ pre: Record<string, unknown>; post: Record<string, unknown> } | undefined)[];
  items?: Record<string, number>[];
  stageEvents?: Record<string, number>[];
  isTransferComplete?: boolean;
}

export declare class SlippiGame {
  constructor(input: Uint8Array | ArrayBuffer);
  getStats(): Record<string, unknown> | undefined;
  getStadiumStats(): Record<string, unknown> | undefined;
  getWinners(): { playerIndex: number; position: number }[];
  getMetadata(): Record<string, unknown> | undefined;
  getGameEnd(): { gameEndMethod?: number; lrasInitiatorIndex?: number; placements: { playerIndex: number; position?: number }[] } | undefined;
  /** slippi-js's `GameStartType`, `undefined` until complete. */
  getSettings(): Record<string, unknown> | undefined;
  /** slippi-js's `FramesType`: frames by number, players by index. */
  getFrames(): Record<number, FrameEntry>;
  getLatestFrame(): FrameEntry | undefined;
  getRollbackFrames(): { frames: Record<number, FrameEntry[]>; count: number; lengths: number[] };
}

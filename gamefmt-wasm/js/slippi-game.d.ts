// A `SlippiGame`-shaped class over gamefmt (see slippi-game.js): the
// getters return slippi-js 9.1.2's shapes; their types are slippi-js's
// (`StatsType`, `StadiumStatsType`, `PlacementType`, `GameEndType`,
// `MetadataType`), given here structurally.
export declare class SlippiGame {
  constructor(input: Uint8Array | ArrayBuffer);
  getStats(): Record<string, unknown> | undefined;
  getStadiumStats(): Record<string, unknown> | undefined;
  getWinners(): { playerIndex: number; position: number }[];
  getMetadata(): Record<string, unknown> | undefined;
  getGameEnd(): { gameEndMethod?: number; lrasInitiatorIndex?: number; placements: { playerIndex: number; position?: number }[] } | undefined;
  /** Not yet in the facade: throws a GamefmtError of kind `unsupported`. */
  getSettings(): never;
  getFrames(): never;
  getLatestFrame(): never;
  getRollbackFrames(): never;
}

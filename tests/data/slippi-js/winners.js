// Prints, for every .slp file in a folder, what slippi-js says about its
// stage, characters and winners: the expected facts that
// tests/slippi_knowledge.rs compares gamefmt with.
//
//   cd tests/data/slippi-js && npm ci
//   node winners.js ../../../../shared/corpus/slippi > ../slippi_winners.tsv
//
// Columns: file; stage id and slippi-js stage name; per non-empty port
// "index:external character id:name" after slippi-js's pre-1.6.0
// Zelda/Sheik fix; winners as "index:position" from getWinners(), "-" for
// none; "error: ..." when slippi-js throws.
"use strict";
const fs = require("fs");
const path = require("path");
const { stages, characters } = require("@slippi/slippi-js");
// From 9.0 on, reading files by path is in the node entry point.
let SlippiGame;
try {
  ({ SlippiGame } = require("@slippi/slippi-js/node"));
} catch (e) {
  ({ SlippiGame } = require("@slippi/slippi-js"));
}
const version = require("@slippi/slippi-js/package.json").version;

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node winners.js CORPUS_SLIPPI_DIR");
  process.exit(2);
}
const clean = (s) => String(s).replace(/[\t\n\r]/g, " ");
console.log(`# made by tests/data/slippi-js/winners.js with @slippi/slippi-js ${version} on node ${process.version}`);
console.log(["file", "stage", "stage_name", "characters", "winners"].join("\t"));
for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".slp")).sort()) {
  const file = path.join(dir, name);
  let row;
  try {
    // Settings are read in full (frames up to −122) so the Zelda/Sheik fix
    // is applied; a fresh game for getWinners as slippi-js users call it.
    const game = new SlippiGame(file);
    game.getFrames();
    const settings = game.getSettings();
    const winners = new SlippiGame(file).getWinners();
    const stage = settings ? settings.stageId : null;
    const chars = settings
      ? settings.players
          .map((p) => `${p.playerIndex}:${p.characterId}:${characters.getCharacterName(p.characterId)}`)
          .join(",")
      : "";
    const won = winners.length ? winners.map((w) => `${w.playerIndex}:${w.position}`).join(",") : "-";
    row = [name, stage ?? "", stage === null ? "" : stages.getStageName(stage), clean(chars), won];
  } catch (e) {
    row = [name, "", "", "", clean(`error: ${e.message}`)];
  }
  console.log(row.join("\t"));
}

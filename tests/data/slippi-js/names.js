// Prints slippi-js's character and stage name tables: the expected facts
// tests/slippi_knowledge.rs compares gamefmt::slippi's names with.
//
//   cd tests/data/slippi-js && npm ci && node names.js > ../slippi_names.tsv
//
// Columns: kind (character = external id, stage), id, name; ids slippi-js
// calls "Unknown Character"/"Unknown Stage" are printed with an empty name.
"use strict";
const { stages, characters } = require("@slippi/slippi-js");
const version = require("@slippi/slippi-js/package.json").version;

console.log(`# made by tests/data/slippi-js/names.js with @slippi/slippi-js ${version} on node ${process.version}`);
console.log(["kind", "id", "name"].join("\t"));
for (let id = 0; id < 256; id++) {
  const name = characters.getCharacterName(id);
  console.log(["character", id, name === characters.UnknownCharacter.name ? "" : name].join("\t"));
}
for (let id = 0; id < 400; id++) {
  const name = stages.getStageName(id);
  console.log(["stage", id, name === stages.UnknownStage.name ? "" : name].join("\t"));
}

// The recorder's oracle: every .slp under DIR, its raw events written
// through slippi-js 9.1.2's SlpFileWriter (as a console feed would be),
// with startTime fixed at 2024-05-01T18:30:00.123Z and consoleNickname
// "gamefmt-oracle". Prints one TSV line per input: name, games written,
// then size:sha256 of each game file. With OUT=dir, keeps the files there.
//
//   npm install @slippi/slippi-js@9.1.2   (in some folder outside the repo)
//   NODE_PATH=that/node_modules node record_oracle.mjs DIR > record_oracle.tsv
import { createHash } from "crypto";
import fs from "fs";
import os from "os";
import path from "path";
import { createRequire } from "module";

const require = createRequire(path.join(process.env.NODE_PATH || ".", "x.js"));
const { SlpFileWriter, SlpFileWriterEvent } = require("@slippi/slippi-js/node");

const START = new Date(1714588200123);
const dir = process.argv[2];
const out = process.env.OUT || fs.mkdtempSync(path.join(os.tmpdir(), "slp-oracle-"));
const names = fs.readdirSync(dir).filter((n) => n.endsWith(".slp")).sort();

function raw(buf) {
  const len = buf.readUInt32BE(11);
  if (len !== 0) return buf.subarray(15, 15 + len);
  // Never patched: up to the metadata key, as slippi-js's reader does.
  const meta = buf.indexOf(Buffer.from("U\x08metadata"), 15);
  return buf.subarray(15, meta < 0 ? buf.length : meta);
}

for (const name of names) {
  const buf = fs.readFileSync(path.join(dir, name));
  if (buf.length < 15) { console.log(`${name}\t-`); continue; }
  const files = [];
  let n = 0;
  const writer = new SlpFileWriter({
    folderPath: out,
    consoleNickname: "gamefmt-oracle",
    newFilename: (folder) => path.join(folder, `${name}.${n++}.slp`),
  });
  writer.on(SlpFileWriterEvent.NEW_FILE, (p) => {
    writer.currentFile.setMetadata({ startTime: START });
    files.push(p);
  });
  const done = [];
  writer.on(SlpFileWriterEvent.FILE_COMPLETE, (p) => done.push(p));
  let ok = true;
  writer.on("error", () => { ok = false; });
  try {
    writer.write(raw(buf));
  } catch (e) {
    ok = false;
  }
  writer.endCurrentFile();
  for (let i = 0; i < 200 && done.length < files.length; i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  if (!ok) { console.log(`${name}\terror`); continue; }
  const cols = files.map((p) => {
    const b = fs.readFileSync(p);
    return `${b.length}:${createHash("sha256").update(b).digest("hex")}`;
  });
  console.log([name, ok ? files.length : "error", ...cols].join("\t"));
}

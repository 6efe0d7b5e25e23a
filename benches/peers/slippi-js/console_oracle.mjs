// The console framing's oracle: each DIR/*.wire (what tests/slippi_live.rs
// sends as a console, written with GAMEFMT_LIVE_WIRE_OUT=DIR) fed to
// slippi-js 9.1.2's ConsoleCommunication in random reads, and its messages
// processed as ConsoleConnection._processMessage does (cursor checks,
// replay data out). Prints the columns the test writes to DIR/ours.tsv:
// name, messages, handshakes, replays, keep-alives, sha256 of the replay
// bytes, the cursor expected at the end.
//
//   GAMEFMT_LIVE_WIRE_OUT=/tmp/wire cargo test ... --test slippi_live console_framing
//   NODE_PATH=.../node_modules node console_oracle.mjs /tmp/wire | diff - <(sort /tmp/wire/ours.tsv)
import { createHash } from "crypto";
import fs from "fs";
import path from "path";
import { createRequire } from "module";

const require = createRequire(path.join(process.env.NODE_PATH || ".", "x.js"));
const { ConsoleCommunication, CommunicationType } = require("@slippi/slippi-js/node");

const dir = process.argv[2];
let seed = 12345;
const below = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
for (const file of fs.readdirSync(dir).filter((n) => n.endsWith(".wire")).sort()) {
  const wire = fs.readFileSync(path.join(dir, file));
  const comms = new ConsoleCommunication();
  const counts = { all: 0, [CommunicationType.HANDSHAKE]: 0, [CommunicationType.REPLAY]: 0, [CommunicationType.KEEP_ALIVE]: 0 };
  const hash = createHash("sha256");
  let cursor = Buffer.alloc(8);
  for (let at = 0; at < wire.length; ) {
    const n = Math.min(1 + below(1500), wire.length - at);
    comms.receive(wire.subarray(at, at + n));
    at += n;
    for (const message of comms.getMessages()) {
      counts.all++;
      counts[message.type]++;
      if (message.type === CommunicationType.HANDSHAKE) {
        cursor = Buffer.from(message.payload.pos);
      } else if (message.type === CommunicationType.REPLAY) {
        const readPos = Buffer.from(message.payload.pos);
        if (!message.payload.forcePos && Buffer.compare(cursor, readPos) !== 0) {
          throw new Error(`${file}: position of received data is incorrect`);
        }
        cursor = Buffer.from(message.payload.nextPos);
        hash.update(Uint8Array.from(message.payload.data));
      }
    }
  }
  console.log([file.replace(/\.wire$/, ""), counts.all, counts[1], counts[2], counts[3], hash.digest("hex"), cursor.toString("hex")].join("\t"));
}

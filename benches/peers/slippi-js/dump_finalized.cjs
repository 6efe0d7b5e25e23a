#!/usr/bin/env node
// Dumps when slippi-js's SlpParser finalizes each frame, the oracle of
// FinalizedFrames in tests/slippi_stats.rs. Install slippi-js as in
// dump_stats.cjs, then:
//
//   NODE_PATH=/tmp/slippijs/node_modules node dump_finalized.cjs OUT.json FILE...
//
// The release schedule of a file is a list of runs [event, first, last]:
// after the event numbered `event` (counting only Game Start, Pre/Post-Frame
// Update, Game End, Frame Start, Item Update, Frame Bookend and stage
// events, from 0), the parser finalized frames `first` to `last`. The
// events are those SlpStream emits for the file's raw bytes, handed to
// SlpParser in order. OUT.json maps each file name to {runs: how many,
// sha256: of the list's JSON text (JSON.stringify, no spaces), head: the
// first 3 runs, tail: the last 2} (the whole lists are megabytes).
"use strict";
const fs = require("fs");
const path = require("path");
const { SlpStream, SlpStreamEvent, SlpStreamMode, SlpParser, SlpParserEvent } = require("@slippi/slippi-js/node");

const COUNTED = new Set([0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3f, 0x40, 0x41]);
const [out, ...files] = process.argv.slice(2);
const result = {};
for (const file of files) {
  const buf = fs.readFileSync(file);
  // The raw array: after the 15-byte header, its length big-endian at 11
  // (0 in files still being written: then up to the metadata key).
  let rawLen = buf.readUInt32BE(11);
  if (rawLen === 0) {
    const key = buf.indexOf(Buffer.from("U\x08metadata", "latin1"), 15);
    rawLen = (key < 0 ? buf.length : key) - 15;
  }
  const raw = buf.subarray(15, 15 + rawLen);
  const stream = new SlpStream({ mode: SlpStreamMode.MANUAL });
  const parser = new SlpParser();
  const runs = [];
  let ordinal = -1;
  parser.on(SlpParserEvent.FINALIZED_FRAME, (frame) => {
    const last = runs[runs.length - 1];
    if (last && last[0] === ordinal && last[2] + 1 === frame.frame) {
      last[2] = frame.frame;
    } else {
      runs.push([ordinal, frame.frame, frame.frame]);
    }
  });
  stream.on(SlpStreamEvent.COMMAND, ({ command, payload }) => {
    if (!COUNTED.has(command)) return;
    ordinal += 1;
    if (payload) {
      try {
        parser.handleCommand(command, payload);
      } catch (e) {
        runs.push(["error", String(e && e.message ? e.message : e)]);
      }
    }
  });
  try {
    stream.process(raw);
  } catch (e) {
    runs.push(["error", String(e && e.message ? e.message : e)]);
  }
  const text = JSON.stringify(runs);
  result[path.basename(file)] = {
    runs: runs.length,
    sha256: require("crypto").createHash("sha256").update(text).digest("hex"),
    head: runs.slice(0, 3),
    tail: runs.slice(-2),
  };
}
fs.writeFileSync(out, JSON.stringify(result) + "\n");

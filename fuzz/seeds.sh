#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the shared corpus of real files
# (default ../../shared/corpus from here, or $1). The corpus is copied at run
# time and never committed (fuzz/corpus is gitignored). Large files are cut
# to their first $SEED_MAX bytes (default 64 KiB), replays shrunk by
# trim_slp.py, so that executions stay fast; run the targets with -max_len
# to match (see README.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:-$here/../../shared/corpus}"
max="${SEED_MAX:-65536}"
out="$here/corpus"
if [ ! -d "$src" ]; then
  echo "no corpus at $src: nothing seeded" >&2
  exit 0
fi

# seed <target> <file> [bytes]: copies the first [bytes] (default $max) bytes.
seed() {
  mkdir -p "$out/$1"
  head -c "${3:-$max}" "$2" > "$out/$1/$(basename "$2")"
}

shopt -s nullglob
for f in "$src"/teeworlds/maps/*.map; do
  # A datafile keeps its data at the end: only whole maps make good seeds.
  if [ "$(stat -c %s "$f")" -le "$max" ]; then
    seed datafile "$f"
    seed map "$f"
  fi
done
for f in "$src"/teeworlds/demos/*.demo; do
  seed demo "$f"
  seed demo_tools "$f"
  # Huffman-packed chunk payloads follow the demo header; slices of them.
  mkdir -p "$out/huffman"
  dd if="$f" of="$out/huffman/$(basename "$f").1k" bs=1024 skip=1 count=1 status=none
done
for f in "$src"/teeworlds/teehistorian/*.teehistorian; do
  seed teehistorian "$f"
done
for f in "$src"/slippi/*.slp; do
  name="$(basename "$f")"
  # Shrunk to a small valid replay when python3 is there (see
  # trim_slp.py), else cut short as a game still being recorded (raw
  # length 0); files that do not trim (damaged ones) are copied as they are.
  if ! { command -v python3 >/dev/null \
         && "$here/trim_slp.py" "$f" "$out/slippi/$name" 2>/dev/null; }; then
    seed slippi "$f"
    if [ "$(stat -c %s "$f")" -gt "$max" ]; then
      printf '\0\0\0\0' | dd of="$out/slippi/$name" bs=1 seek=11 conv=notrunc status=none
    fi
  fi
  # slippi_live: a step byte, then the raw events as a legacy stream, and
  # as a console's framed messages (handshake, replay data of 256 bytes).
  mkdir -p "$out/slippi_live"
  { printf '\x40'; head -c 4015 "$f" | tail -c +16; } > "$out/slippi_live/$name.legacy"
  if command -v python3 >/dev/null; then
    python3 - "$f" "$out/slippi_live/$name.framed" <<'PY'
import struct, sys
raw = open(sys.argv[1], "rb").read()[15:15 + 3000]
def msg(body):
    return struct.pack(">I", len(body)) + body
def arr(key, data):
    return b"i" + bytes([len(key)]) + key + b"[$U#l" + struct.pack(">i", len(data)) + data
out = b"\x10" + msg(b"{i\x04typeU\x01i\x07payload{" + arr(b"pos", bytes(8)) + b"}}")
pos = 0
for i in range(0, len(raw), 256):
    d = raw[i:i + 256]
    body = b"{i\x04typeU\x02i\x07payload{" + arr(b"pos", struct.pack(">Q", pos)) + arr(b"nextPos", struct.pack(">Q", pos + len(d))) + arr(b"data", d) + b"}}"
    out += msg(body)
    pos += len(d)
open(sys.argv[2], "wb").write(out)
PY
  fi
  # The metadata element's value (after "U\x08metadata") for ubjson.
  at="$(LC_ALL=C grep -obUaP 'U\x08metadata' "$f" | tail -n 1 | cut -d: -f1 || true)"
  if [ -n "$at" ]; then
    mkdir -p "$out/ubjson"
    dd if="$f" of="$out/ubjson/$name.meta" iflag=skip_bytes,count_bytes \
      skip="$((at + 10))" count=4096 status=none
  fi
done
for t in "$out"/*/; do
  echo "seeded $(basename "$t"): $(find "$t" -type f | wc -l) files"
done

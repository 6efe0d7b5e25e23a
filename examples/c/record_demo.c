/* Recording a DDNet demo from C with gamefmt: what a game server does.
 *
 * Build (from the repository root):
 *
 *   cargo build --release -p gamefmt-ffi
 *   cc -std=c11 -Igamefmt-ffi/include examples/c/record_demo.c \
 *      target/release/libgamefmt_ffi.a -lpthread -ldl -lm -o record_demo
 *   ./record_demo out.demo
 *
 * It records ten seconds of a made-up game (one player running right,
 * a chat message every two seconds, a timeline marker) into a file, with
 * the map given by name, CRC and SHA-256 (not embedded), then the same
 * into memory through a write callback, as a server streaming its demo
 * would; and reads the file back through gamefmt's demo decoder. The
 * output is a demo DDNet's client plays (with the map `dm1` installed)
 * and `gamefmt demo cut`, `strip-map` and `repair` take. */
#include "gamefmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DDNet's snapshot object types (src/game/generated/protocol.h). */
enum { NETOBJTYPE_CHARACTER = 9, NETOBJTYPE_PLAYERINFO = 10 };

/* Every gamefmt function returns a status; this example stops at the
 * first failure and prints what the library said (message and offset). */
static void ok(GamefmtStatus st, const GamefmtError *err, const char *what) {
  if (st != GAMEFMT_STATUS_OK) {
    fprintf(stderr, "%s failed: %s (status %d)\n", what, err->message, (int)st);
    exit(1);
  }
}

/* Builds the snapshot of `tick` with the snapshot builder: a player info
 * and a character (22 ints in 0.6/DDNet) moving right. */
static void build_snapshot(GamefmtBuilder *b, int32_t tick, GamefmtSnapshot *snap,
                           GamefmtError *err) {
  int32_t player_info[5] = {/* local */ 1, /* client id */ 0, /* team */ 0, /* score */ tick / 500,
                            /* latency */ 20};
  int32_t character[22];
  memset(character, 0, sizeof character);
  character[0] = tick;                 /* tick */
  character[1] = 1000 + 4 * (tick % 500); /* x */
  character[2] = 800;                  /* y */
  character[3] = 4 * 256;              /* velocity x */
  gamefmt_builder_clear(b);
  ok(gamefmt_builder_add(b, NETOBJTYPE_PLAYERINFO, 0, player_info, 5, err), err, "add player info");
  ok(gamefmt_builder_add(b, NETOBJTYPE_CHARACTER, 0, character, 22, err), err, "add character");
  ok(gamefmt_builder_snapshot(b, snap, err), err, "build snapshot");
}

/* A chat message as the server sends it, packed as DDNet's CMsgPacker
 * packs it: the message id shifted left by one (the low bit flags system
 * messages), then the fields as packed ints and NUL-terminated strings.
 * Sv_Chat (0.6/DDNet id 3): team, client id, text. */
static size_t chat_message(uint8_t *out, const char *text) {
  size_t n = 0, len = strlen(text);
  out[n++] = 3 << 1; /* NETMSGTYPE_SV_CHAT, not a system message */
  out[n++] = 0;      /* team 0: everyone */
  out[n++] = 0x40;   /* client id -1, the server (packed: sign bit, then ~(-1) = 0) */
  memcpy(out + n, text, len + 1);
  return n + len + 1;
}

/* The write callback of the second recording: appends to a growing
 * buffer. Return 0 for success; anything else fails the recorder's call
 * with GAMEFMT_STATUS_IO and that value in err.detail. */
typedef struct {
  uint8_t *data;
  size_t len, cap;
} Memory;

static int32_t write_to_memory(void *user, const uint8_t *data, size_t len) {
  Memory *m = (Memory *)user;
  if (m->len + len > m->cap) {
    size_t cap = m->cap ? m->cap : 1 << 16;
    uint8_t *grown;
    while (m->len + len > cap) cap *= 2;
    grown = (uint8_t *)realloc(m->data, cap);
    if (!grown) return -1;
    m->data = grown;
    m->cap = cap;
  }
  memcpy(m->data + m->len, data, len);
  m->len += len;
  return 0;
}

/* Records ticks 0..500 (ten seconds at 50 ticks a second). */
static void record(GamefmtRecorder *rec, GamefmtBuilder *b, GamefmtError *err) {
  GamefmtSnapshot snap;
  uint8_t msg[64];
  int32_t tick;
  for (tick = 0; tick <= 500; tick++) {
    /* One snapshot per tick: the recorder writes a keyframe every five
     * seconds and otherwise only what changed (a delta), as DDNet. */
    build_snapshot(b, tick, &snap, err);
    ok(gamefmt_recorder_snapshot(rec, tick, &snap, err), err, "record snapshot");
    /* Messages go after the snapshot of their tick. */
    if (tick % 100 == 50) {
      size_t len = chat_message(msg, "hello from C");
      ok(gamefmt_recorder_message(rec, msg, len, err), err, "record message");
    }
    /* A timeline marker (a negative tick: at the last tick recorded). */
    if (tick == 250) gamefmt_recorder_add_marker(rec, -1);
  }
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "record_demo.demo";
  GamefmtError err;
  GamefmtBuilder *b = gamefmt_builder_new();
  GamefmtRecorder *rec = NULL;
  GamefmtHeaderPatch patch;
  Memory memory = {NULL, 0, 0};
  uint8_t sha256[32];
  GamefmtDemoHeader header;
  GamefmtDemoInfo info;
  FILE *f;
  uint8_t *file;
  long size;

  /* What the header says: DDNet's server demo (version 6). */
  GamefmtRecorderOptions options;
  GamefmtDemoMap map;
  options.version = 6;
  options.net_version = "0.6 626fce9a778df4d4";
  options.kind = "server";
  options.timestamp = "2026-11-29_00-00-00";
  options.trailing_zero = false;
  /* The map by name, CRC and SHA-256 only (data NULL): a player loads it
   * from its maps folder. Pass the map file's bytes in data/len to embed
   * it, as DDNet does by default. */
  memset(sha256, 0xAB, sizeof sha256);
  map.name = "dm1";
  map.crc = 0xf2159e6eu;
  map.sha256 = sha256;
  map.data = NULL;
  map.len = 0;
  memset(&err, 0, sizeof err);

  /* 1. Into a file: finish patches the header (length, markers). */
  ok(gamefmt_recorder_open_file(path, &options, &map, &rec, &err), &err, "open the demo file");
  record(rec, b, &err);
  printf("recorded %d s into %s\n", gamefmt_recorder_length(rec), path);
  ok(gamefmt_recorder_finish(rec, &patch, &err), &err, "finish the demo file"); /* frees rec */

  /* 2. Through a callback (a pipe, a socket, a buffer): the bytes come as
   * they are recorded; finish hands back the header patch to write over
   * the first bytes where they landed. */
  ok(gamefmt_recorder_open_callback(write_to_memory, &memory, &options, &map, &rec, &err), &err,
     "open the callback recorder");
  record(rec, b, &err);
  ok(gamefmt_recorder_finish(rec, &patch, &err), &err, "finish the callback recording");
  ok(gamefmt_header_patch_apply(&patch, memory.data, memory.len, &err), &err, "patch the header");
  gamefmt_builder_free(b);

  /* Read the file back: the same bytes as the callback's, and a header
   * with the length and the marker. */
  f = fopen(path, "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  file = (uint8_t *)malloc((size_t)size);
  if (!file || fread(file, 1, (size_t)size, f) != (size_t)size) return 1;
  fclose(f);
  if ((size_t)size != memory.len || memcmp(file, memory.data, memory.len) != 0) {
    fprintf(stderr, "the file and the callback's bytes differ\n");
    return 1;
  }
  ok(gamefmt_demo_header_parse(file, (size_t)size, &header, &err), &err, "read the header");
  ok(gamefmt_demo_header_info(&header, &info, &err), &err, "header info");
  printf("%s: version %d, map %s, %d s, %zu marker(s) at tick %d, %ld bytes\n", path,
         (int)info.version, info.map_name, info.length_seconds, info.marker_count,
         info.marker_count ? info.markers[0] : -1, size);
  free(file);
  free(memory.data);
  return info.length_seconds == 10 && info.marker_count == 1 ? 0 : 1;
}

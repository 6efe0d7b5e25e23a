/* read_file: open the file given on the command line through gamefmt's C
 * ABI (gamefmt-ffi) and print what it holds: a map's groups and layers, a
 * teehistorian recording's server, map and messages, a Slippi replay's
 * stage and characters, a demo's map and chunks; and how its stream ended.
 * A damaged file is reported with gamefmt's message and the byte offset
 * of the damage, and the program exits 1; a file it cannot read, 2.
 *
 * Build (README, "Linking into a C/C++ server"):
 *   CARGO_PROFILE_RELEASE_PANIC=abort cargo build --release -p gamefmt-ffi
 *   cc -std=c11 -Igamefmt-ffi/include examples/c/read_file.c \
 *      target/release/libgamefmt_ffi.a -lpthread -ldl -lm -o read_file
 *   ./read_file FILE
 *
 * Every view and decoder below lives on the stack and borrows the file's
 * bytes, read into memory first; nothing here is freed by the library. */
#include "gamefmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's bytes, or NULL (errno tells why). */
static uint8_t *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf = NULL, *grown;
  size_t cap = 0, n = 0, got;
  if (f == NULL) return NULL;
  for (;;) {
    if (n == cap) {
      cap = cap ? 2 * cap : (size_t)1 << 16;
      grown = (uint8_t *)realloc(buf, cap);
      if (grown == NULL) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    got = fread(buf + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  if (ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Every failure goes through here: gamefmt's message (which names the
 * byte offset) and the offset alone. */
static int fail(const char *what, const GamefmtError *err) {
  fprintf(stderr, "read_file: %s: %s (byte %llu)\n", what, err->message,
          (unsigned long long)err->offset);
  return 1;
}

/* How a stream ended: complete, eof, truncated or damaged (with the
 * error, after every record before it). */
static int print_end(const GamefmtEnd *end) {
  printf("end: %s\n", end->name);
  if (end->kind == GAMEFMT_END_KIND_DAMAGED) return fail("damaged", &end->error);
  return 0;
}

static int read_map(const uint8_t *data, size_t len) {
  GamefmtError err;
  GamefmtDatafile df;
  GamefmtDatafileInfo info;
  GamefmtMap map;
  GamefmtMapInfo m;
  GamefmtWarning warnings[16];
  size_t n_warn = 0, n_map_warn = 0, i;

  if (gamefmt_datafile_open(data, len, false, &df, warnings, 16, &n_warn, &err) != GAMEFMT_STATUS_OK)
    return fail("datafile", &err);
  if (gamefmt_datafile_info(&df, &info, &err) != GAMEFMT_STATUS_OK) return fail("datafile", &err);
  printf("format: map (datafile version %u, %zu items, %zu data items)\n", (unsigned)info.version,
         info.items, info.data_items);
  if (gamefmt_map_open(&df, &map, warnings + n_warn, 16 - n_warn, &n_map_warn, &err) != GAMEFMT_STATUS_OK)
    return fail("map", &err);
  if (gamefmt_map_info(&map, &m, &err) != GAMEFMT_STATUS_OK) return fail("map", &err);
  printf("groups: %zu, layers: %zu, images: %zu, envelopes: %zu, sounds: %zu\n", m.groups, m.layers,
         m.images, m.envelopes, m.sounds);
  if (m.has_game_layer) printf("game layer: %zu x %zu tiles\n", m.game_width, m.game_height);
  for (i = 0; i < n_warn + n_map_warn && i < 16; i++)
    printf("warning: %s (byte %llu)\n", warnings[i].message, (unsigned long long)warnings[i].offset);
  return 0;
}

static int read_teehistorian(const uint8_t *data, size_t len) {
  GamefmtError err;
  GamefmtThDecoder dec;
  GamefmtThHeader header;
  GamefmtThItem item;
  GamefmtEnd end;
  GamefmtStatus st;
  size_t pos = 0;
  unsigned long long messages = 0;
  int32_t last_tick = 0;
  char text[128];

  gamefmt_th_decoder_init(&dec);
  for (;;) {
    st = gamefmt_th_decode(&dec, data + pos, len - pos, &item, &err);
    if (st == GAMEFMT_STATUS_DONE || st == GAMEFMT_STATUS_NEED_MORE) break;
    if (st != GAMEFMT_STATUS_OK) break; /* damage: gamefmt_th_end tells it */
    pos += item.consumed;
    if (item.kind == GAMEFMT_TH_ITEM_KIND_HEADER) {
      /* The whole file is in memory, so the header comes whole. */
      if (gamefmt_th_header_parse(item.json, item.json_len, &header, &err) != GAMEFMT_STATUS_OK)
        return fail("header", &err);
      printf("format: teehistorian (version %u)\n", (unsigned)gamefmt_th_header_version(&header));
      if (gamefmt_th_header_str(&header, GAMEFMT_TH_FIELD_SERVER_NAME, text, sizeof text) >= 0)
        printf("server: %s\n", text);
      if (gamefmt_th_header_str(&header, GAMEFMT_TH_FIELD_MAP_NAME, text, sizeof text) >= 0)
        printf("map: %s\n", text);
    } else if (item.kind == GAMEFMT_TH_ITEM_KIND_MESSAGE) {
      messages++;
      last_tick = item.tick;
    }
  }
  printf("messages: %llu, last tick: %ld\n", messages, (long)last_tick);
  /* The bytes left over say whether it was cut inside a message. */
  gamefmt_th_end(&dec, st == GAMEFMT_STATUS_NEED_MORE ? len - pos : 0, &end);
  return print_end(&end);
}

static int read_slippi(const uint8_t *data, size_t len) {
  GamefmtError err;
  GamefmtSlpDecoder dec;
  GamefmtSlpItem item;
  GamefmtSlpGameStart start;
  GamefmtEnd end;
  GamefmtStatus st;
  size_t pos = 0;
  unsigned long long events = 0;
  int port;
  char name[64];

  gamefmt_slp_decoder_init(&dec);
  for (;;) {
    st = gamefmt_slp_decode(&dec, data + pos, len - pos, &item, &err);
    if (st != GAMEFMT_STATUS_OK) break;
    pos += item.consumed;
    if (item.kind != GAMEFMT_SLP_ITEM_KIND_EVENT) continue;
    events++;
    if (item.code != 0x36) continue; /* Game Start */
    if (gamefmt_slp_game_start(item.data, item.len, &start, &err) != GAMEFMT_STATUS_OK)
      return fail("Game Start", &err);
    printf("format: slippi");
    if (start.has_version)
      printf(" (spec %u.%u.%u)", start.version[0], start.version[1], start.version[2]);
    printf("\n");
    if (start.has_stage && gamefmt_slp_stage_name(start.stage, name, sizeof name) >= 0)
      printf("stage: %s\n", name);
    for (port = 0; port < 4; port++) {
      if (!start.ports[port].present || !start.ports[port].has_character) continue;
      if (gamefmt_slp_character_name(start.ports[port].character, name, sizeof name) < 0)
        strcpy(name, "?");
      printf("port %d: %s\n", port + 1, name); /* ports are 1-based, as on the console */
    }
  }
  printf("events: %llu\n", events);
  /* After an error, the events before it were kept: the end says why. */
  gamefmt_slp_end(&dec, st == GAMEFMT_STATUS_NEED_MORE ? len - pos : 0, &end);
  return print_end(&end);
}

static int read_demo(const uint8_t *data, size_t len) {
  GamefmtError err;
  GamefmtDemoHeader header;
  GamefmtDemoInfo info;
  GamefmtDemoDecoder dec;
  GamefmtDemoChunk chunk;
  GamefmtEnd end;
  GamefmtStatus st;
  size_t pos;
  unsigned long long chunks = 0;

  if (gamefmt_demo_header_parse(data, len, &header, &err) != GAMEFMT_STATUS_OK) return fail("demo", &err);
  if (gamefmt_demo_header_info(&header, &info, &err) != GAMEFMT_STATUS_OK) return fail("demo", &err);
  printf("format: demo (version %u, %s)\n", (unsigned)info.version, info.net_version);
  printf("map: %s (%lu bytes)\n", info.map_name, (unsigned long)info.map_size);
  if (gamefmt_demo_decoder_init(&dec, &header, &err) != GAMEFMT_STATUS_OK) return fail("demo", &err);
  pos = info.chunks_offset < len ? (size_t)info.chunks_offset : len;
  for (;;) {
    st = gamefmt_demo_decode(&dec, data + pos, len - pos, &chunk, &err);
    if (st != GAMEFMT_STATUS_OK) break;
    pos += chunk.consumed;
    chunks++;
  }
  printf("chunks: %llu\n", chunks);
  gamefmt_demo_end(&dec, st == GAMEFMT_STATUS_NEED_MORE ? len - pos : 0, &end);
  return print_end(&end);
}

int main(int argc, char **argv) {
  size_t len = 0;
  uint8_t *data;
  int status;

  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  data = read_all(argv[1], &len);
  if (data == NULL) {
    perror(argv[1]);
    return 2;
  }
  switch (gamefmt_detect(data, len)) {
    case GAMEFMT_FORMAT_DATAFILE: status = read_map(data, len); break;
    case GAMEFMT_FORMAT_TEEHISTORIAN: status = read_teehistorian(data, len); break;
    case GAMEFMT_FORMAT_SLIPPI: status = read_slippi(data, len); break;
    case GAMEFMT_FORMAT_DEMO: status = read_demo(data, len); break;
    default:
      fprintf(stderr, "read_file: %s: not a map, demo, teehistorian recording or Slippi replay\n", argv[1]);
      status = 1;
      break;
  }
  free(data);
  return status;
}

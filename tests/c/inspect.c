/* Decodes files through gamefmt's C ABI and prints, per file in argument
 * order, one line: the JSON object `gamefmt inspect --json FILE` prints, or
 * {"error": ...} for a file the decoder refuses. Written in the common
 * subset of C11 and C++17: tests/c/run.sh compiles it as both.
 * Every fact comes from the C API; this file only counts and prints.
 * Teehistorian recordings are streamed from the file through a buffer
 * (GAMEFMT_C_BUFFER bytes, default 128 KiB); the other formats are read
 * into memory first (the facts of a replay point into it). */
#include "gamefmt.h"
#include "read_whole.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output helpers ---------------------------------------------------- */

/* A JSON string from `len` bytes (UTF-8 passed through, as serde_json). */
static void json_str(const char *s, size_t len) {
  size_t i;
  putchar('"');
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      printf("\\%c", c);
    } else if (c == '\n') {
      printf("\\n");
    } else if (c == '\r') {
      printf("\\r");
    } else if (c == '\t') {
      printf("\\t");
    } else if (c < 0x20) {
      printf("\\u%04x", c);
    } else {
      putchar(c);
    }
  }
  putchar('"');
}

static void json_cstr(const char *s) { json_str(s, strlen(s)); }

/* A name from a gamefmt_*_name function that answered `n` (-1: null). */
static void json_name(ptrdiff_t n, const char *buf) {
  if (n < 0) {
    printf("null");
  } else {
    json_cstr(buf);
  }
}

static void print_error(const GamefmtError *err) {
  printf("{\"error\":");
  json_cstr(err->message);
  printf(",\"offset\":%llu}\n", (unsigned long long)err->offset);
}

static void uuid_str(const uint8_t *u, char *out) {
  static const int dash[16] = {0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
  int i;
  char *p = out;
  for (i = 0; i < 16; i++) {
    p += sprintf(p, "%02x", u[i]);
    if (dash[i]) *p++ = '-';
  }
  *p = 0;
}

static int32_t le32(const uint8_t *p) {
  uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  return (int32_t)v;
}

/* A small string -> count table, printed sorted by key (as serde_json's
 * maps are). */
typedef struct {
  char key[96];
  unsigned long long n;
} Count;

typedef struct {
  Count *items;
  size_t len, cap;
} Counts;

static void count_add(Counts *c, const char *key) {
  size_t i;
  for (i = 0; i < c->len; i++) {
    if (strcmp(c->items[i].key, key) == 0) {
      c->items[i].n++;
      return;
    }
  }
  if (c->len == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->items = (Count *)realloc(c->items, c->cap * sizeof(Count));
  }
  snprintf(c->items[c->len].key, sizeof c->items[c->len].key, "%s", key);
  c->items[c->len].n = 1;
  c->len++;
}

static int count_cmp(const void *a, const void *b) {
  return strcmp(((const Count *)a)->key, ((const Count *)b)->key);
}

static void count_print(Counts *c) {
  size_t i;
  if (c->len) qsort(c->items, c->len, sizeof(Count), count_cmp);
  putchar('{');
  for (i = 0; i < c->len; i++) {
    if (i) putchar(',');
    json_cstr(c->items[i].key);
    printf(":%llu", c->items[i].n);
  }
  putchar('}');
  free(c->items);
  c->items = NULL;
  c->len = c->cap = 0;
}

#define MAX_WARNINGS 64

static void print_warnings(const GamefmtWarning *w, size_t n) {
  size_t i;
  putchar('[');
  for (i = 0; i < n && i < MAX_WARNINGS; i++) {
    if (i) putchar(',');
    printf("{\"kind\":");
    json_cstr(w[i].kind);
    printf(",\"message\":");
    json_cstr(w[i].message);
    printf(",\"offset\":%llu}", (unsigned long long)w[i].offset);
  }
  putchar(']');
}

/* ---- datafile and map -------------------------------------------------- */

static void inspect_datafile(const uint8_t *data, size_t len) {
  GamefmtError err;
  GamefmtDatafile df;
  GamefmtDatafileInfo info;
  GamefmtDatafileItem item;
  GamefmtMap map;
  GamefmtWarning warnings[MAX_WARNINGS];
  size_t n_warn = 0, n_map_warn = 0, i, k;
  uint32_t checksum = 0;
  unsigned long long data_bytes = 0, data_errors = 0;
  GamefmtStatus map_status;

  memset(&err, 0, sizeof err);
  if (gamefmt_datafile_open(data, len, false, &df, warnings, MAX_WARNINGS, &n_warn, &err) !=
      GAMEFMT_STATUS_OK) {
    print_error(&err);
    return;
  }
  gamefmt_datafile_info(&df, &info, &err);
  for (i = 0; gamefmt_datafile_item(&df, i, &item, &err) == GAMEFMT_STATUS_OK; i++) {
    for (k = 0; k < item.ints; k++) checksum += (uint32_t)le32(item.data + 4 * k);
  }
  for (i = 0; i < info.data_items; i++) {
    size_t size = 0, written = 0;
    uint8_t *buf;
    if (gamefmt_datafile_data_size(&df, i, &size, &err) != GAMEFMT_STATUS_OK) {
      data_errors++;
      continue;
    }
    buf = (uint8_t *)malloc(size ? size : 1);
    if (gamefmt_datafile_data(&df, i, buf, size, &written, &err) == GAMEFMT_STATUS_OK) {
      data_bytes += written;
    } else {
      data_errors++;
    }
    free(buf);
  }
  map_status = gamefmt_map_open(&df, &map, warnings + (n_warn < MAX_WARNINGS ? n_warn : MAX_WARNINGS),
                                n_warn < MAX_WARNINGS ? MAX_WARNINGS - n_warn : 0, &n_map_warn, &err);
  printf("{\"data_bytes\":%llu,\"data_errors\":%llu,\"data_items\":%zu,\"format\":\"map\","
         "\"item_checksum\":%d,\"item_types\":%zu,\"items\":%zu,",
         data_bytes, data_errors, info.data_items, (int32_t)checksum, info.item_types, info.items);
  if (map_status == GAMEFMT_STATUS_OK) {
    GamefmtMapInfo m;
    GamefmtMapLayer layer;
    GamefmtMapImage image;
    Counts kinds;
    char kind[32];
    size_t quads = 0, embedded = 0;
    memset(&kinds, 0, sizeof kinds);
    gamefmt_map_info(&map, &m, &err);
    for (i = 0; gamefmt_map_layer(&map, i, &layer, &err) == GAMEFMT_STATUS_OK; i++) {
      gamefmt_map_layer_kind(&map, i, kind, sizeof kind);
      count_add(&kinds, kind);
      quads += layer.quads;
    }
    for (i = 0; gamefmt_map_image(&map, i, &image, &err) == GAMEFMT_STATUS_OK; i++) {
      if (!image.external) embedded++;
    }
    printf("\"map\":{\"embedded_images\":%zu,\"envelope_points\":%zu,\"envelopes\":%zu,", embedded,
           m.envelope_points, m.envelopes);
    if (m.has_game_layer) {
      printf("\"game_layer\":{\"height\":%zu,\"width\":%zu},", m.game_height, m.game_width);
    } else {
      printf("\"game_layer\":null,");
    }
    printf("\"groups\":%zu,\"images\":%zu,\"layer_kinds\":", m.groups, m.images);
    count_print(&kinds);
    printf(",\"layers\":%zu,\"legacy\":false,\"quads\":%zu,\"sounds\":%zu},", m.layers, quads,
           m.sounds);
  } else if (map_status == GAMEFMT_STATUS_LEGACY_LAYOUT) {
    printf("\"map\":{\"embedded_images\":0,\"envelope_points\":0,\"envelopes\":0,\"game_layer\":null,"
           "\"groups\":0,\"images\":0,\"layer_kinds\":{},\"layers\":0,\"legacy\":true,\"quads\":0,"
           "\"sounds\":0},");
  } else {
    printf("\"map\":null,\"map_error\":");
    json_cstr(err.message);
    putchar(',');
  }
  printf("\"version\":%u,\"warnings\":", info.version);
  print_warnings(warnings, n_warn + n_map_warn);
  printf("}\n");
}

/* ---- demo -------------------------------------------------------------- */

static void inspect_demo(const uint8_t *data, size_t len) {
  GamefmtError err;
  GamefmtDemoHeader header;
  GamefmtDemoInfo info;
  GamefmtDemoDecoder dec;
  GamefmtReconstructor rec;
  GamefmtDemoChunk chunk;
  GamefmtEnd end;
  GamefmtSnapshot snap;
  size_t pos;
  unsigned long long chunks = 0, ticks = 0, snapshots = 0, deltas = 0, messages = 0;
  int have_tick = 0;
  int32_t first_tick = 0, last_tick = 0;
  uint8_t *workspace;
  GamefmtStatus st;

  memset(&err, 0, sizeof err);
  if (gamefmt_demo_header_parse(data, len, &header, &err) != GAMEFMT_STATUS_OK) {
    print_error(&err);
    return;
  }
  gamefmt_demo_header_info(&header, &info, &err);
  gamefmt_demo_decoder_init(&dec, &header, &err);
  workspace = (uint8_t *)malloc(GAMEFMT_RECONSTRUCTOR_WORKSPACE);
  if (gamefmt_reconstructor_init(&rec, &header, workspace, GAMEFMT_RECONSTRUCTOR_WORKSPACE, &err) !=
      GAMEFMT_STATUS_OK) {
    print_error(&err);
    free(workspace);
    return;
  }
  pos = info.chunks_offset < len ? (size_t)info.chunks_offset : len;
  for (;;) {
    st = gamefmt_demo_decode(&dec, data + pos, len - pos, &chunk, &err);
    if (st != GAMEFMT_STATUS_OK) break;
    pos += chunk.consumed;
    chunks++;
    if (chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_TICK) {
      ticks++;
      if (!have_tick) first_tick = chunk.tick;
      have_tick = 1;
      last_tick = chunk.tick;
      continue;
    }
    if (chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_SNAPSHOT) snapshots++;
    if (chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_DELTA) deltas++;
    if (chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_MESSAGE) messages++;
    if (chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_MESSAGE || chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_UNKNOWN) {
      const uint8_t *ints;
      size_t n;
      if (gamefmt_reconstructor_decode(&rec, chunk.payload, chunk.payload_len, &ints, &n, &err) !=
          GAMEFMT_STATUS_OK) {
        st = err.status;
        break;
      }
    }
    if (gamefmt_reconstructor_feed(&rec, &chunk, &err) != GAMEFMT_STATUS_OK) {
      st = err.status;
      break;
    }
  }
  if (st != GAMEFMT_STATUS_NEED_MORE && st != GAMEFMT_STATUS_DONE) {
    print_error(&err);
    free(workspace);
    return;
  }
  gamefmt_demo_end(&dec, st == GAMEFMT_STATUS_DONE ? 0 : len - pos, &end);
  printf("{\"chunks\":%llu,\"deltas\":%llu,\"end\":\"%s\",", chunks, deltas,
         end.kind == GAMEFMT_END_KIND_TRUNCATED ? "truncated" : "complete");
  if (gamefmt_reconstructor_snapshot(&rec, &snap, &err) == GAMEFMT_STATUS_OK) {
    GamefmtSnapshotInfo s;
    gamefmt_snapshot_info(&snap, &s, &err);
    printf("\"final_snapshot_crc\":%d,\"final_snapshot_items\":%zu,", s.checksum, s.items);
  } else {
    printf("\"final_snapshot_crc\":null,\"final_snapshot_items\":null,");
  }
  if (have_tick) {
    printf("\"first_tick\":%d,", first_tick);
  } else {
    printf("\"first_tick\":null,");
  }
  printf("\"format\":\"demo\",");
  if (have_tick) {
    printf("\"last_tick\":%d,", last_tick);
  } else {
    printf("\"last_tick\":null,");
  }
  printf("\"length_seconds\":%d,\"map_name\":", info.length_seconds);
  json_cstr(info.map_name);
  printf(",\"map_sha256\":");
  if (info.has_map_sha256) {
    int i;
    putchar('"');
    for (i = 0; i < 32; i++) printf("%02x", info.map_sha256[i]);
    putchar('"');
  } else {
    printf("null");
  }
  printf(",\"map_size\":%u,\"markers\":%zu,\"messages\":%llu,\"net_version\":", info.map_size,
         info.marker_count, messages);
  json_cstr(info.net_version);
  printf(",\"snapshots\":%llu,\"tick_markers\":%llu,\"version\":%u}\n", snapshots, ticks,
         (unsigned)info.version);
  free(workspace);
}

/* ---- teehistorian ------------------------------------------------------ */

static void header_field(const GamefmtThHeader *h, GamefmtThField field) {
  char buf[512];
  json_name(gamefmt_th_header_str(h, field, buf, sizeof buf), buf);
}

/* Streams the recording from `f` through a buffer of `cap` bytes (the
 * push decoder's contract: decode, drop what was consumed, read more when
 * it needs more); a header longer than the buffer comes in pieces. */
static void inspect_teehistorian(FILE *f, size_t cap) {
  GamefmtError err;
  GamefmtThDecoder dec;
  GamefmtThHeader header;
  GamefmtThItem item;
  GamefmtEnd end;
  Counts counts, ex_names, ex_uuids;
  uint8_t *buf = (uint8_t *)malloc(cap);
  char *text = NULL; /* the header's JSON, joined from its pieces */
  size_t text_len = 0, have = 0, used = 0;
  int have_header = 0, eof = 0;
  unsigned long long messages = 0;
  int32_t last_tick = 0;
  GamefmtStatus st;
  char name[96];
  const char *end_name;

  memset(&err, 0, sizeof err);
  memset(&counts, 0, sizeof counts);
  memset(&ex_names, 0, sizeof ex_names);
  memset(&ex_uuids, 0, sizeof ex_uuids);
  gamefmt_th_decoder_init(&dec);
  for (;;) {
    st = gamefmt_th_decode(&dec, buf + used, have - used, &item, &err);
    if (st == GAMEFMT_STATUS_NEED_MORE && !eof) {
      size_t got;
      memmove(buf, buf + used, have - used);
      have -= used;
      used = 0;
      if (have == cap) {
        /* The buffer is full: only a header can come in pieces. */
        st = gamefmt_th_decode_piece(&dec, buf, have, &item, &err);
        if (st == GAMEFMT_STATUS_ABSENT) {
          snprintf(err.message, sizeof err.message, "a record is larger than the %zu-byte buffer", cap);
          st = GAMEFMT_STATUS_BUFFER_TOO_SMALL;
        }
        if (st != GAMEFMT_STATUS_OK) break;
      } else {
        got = fread(buf + have, 1, cap - have, f);
        if (got == 0) eof = 1;
        have += got;
        continue;
      }
    }
    if (st != GAMEFMT_STATUS_OK) break;
    used += item.consumed;
    if (item.kind != GAMEFMT_TH_ITEM_KIND_MESSAGE) {
      text = (char *)realloc(text, text_len + item.json_len + 1);
      memcpy(text + text_len, item.json, item.json_len);
      text_len += item.json_len;
      if (item.kind == GAMEFMT_TH_ITEM_KIND_HEADER || item.last) {
        if (gamefmt_th_header_parse((const uint8_t *)text, text_len, &header, &err) != GAMEFMT_STATUS_OK) {
          st = err.status;
          break;
        }
        have_header = 1;
      }
      continue;
    }
    messages++;
    gamefmt_th_message_name(&item.message, name, sizeof name);
    count_add(&counts, name);
    if (item.message.tag == GAMEFMT_TH_MESSAGE_EX) {
      if (gamefmt_th_ex_name(&item.message.EX.uuid, name, sizeof name) < 0) strcpy(name, "unknown");
      count_add(&ex_names, name);
      uuid_str(item.message.EX.uuid, name);
      count_add(&ex_uuids, name);
    }
    last_tick = item.tick;
  }
  if ((st != GAMEFMT_STATUS_NEED_MORE && st != GAMEFMT_STATUS_DONE) || !have_header) {
    if (st == GAMEFMT_STATUS_NEED_MORE) {
      strcpy(err.message, "truncated");
    }
    print_error(&err);
  } else {
    gamefmt_th_end(&dec, st == GAMEFMT_STATUS_DONE ? 0 : have - used, &end);
    end_name = end.name;
    printf("{\"counts\":");
    count_print(&counts);
    printf(",\"end\":\"%s\",\"ex_counts\":", end_name);
    count_print(&ex_names);
    printf(",\"ex_counts_by_uuid\":");
    count_print(&ex_uuids);
    printf(",\"format\":\"teehistorian\",\"game_uuid\":");
    header_field(&header, GAMEFMT_TH_FIELD_GAME_UUID);
    printf(",\"last_tick\":%d,\"map_name\":", last_tick);
    header_field(&header, GAMEFMT_TH_FIELD_MAP_NAME);
    printf(",\"messages\":%llu,\"version\":%u,\"version_minor\":", messages,
           gamefmt_th_header_version(&header));
    header_field(&header, GAMEFMT_TH_FIELD_VERSION_MINOR);
    printf("}\n");
  }
  free(counts.items);
  free(ex_names.items);
  free(ex_uuids.items);
  free(text);
  free(buf);
}

/* ---- Slippi ------------------------------------------------------------ */

#define FIRST_FRAME (-123)
#define BITMAP_FRAMES (1 << 24)

/* The distinct frame numbers: a bitmap from FIRST_FRAME, a list beyond. */
typedef struct {
  uint64_t *bits;
  int32_t *others;
  size_t n_others, cap_others, len;
  int have;
  int32_t first, last;
} FrameSet;

static void frames_insert(FrameSet *f, int32_t frame) {
  long long at = (long long)frame - FIRST_FRAME;
  int is_new = 0;
  if (at >= 0 && at < BITMAP_FRAMES) {
    uint64_t mask = (uint64_t)1 << (at % 64);
    if (!f->bits) f->bits = (uint64_t *)calloc(BITMAP_FRAMES / 64, sizeof(uint64_t));
    is_new = (f->bits[at / 64] & mask) == 0;
    f->bits[at / 64] |= mask;
  } else {
    size_t i;
    is_new = 1;
    for (i = 0; i < f->n_others; i++) {
      if (f->others[i] == frame) is_new = 0;
    }
    if (is_new) {
      if (f->n_others == f->cap_others) {
        f->cap_others = f->cap_others ? 2 * f->cap_others : 16;
        f->others = (int32_t *)realloc(f->others, f->cap_others * sizeof(int32_t));
      }
      f->others[f->n_others++] = frame;
    }
  }
  if (is_new) {
    f->len++;
    if (!f->have || frame < f->first) f->first = frame;
    if (!f->have || frame > f->last) f->last = frame;
    f->have = 1;
  }
}

/* The Post-Frame Updates right before the last Game End (what
 * SlippiView::winners reads for a game that went to time): at most 8 in
 * a row, cleared by any other event; those of the last one's frame. */
#define MAX_POSTS 8
typedef struct {
  GamefmtSlpBytes posts[MAX_POSTS];
  int32_t frames[MAX_POSTS];
  size_t n;
  int bookend;
  GamefmtSlpBytes at_end[MAX_POSTS];
  size_t n_at_end;
} FinalPosts;

static void posts_observe(FinalPosts *p, const GamefmtSlpItem *e, int bookends) {
  if (e->code == 0x38) {
    if (p->bookend) {
      p->n = 0;
      p->bookend = 0;
    }
    if (p->n == MAX_POSTS) {
      memmove(p->posts, p->posts + 1, (MAX_POSTS - 1) * sizeof p->posts[0]);
      memmove(p->frames, p->frames + 1, (MAX_POSTS - 1) * sizeof p->frames[0]);
      p->n--;
    }
    p->posts[p->n].data = e->data;
    p->posts[p->n].len = e->len;
    p->frames[p->n] = e->has_frame ? e->frame : INT32_MIN;
    p->n++;
  } else if (e->code == 0x3c && !p->bookend) {
    p->bookend = 1;
  } else if (e->code == 0x39) {
    p->n_at_end = 0;
    if (p->bookend == bookends && p->n > 0) {
      size_t from = p->n;
      while (from > 0 && p->frames[from - 1] == p->frames[p->n - 1]) from--;
      memcpy(p->at_end, p->posts + from, (p->n - from) * sizeof p->posts[0]);
      p->n_at_end = p->n - from;
    }
    p->n = 0;
    p->bookend = 0;
  } else {
    p->n = 0;
    p->bookend = 0;
  }
}

static void inspect_slippi(const uint8_t *data, size_t len) {
  GamefmtError err;
  GamefmtSlpDecoder dec;
  GamefmtSlpItem item;
  GamefmtSlpCharacters chars;
  GamefmtSlpReassembler splits;
  GamefmtEnd end;
  GamefmtWarning warnings[MAX_WARNINGS];
  size_t n_warn = 0, pos = 0, i;
  unsigned long long events = 0, event_counts[256];
  uint32_t raw_len = 0;
  const uint8_t *start = NULL, *game_end = NULL, *meta = NULL;
  size_t start_len = 0, game_end_len = 0, meta_len = 0;
  long long gecko = -1;
  int have_end = 0;
  FrameSet frames;
  FinalPosts posts;
  GamefmtStatus st;
  uint8_t *split_buf = (uint8_t *)malloc(1 << 20);

  memset(&err, 0, sizeof err);
  memset(event_counts, 0, sizeof event_counts);
  memset(&frames, 0, sizeof frames);
  memset(&posts, 0, sizeof posts);
  gamefmt_slp_decoder_init(&dec);
  gamefmt_slp_reassembler_init(&splits, split_buf, 1 << 20);
  for (;;) {
    int in_raw = gamefmt_slp_in_raw(&dec);
    int bookends = gamefmt_slp_declares(&dec, 0x3c);
    st = gamefmt_slp_decode(&dec, data + pos, len - pos, &item, &err);
    if (st == GAMEFMT_STATUS_NEED_MORE || st == GAMEFMT_STATUS_DONE) {
      gamefmt_slp_end(&dec, st == GAMEFMT_STATUS_DONE ? 0 : len - pos, &end);
      break;
    }
    if (st != GAMEFMT_STATUS_OK) {
      if (!in_raw || start != NULL) {
        /* Damage in the metadata, or after Game Start: the events so far
         * are kept (as `inspect` keeps them). */
        gamefmt_slp_end(&dec, 0, &end);
        break;
      }
      print_error(&err);
      free(split_buf);
      free(frames.bits);
      free(frames.others);
      return;
    }
    pos += item.consumed;
    if (item.kind == GAMEFMT_SLP_ITEM_KIND_HEADER) {
      raw_len = item.raw_len;
      continue;
    }
    if (item.kind == GAMEFMT_SLP_ITEM_KIND_METADATA) {
      meta = item.data;
      meta_len = item.len;
      continue;
    }
    if (item.kind != GAMEFMT_SLP_ITEM_KIND_EVENT) continue;
    if (events == 0) {
      gamefmt_slp_payload_warnings(item.data, item.len, 15, warnings, MAX_WARNINGS, &n_warn);
    }
    events++;
    event_counts[item.code]++;
    if (item.has_frame) frames_insert(&frames, item.frame);
    posts_observe(&posts, &item, bookends);
    if (item.code == 0x36 && start == NULL) {
      start = item.data;
      start_len = item.len;
      gamefmt_slp_characters_init(&chars, item.data, item.len);
    } else if (item.code == 0x38) {
      if (start != NULL) gamefmt_slp_characters_observe(&chars, item.data, item.len);
    } else if (item.code == 0x39) {
      game_end = item.data;
      game_end_len = item.len;
      have_end = 1;
    } else if (item.code == 0x10) {
      GamefmtStatus s = gamefmt_slp_reassembler_push(&splits, item.data, item.len, &err);
      if (s == GAMEFMT_STATUS_OK) {
        uint8_t command;
        const uint8_t *msg;
        size_t msg_len;
        if (gamefmt_slp_reassembler_message(&splits, &command, &msg, &msg_len) == GAMEFMT_STATUS_OK &&
            command == 0x3d) {
          gecko = (long long)gamefmt_slp_gecko_count(msg, msg_len);
        }
      } else if (s != GAMEFMT_STATUS_NEED_MORE) {
        print_error(&err);
        free(split_buf);
        free(frames.bits);
        free(frames.others);
        return;
      }
    } else if (item.code == 0x3d) {
      gecko = (long long)gamefmt_slp_gecko_count(item.data + 1, item.len - 1);
    }
  }

  printf("{\"character_names\":[");
  if (start != NULL) {
    GamefmtSlpGameStart g;
    int first = 1;
    gamefmt_slp_game_start(start, start_len, &g, &err);
    for (i = 0; i < 4; i++) {
      uint8_t c;
      char buf[64];
      if (!g.ports[i].present) continue;
      if (!first) putchar(',');
      first = 0;
      if (gamefmt_slp_characters_get(&chars, i, &c) != GAMEFMT_STATUS_OK) {
        if (!g.ports[i].has_character) {
          printf("null");
          continue;
        }
        c = g.ports[i].character;
      }
      json_name(gamefmt_slp_character_name(c, buf, sizeof buf), buf);
    }
  }
  printf("],\"end\":\"%s\",\"end_method\":", end.kind == GAMEFMT_END_KIND_DAMAGED ? "truncated" : end.name);
  {
    GamefmtSlpGameEnd e;
    memset(&e, 0, sizeof e);
    if (have_end) gamefmt_slp_game_end(game_end, game_end_len, &e, &err);
    if (e.has_method) printf("%u", e.method); else printf("null");
    printf(",\"event_counts\":{");
    {
      int first = 1, c;
      for (c = 0; c < 256; c++) {
        if (!event_counts[c]) continue;
        if (!first) putchar(',');
        first = 0;
        printf("\"0x%02x\":%llu", c, event_counts[c]);
      }
    }
    printf("},\"first_frame\":");
    if (frames.have) printf("%d", frames.first); else printf("null");
    printf(",\"format\":\"slippi\",\"gecko_codes\":");
    if (gecko >= 0) printf("%lld", gecko); else printf("null");
    printf(",\"is_pal\":");
    {
      GamefmtSlpGameStart g;
      memset(&g, 0, sizeof g);
      if (start != NULL) gamefmt_slp_game_start(start, start_len, &g, &err);
      if (g.has_is_pal) printf(g.is_pal ? "true" : "false"); else printf("null");
      printf(",\"last_frame\":");
      if (frames.have) printf("%d", frames.last); else printf("null");
      printf(",\"lras_initiator\":");
      /* The 1-based port (null for none, index -1), as gamefmt inspect --json. */
      if (e.has_lras_initiator && e.lras_initiator >= 0) printf("%d", e.lras_initiator + 1); else printf("null");
      {
        GamefmtSlpMetadata m;
        int have_meta = meta != NULL && gamefmt_slp_metadata(meta, meta_len, &m, &err) == GAMEFMT_STATUS_OK;
        printf(",\"meta_last_frame\":");
        if (have_meta && m.has_last_frame) printf("%lld", (long long)m.last_frame); else printf("null");
        printf(",\"meta_played_on\":");
        if (have_meta && m.played_on != NULL) json_str((const char *)m.played_on, m.played_on_len); else printf("null");
        printf(",\"metadata\":%s", have_meta ? "true" : "false");
      }
      printf(",\"placements\":");
      if (e.has_placements) {
        printf("[%d,%d,%d,%d]", e.placements[0], e.placements[1], e.placements[2], e.placements[3]);
      } else {
        printf("null");
      }
      printf(",\"players\":[");
      {
        int first = 1;
        for (i = 0; start != NULL && i < 4; i++) {
          uint8_t c;
          if (!g.ports[i].present) continue;
          if (!first) putchar(',');
          first = 0;
          printf("{\"character\":");
          if (gamefmt_slp_characters_get(&chars, i, &c) == GAMEFMT_STATUS_OK) {
            printf("%u", c);
          } else if (g.ports[i].has_character) {
            printf("%u", g.ports[i].character);
          } else {
            printf("null");
          }
          printf(",\"port\":%zu}", i + 1);
        }
      }
      printf("],\"raw_len\":%u,\"stage\":", raw_len);
      if (g.has_stage) printf("%u", g.stage); else printf("null");
      printf(",\"stage_name\":");
      {
        char buf[64];
        if (g.has_stage) json_name(gamefmt_slp_stage_name(g.stage, buf, sizeof buf), buf); else printf("null");
      }
      printf(",\"unique_frames\":%zu,\"version\":", frames.len);
      if (g.has_version) printf("\"%u.%u.%u\"", g.version[0], g.version[1], g.version[2]); else printf("null");
    }
  }
  printf(",\"warnings\":");
  print_warnings(warnings, n_warn);
  printf(",\"winners\":[");
  if (start != NULL && have_end) {
    GamefmtSlpPlacement w[4];
    size_t n = 0;
    gamefmt_slp_winners(start, start_len, game_end, game_end_len, posts.at_end, posts.n_at_end, w, &n, &err);
    for (i = 0; i < n; i++) {
      if (i) putchar(',');
      printf("{\"port\":%u,\"position\":%d}", w[i].player_index + 1u, w[i].position);
    }
  }
  printf("]}\n");
  free(split_buf);
  free(frames.bits);
  free(frames.others);
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv) {
  int i;
  for (i = 1; i < argc; i++) {
    size_t len = 0;
    uint8_t *data = read_file(argv[i], &len);
    if (data == NULL) {
      printf("{\"error\":\"cannot read file\"}\n");
      continue;
    }
    switch (gamefmt_detect(data, len)) {
      case GAMEFMT_FORMAT_DATAFILE: inspect_datafile(data, len); break;
      case GAMEFMT_FORMAT_DEMO: inspect_demo(data, len); break;
      case GAMEFMT_FORMAT_TEEHISTORIAN: {
        /* Streamed from the file (GAMEFMT_C_BUFFER: the buffer's size). */
        const char *cap = getenv("GAMEFMT_C_BUFFER");
        FILE *f = fopen(argv[i], "rb");
        if (f == NULL) {
          printf("{\"error\":\"cannot read file\"}\n");
          break;
        }
        inspect_teehistorian(f, cap ? (size_t)strtoul(cap, NULL, 10) : (size_t)1 << 17);
        fclose(f);
        break;
      }
      case GAMEFMT_FORMAT_SLIPPI: inspect_slippi(data, len); break;
      default: printf("{\"error\":\"unrecognised file format\"}\n"); break;
    }
    fflush(stdout);
    free(data);
  }
  return 0;
}

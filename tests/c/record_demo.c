/* The demo recorder through gamefmt's C ABI: every demo given is decoded
 * through the C API (chunk decoder and reconstructor) into the calls a
 * server makes (each tick's snapshot, each message), which are recorded
 * again twice: into a file by path and through a write callback into
 * memory, its header patched with the patch handed back. The two must be
 * byte for byte the same file, and decoded again they must hold the same
 * snapshots (ticks, checksums, item counts, bytes up to item order) and
 * the same messages as the original. The file is left in OUTDIR for
 * tests/c/compare.py to read back with the `gamefmt` command.
 *
 *   record-demo OUTDIR FILE...
 *
 * Prints one JSON line per file ({"file", "recorded", "snapshots",
 * "messages", "markers", "length_seconds", "bytes"}); exits 1 on any
 * difference. */
#include "gamefmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t *data;
  size_t len, cap;
} Buf;

static void buf_append(Buf *b, const uint8_t *data, size_t len) {
  if (b->len + len > b->cap) {
    while (b->len + len > b->cap) b->cap = b->cap ? 2 * b->cap : 1 << 16;
    b->data = (uint8_t *)realloc(b->data, b->cap);
    if (!b->data) abort();
  }
  memcpy(b->data + b->len, data, len);
  b->len += len;
}

static Buf read_file(const char *path) {
  Buf b = {NULL, 0, 0};
  uint8_t chunk[1 << 16];
  size_t got;
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) buf_append(&b, chunk, got);
  fclose(f);
  return b;
}

/* One recorded call, as read back: a snapshot (tick, checksum, items,
 * size) or a message (its bytes). */
typedef struct {
  int is_message;
  int32_t tick;
  int32_t checksum;
  size_t items, len;
  uint8_t *bytes; /* message bytes, or the snapshot's bytes */
} Event;

typedef struct {
  Event *items;
  size_t len, cap;
} Events;

static void push(Events *e, Event ev) {
  if (e->len == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 1024;
    e->items = (Event *)realloc(e->items, e->cap * sizeof *e->items);
    if (!e->items) abort();
  }
  e->items[e->len++] = ev;
}

static void free_events(Events *e) {
  size_t i;
  for (i = 0; i < e->len; i++) free(e->items[i].bytes);
  free(e->items);
}

static uint8_t *copy(const uint8_t *p, size_t n) {
  uint8_t *out = (uint8_t *)malloc(n ? n : 1);
  if (!out) abort();
  if (n) memcpy(out, p, n);
  return out;
}

/* Pending tick marker: its snapshot is recorded once the chunk after it
 * (or the next marker) shows what is in effect. */
static void flush(int *pending, int32_t tick, GamefmtReconstructor *rec, Events *out) {
  GamefmtSnapshot snap;
  GamefmtSnapshotInfo info;
  GamefmtError err;
  Event ev;
  if (!*pending) return;
  *pending = 0;
  if (gamefmt_reconstructor_snapshot(rec, &snap, &err) != GAMEFMT_STATUS_OK) return;
  gamefmt_snapshot_info(&snap, &info, &err);
  ev.is_message = 0;
  ev.tick = tick;
  ev.checksum = info.checksum;
  ev.items = info.items;
  ev.len = info.len;
  ev.bytes = copy(info.bytes, info.len);
  push(out, ev);
}

/* Decodes a demo into its snapshots and messages, as DDNet's player
 * sees them: up to the first error or the end. */
static int decode(const uint8_t *data, size_t len, GamefmtDemoInfo *info, Events *out) {
  GamefmtError err;
  GamefmtDemoHeader header;
  GamefmtDemoDecoder dec;
  GamefmtReconstructor rec;
  GamefmtDemoChunk chunk;
  uint8_t *workspace;
  size_t pos;
  int pending = 0;
  int32_t tick = 0;
  memset(&err, 0, sizeof err);
  if (gamefmt_demo_header_parse(data, len, &header, &err) != GAMEFMT_STATUS_OK) {
    fprintf(stderr, "header: %s\n", err.message);
    return 0;
  }
  gamefmt_demo_header_info(&header, info, &err);
  gamefmt_demo_decoder_init(&dec, &header, &err);
  workspace = (uint8_t *)malloc(GAMEFMT_RECONSTRUCTOR_WORKSPACE);
  if (!workspace) abort();
  gamefmt_reconstructor_init(&rec, &header, workspace, GAMEFMT_RECONSTRUCTOR_WORKSPACE, &err);
  pos = info->chunks_offset < len ? (size_t)info->chunks_offset : len;
  while (gamefmt_demo_decode(&dec, data + pos, len - pos, &chunk, &err) == GAMEFMT_STATUS_OK) {
    pos += chunk.consumed;
    if (chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_TICK) {
      flush(&pending, tick, &rec, out);
      pending = 1;
      tick = chunk.tick;
    } else if (chunk.kind == GAMEFMT_DEMO_CHUNK_KIND_MESSAGE) {
      const uint8_t *ints;
      size_t n;
      Event ev;
      flush(&pending, tick, &rec, out);
      if (gamefmt_reconstructor_decode(&rec, chunk.payload, chunk.payload_len, &ints, &n, &err) !=
          GAMEFMT_STATUS_OK)
        break;
      memset(&ev, 0, sizeof ev);
      ev.is_message = 1;
      ev.tick = tick;
      ev.len = 4 * n;
      ev.bytes = copy(ints, 4 * n);
      push(out, ev);
    } else if (chunk.kind != GAMEFMT_DEMO_CHUNK_KIND_UNKNOWN) {
      if (gamefmt_reconstructor_feed(&rec, &chunk, &err) != GAMEFMT_STATUS_OK) break;
      flush(&pending, tick, &rec, out);
    }
  }
  flush(&pending, tick, &rec, out);
  free(workspace);
  return 1;
}

/* The write callback: appends to the Buf behind `user`. */
static int32_t to_memory(void *user, const uint8_t *data, size_t len) {
  buf_append((Buf *)user, data, len);
  return 0;
}

static int failures = 0;

static void check(GamefmtStatus st, const GamefmtError *err, const char *what, const char *file) {
  if (st != GAMEFMT_STATUS_OK) {
    printf("FAILED %s: %s: %d %s\n", file, what, (int)st, err->message);
    failures++;
  }
}

/* The items of a snapshot's bytes sorted by key, as text: snapshots
 * rebuilt from other keyframes hold the same items in another order. */
static int cmp_key(const void *a, const void *b) {
  uint32_t x = ((const GamefmtSnapshotItem *)a)->key, y = ((const GamefmtSnapshotItem *)b)->key;
  return x < y ? -1 : x > y;
}

static int same_snapshot(const Event *a, const Event *b) {
  GamefmtSnapshot sa, sb;
  GamefmtSnapshotItem *ia, *ib;
  GamefmtError err;
  size_t i;
  int same = 1;
  if (a->checksum != b->checksum || a->items != b->items || a->len != b->len) return 0;
  if (memcmp(a->bytes, b->bytes, a->len) == 0) return 1;
  gamefmt_snapshot_parse(a->bytes, a->len, &sa, &err);
  gamefmt_snapshot_parse(b->bytes, b->len, &sb, &err);
  ia = (GamefmtSnapshotItem *)calloc(a->items + 1, sizeof *ia);
  ib = (GamefmtSnapshotItem *)calloc(a->items + 1, sizeof *ib);
  for (i = 0; i < a->items; i++) {
    gamefmt_snapshot_item(&sa, i, &ia[i], &err);
    gamefmt_snapshot_item(&sb, i, &ib[i], &err);
  }
  qsort(ia, a->items, sizeof *ia, cmp_key);
  qsort(ib, a->items, sizeof *ib, cmp_key);
  for (i = 0; i < a->items && same; i++)
    same = ia[i].key == ib[i].key && ia[i].ints == ib[i].ints &&
           memcmp(ia[i].data, ib[i].data, 4 * ia[i].ints) == 0;
  free(ia);
  free(ib);
  return same;
}

static void record_one(const char *outdir, const char *path) {
  Buf original = read_file(path), memory = {NULL, 0, 0}, file;
  GamefmtDemoInfo info, again_info;
  Events events = {NULL, 0, 0}, again = {NULL, 0, 0};
  GamefmtRecorderOptions options;
  GamefmtDemoMap map;
  GamefmtRecorder *to_file = NULL, *to_callback = NULL;
  GamefmtHeaderPatch patch, file_patch;
  GamefmtError err;
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char recorded[4096];
  size_t i, snapshots = 0, messages = 0, markers = 0;

  memset(&err, 0, sizeof err);
  if (!decode(original.data, original.len, &info, &events)) {
    printf("FAILED %s: cannot decode\n", path);
    failures++;
    free(original.data);
    return;
  }
  /* The original's header: version (3, without markers, becomes 4), net
   * version, kind, time and map. */
  options.version = info.version < 4 ? 4 : info.version;
  options.net_version = info.net_version;
  options.kind = info.kind;
  options.timestamp = info.timestamp;
  options.trailing_zero = false;
  map.name = info.map_name;
  map.crc = info.map_crc;
  map.sha256 = info.has_map_sha256 ? info.map_sha256 : NULL;
  map.data = info.map_size ? original.data + info.map_offset : NULL;
  map.len = info.map_size;

  snprintf(recorded, sizeof recorded, "%s/%s", outdir, name);
  check(gamefmt_recorder_open_file(recorded, &options, &map, &to_file, &err), &err, "open file", path);
  check(gamefmt_recorder_open_callback(to_memory, &memory, &options, &map, &to_callback, &err), &err,
        "open callback", path);
  if (!to_file || !to_callback) {
    gamefmt_recorder_free(to_file);
    gamefmt_recorder_free(to_callback);
    free_events(&events);
    free(original.data);
    return;
  }
  for (i = 0; i < events.len; i++) {
    const Event *e = &events.items[i];
    if (e->is_message) {
      messages++;
      check(gamefmt_recorder_message(to_file, e->bytes, e->len, &err), &err, "message", path);
      check(gamefmt_recorder_message(to_callback, e->bytes, e->len, &err), &err, "message", path);
    } else {
      snapshots++;
      check(gamefmt_recorder_snapshot_data(to_file, e->tick, e->bytes, e->len, &err), &err,
            "snapshot", path);
      check(gamefmt_recorder_snapshot_data(to_callback, e->tick, e->bytes, e->len, &err), &err,
            "snapshot", path);
    }
  }
  for (i = 0; i < info.marker_count; i++) {
    markers += gamefmt_recorder_add_marker(to_file, info.markers[i]);
    gamefmt_recorder_add_marker(to_callback, info.markers[i]);
  }
  check(gamefmt_recorder_finish(to_file, &file_patch, &err), &err, "finish file", path);
  check(gamefmt_recorder_finish(to_callback, &patch, &err), &err, "finish callback", path);
  check(gamefmt_header_patch_apply(&patch, memory.data, memory.len, &err), &err, "patch", path);

  /* The file and the callback's bytes, patched: one and the same demo. */
  file = read_file(recorded);
  if (file.len != memory.len || memcmp(file.data, memory.data, file.len) != 0 ||
      patch.length_seconds != file_patch.length_seconds ||
      memcmp(patch.length, file_patch.length, sizeof patch.length) != 0 ||
      memcmp(patch.markers, file_patch.markers, sizeof patch.markers) != 0) {
    printf("DIFFERENT %s: file and callback recordings differ\n", path);
    failures++;
  }
  /* Read back: the same snapshots and messages, in order. */
  decode(file.data, file.len, &again_info, &again);
  if (again.len != events.len) {
    printf("DIFFERENT %s: %zu calls recorded, %zu read back\n", path, events.len, again.len);
    failures++;
  } else {
    for (i = 0; i < events.len; i++) {
      const Event *a = &events.items[i], *b = &again.items[i];
      int same = a->is_message == b->is_message && a->tick == b->tick &&
                 (a->is_message ? a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0
                                : same_snapshot(a, b));
      if (!same) {
        printf("DIFFERENT %s: call %zu (tick %d)\n", path, i, (int)a->tick);
        failures++;
        break;
      }
    }
  }
  if (again_info.length_seconds != patch.length_seconds || again_info.marker_count != markers) {
    printf("DIFFERENT %s: header length %d / %zu markers, patch %d / %zu\n", path,
           again_info.length_seconds, again_info.marker_count, patch.length_seconds, markers);
    failures++;
  }
  printf("{\"file\":\"%s\",\"recorded\":\"%s\",\"snapshots\":%zu,\"messages\":%zu,\"markers\":%zu,"
         "\"length_seconds\":%d,\"bytes\":%zu}\n",
         name, recorded, snapshots, messages, markers, patch.length_seconds, file.len);
  free_events(&events);
  free_events(&again);
  free(original.data);
  free(memory.data);
  free(file.data);
}

int main(int argc, char **argv) {
  int i;
  if (argc < 3) {
    fprintf(stderr, "usage: record-demo OUTDIR FILE...\n");
    return 2;
  }
  for (i = 2; i < argc; i++) record_one(argv[1], argv[i]);
  return failures ? 1 : 0;
}

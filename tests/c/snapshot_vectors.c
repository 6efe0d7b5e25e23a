/* The snapshot builder, delta creation, packing and delta application
 * through gamefmt's C ABI, byte for byte against DDNet's own outputs in
 * the corpus folder teeworlds/snapshot-vectors (see its SOURCES.md):
 *
 *   snapshot-vectors DIR      (DIR holds manifest.jsonl)
 *
 * Per pair: both snapshots rebuilt item by item with the builder equal
 * their files (CSnapshotBuilder's layout); gamefmt_delta_create(old, new)
 * equals ddnet.delta (an empty file: CreateDelta returned 0, where gamefmt
 * gives the 12-byte empty delta) and, packed, ddnet.packed;
 * gamefmt_delta_apply(old, ddnet.delta) equals ddnet.applied. Then the
 * builder's refusals: a duplicate key, a type above 0x7FFF, a 1025th item.
 * Exits 1 on any difference. */
#include "gamefmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t *data;
  size_t len;
} Bytes;

static Bytes read_file(const char *dir, const char *path, const char *name) {
  char full[4096];
  Bytes b = {NULL, 0};
  size_t cap = 0, got;
  FILE *f;
  snprintf(full, sizeof full, "%s/%s/%s", dir, path, name);
  f = fopen(full, "rb");
  if (!f) {
    fprintf(stderr, "cannot read %s\n", full);
    exit(1);
  }
  for (;;) {
    if (b.len == cap) {
      cap = cap ? 2 * cap : 1 << 14;
      b.data = (uint8_t *)realloc(b.data, cap);
    }
    got = fread(b.data + b.len, 1, cap - b.len, f);
    if (got == 0) break;
    b.len += got;
  }
  fclose(f);
  return b;
}

static int failures = 0;

static void expect_bytes(const char *what, const char *path, const uint8_t *got, size_t got_len,
                         const uint8_t *want, size_t want_len) {
  if (got_len != want_len || memcmp(got, want, want_len) != 0) {
    printf("DIFFERENT %s: %s (%zu bytes, DDNet %zu)\n", path, what, got_len, want_len);
    failures++;
  }
}

static void expect_ok(GamefmtStatus st, const GamefmtError *err, const char *what) {
  if (st != GAMEFMT_STATUS_OK) {
    printf("FAILED %s: %s\n", what, err->message);
    exit(1);
  }
}

/* Rebuilds `snap` item by item with `b` and checks the builder's bytes. */
static void rebuild(GamefmtBuilder *b, const Bytes *file, const char *path) {
  GamefmtError err;
  GamefmtSnapshot snap, built;
  GamefmtSnapshotItem item;
  GamefmtSnapshotInfo info;
  int32_t ints[1 << 14];
  size_t i, k;
  expect_ok(gamefmt_snapshot_parse(file->data, file->len, &snap, &err), &err, path);
  gamefmt_builder_clear(b);
  for (i = 0; gamefmt_snapshot_item(&snap, i, &item, &err) == GAMEFMT_STATUS_OK; i++) {
    for (k = 0; k < item.ints && k < sizeof ints / sizeof ints[0]; k++) {
      memcpy(&ints[k], item.data + 4 * k, 4); /* little-endian host */
    }
    expect_ok(gamefmt_builder_add(b, item.type_id, item.id, ints, item.ints, &err), &err, path);
  }
  expect_ok(gamefmt_builder_snapshot(b, &built, &err), &err, path);
  gamefmt_snapshot_info(&built, &info, &err);
  expect_bytes("builder", path, info.bytes, info.len, file->data, file->len);
}

static void builder_refusals(GamefmtBuilder *b) {
  GamefmtError err;
  int32_t data[2] = {1, 2};
  int i;
  GamefmtStatus dup, type, full = GAMEFMT_STATUS_OK;
  gamefmt_builder_clear(b);
  gamefmt_builder_add(b, 1, 7, data, 2, &err);
  dup = gamefmt_builder_add(b, 1, 7, data, 2, &err);
  type = gamefmt_builder_add(b, 0x8000, 1, data, 2, &err);
  gamefmt_builder_clear(b);
  for (i = 0; i < 1025 && full == GAMEFMT_STATUS_OK; i++) {
    full = gamefmt_builder_add(b, 1, (uint16_t)i, NULL, 0, &err);
  }
  if (dup != GAMEFMT_STATUS_CORRUPT || type != GAMEFMT_STATUS_CORRUPT ||
      full != GAMEFMT_STATUS_CORRUPT || i != 1025) {
    printf("FAILED builder refusals: duplicate %d, type %d, full %d at item %d\n", dup, type, full, i);
    failures++;
  }
}

int main(int argc, char **argv) {
  char manifest_path[4096], line[8192];
  FILE *manifest;
  GamefmtBuilder *b = gamefmt_builder_new();
  GamefmtDeltaCreator *creator = gamefmt_delta_creator_new();
  uint8_t *out = (uint8_t *)malloc(4 * GAMEFMT_MAX_SNAPSHOT_INTS);
  uint8_t *packed = (uint8_t *)malloc(5 * GAMEFMT_MAX_SNAPSHOT_INTS);
  int32_t *delta_ints = (int32_t *)malloc(4 * 3 * GAMEFMT_MAX_SNAPSHOT_INTS);
  static const uint8_t empty_delta[12] = {0};
  int pairs = 0, empty = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: snapshot-vectors DIR\n");
    return 2;
  }
  snprintf(manifest_path, sizeof manifest_path, "%s/manifest.jsonl", argv[1]);
  manifest = fopen(manifest_path, "r");
  if (!manifest) {
    fprintf(stderr, "cannot read %s\n", manifest_path);
    return 2;
  }
  while (fgets(line, sizeof line, manifest)) {
    char path[1024];
    const char *p = strstr(line, "\"path\": \"");
    const char *q;
    Bytes old_b, new_b, delta_b, packed_b, applied_b;
    GamefmtError err;
    GamefmtSnapshot old_s, new_s, applied_s;
    GamefmtSnapshotInfo info;
    const uint8_t *delta;
    size_t delta_len, packed_len;
    if (!p) continue;
    p += strlen("\"path\": \"");
    q = strchr(p, '"');
    if (!q || (size_t)(q - p) >= sizeof path) continue;
    memcpy(path, p, (size_t)(q - p));
    path[q - p] = 0;
    old_b = read_file(argv[1], path, "old.snap");
    new_b = read_file(argv[1], path, "new.snap");
    delta_b = read_file(argv[1], path, "ddnet.delta");
    packed_b = read_file(argv[1], path, "ddnet.packed");
    applied_b = read_file(argv[1], path, "ddnet.applied");

    rebuild(b, &old_b, path);
    rebuild(b, &new_b, path);

    expect_ok(gamefmt_snapshot_parse(old_b.data, old_b.len, &old_s, &err), &err, path);
    expect_ok(gamefmt_snapshot_parse(new_b.data, new_b.len, &new_s, &err), &err, path);
    expect_ok(gamefmt_delta_create(creator, &old_s, &new_s, GAMEFMT_ITEM_SIZES_TEEWORLDS06, &delta,
                                   &delta_len, &err),
              &err, path);
    if (delta_b.len == 0) {
      expect_bytes("empty delta", path, delta, delta_len, empty_delta, sizeof empty_delta);
      empty++;
    } else {
      expect_bytes("delta (int form)", path, delta, delta_len, delta_b.data, delta_b.len);
      memcpy(delta_ints, delta, delta_len); /* the creator's bytes need not be aligned */
      expect_ok(gamefmt_pack_ints(delta_ints, delta_len / 4, packed,
                                  5 * GAMEFMT_MAX_SNAPSHOT_INTS, &packed_len, &err),
                &err, path);
      expect_bytes("delta (packed)", path, packed, packed_len, packed_b.data, packed_b.len);
    }

    if (delta_b.len == 0) {
      expect_ok(gamefmt_delta_apply(&old_s, empty_delta, sizeof empty_delta,
                                    GAMEFMT_ITEM_SIZES_TEEWORLDS06, out, 4 * GAMEFMT_MAX_SNAPSHOT_INTS,
                                    &applied_s, &err),
                &err, path);
    } else {
      expect_ok(gamefmt_delta_apply(&old_s, delta_b.data, delta_b.len, GAMEFMT_ITEM_SIZES_TEEWORLDS06,
                                    out, 4 * GAMEFMT_MAX_SNAPSHOT_INTS, &applied_s, &err),
                &err, path);
    }
    gamefmt_snapshot_info(&applied_s, &info, &err);
    expect_bytes("applied", path, info.bytes, info.len, applied_b.data, applied_b.len);
    pairs++;
    free(old_b.data);
    free(new_b.data);
    free(delta_b.data);
    free(packed_b.data);
    free(applied_b.data);
  }
  fclose(manifest);
  builder_refusals(b);
  gamefmt_builder_free(b);
  gamefmt_delta_creator_free(creator);
  free(out);
  free(packed);
  free(delta_ints);
  if (pairs == 0) {
    printf("FAILED: no pairs in %s\n", manifest_path);
    return 1;
  }
  printf("snapshot vectors through C: %d pairs, builder, delta (int and packed) and applied "
         "byte-identical to DDNet (%d with nothing changed)%s; builder refuses a duplicate key, a "
         "type above 0x7FFF and the 1025th item\n",
         pairs, empty, failures ? " EXCEPT ABOVE" : "");
  return failures ? 1 : 0;
}

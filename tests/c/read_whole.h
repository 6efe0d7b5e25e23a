/* read_whole.h: a whole file into memory, for the C test programs
 * (tests/c/run.sh builds them). Returns a malloc'd buffer and its length
 * in *len (free it), or NULL when the file cannot be opened or memory
 * runs out. */
#ifndef GAMEFMT_TESTS_READ_WHOLE_H
#define GAMEFMT_TESTS_READ_WHOLE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint8_t *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0, got;
  if (!f) return NULL;
  for (;;) {
    if (n == cap) {
      uint8_t *grown;
      cap = cap ? 2 * cap : 1 << 16;
      grown = (uint8_t *)realloc(buf, cap);
      if (!grown) { free(buf); fclose(f); return NULL; }
      buf = grown;
    }
    got = fread(buf + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  *len = n;
  return buf;
}

#endif

/* Prints, per Slippi replay in argument order, one JSON line with the
 * stats gamefmt_slp_stats gives through the C ABI: the game-level facts
 * and each player's overall numbers, with the keys and nesting of the
 * `overall` entries of `gamefmt stats --json` (tests/c/compare.py checks
 * them against it), plus each player's character beside. A replay
 * without stats prints {"error": ...}. Floats are printed with %.17g,
 * which reads back to the same double. */
#include "gamefmt.h"
#include "read_whole.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void num(double v) { printf("%.17g", v); }

static void ratio(const char *key, const GamefmtSlpRatio *r) {
  printf(",\"%s\":{\"count\":", key);
  if (r->has_count) num(r->count); else printf("null");
  printf(",\"total\":");
  num(r->total);
  printf(",\"ratio\":");
  if (r->has_ratio) num(r->ratio); else printf("null");
  printf("}");
}

int main(int argc, char **argv) {
  int i;
  for (i = 1; i < argc; i++) {
    size_t len = 0, count = 0, p;
    GamefmtSlpOverall players[4];
    GamefmtSlpGameStats game;
    GamefmtError err;
    GamefmtStatus st;
    uint8_t *data = read_file(argv[i], &len);
    if (data == NULL) {
      printf("{\"error\":\"cannot read file\"}\n");
      continue;
    }
    memset(&err, 0, sizeof err);
    st = gamefmt_slp_stats(data, len, players, 4, &count, &game, &err);
    if (!game.has_stats) {
      printf("{\"error\":\"no stats\",\"status\":%d,\"offset\":%llu}\n", (int)st,
             (unsigned long long)err.offset);
      free(data);
      continue;
    }
    printf("{\"status\":%d,\"last_frame\":%d,\"playable_frame_count\":%d,\"game_complete\":%s,"
           "\"overall\":[",
           (int)st, game.last_frame, game.playable_frame_count, game.game_complete ? "true" : "false");
    for (p = 0; p < count && p < 4; p++) {
      const GamefmtSlpOverall *o = &players[p];
      if (p) printf(",");
      printf("{\"port\":%u,\"character\":", o->port);
      if (o->has_character) printf("%u", o->character); else printf("null");
      printf(",\"input_counts\":");
      if (o->has_input_counts) {
        printf("{\"buttons\":%u,\"triggers\":%u,\"cstick\":%u,\"joystick\":%u,\"total\":%u}",
               o->input_buttons, o->input_triggers, o->input_cstick, o->input_joystick,
               o->input_total);
      } else {
        printf("null");
      }
      printf(",\"conversion_count\":%u,\"total_damage\":", o->conversion_count);
      num(o->total_damage);
      printf(",\"kill_count\":%u", o->kill_count);
      ratio("successful_conversions", &o->successful_conversions);
      ratio("inputs_per_minute", &o->inputs_per_minute);
      ratio("digital_inputs_per_minute", &o->digital_inputs_per_minute);
      ratio("openings_per_kill", &o->openings_per_kill);
      ratio("damage_per_opening", &o->damage_per_opening);
      ratio("neutral_win_ratio", &o->neutral_win_ratio);
      ratio("counter_hit_ratio", &o->counter_hit_ratio);
      ratio("beneficial_trade_ratio", &o->beneficial_trade_ratio);
      printf("}");
    }
    printf("]}\n");
    fflush(stdout);
    free(data);
  }
  return 0;
}

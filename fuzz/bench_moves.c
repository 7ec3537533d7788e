/* bench_moves: the model's moves per second beside a bare loop that does
 * the same moves on plain arrays (take the object out of its zone's list,
 * append it to the destination's list). Each loop runs three times and the
 * fastest run counts, for both. Prints both and the ratio; used by
 * ci/bench. A benchmark, not a test: it asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_int.h"

#define NOBJ 12
#define NDEST 4

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char setup[] =
    "id: bench/moves\ntitle: bench\nrulesets: [mtg-2011]\nrules: [\"CR 400.7\"]\n"
    "players: [alice, bob]\ncards:\n"
    "  c0: {owner: alice, zone: battlefield}\n  c1: {owner: bob, zone: battlefield}\n"
    "  c2: {owner: alice, zone: battlefield}\n  c3: {owner: bob, zone: battlefield}\n"
    "  c4: {owner: alice, zone: graveyard}\n  c5: {owner: bob, zone: graveyard}\n"
    "  c6: {owner: alice, zone: exile}\n  c7: {owner: bob, zone: exile}\n"
    "  c8: {owner: alice, zone: hand}\n  c9: {owner: bob, zone: hand}\n"
    "  c10: {owner: alice, zone: library}\n  c11: {owner: bob, zone: library}\n"
    "steps:\n"
    "  - move: {card: c0, to: battlefield}\n  - move: {card: c0, to: graveyard}\n"
    "  - move: {card: c0, to: exile}\n  - move: {card: c0, to: hand}\n";

int main(int argc, char **argv) {
  long moves = argc > 1 ? atol(argv[1]) : 20000000;
  zo_case *c;
  zo_error err;
  if (zo_case_load_mem("bench.yaml", setup, sizeof setup - 1, &c, &err)) {
    fprintf(stderr, "%s\n", err.message);
    return 2;
  }
  zo_game *g;
  if (zo_game_new(zo_ruleset_find("mtg-2011"), c, &g, &err)) return 2;
  /* the model: each move names a card and a destination zone type */
  zo_step steps[NDEST];
  for (int d = 0; d < NDEST; d++) steps[d] = c->steps[d];
  zo_step_result r = {0};
  double model = 0;
  for (int run = 0; run < 3; run++) {
    double t0 = now();
    for (long i = 0; i < moves; i++) {
      zo_step *s = &steps[(i / NOBJ) % NDEST];
      s->card = (int)(i % NOBJ);
      r.nevents = 0;
      r.outcome = ZO_OUTCOME_NONE;
      r.error = ZO_E_NONE;
      zo_game_apply_to(g, s, -1, &r);
    }
    double rate = (double)moves / (now() - t0);
    if (rate > model) model = rate;
  }
  free(r.events);
  /* the bare loop: the same moves on arrays */
  int zone_of[NOBJ], list[NDEST][NOBJ], n[NDEST] = {0};
  for (int o = 0; o < NOBJ; o++) {
    zone_of[o] = o % NDEST;
    list[o % NDEST][n[o % NDEST]++] = o;
  }
  volatile int sink = 0;
  double bare = 0;
  for (int run = 0; run < 3; run++) {
    double t0 = now();
    for (long i = 0; i < moves; i++) {
      int o = (int)(i % NOBJ), d = (int)((i / NOBJ) % NDEST), z = zone_of[o];
      for (int k = 0; k < n[z]; k++)
        if (list[z][k] == o) {
          memmove(&list[z][k], &list[z][k + 1], (size_t)(n[z] - k - 1) * sizeof(int));
          n[z]--;
          break;
        }
      list[d][n[d]++] = o;
      zone_of[o] = d;
      sink = sink + n[d];
    }
    double rate = (double)moves / (now() - t0);
    if (rate > bare) bare = rate;
  }
  printf("model moves/s: %.0f\nbare-loop moves/s: %.0f\nmodel/bare: %.1f%%\n", model, bare,
         100.0 * model / bare);
  zo_game_free(g);
  zo_case_free(c);
  return 0;
}

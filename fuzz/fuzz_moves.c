/* fuzz_moves: a decoded game on the oracle, every invariant of
 * INVARIANTS.md checked after every step. A violation prints the
 * invariant id, its rule, the step number and the step, then aborts, so
 * the crash input replays into a YAML case (zoneoracle replay). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXZ 64
#define MAXO 32

static void broken(const zo_fuzz *f, const char *inv, const char *rule, int step,
                   const zo_step *s, const char *detail) {
  fprintf(stderr, "zoneoracle fuzz_moves: invariant %s (%s) broken at step %d (%s): ", inv, rule,
          step, f->rs->id);
  if (s) zo_fuzz_print_step(f, s, stderr);
  fprintf(stderr, ": %s\n", detail);
  abort();
}

/* order-kept (CR 400.5, Z.3.4, 217.2b): in an ordered zone, objects a step
 * did not touch keep their relative order. */
typedef struct {
  int nz;              /* zones that existed before the step */
  int n[MAXZ];
  int objs[MAXZ][MAXO];
} snapshot;

static void snap(const zo_game *g, snapshot *s) {
  s->nz = g->nzones < MAXZ ? g->nzones : MAXZ;
  for (int z = 0; z < s->nz; z++) {
    s->n[z] = g->zones[z].n < MAXO ? g->zones[z].n : MAXO;
    if (s->n[z]) memcpy(s->objs[z], g->zones[z].objs, (size_t)s->n[z] * sizeof(int));
  }
}

static int touched(const zo_step_result *r, int obj) {
  for (int i = 0; i < r->nevents; i++)
    if (r->events[i].handle == obj) return 1;
  return 0;
}

static int in(const int *v, int n, int x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return 1;
  return 0;
}

static int order_kept(const zo_game *g, const snapshot *before, const zo_step_result *r) {
  for (int z = 0; z < before->nz; z++) { /* zones a step creates start empty */
    if (!g->rs->zones[g->zones[z].type].ordered.value) continue;
    const int *now = g->zones[z].objs;
    int nn = g->zones[z].n < MAXO ? g->zones[z].n : MAXO;
    int a[MAXO], na = 0, b[MAXO], nb = 0;
    for (int i = 0; i < before->n[z]; i++) {
      int o = before->objs[z][i];
      if (!touched(r, o) && in(now, nn, o)) a[na++] = o;
    }
    for (int i = 0; i < nn; i++)
      if (!touched(r, now[i]) && in(before->objs[z], before->n[z], now[i])) b[nb++] = now[i];
    if (na != nb || memcmp(a, b, (size_t)na * sizeof(int))) return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  zo_fuzz f;
  zo_fuzz_start(&f, data, size);
  zo_violation v;
  if (zo_game_check(f.g, 0, &v)) broken(&f, v.invariant, v.rule, 0, NULL, v.detail);
  int fab = f.rs->sw[SW_TOKEN_LEAVES].value == ZS_IMMEDIATELY;
  const zo_step *s;
  snapshot before;
  zo_step_result r = {0};
  while ((s = zo_fuzz_next(&f))) {
    int reorders = s->kind == ST_REORDER || s->kind == ST_SHUFFLE ||
                   (s->kind == ST_MOVE && s->shuffle);
    if (!reorders) snap(f.g, &before);
    zo_game_apply_again(f.g, s, &r);
    if (zo_game_check(f.g, s->kind == ST_STATE_CHECK || fab, &v))
      broken(&f, v.invariant, v.rule, f.c->nsteps, s, v.detail);
    if (!reorders && !order_kept(f.g, &before, &r))
      broken(&f, "order-kept", "CR 400.5; Z.3.4; 217.2b", f.c->nsteps, s,
             "an ordered zone changed the order of objects the step did not touch");
  }
  zo_step_result_free(&r);
  zo_fuzz_free(&f);
  return 0;
}

/* fuzz_moves: a decoded game on the oracle, every invariant of
 * fuzz/INVARIANTS.md checked after every step. A violation prints the
 * invariant id, its rule, the step number and the step, then aborts, so
 * the crash input replays into a YAML case (zoneoracle replay). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decoder.h"
#include "model_int.h" /* white-box: the harness reads zone state */
#include "util.h"

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
  int n;               /* ordered zones holding two objects or more */
  int zone[MAXZ], len[MAXZ];
  int objs[MAXZ][MAXO];
} snapshot;

/* Only an ordered zone that held two objects or more before the step can
   change the relative order of objects the step did not touch. */
ZO_NO_COVERAGE static void snap(const zo_game *g, snapshot *s) {
  s->n = 0;
  for (int z = 0; z < g->nzones && s->n < MAXZ; z++) {
    const zo_zone *zn = &g->zones[z];
    if (zn->n < 2 || !zn->zt->ordered.value) continue;
    int k = s->n++;
    s->zone[k] = z;
    s->len[k] = zn->n < MAXO ? zn->n : MAXO;
    memcpy(s->objs[k], zn->objs, (size_t)s->len[k] * sizeof(int));
  }
}

ZO_NO_COVERAGE static int touched(const zo_step_result *r, int obj) {
  for (int i = 0; i < r->nevents; i++)
    if (r->events[i].handle == obj) return 1;
  return 0;
}

ZO_NO_COVERAGE static int in(const int *v, int n, int x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return 1;
  return 0;
}

ZO_NO_COVERAGE static int order_kept(const zo_game *g, const snapshot *before, const zo_step_result *r) {
  for (int k = 0; k < before->n; k++) {
    int z = before->zone[k];
    const int *was = before->objs[k], *now = g->zones[z].objs;
    int nw = before->len[k], nn = g->zones[z].n < MAXO ? g->zones[z].n : MAXO;
    int a[MAXO], na = 0, b[MAXO], nb = 0;
    for (int i = 0; i < nw; i++)
      if (!touched(r, was[i]) && in(now, nn, was[i])) a[na++] = was[i];
    for (int i = 0; i < nn; i++)
      if (!touched(r, now[i]) && in(was, nw, now[i])) b[nb++] = now[i];
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
      broken(&f, v.invariant, v.rule, f.given, s, v.detail);
    if (!reorders && !order_kept(f.g, &before, &r))
      broken(&f, "order-kept", "CR 400.5; Z.3.4; 217.2b", f.given, s,
             "an ordered zone changed the order of objects the step did not touch");
  }
  zo_step_result_free(&r);
  zo_fuzz_free(&f);
  return 0;
}

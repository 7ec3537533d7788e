/* engines/oracle.c: the reference model (model/) behind the engine
 * interface, so the runner drives it exactly as it drives an engine under
 * test. */
#include <stdlib.h>

#include "engine.h"
#include "model.h"
#include "util.h"

typedef struct {
  zo_game *g;
} oracle;

static zo_status o_setup(void *self, const zo_ruleset *rs, const zo_case *c,
                         zo_error *err) {
  oracle *o = self;
  zo_game_free(o->g);
  o->g = NULL;
  return zo_game_new(rs, c, &o->g, err);
}

static zo_status o_step(void *self, const zo_step *s, zo_step_result *r,
                        zo_error *err) {
  (void)err;
  zo_game_apply(((oracle *)self)->g, s, r);
  return ZO_OK;
}

static zo_status o_observe(void *self, zo_observation *ob, zo_error *err) {
  (void)err;
  zo_game_observe(((oracle *)self)->g, ob);
  return ZO_OK;
}

static const int *o_hits(void *self) { return zo_game_hits(((oracle *)self)->g); }

static int o_check(void *self, int at_rest, zo_violation *v) {
  return zo_game_check(((oracle *)self)->g, at_rest, v);
}

static void o_teardown(void *self) {
  oracle *o = self;
  zo_game_free(o->g);
  o->g = NULL;
}

static const zo_engine_vtable oracle_ops = {
    .abi_version = 1,
    .name = "zoneoracle",
    .version = ZO_VERSION,
    .setup = o_setup,
    .step = o_step,
    .observe = o_observe,
    .hits = o_hits,
    .check = o_check,
    .teardown = o_teardown,
};

zo_engine *zo_engine_oracle_new(void) {
  zo_engine *e = zo_xcalloc(1, sizeof *e);
  e->ops = &oracle_ops;
  e->self = zo_xcalloc(1, sizeof(oracle));
  return e;
}

void zo_engine_oracle_free(zo_engine *e) {
  if (!e) return;
  o_teardown(e->self);
  free(e->self);
  free(e);
}

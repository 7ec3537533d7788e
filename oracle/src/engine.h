/* engine.h: the one interface the runner talks to (internal for now; the
 * plugin ABI zo_engine.h will publish it). The oracle is one implementation;
 * any engine under test is driven the same way and observed the same way.
 */
#ifndef ZO_ENGINE_H
#define ZO_ENGINE_H

#include "model.h"

typedef struct zo_engine_ops {
  uint32_t abi_version;   /* first field, always */
  const char *name, *version;
  /* Start a game for case c under rs. ZO_OK or an error with err filled. */
  zo_status (*setup)(void *self, const zo_ruleset *rs, const zo_case *c, zo_error *err);
  /* Apply one step; r is owned by the caller. */
  zo_status (*step)(void *self, const zo_step *s, zo_step_result *r, zo_error *err);
  /* Observe everything; ob is owned by the caller (zo_observation_free). */
  zo_status (*observe)(void *self, zo_observation *ob, zo_error *err);
  /* Optional: rule hits of the current game, indexed like rs's rules. */
  const int *(*hits)(void *self);
  /* Optional: invariants (INVARIANTS.md); 1 and v filled on a violation. */
  int (*check)(void *self, int at_rest, zo_violation *v);
  /* End the current game. */
  void (*teardown)(void *self);
} zo_engine_ops;

typedef struct zo_engine {
  const zo_engine_ops *ops;
  void *self;
} zo_engine;

/* The built-in oracle as an engine. Free with zo_engine_oracle_free. */
zo_engine *zo_engine_oracle_new(void);
void zo_engine_oracle_free(zo_engine *e);

#endif

/* engine.h: the one interface the runner talks to (internal for now; the
 * plugin ABI zo_engine.h will publish it). The oracle is one implementation;
 * any engine under test is driven the same way and observed the same way.
 */
#ifndef ZO_ENGINE_H
#define ZO_ENGINE_H

#include "model.h"

typedef struct zo_engine_vtable {
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
  /* Optional: does the engine declare this rule set (ruleset = 1) or this
     protocol feature (ruleset = 0)? NULL: everything. */
  int (*has)(void *self, const char *what, int ruleset);
} zo_engine_vtable;

typedef struct zo_engine {
  const zo_engine_vtable *ops;
  void *self;
} zo_engine;

/* An engine under test behind zcp/1: `cmd` runs under /bin/sh; `timeout`
 * is the limit per request in seconds (<= 0: 5 s). Returns NULL (err
 * filled) when it can't be started or doesn't speak zcp/1. Free with
 * zo_engine_process_free (which says bye). */
zo_engine *zo_engine_process_new(const char *cmd, double timeout, zo_error *err);
void zo_engine_process_free(zo_engine *e);

/* An engine in a shared library exporting zo_engine_v1 (zo_engine.h),
 * driven with the same messages in process. NULL (err filled) when it
 * can't be loaded or refuses the handshake. Free with
 * zo_engine_process_free. */
zo_engine *zo_engine_plugin_new(const char *path, zo_error *err);

/* The built-in oracle as an engine. Free with zo_engine_oracle_free. */
zo_engine *zo_engine_oracle_new(void);
void zo_engine_oracle_free(zo_engine *e);

#endif

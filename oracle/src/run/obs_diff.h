/* obs_diff.h: the first difference between two engines' views of the
 * same game after the same step: the comparison of `gate --strict`, of
 * fuzz_diff and of `gate --fuzz` (ci/protocol/PROTOCOL.md: two engines given the same
 * steps must agree exactly).
 */
#ifndef ZO_OBS_DIFF_H
#define ZO_OBS_DIFF_H

#include <stddef.h>

#include "model.h"

/* One difference, with both values written as the case language writes
 * them, so it can become a step's expectation (`c3: {position: 0}`). */
typedef struct {
  int handle;        /* the object; -1 for a step-level property */
  char what[24];     /* outcome, error, exists, zone, new_object, position,
                        layer, visibility, face, controller, owner, under,
                        phased_out, marks, came_from, triggers, refs,
                        players, visible */
  char name[48];     /* trigger, ref or player name for those keys, else "" */
  char key[16];      /* triggers: fired, found or controller */
  char engine[128];  /* the engine's value */
  char oracle[128];  /* the reference's value */
  char expect[400];  /* the reference's value as one `expect:` entry */
} zo_obs_difference;

/* Compare engine observation `a` with reference observation `b` after a
 * step whose results are ra and rb (NULL after the setup: no outcome to
 * compare). pa/pb are the observations before the step (NULL: identity
 * changes are not compared). Every observable property of ci/protocol/PROTOCOL.md's
 * `observe` is compared, objects in handle order first. Returns 1 and fills
 * d with the first difference, 0 when they agree. Borrows everything. */
int zo_observation_diff(const zo_case *c, const zo_observation *a, const zo_observation *b,
                        const zo_observation *pa, const zo_observation *pb,
                        const zo_step_result *ra, const zo_step_result *rb,
                        zo_obs_difference *d);

/* "c3.zone: engine alice.hand, oracle alice.graveyard" into out. */
void zo_obs_difference_format(const zo_case *c, const zo_obs_difference *d, char *out,
                              size_t cap);

#endif

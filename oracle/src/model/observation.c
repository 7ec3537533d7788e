/* observation.c: releasing what observation.h's structures own (an
 * observation's arrays, a step result's events). */
#include <stdlib.h>
#include <string.h>

#include "observation.h"

void zo_observation_free(zo_observation *o) {
  free(o->objs);
  free(o->trig_fired);
  free(o->trig_found);
  free(o->trig_controller);
  free(o->ref_found);
  free(o->ref_handle);
  free(o->sees);
  memset(o, 0, sizeof *o);
}

void zo_step_result_free(zo_step_result *r) {
  free(r->events);
  memset(r, 0, sizeof *r);
}

/* observation.c: releasing what observation.h's structures own (an
 * observation's arrays, a step result's events). */
#include <stdlib.h>
#include <string.h>

#include "observation.h"
#include "util.h"

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

/* A copy of the n elements of size bytes at a (NULL stays NULL). */
static void *dup_array(const void *a, size_t n, size_t size) {
  if (!a) return NULL;
  void *b = zo_xcalloc(n + 1, size);
  memcpy(b, a, n * size);
  return b;
}

void zo_observation_copy(zo_observation *dst, const zo_observation *src) {
  zo_observation_free(dst);
  *dst = *src;
  dst->objs = dup_array(src->objs, (size_t)src->nhandles, sizeof *src->objs);
  dst->trig_fired = dup_array(src->trig_fired, (size_t)src->ntriggers, sizeof(int));
  dst->trig_found = dup_array(src->trig_found, (size_t)src->ntriggers, sizeof(int));
  dst->trig_controller = dup_array(src->trig_controller, (size_t)src->ntriggers, sizeof(int));
  dst->ref_found = dup_array(src->ref_found, (size_t)src->nrefs, sizeof(int));
  dst->ref_handle = dup_array(src->ref_handle, (size_t)src->nrefs, sizeof(int));
  dst->sees = dup_array(src->sees, (size_t)src->nplayers * (size_t)src->nhandles, 1);
}

void zo_observation_sync(zo_observation *dst, const zo_observation *src, const int *handles, int n) {
  for (int i = 0; i < n; i++) dst->objs[handles[i]] = src->objs[handles[i]];
  size_t nt = (size_t)src->ntriggers * sizeof(int), nr = (size_t)src->nrefs * sizeof(int);
  if (nt) {
    memcpy(dst->trig_fired, src->trig_fired, nt);
    memcpy(dst->trig_found, src->trig_found, nt);
    memcpy(dst->trig_controller, src->trig_controller, nt);
  }
  if (nr) {
    memcpy(dst->ref_found, src->ref_found, nr);
    memcpy(dst->ref_handle, src->ref_handle, nr);
  }
  memcpy(dst->lost, src->lost, sizeof dst->lost);
  if (src->sees) memcpy(dst->sees, src->sees, (size_t)src->nplayers * (size_t)src->nhandles);
}

void zo_step_result_free(zo_step_result *r) {
  free(r->events);
  memset(r, 0, sizeof *r);
}

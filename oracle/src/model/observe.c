/* observe.c: what the model shows: an observation after a step (every
 * handle's zone, identity, position, layer, visibility, controller, marks;
 * triggers and references; who sees what), in the case's terms, and the
 * rule hits so far. What any engine must show is observation.h's.
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

/* Observed name of zone (zo_game_zone_name) into out (ZO_OBS_NAME bytes).
 * A zone instance's name is made the first time an observation needs it
 * (names[zone][0] == 0 until then: no name is empty) and copied after that,
 * so an object costs a copy, not a snprintf, and a zone nobody is in costs
 * nothing. names: zo_game_observe's table, one entry per zone instance. */
#define ZO_OBS_NAME sizeof(((zo_obj_obs *)0)->zone)
static void observed_zone_name(const zo_game *g, char (*names)[ZO_OBS_NAME], int zone,
                               char *out) {
  if (zone < 0) {
    zo_game_zone_name(g, zone, out, ZO_OBS_NAME);
    return;
  }
  if (!names[zone][0]) {
    memset(names[zone], 0, ZO_OBS_NAME);
    zo_game_zone_name(g, zone, names[zone], ZO_OBS_NAME);
  }
  memcpy(out, names[zone], ZO_OBS_NAME);
}

/* Linear in objects, zones and marks: zone names are made once, positions
 * come from one pass over the ordered zones' lists (an object's first
 * listing in its own zone; -1 when it is not listed), and marks from one
 * pass over the marks (in mark order, as many as an observation holds). The
 * array is calloc'd (libc's zeroing is faster than zeroing each record as
 * it is filled). */
void zo_game_observe(const zo_game *g, zo_observation *ob) {
  const zo_case *c = g->c;
  ob->nhandles = g->nobjs;
  ob->objs = zo_xcalloc((size_t)g->nobjs + 1, sizeof *ob->objs);
  char small[32][ZO_OBS_NAME], (*names)[ZO_OBS_NAME] = small;
  if (g->nzones > 32) names = zo_xcalloc((size_t)g->nzones, ZO_OBS_NAME);
  for (int z = 0; z < g->nzones; z++) names[z][0] = 0; /* made when first needed */
  for (int h = 0; h < g->nobjs; h++) {
    const zo_obj *o = &g->objs[h];
    zo_obj_obs *x = &ob->objs[h];
    x->position = x->layer = -1;
    x->exists = o->exists;
    x->object = o->id;
    x->owner = o->owner;
    x->controller = o->controller;
    x->under = o->under;
    x->attached_to = x->attached_player = -1;
    if (!o->exists) continue;
    if (o->attached >= 0) x->attached_to = zo_attached_to(g, h); /* CR 301.5, 303.4 */
    if (o->attached_player) x->attached_player = zo_attached_player(g, h); /* CR 303.4b */
    observed_zone_name(g, names, o->zone, x->zone);
    x->visibility = zo_game_obj_public(g, h);
    x->face_down = o->face_down;
    x->phased_out = o->phased_out;
    if (o->came_from != -1) observed_zone_name(g, names, o->came_from, x->came_from);
  }
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (!ZT(g, z)->ordered.value) continue;
    for (int k = 0; k < zn->n; k++) {
      int h = zn->objs[k];
      const zo_obj *o = &g->objs[h];
      if (o->exists && o->zone == z && o->under < 0 && ob->objs[h].position < 0)
        ob->objs[h].position = k;
    }
  }
  if (SW(g, SW_STACK_LAYERS) == ZS_YES) /* FaB 3.15.4-6: layer 1 = the bottom */
    for (int h = 0; h < g->nobjs; h++) {
      const zo_obj *o = &g->objs[h];
      if (o->exists && o->zone >= 0 && o->under < 0 && ZT(g, o->zone)->ordered.value &&
          ZT(g, o->zone)->role == ZR_STACK)
        ob->objs[h].layer = g->zones[o->zone].n - ob->objs[h].position;
    }
  for (int m = 0; m < g->nmarks; m++) {
    const zo_mark *mk = &g->marks[m];
    if (!mk->alive || mk->obj < 0 || mk->obj >= g->nobjs || !g->objs[mk->obj].exists) continue;
    zo_obj_obs *x = &ob->objs[mk->obj];
    if (x->nmarks < ZO_MAX_MARKS_PER_OBJ) x->marks[x->nmarks++] = m;
  }
  if (names != small) free(names);
  ob->ntriggers = g->ntrig;
  ob->trig_fired = zo_xcalloc((size_t)g->ntrig + 1, sizeof(int));
  ob->trig_found = zo_xcalloc((size_t)g->ntrig + 1, sizeof(int));
  ob->trig_controller = zo_xcalloc((size_t)g->ntrig + 1, sizeof(int));
  for (int t = 0; t < g->ntrig; t++) {
    ob->trig_fired[t] = g->trig[t].fired;
    ob->trig_found[t] = g->trig[t].resolved ? g->trig[t].found : -1;
    ob->trig_controller[t] = g->trig[t].fired ? g->trig[t].controller : -1;
  }
  ob->nrefs = g->nrefs;
  ob->ref_found = zo_xcalloc((size_t)g->nrefs + 1, sizeof(int));
  ob->ref_handle = zo_xcalloc((size_t)g->nrefs + 1, sizeof(int));
  for (int i = 0; i < g->nrefs; i++) {
    const zo_ref *rf = &g->refs[i];
    ob->ref_handle[i] = rf->set ? rf->obj : -1;
    ob->ref_found[i] = ref_finds(g, i);
  }
  ob->nplayers = c->nplayers;
  for (int p = 0; p < c->nplayers; p++) ob->lost[p] = g->lost[p];
  ob->sees = zo_xcalloc((size_t)(c->nplayers * g->nobjs) + 1, 1);
  for (int h = 0; h < g->nobjs; h++) {
    /* zo_game_sees: nobody sees an object in no zone; everybody a public
       one (its visibility, above); the rest as zo_game_sees decides */
    if (!g->objs[h].exists || g->objs[h].zone < 0) continue;
    for (int p = 0; p < c->nplayers; p++)
      ob->sees[p * g->nobjs + h] = ob->objs[h].visibility ? 1 : (unsigned char)zo_game_sees(g, p, h);
  }
}

uint64_t zo_game_features_used(const zo_game *g) { return g->features_used; }

const int *zo_game_hits(const zo_game *g) {
  zo_game *m = (zo_game *)g; /* the per-rule view is recomputed on demand */
  memset(m->hits, 0, (size_t)g->rs->nrules * sizeof *m->hits);
  for (int z = 0; z < g->rs->nzones; z++) {
    const zo_zone_type *t = &g->rs->zones[z];
    for (int a = 0; a < ZA_COUNT; a++) {
      const zo_cited *f = zo_zone_cited((zo_zone_type *)t, (zo_zone_attr)a);
      for (int k = 0; k < f->nrules; k++) m->hits[f->rules[k]] += g->slot_hits[f->slot];
    }
  }
  for (int s = 0; s < SW_COUNT; s++)
    for (int k = 0; k < g->rs->sw[s].nrules; k++)
      m->hits[g->rs->sw[s].rules[k]] += g->slot_hits[g->rs->sw[s].slot];
  return m->hits;
}

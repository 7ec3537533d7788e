/* obs_diff.c: the first difference between two observations (obs_diff.h).
 * The order of comparison is the order a person debugs in: the step's
 * outcome, then each object (exists, zone, identity, then the rest), then
 * triggers, references, players and what each player may look at. */
#include "obs_diff.h"

#include <stdio.h>
#include <string.h>

static const char *player(const zo_case *c, int p) {
  return p >= 0 && p < c->nplayers ? c->players[p] : "null";
}

static const char *handle(const zo_case *c, int h) {
  return h >= 0 && h < c->nhandles ? c->handles[h] : "null";
}

static const char *boolean(int b) { return b ? "true" : "false"; }

static void marks(const zo_case *c, const zo_obj_obs *o, char *out, size_t cap) {
  size_t n = (size_t)snprintf(out, cap, "[");
  for (int i = 0; i < o->nmarks && n < cap; i++) {
    int m = o->marks[i];
    n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ", " : "",
                          m >= 0 && m < c->nmarknames ? c->marknames[m] : "?");
  }
  if (n < cap) snprintf(out + n, cap - n, "]");
}

static int same_marks(const zo_obj_obs *x, const zo_obj_obs *y) {
  if (x->nmarks != y->nmarks) return 0;
  for (int i = 0; i < x->nmarks; i++) {
    int found = 0;
    for (int j = 0; j < y->nmarks; j++) found |= x->marks[i] == y->marks[j];
    if (!found) return 0;
  }
  return 1;
}

static int differ(zo_obs_difference *d, int h, const char *what, const char *name,
                  const char *engine, const char *oracle) {
  d->handle = h;
  snprintf(d->what, sizeof d->what, "%s", what);
  snprintf(d->name, sizeof d->name, "%s", name);
  snprintf(d->engine, sizeof d->engine, "%s", engine);
  snprintf(d->oracle, sizeof d->oracle, "%s", oracle);
  return 1;
}

static void number(int v, char *buf, size_t cap) {
  if (v < 0) snprintf(buf, cap, "null");
  else snprintf(buf, cap, "%d", v);
}

static int compare(const zo_case *c, const zo_observation *a, const zo_observation *b,
                   const zo_observation *pa, const zo_observation *pb,
                   const zo_step_result *ra, const zo_step_result *rb, zo_obs_difference *d) {
  if (ra && rb && ra->outcome != rb->outcome)
    return differ(d, -1, "outcome", "", zo_outcome_name(ra->outcome), zo_outcome_name(rb->outcome));
  if (ra && rb && ra->error != rb->error)
    return differ(d, -1, "error", "", zo_step_error_name(ra->error), zo_step_error_name(rb->error));
  char u[128], v[128];
  for (int h = 0; h < a->nhandles && h < b->nhandles; h++) {
    const zo_obj_obs *x = &a->objs[h], *y = &b->objs[h];
    if (x->exists != y->exists) return differ(d, h, "exists", "", boolean(x->exists), boolean(y->exists));
    if (!y->exists) continue;
    if (strcmp(x->zone, y->zone)) return differ(d, h, "zone", "", x->zone, y->zone);
    if (pa && pb && pa->objs[h].exists && pb->objs[h].exists) {
      int na = x->object != pa->objs[h].object, nb = y->object != pb->objs[h].object;
      if (na != nb) return differ(d, h, "new_object", "", boolean(na), boolean(nb));
    }
    if (x->position != y->position) {
      number(x->position, u, sizeof u);
      number(y->position, v, sizeof v);
      return differ(d, h, "position", "", u, v);
    }
    if (x->layer != y->layer) {
      number(x->layer, u, sizeof u);
      number(y->layer, v, sizeof v);
      return differ(d, h, "layer", "", u, v);
    }
    if (x->visibility != y->visibility)
      return differ(d, h, "visibility", "", x->visibility ? "public" : "private",
                    y->visibility ? "public" : "private");
    if (x->face_down != y->face_down)
      return differ(d, h, "face", "", x->face_down ? "down" : "up", y->face_down ? "down" : "up");
    if (x->controller != y->controller)
      return differ(d, h, "controller", "", player(c, x->controller), player(c, y->controller));
    if (x->owner != y->owner) return differ(d, h, "owner", "", player(c, x->owner), player(c, y->owner));
    if (x->under != y->under) return differ(d, h, "under", "", handle(c, x->under), handle(c, y->under));
    if (x->attached_to != y->attached_to)
      return differ(d, h, "attached_to", "", handle(c, x->attached_to), handle(c, y->attached_to));
    if (x->attached_player != y->attached_player)
      return differ(d, h, "attached_to_player", "", player(c, x->attached_player),
                    player(c, y->attached_player));
    if (x->phased_out != y->phased_out)
      return differ(d, h, "phased_out", "", boolean(x->phased_out), boolean(y->phased_out));
    if (!same_marks(x, y)) {
      marks(c, x, u, sizeof u);
      marks(c, y, v, sizeof v);
      return differ(d, h, "marks", "", u, v);
    }
    if (strcmp(x->came_from, y->came_from))
      return differ(d, h, "came_from", "", x->came_from[0] ? x->came_from : "null",
                    y->came_from[0] ? y->came_from : "null");
  }
  if (a->nhandles != b->nhandles) {
    number(a->nhandles, u, sizeof u);
    number(b->nhandles, v, sizeof v);
    return differ(d, -1, "objects", "", u, v);
  }
  for (int t = 0; t < a->ntriggers && t < b->ntriggers && t < c->ntriggers; t++) {
    const char *n = c->triggers[t];
    if (a->trig_fired[t] != b->trig_fired[t]) {
      snprintf(d->key, sizeof d->key, "fired");
      return differ(d, -1, "triggers", n, boolean(a->trig_fired[t]), boolean(b->trig_fired[t]));
    }
    if ((a->trig_found[t] > 0) != (b->trig_found[t] > 0)) {
      snprintf(d->key, sizeof d->key, "found");
      return differ(d, -1, "triggers", n, boolean(a->trig_found[t] > 0), boolean(b->trig_found[t] > 0));
    }
    if (b->trig_fired[t] && a->trig_controller[t] != b->trig_controller[t]) {
      snprintf(d->key, sizeof d->key, "controller");
      return differ(d, -1, "triggers", n, player(c, a->trig_controller[t]),
                    player(c, b->trig_controller[t]));
    }
  }
  for (int r = 0; r < a->nrefs && r < b->nrefs && r < c->nrefs; r++)
    if (a->ref_found[r] != b->ref_found[r])
      return differ(d, -1, "refs", c->refs[r], boolean(a->ref_found[r]), boolean(b->ref_found[r]));
  for (int p = 0; p < a->nplayers && p < b->nplayers && p < c->nplayers; p++)
    if (a->lost[p] != b->lost[p])
      return differ(d, -1, "players", c->players[p], boolean(a->lost[p]), boolean(b->lost[p]));
  if (a->sees && b->sees && a->nplayers == b->nplayers)
    for (int p = 0; p < b->nplayers && p < c->nplayers; p++)
      for (int h = 0; h < b->nhandles; h++) {
        int sa = a->sees[p * a->nhandles + h], sb = b->sees[p * b->nhandles + h];
        if (sa != sb)
          return differ(d, h, "visible", c->players[p], sa ? "sees" : "hidden", sb ? "sees" : "hidden");
      }
  return 0;
}

/* The reference's value as one entry of a step's `expect:` map. */
static void expectation(const zo_case *c, zo_obs_difference *d) {
  const char *o = d->oracle;
  if (!strcmp(d->what, "outcome") || !strcmp(d->what, "error"))
    snprintf(d->expect, sizeof d->expect, "%s: %s", d->what, o);
  else if (!strcmp(d->what, "triggers"))
    snprintf(d->expect, sizeof d->expect, "triggers: {%s: {%s: %s}}", d->name, d->key, o);
  else if (!strcmp(d->what, "refs"))
    snprintf(d->expect, sizeof d->expect, "refs: {%s: {found: %s}}", d->name, o);
  else if (!strcmp(d->what, "players"))
    snprintf(d->expect, sizeof d->expect, "players: {%s: {lost: %s}}", d->name, o);
  else if (!strcmp(d->what, "visible"))
    snprintf(d->expect, sizeof d->expect, "visible: {%s: {%s: [%s]}}", d->name,
             !strcmp(o, "sees") ? "sees" : "hidden", handle(c, d->handle));
  else if (d->handle >= 0 && strcmp(d->what, "objects"))
    snprintf(d->expect, sizeof d->expect, "%s: {%s: %s}", handle(c, d->handle), d->what, o);
  else d->expect[0] = 0;
}

int zo_observation_diff(const zo_case *c, const zo_observation *a, const zo_observation *b,
                        const zo_observation *pa, const zo_observation *pb,
                        const zo_step_result *ra, const zo_step_result *rb,
                        zo_obs_difference *d) {
  memset(d, 0, sizeof *d);
  d->handle = -1;
  if (!compare(c, a, b, pa, pb, ra, rb, d)) return 0;
  expectation(c, d);
  return 1;
}

void zo_obs_difference_format(const zo_case *c, const zo_obs_difference *d, char *out,
                              size_t cap) {
  if (d->name[0])
    snprintf(out, cap, "%s.%s%s%s%s%s: engine %s, oracle %s", d->what, d->name,
             d->key[0] ? "." : "", d->key, d->handle >= 0 ? "." : "",
             d->handle >= 0 ? handle(c, d->handle) : "", d->engine, d->oracle);
  else if (d->handle >= 0)
    snprintf(out, cap, "%s.%s: engine %s, oracle %s", handle(c, d->handle), d->what, d->engine,
             d->oracle);
  else snprintf(out, cap, "%s: engine %s, oracle %s", d->what, d->engine, d->oracle);
}

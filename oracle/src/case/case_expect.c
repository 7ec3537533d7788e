/* case_expect.c: a case's expectations (cases/README.md, Expectations):
 * an `expect:` map beside a step or at the end of the case. Its keys are
 * an outcome, an error code, zone contents and counts, triggers,
 * references, players who lost, what each player sees, and any card handle
 * with the properties expected of that object (ZO_OBJ_EXPECT_KEYS, case.h). */
#include <stdlib.h>
#include <string.h>

#include "case_read.h"
#include "util.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- one object ------------------------------------------------------ */

/* The value v of property `bit` (an index of ZO_OBJ_EXPECT_KEYS) into ox. */
static zo_status obj_property(cr_parser *p, int bit, const yd_node *v, zo_obj_expect *ox) {
  zo_case *c = p->c;
  switch (bit) {
  case OX_ZONE_INDEX: return cr_zone_text(p, v, "zone", ox->zone, sizeof ox->zone);
  case OX_EXISTS_INDEX: return yr_bool(&p->r, v, "exists", &ox->exists);
  case OX_NEW_INDEX: return yr_bool(&p->r, v, "new_object", &ox->is_new);
  case OX_SAME_AS_INDEX: return cr_named(p, v, "reference", c->refs, c->nrefs, &ox->same_as);
  case OX_POSITION_INDEX: return yr_int(&p->r, v, "position", 0, 10000, &ox->position);
  case OX_LAYER_INDEX: return yr_int(&p->r, v, "layer", 1, 10000, &ox->layer);
  case OX_VISIBILITY_INDEX: return cr_visibility(p, v, &ox->visibility);
  case OX_FACE_INDEX: return cr_face(p, v, &ox->face);
  case OX_CONTROLLER_INDEX:
    if (yd_is_null(v)) ox->controller = -1;
    else return cr_player(p, v, "controller", &ox->controller);
    return ZO_OK;
  case OX_OWNER_INDEX: return cr_player(p, v, "owner", &ox->owner);
  case OX_UNDER_INDEX:
    if (yd_is_null(v)) ox->under = -1;
    else return cr_handle(p, v, "under", &ox->under);
    return ZO_OK;
  case OX_ATTACHED_TO_INDEX: /* CR 301.5, 303.4: the handle, or null */
    if (yd_is_null(v)) ox->attached_to = -1;
    else return cr_handle(p, v, "attached_to", &ox->attached_to);
    return ZO_OK;
  case OX_ATTACHED_TO_PLAYER_INDEX: /* CR 303.4b: the player, or null */
    if (yd_is_null(v)) ox->attached_to_player = -1;
    else return cr_player(p, v, "attached_to_player", &ox->attached_to_player);
    return ZO_OK;
  case OX_PHASED_INDEX: return yr_bool(&p->r, v, "phased_out", &ox->phased);
  case OX_CAME_FROM_INDEX:
    if (yd_is_null(v)) ox->came_from_null = 1;
    else return cr_zone_text(p, v, "came_from", ox->came_from, sizeof ox->came_from);
    return ZO_OK;
  case OX_MARKS_INDEX: {
    zo_status st = yr_want(&p->r, v, YD_SEQ, "marks");
    if (st) return st;
    ox->marks = zo_xcalloc(v->n ? v->n : 1, sizeof *ox->marks);
    for (size_t j = 0; j < v->n; j++) {
      int mi;
      if ((st = cr_named(p, v->kids[j], "mark", c->marknames, c->nmarknames, &mi))) return st;
      ox->marks[ox->nmarks++] = zo_xstrdup(v->kids[j]->str);
    }
    return ZO_OK;
  }
  default: return ZO_OK;
  }
}

/* The properties expected of card h (map m) into ox. */
static zo_status parse_obj_expect(cr_parser *p, int h, const yd_node *m, zo_obj_expect *ox) {
  zo_status st = yr_want(&p->r, m, YD_MAP, "an object's expected properties");
  if (st) return st;
  if ((st = yr_keys(&p->r, m, ZO_ERR_UNKNOWN, zo_obj_expect_keys, OX_COUNT,
                    "an object expectation")))
    return st;
  ox->handle = h;
  ox->line = m->line;
  ox->col = m->col;
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *v = YD_VAL(m, i);
    int bit = yr_index(YD_KEY(m, i)->str, zo_obj_expect_keys, OX_COUNT);
    ox->lines[bit] = v->line;
    ox->mask |= 1u << bit;
    if ((st = obj_property(p, bit, v, ox))) return st;
  }
  return ZO_OK;
}

/* ---- the other keys ----------------------------------------------------- */

/* A map of names (triggers, references, players) to {fired/lost, found,
 * controller} flags: mask 1 fired (or lost), 2 found, 4 controller. */
static zo_status parse_named_flags(cr_parser *p, const yd_node *m, const char *what,
                                   char **names, int nnames, const char *const *keys,
                                   size_t nkeys, zo_trig_expect **out, int *count) {
  zo_status st = yr_want(&p->r, m, YD_MAP, what);
  if (st) return st;
  *out = zo_xcalloc(m->n ? m->n : 1, sizeof **out);
  for (size_t i = 0; i < m->n; i++) {
    zo_trig_expect *t = &(*out)[i];
    t->line = YD_KEY(m, i)->line;
    if (!strcmp(what, "players")) {
      if ((st = cr_player(p, YD_KEY(m, i), "player", &t->index))) return st;
    } else if ((st = cr_named(p, YD_KEY(m, i), what, names, nnames, &t->index))) {
      return st;
    }
    const yd_node *v = YD_VAL(m, i);
    if ((st = yr_want(&p->r, v, YD_MAP, what))) return st;
    if ((st = yr_keys(&p->r, v, ZO_ERR_UNKNOWN, keys, nkeys, what))) return st;
    for (size_t j = 0; j < v->n; j++) {
      const char *k = YD_KEY(v, j)->str;
      const yd_node *x = YD_VAL(v, j);
      if (!strcmp(k, "fired") || !strcmp(k, "lost")) {
        t->mask |= 1;
        st = yr_bool(&p->r, x, k, &t->fired);
      } else if (!strcmp(k, "found")) {
        t->mask |= 2;
        st = yr_bool(&p->r, x, k, &t->found);
      } else if (!strcmp(k, "controller")) {
        t->mask |= 4;
        st = cr_player(p, x, k, &t->controller);
      }
      if (st) return st;
    }
    (*count)++;
  }
  return ZO_OK;
}

static zo_status expect_outcome(cr_parser *p, const yd_node *v, zo_expect *e) {
  zo_status st = yr_want(&p->r, v, YD_SCALAR, "outcome");
  if (st) return st;
  int o = zo_outcome_parse(v->str);
  if (o < 0) {
    const char *names[ZO_OUTCOME_COUNT];
    for (int j = 1; j < ZO_OUTCOME_COUNT; j++) names[j - 1] = zo_outcome_name((zo_outcome)j);
    return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "outcome", v->str, NULL, names,
                      ZO_OUTCOME_COUNT - 1);
  }
  e->has_outcome = 1;
  e->outcome = (zo_outcome)o;
  e->outcome_line = v->line;
  return ZO_OK;
}

static zo_status expect_error(cr_parser *p, const yd_node *v, zo_expect *e) {
  zo_status st = yr_want(&p->r, v, YD_SCALAR, "error");
  if (st) return st;
  int x = zo_step_error_parse(v->str);
  if (x < 0) {
    const char *names[ZO_E_COUNT];
    for (int j = 1; j < ZO_E_COUNT; j++) names[j - 1] = zo_step_error_name((zo_step_error)j);
    return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "error code", v->str, NULL, names, ZO_E_COUNT - 1);
  }
  e->has_error = 1;
  e->error = (zo_step_error)x;
  e->error_line = v->line;
  return ZO_OK;
}

static zo_status expect_zones(cr_parser *p, const yd_node *v, zo_expect *e) {
  zo_status st = yr_want(&p->r, v, YD_MAP, "zones");
  if (st) return st;
  e->zones = zo_xcalloc(v->n ? v->n : 1, sizeof *e->zones);
  for (size_t j = 0; j < v->n; j++) {
    zo_zone_expect *z = &e->zones[e->nzones++];
    z->line = YD_KEY(v, j)->line;
    if ((st = cr_zone_text(p, YD_KEY(v, j), "zones", z->zone, sizeof z->zone))) return st;
    if ((st = cr_handle_list(p, YD_VAL(v, j), "zone contents", &z->handles, &z->n))) return st;
  }
  return ZO_OK;
}

static zo_status expect_counts(cr_parser *p, const yd_node *v, zo_expect *e) {
  zo_status st = yr_want(&p->r, v, YD_MAP, "counts");
  if (st) return st;
  e->counts = zo_xcalloc(v->n ? v->n : 1, sizeof *e->counts);
  for (size_t j = 0; j < v->n; j++) {
    zo_count_expect *z = &e->counts[e->ncounts];
    z->line = YD_KEY(v, j)->line;
    if ((st = cr_zone_text(p, YD_KEY(v, j), "counts", z->zone, sizeof z->zone))) return st;
    if ((st = yr_int(&p->r, YD_VAL(v, j), "a count", 0, 100000, &z->count))) return st;
    e->ncounts++;
  }
  return ZO_OK;
}

static zo_status expect_triggers(cr_parser *p, const yd_node *v, zo_expect *e) {
  static const char *const ks[] = {"fired", "found", "controller"};
  return parse_named_flags(p, v, "trigger", p->c->triggers, p->c->ntriggers, ks, COUNT(ks),
                           &e->triggers, &e->ntriggers);
}

static zo_status expect_refs(cr_parser *p, const yd_node *v, zo_expect *e) {
  static const char *const ks[] = {"found"};
  return parse_named_flags(p, v, "reference", p->c->refs, p->c->nrefs, ks, COUNT(ks), &e->refs,
                           &e->nrefs);
}

static zo_status expect_players(cr_parser *p, const yd_node *v, zo_expect *e) {
  static const char *const ks[] = {"lost"};
  return parse_named_flags(p, v, "players", NULL, 0, ks, COUNT(ks), &e->players, &e->nplayers);
}

static zo_status expect_visible(cr_parser *p, const yd_node *v, zo_expect *e) {
  static const char *const ks[] = {"sees", "hidden"};
  zo_status st = yr_want(&p->r, v, YD_MAP, "visible");
  if (st) return st;
  e->visible = zo_xcalloc(v->n ? v->n : 1, sizeof *e->visible);
  for (size_t j = 0; j < v->n; j++) {
    zo_visible_expect *ve = &e->visible[e->nvisible++];
    ve->line = YD_KEY(v, j)->line;
    if ((st = cr_player(p, YD_KEY(v, j), "player", &ve->player))) return st;
    const yd_node *pm = YD_VAL(v, j);
    if ((st = yr_want(&p->r, pm, YD_MAP, "visible"))) return st;
    if ((st = yr_keys(&p->r, pm, ZO_ERR_UNKNOWN, ks, COUNT(ks), "visible"))) return st;
    const yd_node *s = yd_get(pm, "sees"), *h = yd_get(pm, "hidden");
    if (s && (st = cr_handle_list(p, s, "sees", &ve->sees, &ve->nsees))) return st;
    if (h && (st = cr_handle_list(p, h, "hidden", &ve->hidden, &ve->nhidden))) return st;
  }
  return ZO_OK;
}

/* The keys of an expectation other than card handles, and their readers,
 * in the order "expected one of" lists them. */
static const struct {
  const char *key;
  zo_status (*read)(cr_parser *p, const yd_node *v, zo_expect *e);
} expect_keys[] = {
    {"outcome", expect_outcome}, {"error", expect_error},       {"zones", expect_zones},
    {"counts", expect_counts},   {"triggers", expect_triggers}, {"refs", expect_refs},
    {"players", expect_players}, {"visible", expect_visible}};

/* Key k that is neither an expectation key nor a card: refused with the
 * nearest of both. */
static zo_status unknown_key(cr_parser *p, const yd_node *k) {
  size_t n = COUNT(expect_keys) + (size_t)p->c->nhandles;
  const char **cands = zo_xcalloc(n, sizeof *cands);
  n = 0;
  for (size_t j = 0; j < COUNT(expect_keys); j++) cands[n++] = expect_keys[j].key;
  for (int j = 0; j < p->c->nhandles; j++) cands[n++] = p->c->handles[j];
  zo_status st = yr_unknown(&p->r, k, ZO_ERR_UNKNOWN, "key", k->str,
                            "expect (an expectation or a card)", cands, n);
  free(cands);
  return st;
}

zo_status cr_expect(cr_parser *p, const yd_node *m, zo_expect **out) {
  zo_status st = yr_want(&p->r, m, YD_MAP, "expect");
  if (st) return st;
  zo_expect *e = zo_xcalloc(1, sizeof *e);
  *out = e;
  e->line = m->line;
  e->col = m->col;
  e->objs = zo_xcalloc(m->n ? m->n : 1, sizeof *e->objs);
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    size_t x = 0;
    while (x < COUNT(expect_keys) && strcmp(k->str, expect_keys[x].key)) x++;
    if (x < COUNT(expect_keys)) {
      if ((st = expect_keys[x].read(p, v, e))) return st;
      continue;
    }
    int h = cr_index(k->str, p->c->handles, p->c->nhandles);
    if (h < 0) return unknown_key(p, k);
    /* counted before parsing, so a half-parsed entry is freed too */
    if ((st = parse_obj_expect(p, h, v, &e->objs[e->nobjs++]))) return st;
  }
  return ZO_OK;
}

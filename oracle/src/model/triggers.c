/* triggers.c: abilities that follow an object across a zone change, and
 * references to an object. A watch step arms a trigger on one object's
 * move (from a zone, to a zone, of given types); a move fires it (CR
 * 603.2, 603.6; FaB 3.0.7a: a private mover has no properties to match),
 * controlled by whoever controlled the source as it triggered (603.3a). A
 * resolve step then looks for the object where it went, as the rule set
 * lets an ability find it (CR 603.10, 400.7, Z.1.Ruling.3; FaB 3.0.9b),
 * and runs its effect on it. A remember step keeps a reference, which
 * finds the object while it stays the same object (CR 400.7d). A move
 * fires nothing while no trigger is armed (g->ntrig).
 */
#include <string.h>

#include "model_int.h"

static int zone_type_matches(const zo_game *g, int spec_type, int zone) {
  if (spec_type == ZO_ZT_ANY) return 1;
  if (spec_type == ZO_ZT_OUTSIDE) return zone == ZO_ZONE_OUTSIDE;
  if (zone < 0) return 0;
  return g->zmap[spec_type] == g->zones[zone].type;
}

/* Its type (zone_type_matches), and the player and 1-based index when
 * written (player -1 / index 0: any). `to: bob.graveyard` is bob's
 * graveyard only (CR 400.3: each player's own). */
int zo_zone_watch_matches(const zo_game *g, int type, int player, int index, int zone) {
  if (!zone_type_matches(g, type, zone)) return 0;
  if (type < 0 || zone < 0) return 1; /* any, outside */
  if (player >= 0 && g->zones[zone].player != player) return 0;
  return index <= 0 || g->zones[zone].index == index;
}

/* Whether Aura a was attached to obj when obj's move began: attached to
 * it, and not unattached since (the attachment's identity cleared by
 * unattach, CR 701.3d); it may have moved in the same event (400.7e of
 * 2011). */
static int aura_was_on(const zo_game *g, int a, int obj) {
  const zo_obj *ao = &g->objs[a];
  return ao->attached == obj && ao->attached_id != 0;
}

void zo_watches_fire(zo_game *g, int obj, int origin, int dest, int props, int ctrl,
                     const char *cause) {
  for (int t = 0; t < g->ntrig; t++) {
    zo_trigger *tr = &g->trig[t];
    if (!tr->armed || tr->fired || tr->obj != obj || tr->on_phase) continue;
    /* an Aura's trigger on "the enchanted permanent" leaving looks back:
       only the permanent the Aura was attached to just before (CR 603.10a,
       603.6e); after an unattach or an attach elsewhere it is not that one
       (701.3d) */
    if (tr->aura >= 0 && !aura_was_on(g, tr->aura, obj)) continue;
    /* G8: "is destroyed" is an event of its own (CR 701.8a, 701.21a) */
    if (tr->cause[0] && strcmp(tr->cause, cause ? cause : "")) continue;
    if (!zo_zone_watch_matches(g, tr->from, tr->from_player, tr->from_index, origin) ||
        !zo_zone_watch_matches(g, tr->to, tr->to_player, tr->to_index, dest))
      continue;
    if (tr->types) {
      if (!props) {
        HITSW(g, SW_NO_PROPERTIES); /* FaB 3.0.7a: a private mover has none */
        continue;
      }
      if ((g->objs[obj].types & tr->types) != tr->types) continue;
    }
    tr->fired = 1;
    tr->fired_step = g->nsteps;
    tr->fired_discard = cause && !strcmp(cause, "discard");
    tr->id = g->objs[obj].id;
    tr->zone = dest;
    tr->pub_at_arrival = zo_game_obj_public(g, obj);
    /* CR 603.3a: controlled by whoever controlled the source as it
       triggered: the moving object, or the Aura whose trigger it is */
    if (tr->aura >= 0) {
      const zo_obj *a = &g->objs[tr->aura];
      tr->controller = a->controller >= 0 ? a->controller : a->owner;
    } else {
      tr->controller = ctrl >= 0 ? ctrl : g->objs[obj].owner;
    }
  }
}

int zo_obj_finds(zo_game *g, zo_switch how_sw, int obj, uint64_t id, int zone,
                 int pub_at_arrival, int viewer) {
  const zo_obj *o = &g->objs[obj];
  int how = SW(g, how_sw);
  HITSW(g, how_sw);
  if (how == ZS_NONE) return 0;
  if (!o->exists || o->id != id || o->zone != zone) return 0;
  if (how == ZS_PUBLIC_ZONE) return zone >= 0 && ZT(g, zone)->pub.value;
  if (how == ZS_MOVED_TO) {
    /* Z.1.Ruling.3, CR 410.10: only in the zone it moved to, and not in a
       zone hidden from the trigger's controller (a library, another
       player's hand) */
    if (zone < 0) return 0;
    if (ZT(g, zone)->pub.value) return 1;
    return ZT(g, zone)->role == ZR_HAND && g->zones[zone].player == viewer;
  }
  if (how == ZS_PUBLIC_OBJECT) return pub_at_arrival && zo_game_obj_public(g, obj);
  return 0;
}

/* ---- steps ------------------------------------------------------------- */

/* Arm trigger s->as on s->card's move from s->from to s->to (of types
 * s->types, when given). */
void zo_step_watch(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  (void)r;
  zo_trigger *t = &g->trig[s->as];
  memset(t, 0, sizeof *t);
  t->armed = 1;
  t->obj = s->card;
  t->from = s->from.type;
  t->to = s->to.type;
  t->from_player = s->from.player;
  t->to_player = s->to.player;
  t->from_index = s->from.index;
  t->to_index = s->to.index;
  t->types = s->types;
  t->controller = -1;
  t->aura = s->aura;
  t->on_phase = s->on_phase;
  memcpy(t->cause, s->cause, sizeof t->cause);
}

void zo_phase_watches_fire(zo_game *g, int obj, int ctrl) {
  for (int t = 0; t < g->ntrig; t++) {
    zo_trigger *tr = &g->trig[t];
    if (!tr->armed || tr->fired || tr->obj != obj || !tr->on_phase) continue;
    if (tr->types && (g->objs[obj].types & tr->types) != tr->types) continue;
    tr->fired = 1;
    tr->fired_step = g->nsteps;
    tr->id = g->objs[obj].id;
    tr->zone = g->objs[obj].zone;
    tr->pub_at_arrival = zo_game_obj_public(g, obj);
    /* CR 603.10b: it looks back in time: the source as it was before it
       phased out, controlled by its controller then (603.3a) */
    tr->controller = ctrl >= 0 ? ctrl : g->objs[obj].owner;
  }
}

/* CR 400.7f, 603.6e: an Aura's trigger on the permanent it enchants
 * leaving finds the Aura's new object in its owner's graveyard when it was
 * put there in the step the trigger fired in (with the permanent) or by a
 * later state check (704.5m: attached to nothing), and has not moved
 * since; where the rule set says so (aura_trigger_finds), else never. */
static int aura_found(zo_game *g, const zo_trigger *t) {
  HITSW(g, SW_AURA_TRIGGER_FINDS);
  if (SW(g, SW_AURA_TRIGGER_FINDS) != ZS_YES) return 0;
  const zo_obj *a = &g->objs[t->aura];
  if (!a->exists || a->zone < 0 || a->under >= 0) return 0;
  if (a->zone != zo_zone_of_role(g, ZR_GRAVEYARD, a->owner)) return 0;
  return a->arrived_step == t->fired_step || (a->arrived_step > t->fired_step && a->arrived_by_check);
}

/* CR 400.7k, 702.35c: a trigger on a card's discard finds the card in the
 * public zone the madness trigger put it into (from exile, not cast) when
 * the object it tracked is the exiled one that move took, and the card has
 * not moved since; where the rule set says so (madness_finds), else never. */
static int madness_found(zo_game *g, const zo_trigger *t) {
  const zo_obj *o = &g->objs[t->obj];
  if (!t->fired_discard || !o->madness_from || o->madness_from != t->id) return 0;
  HITSW(g, SW_MADNESS_FINDS);
  if (SW(g, SW_MADNESS_FINDS) != ZS_YES) return 0;
  return o->exists && o->id == o->madness_id && o->zone >= 0 && o->under < 0 &&
         ZT(g, o->zone)->pub.value;
}

/* Resolve trigger s->trigger: not_fired before it fired; not_found when
 * its ability can't find the object; else its then: on the object. */
void zo_step_resolve(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  zo_trigger *t = &g->trig[s->trigger];
  if (!t->fired) {
    r->outcome = ZO_OUTCOME_NOT_FOUND;
    r->error = ZO_E_NOT_FIRED;
    return;
  }
  /* CR 800.4d: a triggered ability its departed controller would control
     is never put on the stack */
  if (g->nleft && t->controller >= 0 && t->controller < ZO_MAX_PLAYERS && g->left[t->controller]) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_WRONG_PLAYER;
    return;
  }
  t->resolved = 1;
  int target = t->aura >= 0 ? t->aura : t->obj;
  if (t->on_phase) {
    /* CR 603.10b, 702.26d: phasing is no zone change, so the trigger finds
       the permanent while it is the object that phased out; what its
       effect may do to a phased-out permanent is the step's (702.26b) */
    const zo_obj *o = &g->objs[target];
    t->found = o->exists && o->id == t->id;
    if (!t->found) {
      r->outcome = ZO_OUTCOME_NOT_FOUND;
      r->error = ZO_E_NOT_FOUND;
      event(r, target, ZO_OUTCOME_NOT_FOUND);
      return;
    }
    if (s->then) zo_game_apply_to(g, s->then, target, r);
    return;
  }
  if (t->aura >= 0 ? !aura_found(g, t)
                   : !zo_obj_finds(g, SW_TRIGGER_FINDS, t->obj, t->id, t->zone, t->pub_at_arrival,
                                   t->controller) &&
                         !madness_found(g, t)) {
    t->found = 0;
    r->outcome = ZO_OUTCOME_NOT_FOUND;
    r->error = ZO_E_NOT_FOUND;
    event(r, target, ZO_OUTCOME_NOT_FOUND);
    return;
  }
  t->found = 1;
  if (s->then) zo_game_apply_to(g, s->then, target, r);
}

/* Reference s->as now names the step's object as it is (CR 400.7d). */
void zo_step_remember(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  g->refs[s->as].set = 1;
  g->refs[s->as].obj = o;
  g->refs[s->as].id = g->objs[o].id;
}

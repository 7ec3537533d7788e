/* status.c: what changes about an object without a zone change of its own
 * choosing: its controller (CR 109.4; FaB 1.2.1b), phasing (as a status,
 * CR 702.24; or as a zone, Z.7, 217.8), its face (CR 400.9; FaB 3.0.3,
 * 3.0.9: a public object that becomes private is new), and the end of a
 * game played for ante (Z.2.2, 217.9b, 407.2).
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

int zo_phased_out_unaffected(zo_game *g, int obj, zo_step_result *r) {
  if (!g->objs[obj].phased_out || SW(g, SW_PHASING) != ZS_STATUS) return 0;
  HITSW(g, SW_PHASING);
  r->outcome = ZO_OUTCOME_FAILED;
  r->error = ZO_E_PHASED_OUT;
  return 1;
}

/* CR 109.4, FaB 1.2.1b: give the object to s->player; only objects on the
 * battlefield/arena or the stack have a controller. */
void zo_step_control(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  if (zo_phased_out_unaffected(g, o, r)) return;
  /* CR 109.4, FaB 1.2.1b: only objects on the battlefield/arena or the
     stack have a controller; a sub-card is not in the arena (3.0.14b) */
  if (g->objs[o].zone < 0 || g->objs[o].under >= 0 ||
      !ZT(g, g->objs[o].zone)->controller.value) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_NO_CONTROLLER;
    return;
  }
  /* issue 31: a zone type that follows control moves the object to the
     new controller's zone; with none that can hold it, control can't
     change (the step fails, capacity) */
  int follow = zo_follow_zone(g, o, s->player);
  if (follow == -1) {
    hit(g, &ZT(g, g->objs[o].zone)->follows_control);
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_CAPACITY;
    return;
  }
  hit(g, &ZT(g, g->objs[o].zone)->controller);
  if (zo_next_turn_unsupported(g, s, r)) return;
  zo_control_begin(g, o, s->player, s->until, s->turn_of); /* G4; CR 613.7 */
  g->objs[o].controller = s->player;
  if (follow >= 0) {
    hit(g, &ZT(g, g->objs[o].zone)->follows_control);
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
    zo_rule_move_into(g, o, follow, "control", r);
    /* the step moved it: its outcome says so */
    if (g->objs[o].exists && g->objs[o].zone == follow) r->outcome = ZO_OUTCOME_MOVED;
  }
}

/* ---- issue 31: zones that follow the controller (follows_control) ---- */

int zo_follow_zone(zo_game *g, int o, int p) {
  const zo_obj *ob = &g->objs[o];
  if (ob->zone < 0 || ob->under >= 0 || p < 0) return -2;
  const zo_zone_type *zt = ZT(g, ob->zone);
  if (!zt->follows_control.value || g->zones[ob->zone].player == p) return -2;
  int type = zt->follows_control.value - 1;
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (zn->exists && zn->type == type && zn->player == p && zo_zone_refuses(g, z, o, 0) == ZO_E_NONE)
      return z;
  }
  return -1;
}

int zo_control_follow(zo_game *g, int o, zo_step_result *r) {
  const zo_obj *ob = &g->objs[o];
  if (!ob->exists || ob->phased_out) return 0;
  int follow = zo_follow_zone(g, o, ob->controller);
  if (follow == -2) return 0;
  hit(g, &ZT(g, ob->zone)->follows_control);
  g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
  if (follow >= 0) zo_rule_move_into(g, o, follow, "control", r);
  else if (g->zmap[g->graveyard_slot] >= 0) zo_rule_move(g, o, g->graveyard_slot, "control", r);
  else return 0;
  return 1;
}

/* Phasing as a zone (Z.7, CR 217.8, 502.15): phasing out puts the
 * permanent into the phased-out zone (its owner's where that zone is per
 * player), with no controller, and fires leaves-play triggers (502.15d
 * of 2004; none where phasing_quiet says so, 502.15d of 2007);
 * it stays the same object and keeps its counters (Z.7.2, 217.8c,
 * 502.15f-h) but loses limited-duration effects (502.15g). Phasing in
 * brings it back under the same controller, triggering nothing. */
static void phase_zone(zo_game *g, int o, int out, zo_step_result *r) {
  zo_obj *ob = &g->objs[o];
  int zone = ob->zone;
  int in_play = zone >= 0 && ZT(g, zone)->role == ZR_BATTLEFIELD;
  int phased = zone >= 0 && ZT(g, zone)->role == ZR_PHASED_OUT;
  if ((out && !in_play) || (!out && !phased)) {
    r->outcome = (out && phased) || (!out && in_play) ? ZO_OUTCOME_FAILED : ZO_OUTCOME_REJECTED;
    r->error = r->outcome == ZO_OUTCOME_FAILED ? ZO_E_ALREADY : ZO_E_UNSUPPORTED;
    return;
  }
  int dest = zo_zone_of_role(g, out ? ZR_PHASED_OUT : ZR_BATTLEFIELD, ob->owner);
  if (dest < 0) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_NO_ZONE;
    return;
  }
  if (!out && (ZT(g, dest)->holds.value & ZH_NO_INSTANTS) &&
      (ob->types & g->classes.instant_sorcery)) {
    /* only permanents phase back in (217.1a: instants stay out of play) */
    r->outcome = ZO_OUTCOME_STAYED;
    r->error = ZO_E_CANNOT_HOLD;
    return;
  }
  HITSW(g, SW_PHASING);
  int ctrl = ob->controller;
  zone_remove_obj(g, o);
  zone_insert(g, dest, o, ZO_POS_BOTTOM);
  if (out) {
    ob->phase_controller = ctrl;
    ob->phased_under = ctrl; /* 502.15a of 2004: its untap step */
    ob->controller = -1;
    ob->phased_out = 1;
    zo_durations_phase_out(g, o); /* 502.15g */
    /* 502.15d of 2004: phasing out fires leaves-play watches as usual;
       of 2007: none, only those that mention phasing (phasing_quiet) */
    HITSW(g, SW_PHASING_QUIET);
    if (SW(g, SW_PHASING_QUIET) != ZS_YES) zo_watches_fire(g, o, zone, dest, 1, ctrl, "");
    if (g->ntrig) zo_phase_watches_fire(g, o, ctrl);
  } else {
    ob->controller = ob->phase_controller >= 0 ? ob->phase_controller : ob->owner;
    ob->phased_out = 0;
    ob->phased_with = -1;
  }
  event(r, o, ZO_OUTCOME_MOVED);
  r->outcome = ZO_OUTCOME_MOVED;
}

static void phase_one(zo_game *g, int o, int out, zo_step_result *r);

void zo_phase_one(zo_game *g, int o, int out, zo_step_result *r) { phase_one(g, o, out, r); }

/* Whether object m of a phase step with with: (first: its main object) is
 * attached, directly or through what it is attached to, to another object
 * of the step that phases out now: then it phases out only indirectly,
 * with that one (CR 702.26h). */
static int carried(const zo_game *g, const zo_step *s, int first, int m) {
  for (int x = m, k = 0; k < g->nobjs; k++) {
    int host = g->objs[x].attached;
    if (host < 0 || host == m || !zo_attached_same(g, x, host)) return 0;
    const zo_obj *h = &g->objs[host];
    int in_event = host == first;
    for (int i = 0; i < s->norder && !in_event; i++) in_event = s->order_zone_handles[i] == host;
    if (in_event && h->exists && !h->phased_out && h->zone >= 0 &&
        ZT(g, h->zone)->role == ZR_BATTLEFIELD)
      return 1;
    x = host;
  }
  return 0;
}

/* Phase out, in one event, the step's object (first; its outcome is the
 * step's) and those with: names (each one's events, and an event with its
 * outcome when it can't phase out): what is attached to another of them
 * phases out only indirectly, with it (CR 702.26h, 702.26g), decided for
 * all before any phases. */
static void phase_together(zo_game *g, const zo_step *s, int first, zo_step_result *r) {
  int n = s->norder + 1;
  unsigned char *skip = zo_xcalloc((size_t)n, 1);
  for (int i = 0; i < n; i++) {
    int m = i ? s->order_zone_handles[i - 1] : first;
    skip[i] = g->objs[m].exists && carried(g, s, first, m);
  }
  for (int i = 0; i < n; i++) {
    int m = i ? s->order_zone_handles[i - 1] : first;
    if (skip[i]) {
      HITSW(g, SW_INDIRECT_PHASING);
      continue;
    }
    if (!i) {
      phase_one(g, m, 1, r);
      continue;
    }
    zo_step_result sub;
    memset(&sub, 0, sizeof sub);
    if (!g->objs[m].exists) sub.outcome = ZO_OUTCOME_NOT_FOUND;
    else phase_one(g, m, 1, &sub);
    take_events(r, &sub);
    if (sub.outcome == ZO_OUTCOME_FAILED || sub.outcome == ZO_OUTCOME_REJECTED ||
        sub.outcome == ZO_OUTCOME_NOT_FOUND || sub.outcome == ZO_OUTCOME_STAYED)
      event(r, m, sub.outcome);
    zo_step_result_free(&sub);
  }
  free(skip);
}

/* ---- indirect phasing (CR 702.26g; 702.24f of 2011; 217.8d, 502.15 of
 * 2004 and 2008; Z.7.2 of 1999) ------------------------------------------ */

/* After `host` phased out (out) or in: what is attached to it phases out
 * with it, "indirectly" (each once, through its own attachments too), and
 * what phased out with it phases back in with it, still attached. Nothing
 * where the rule set has no indirect phasing or nothing was attached. */
static void phase_attached(zo_game *g, int host, int out, zo_step_result *r) {
  if (!g->has_attach || SW(g, SW_INDIRECT_PHASING) != ZS_YES) return;
  for (int i = 0; i < g->nobjs; i++) {
    zo_obj *a = &g->objs[i];
    if (i == host || !a->exists) continue;
    if (out) {
      int in_play = a->zone >= 0 && ZT(g, a->zone)->role == ZR_BATTLEFIELD && !a->phased_out;
      if (!in_play || !zo_attached_same(g, i, host)) continue;
      HITSW(g, SW_INDIRECT_PHASING);
      a->phased_with = host;
    } else if (a->phased_with == host) {
      HITSW(g, SW_INDIRECT_PHASING);
      a->phased_with = -1;
    } else {
      continue;
    }
    zo_step_result sub;
    memset(&sub, 0, sizeof sub);
    phase_one(g, i, out, &sub);
    take_events(r, &sub);
    zo_step_result_free(&sub);
  }
}

/* Phase the object out (s->out) or in: through the phased-out zone, or as
 * a status (CR 702.24d: no zone change, no trigger, same object), as the
 * rule set has it; rejected where it has no phasing. What is attached to
 * it phases with it (phase_attached). */
void zo_step_phase(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  /* CR 702.26g (702.24f of 2011): what phased out indirectly, with the
     permanent it is attached to, doesn't phase in by itself, only with
     that permanent: failed, phased_out */
  if (!s->out && g->objs[o].phased_out && g->objs[o].phased_with >= 0 &&
      SW(g, SW_PHASING) == ZS_STATUS) {
    HITSW(g, SW_INDIRECT_PHASING);
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_PHASED_OUT;
    return;
  }
  if (s->norder) phase_together(g, s, o, r);
  else phase_one(g, o, s->out, r);
}

/* Phase object o out or in (zo_step_phase), with what is attached to it. */
static void phase_one(zo_game *g, int o, int out, zo_step_result *r) {
  if (SW(g, SW_PHASING) == ZS_ZONE) {
    phase_zone(g, o, out, r);
    if (r->outcome == ZO_OUTCOME_MOVED) phase_attached(g, o, out, r);
    return;
  }
  if (SW(g, SW_PHASING) != ZS_STATUS) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  if (g->objs[o].zone < 0 || ZT(g, g->objs[o].zone)->role != ZR_BATTLEFIELD) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  if (g->objs[o].phased_out == out) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_ALREADY;
    return;
  }
  /* CR 702.24d: a status: no zone change, no trigger, same object */
  HITSW(g, SW_PHASING);
  g->objs[o].phased_out = out;
  if (out) {
    g->objs[o].phased_under = g->objs[o].controller; /* CR 702.26a: its untap step */
    zo_durations_phase_out(g, o); /* 702.24e, 702.26f */
    /* CR 603.10b: a trigger on phasing out looks back in time */
    if (g->ntrig) zo_phase_watches_fire(g, o, g->objs[o].controller);
  }
  if (!out) g->objs[o].phased_with = -1;
  phase_attached(g, o, out, r);
}

/* Visibility per object (FaB 3.0.3): turning face down makes the object
 * private, a new object (3.0.9); its sub-cards turn with it (3.0.14d); a
 * deck stays a face-down pile (3.7.5). */
static void turn_visibility(zo_game *g, const zo_step *s, int o, zo_step_result *r) {
  zo_obj *ob = &g->objs[o];
  int want_pub = s->face == 0;
  /* a deck stays a face-down pile (FaB 3.7.5) */
  if (ob->under >= 0 || ob->pub == want_pub ||
      (want_pub && ob->zone >= 0 && ZT(g, ob->zone)->role == ZR_LIBRARY)) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_ALREADY;
    return;
  }
  HITSW(g, SW_VISIBILITY);
  if (ob->pub && !want_pub) {
    HITSW(g, SW_NEW_OBJECT); /* FaB 3.0.9: public -> private resets */
    new_identity(g, o);
    zo_obj_drop_marks(g, o, 0);
    r->outcome = ZO_OUTCOME_NEW_OBJECT_IN_PLACE;
  }
  ob->pub = want_pub;
  ob->face_down = !want_pub;
  for (int i = 0; i < g->nobjs; i++)
    if (g->objs[i].exists && g->objs[i].under == o) {
      HITSW(g, SW_SUB_CARDS); /* 3.0.14d */
      g->objs[i].pub = want_pub;
      g->objs[i].face_down = !want_pub;
    }
  event(r, o, r->outcome);
}

/* Turn the object face up or down (s->face); CR 400.9: where the zone says
 * so, a permanent turned face down is a new object. */
void zo_step_turn_face(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  zo_obj *ob = &g->objs[o];
  if (zo_phased_out_unaffected(g, o, r)) return;
  /* issue 31: a kind of card that is never face down in its zone
     (face_up_only: a Yu-Gi-Oh! Token can't be changed to face-down) */
  if (s->face == 1 && ob->zone >= 0 && ob->under < 0 && zo_face_up_only(g, g->zones[ob->zone].type, o)) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_CANNOT_HOLD;
    return;
  }
  if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT) {
    turn_visibility(g, s, o, r);
    return;
  }
  if (ob->face_down == s->face) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_ALREADY;
    return;
  }
  /* an instant or sorcery card on the battlefield face down (put there
     face down, 708.3) can't be turned face up: it would be one there
     (400.4a) */
  if (s->face == 0 && ob->zone >= 0 && (ZT(g, ob->zone)->holds.value & ZH_NO_INSTANTS) &&
      (ob->types & g->classes.instant_sorcery)) {
    hit(g, &ZT(g, ob->zone)->holds);
    g->features_used |= (uint64_t)1 << FT_FACE_DOWN_INSTANTS;
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_CANNOT_HOLD;
    return;
  }
  ob->face_down = s->face;
  if (s->face == 1 && ob->zone >= 0 && ZT(g, ob->zone)->face_down_new.value) {
    hit(g, &ZT(g, ob->zone)->face_down_new); /* CR 400.9 */
    new_identity(g, o);
    zo_obj_drop_marks(g, o, 0);
    r->outcome = ZO_OUTCOME_NEW_OBJECT_IN_PLACE;
    event(r, o, r->outcome);
    /* its sub-cards don't follow a new object: they are cleared (FaB
       3.0.14c-e as RULESETS.md gives them to every game: a top-card that
       becomes new leaves them; issue 31). Attachments end by themselves:
       they name the identity they were made with (attached.c). */
    zo_subs_clear(g, o, r, 1);
    return;
  }
  event(r, o, r->outcome);
}

/* Z.2.2, 217.9b, 407.2: at the end of a game played for ante the winner
 * owns the cards in the ante; rejected where the rule set has no ante. */
void zo_step_end_game(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (SW(g, SW_ANTE) != ZS_WINNER_OWNS) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  HITSW(g, SW_ANTE); /* Z.2.2, 217.9b, 407.2: the winner owns the ante */
  g->ended = 1;      /* the game is over: owner-only zones no longer hold */
  for (int z = 0; z < g->nzones; z++)
    if (g->zones[z].exists && ZT(g, z)->role == ZR_ANTE)
      for (int i = 0; i < g->zones[z].n; i++) g->objs[g->zones[z].objs[i]].owner = s->winner;
}

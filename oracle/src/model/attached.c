/* attached.c: Auras, Equipment and Fortifications attached to permanents
 * (the `attach` step; cases/README.md, attach).
 *
 * The `unattach` step ends an attachment where the objects are (CR 701.3d).
 *
 * Who may attach what to what is not a zone rule; the model keeps to what
 * the zone rules need: both objects on the battlefield (in play), phased
 * in, and not the same object (CR 301.5, 301.6, 303.4; 217.1b of 2004 and
 * 2008; Z.5.1 of 1999). An attachment is a pair of identities: it holds
 * while the attached object and the permanent are still the objects they
 * were when attached, so a zone change of either ends it with no work in
 * the move (CR 400.7; 217.1c; Z.1.3: the permanent that comes back is a
 * new object, and nothing is attached to it). Phasing keeps identities:
 * what is attached to a permanent phases out and in with it where the rule
 * set says so (status.c; CR 702.26g, 702.24f of 2011, 217.8d, Z.7.2).
 *
 * An Aura may instead be attached to a player (attach to_player:, CR
 * 303.4b, 701.3a; 303.4b of 2011, 212.4h of 2008 and 2004) where the rule
 * set's switch aura_player says so; elsewhere (mtg-1999: the digest's Z.5.1
 * speaks of local enchantments on permanents only) the step is rejected.
 * Which Auras may (an enchant ability, 702.5d) is not a zone rule: the
 * model lets any Aura enchant a player, and nothing else: an Equipment or
 * Fortification can't be attached to a player (301.5, 301.6; 704.5n says
 * what would happen if one were), so such an attach does nothing and the
 * object doesn't move (701.3b), as for anything else that isn't an Aura.
 * The attachment holds while the Aura is the object it was (a zone change
 * ends it, 400.7) and the player is in the game (leaving ends it, 701.3d).
 *
 * The state-based actions (zo_attached_state_check, from sba.c): an Aura
 * attached to nothing, or to a player who has left the game, goes to its
 * owner's graveyard (CR 303.4c, 704.5m; 704.5n of 2011; 420.5d of 2004),
 * and an Equipment or Fortification (or anything else) becomes unattached
 * and stays (CR 704.5n; 704.5p of 2011).
 *
 * Nothing here runs in a game without an attach step (g->has_attach, and
 * an object's `attached` field, -1 unless attached).
 */
#include <stdio.h>
#include <string.h>

#include "model_int.h"

int zo_attached_same(const zo_game *g, int obj, int host) {
  const zo_obj *o = &g->objs[obj];
  if (host < 0 || o->attached != host || !o->exists || o->id != o->attach_self) return 0;
  const zo_obj *h = &g->objs[host];
  return h->exists && h->id == o->attached_id;
}

int zo_attached_to(const zo_game *g, int obj) {
  const zo_obj *o = &g->objs[obj];
  int host = o->attached;
  if (!zo_attached_same(g, obj, host)) return -1;
  const zo_obj *h = &g->objs[host];
  if (o->zone < 0 || h->zone < 0 || o->phased_out != h->phased_out) return -1;
  /* both on the battlefield, or both phased out (a zone in 1999-2008) */
  if (ZT(g, o->zone)->role != ZT(g, h->zone)->role) return -1;
  zo_zone_role role = ZT(g, o->zone)->role;
  return role == ZR_BATTLEFIELD || role == ZR_PHASED_OUT ? host : -1;
}

int zo_attached_player(const zo_game *g, int obj) {
  const zo_obj *o = &g->objs[obj];
  int p = o->attached_player - 1;
  if (p < 0 || !o->exists || o->id != o->attach_self || o->zone < 0 || o->under >= 0) return -1;
  if (p >= ZO_MAX_PLAYERS || g->left[p]) return -1; /* CR 701.3d: that player left */
  zo_zone_role role = ZT(g, o->zone)->role;
  return role == ZR_BATTLEFIELD || role == ZR_PHASED_OUT ? p : -1;
}

/* Is object o a permanent effects can touch: on the battlefield (in play)
 * and phased in? Sets *err to why not. */
static int attachable(const zo_game *g, int o, zo_step_error *err) {
  const zo_obj *ob = &g->objs[o];
  if (!ob->exists) {
    *err = ZO_E_NOT_FOUND;
    return 0;
  }
  if (ob->zone < 0 || ob->under >= 0 || ZT(g, ob->zone)->role != ZR_BATTLEFIELD) {
    *err = ZO_E_NOT_IN_ZONE;
    return 0;
  }
  if (ob->phased_out) { /* 702.26b / 702.24b: treated as though it doesn't exist */
    *err = ZO_E_PHASED_OUT;
    return 0;
  }
  return 1;
}

int zo_attach_limit(zo_game *g, int obj, int host) {
  int t = g->zones[g->objs[host].zone].type;
  const zo_zone_type *zt = &g->rs->zones[t];
  for (int k = 0; k < zt->limits.value && k < ZO_MAX_LIMITS; k++) {
    uint64_t want = g->limit_types[t][k];
    if (zt->limit[k].among != ZL_ATTACHED || !has_kind_of(g, &g->objs[obj], want)) continue;
    int n = 0;
    for (int i = 0; g->has_attach && i < g->nobjs; i++)
      if (i != obj && has_kind_of(g, &g->objs[i], want) && zo_attached_to(g, i) == host) n++;
    if (n + 1 > zt->limit[k].count) {
      hit(g, &zt->limits);
      g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
      return k;
    }
  }
  return -1;
}

/* Object o becomes attached to host: the pair of identities the
 * attachment holds while both are the objects they are now (CR 400.7). */
static void attach_to(zo_game *g, int o, int host) {
  zo_obj *ob = &g->objs[o];
  ob->attached = host;
  ob->attached_id = g->objs[host].id;
  ob->attach_self = ob->id;
  ob->attached_player = 0;
  ob->phased_with = -1;
  g->has_attach = 1;
}

/* attach to_player: (CR 303.4b, 701.3a): Aura o on the battlefield, phased
 * in, becomes attached to player p (a player in the game: a step naming a
 * departed one is rejected before it gets here, 800.4). Anything that
 * isn't an Aura can't be attached to a player and doesn't move (701.3b;
 * 301.5, 301.6, 704.5n): failed, cannot_hold, as for an object attached to
 * itself. An Aura already attached to that player: the attach does nothing
 * (701.3b), no_move. */
static void attach_to_player(zo_game *g, int o, int p, zo_step_result *r) {
  if (zo_aura_player_refused(g, r)) return;
  zo_step_error e = ZO_E_NONE;
  if (attachable(g, o, &e) && !(g->objs[o].types & g->classes.aura)) e = ZO_E_CANNOT_HOLD;
  if (e != ZO_E_NONE) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = e;
    return;
  }
  HITSW(g, SW_AURA_PLAYER); /* CR 303.4b, 701.3a; 212.4h of 2004 */
  g->features_used |= (uint64_t)1 << FT_ATTACH_PLAYER;
  if (zo_attached_player(g, o) == p) return; /* CR 701.3b: does nothing */
  zo_obj *ob = &g->objs[o];
  ob->attached = -1;
  ob->attached_player = p + 1;
  ob->attach_self = ob->id;
  ob->phased_with = -1;
  g->has_attach = 1;
}

void zo_step_attach(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  if (SW(g, SW_ATTACH) != ZS_YES) { /* FaB: nothing attaches to a permanent */
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  int host = s->attach_to;
  if (host < 0 && s->player >= 0) { /* to_player: */
    attach_to_player(g, o, s->player, r);
    return;
  }
  zo_step_error e = ZO_E_NONE;
  if (host == o) e = ZO_E_CANNOT_HOLD; /* nothing is attached to itself */
  else if (host < 0 || !attachable(g, o, &e) || !attachable(g, host, &e)) {
    if (e == ZO_E_NONE) e = ZO_E_NOT_FOUND;
  }
  /* limits: among attached objects (issue 31): one Tool per Pokemon */
  if (e == ZO_E_NONE && ZT(g, g->objs[host].zone)->limits.value && zo_attach_limit(g, o, host) >= 0)
    e = ZO_E_CAPACITY;
  if (e != ZO_E_NONE) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = e;
    return;
  }
  HITSW(g, SW_ATTACH); /* CR 301.5, 303.4; 217.1b; 400.5 of 2011; Z.5.1 */
  attach_to(g, o, host);
}

int zo_attach_host_ok(const zo_game *g, int obj, int host) {
  zo_step_error e = ZO_E_NONE;
  if (host < 0 || host == obj || !attachable(g, host, &e)) return 0;
  const zo_step *t = g->together; /* CR 303.4f: chosen before they move */
  for (int i = 0; t && i < t->nmoves; i++)
    if (t->moves[i].card == host) return 0;
  return 1;
}

int zo_can_be_attached(const zo_game *g, int obj) {
  const zo_obj *ob = &g->objs[obj];
  return (ob->types & g->classes.attachment) && !(ob->types & g->classes.creature) && !ob->face_down;
}

void zo_enters_attached(zo_game *g, int obj, int host) {
  if (!zo_can_be_attached(g, obj) || !zo_attach_host_ok(g, obj, host))
    return; /* CR 303.4h: it enters unattached (708.2a: face down, it is
               a creature with no subtypes; 303.4d, 301.5c) */
  HITSW(g, SW_ATTACH); /* CR 303.4f */
  attach_to(g, obj, host);
}

int zo_aura_player_refused(zo_game *g, zo_step_result *r) {
  if (SW(g, SW_AURA_PLAYER) == ZS_YES) return 0;
  r->outcome = ZO_OUTCOME_REJECTED; /* mtg-1999: Z.5.1, permanents only */
  r->error = ZO_E_UNSUPPORTED;
  return 1;
}

void zo_enters_attached_player(zo_game *g, int obj, int p) {
  zo_obj *ob = &g->objs[obj];
  /* CR 303.4h: what is not an Aura enters unattached; an Equipment or
     Fortification can't be attached to a player (701.3a), so it does too */
  if (!(ob->types & g->classes.aura) || SW(g, SW_AURA_PLAYER) != ZS_YES || p >= ZO_MAX_PLAYERS ||
      g->left[p])
    return;
  HITSW(g, SW_AURA_PLAYER); /* CR 303.4f: attached to the player it names */
  g->features_used |= (uint64_t)1 << FT_ATTACH_PLAYER;
  ob->attached = -1;
  ob->attached_player = p + 1;
  ob->attach_self = ob->id;
  ob->phased_with = -1;
  g->has_attach = 1;
}

/* unattach (CR 701.3d): the object stays on the battlefield, attached to
 * nothing. No zone change, so it is the object it was (400.7 speaks of zone
 * changes only) and nothing triggers; what follows is the state-based
 * actions' (an Aura attached to nothing goes to its owner's graveyard,
 * 704.5m; an Equipment or Fortification stays, 704.5n). Outcome no_move;
 * failed (already) when it is attached to nothing, and as attach for an
 * object off the battlefield or phased out; rejected (unsupported) where
 * nothing attaches to a permanent (FaB). */
void zo_step_unattach(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  if (SW(g, SW_ATTACH) != ZS_YES) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  zo_step_error e = ZO_E_NONE;
  int to_player = attachable(g, o, &e) && zo_attached_player(g, o) >= 0;
  if (!to_player && (e != ZO_E_NONE || zo_attached_to(g, o) < 0)) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = e != ZO_E_NONE ? e : ZO_E_ALREADY;
    return;
  }
  HITSW(g, SW_ATTACH); /* CR 701.3d */
  if (to_player) { /* no identity: attached to no player, which the
                      state-based actions see (704.5m) */
    g->objs[o].attach_self = 0;
    return;
  }
  g->objs[o].attached_id = 0; /* no identity: attached to nothing, which the
                                 state-based actions see (704.5m, 704.5n) */
}

int zo_attached_state_check(zo_game *g, int obj, zo_step_result *r) {
  zo_obj *o = &g->objs[obj];
  int aura = (o->types & g->classes.aura) != 0;
  zo_switch sw = aura ? SW_AURA_UNATTACHED : SW_EQUIPMENT_UNATTACHED;
  if (SW(g, sw) != ZS_OWNER_GRAVEYARD) {
    if (aura) return 0; /* no such state-based action in this rule set */
    HITSW(g, sw); /* CR 704.5n; 704.5p of 2011: unattached, it stays */
    o->attached = -1;
    o->attached_player = 0;
    return 0;
  }
  /* CR 704.5m; 704.5n of 2011; 420.5d: to its owner's graveyard; attached
     to a player who left the game, 303.4c */
  HITSW(g, sw);
  o->attached = -1;
  o->attached_player = 0;
  zo_rule_move(g, obj, g->graveyard_slot, "state_check", r);
  return 1;
}

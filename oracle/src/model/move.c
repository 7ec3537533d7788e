/* move.c: the zone change, the model's hot path (the fuzzers' inner loop).
 *
 * A move runs the zone-change procedure of CR 400.6 / FaB 3.0.7-3.0.11,
 * one named phase each, in this order (move_one):
 *   leave_check       the object exists, is where the move says, and is
 *                     not phased out (CR 702.24b)
 *   destination       resolve the destination (owner redirect, CR 400.3)
 *                     and apply replacement effects in the chosen order
 *                     (616.1 / FaB 6.5), then the rule set's own
 *                     (instead:, issue 31)
 *   dest_visibility   the flip step (FaB 3.0.8, 3.0.8a): the visibility it
 *                     will have, and whether it moves with its properties
 *                     (3.0.7a)
 *   same_zone_move    stop a move to where it is (400.8, FaB 3.0.7b)
 *   ceases_on_leaving objects that can't exist where they go cease first
 *                     (FaB 8.1.8a, 1.5.3, 3.0.11)
 *   refused           what the destination can't hold (400.4a, 400.4b,
 *                     111.8; FaB 3.0.11: stays / fails / clears); a full
 *                     zone that displaces (displace:, issue 31) makes room
 *   transfer          move, decide identity (CR 400.7, FaB 3.0.9; a move
 *                     within a zone group keeps it, group:), marks,
 *                     history, controller and visibility
 *   after_move        sub-cards follow or are cleared (FaB 3.0.14), fire
 *                     watched triggers, and run the effect's `then:` where
 *                     the rule set lets it find the object
 * Every phase but the first three may end the move with its outcome.
 * Everything the common move executes is inline here or in model_int.h;
 * what it skips (replacements, triggers, marks, sub-cards, then:) sits in
 * its own room behind a guard.
 *
 * zo_game_apply_to, which every step goes through, is here too: a move is
 * most steps, and without link-time optimisation only a move in this file
 * is inlined into it (steps.c dispatches the others).
 *
 * Also here: the steps that move several objects (move_together, draw,
 * mill), each object by move_one.
 */
#include <stdio.h>
#include <string.h>

#include "model_int.h"

/* Does the zone instance z match a written spec (type, player, index)? */
static int spec_matches(const zo_game *g, const zo_zone_spec *s, int zone,
                        int default_player) {
  if (s->type == ZO_ZT_ANY) return 1;
  if (s->type == ZO_ZT_OUTSIDE)
    /* CR 217.1e (2002-2009): the removed-from-the-game zone is outside */
    return zone == ZO_ZONE_OUTSIDE ||
           (zone >= 0 && SW(g, SW_OUTSIDE) == ZS_REMOVED_IS_OUTSIDE &&
            ZT(g, zone)->role == ZR_EXILE);
  if (zone < 0) return 0;
  const zo_zone *z = &g->zones[zone];
  if (s->type == ZO_ZT_ARENA) return is_arena(g, zone);
  if (g->zmap[s->type] != z->type) return 0;
  int pl = s->player >= 0 ? s->player : default_player;
  if (z->player >= 0 && pl >= 0 && z->player != pl) return 0;
  if (s->index && z->index != s->index) return 0;
  return 1;
}

/* The rest of the same effect (`then:`), after the move of obj (CR 400.7j
 * later, 400.7 exception in 2011; FaB 3.0.9b): it acts on the object the
 * move left, new or not, when the rule set lets the effect find it there;
 * else a not_found event. Also after a same-zone move (CR 400.8: the new
 * object has just been exiled, so the effect that exiled it finds it). */
static void then_step(zo_game *g, const zo_step *mv, int obj, zo_step_result *r) {
  if (!mv->then) return;
  const zo_obj *o = &g->objs[obj];
  zo_step_result sub = {0};
  if (o->exists &&
      zo_obj_finds(g, SW_THEN_FINDS, obj, o->id, o->zone, zo_game_obj_public(g, obj), o->owner)) {
    zo_game_apply_to(g, mv->then, obj, &sub);
  } else {
    sub.outcome = ZO_OUTCOME_NOT_FOUND;
    event(&sub, obj, ZO_OUTCOME_NOT_FOUND);
  }
  take_events(r, &sub);
  zo_step_result_free(&sub);
}

/* A cast's costs (`costs:`): once the card has moved to the stack (CR
 * 601.2a), the steps done while it is being cast (paying costs, mana
 * abilities: 601.2b-h), each on its own object, their events after the
 * move's. The spell becomes cast at the end of the step, so a library's
 * revealed top card is updated only then (401.5; perform.c). */
static void cost_steps(zo_game *g, const zo_step *mv, zo_step_result *r) {
  for (int i = 0; i < mv->ncosts; i++) nested_step(g, &mv->costs[i], -1, r);
}

/* Why the move cost c of a cast can't be paid (CR 601.2h: unpayable costs
 * can't be paid; 118.3: a cost is paid fully or not at all), judged before
 * anything moves, or ZO_E_NONE: its object is gone (not_found), not where
 * its from: says (not_in_zone; 701.17a: only a permanent on the
 * battlefield is sacrificed), phased out (phased_out, 702.26b), already in
 * the zone it would go to with no new object made (already: the event
 * would not happen), bound for no zone (its resolve error), kept where it
 * is by a rule (token_left, 111.8; cannot_hold, 400.4a, 400.4b, or the
 * zone refusing it), or its move forbidden by a "can't" effect
 * (forbidden, 614.17b; *cant set). The event is the move as written after
 * the owner's-zone redirect (400.3), as `cant` judges a move (614.17d);
 * replacement effects are not applied, since no cost is paid yet. A cost
 * naming the card being cast (spell) is left to its own step. */
ZO_COLD static zo_step_error cost_move_unpaid(zo_game *g, const zo_step *c, int spell, int *cant) {
  int o = c->ref >= 0 ? (ref_finds(g, c->ref) ? g->refs[c->ref].obj : -1) : c->card;
  if (o < 0 || !g->objs[o].exists) return ZO_E_NOT_FOUND;
  if (o == spell) return ZO_E_NONE;
  const zo_obj *ob = &g->objs[o];
  int origin = ob->under >= 0 ? g->objs[ob->under].zone : ob->zone, redirected;
  if (c->from.type != ZO_ZT_UNSET && c->from.type != ZO_ZT_ANY &&
      !spec_matches(g, &c->from, ob->under >= 0 ? -1 : origin, ob->owner))
    return ZO_E_NOT_IN_ZONE;
  if (ob->phased_out) return ZO_E_PHASED_OUT;
  zo_step_error e;
  int dest = resolve_dest(g, o, &c->to, c->choose, &redirected, &e);
  if (dest == -1) return e != ZO_E_NONE ? e : ZO_E_NO_ZONE;
  if (dest == origin && (dest == ZO_ZONE_OUTSIDE || (ob->under < 0 && !ZT(g, dest)->same_zone_new.value)))
    return ZO_E_ALREADY;
  if (g->ncants && zo_cant_forbids(g, o, origin, dest, c->cause, c->face == 1)) {
    *cant = 1;
    return ZO_E_FORBIDDEN;
  }
  if (origin >= 0 && g->zones[origin].keeps && (ob->types & g->keep_types[g->zones[origin].type]))
    return ZO_E_CANNOT_HOLD; /* CR 400.4b */
  if (dest < 0) return ZO_E_NONE;
  const zo_zone_type *zt = ZT(g, dest);
  if (ob->left_arena && ((zt->arena.value && SW(g, SW_TOKEN_RETURN) == ZS_NOT_BATTLEFIELD) ||
                         SW(g, SW_TOKEN_RETURN) == ZS_CANNOT_MOVE))
    return ZO_E_TOKEN_LEFT; /* CR 111.8 */
  if ((zt->holds.value & ZH_NO_INSTANTS) && (ob->types & g->classes.instant_sorcery) && c->face != 1)
    return ZO_E_CANNOT_HOLD; /* CR 400.4a */
  zo_step_error refuse = zo_zone_refuses(g, dest, o, 0);
  return refuse == ZO_E_CAPACITY && zt->displace.value ? ZO_E_NONE : refuse;
}

/* Why the draw or mill cost c of a cast can't be paid, or ZO_E_NONE: a
 * player who can't draw can't pay a cost of drawing (CR 121.3, 614.17b);
 * nor one of drawing or milling a card whose move a "can't" effect forbids
 * (614.17b); nor one of milling more cards than the library holds
 * (701.13b). A draw from a library with too few cards is payable where
 * drawing from an empty library loses at the next state check (121.3: the
 * player may choose to draw; 704.5b), and not where such a draw fails
 * (empty). The card being cast (spell) is on the stack by then (601.2a),
 * so it is not counted among the library's cards. */
ZO_COLD static zo_step_error cost_cards_unpaid(zo_game *g, const zo_step *c, int spell) {
  int p = c->player, draw = c->kind == ST_DRAW;
  if (draw && (g->cant_draw >> p & 1u)) return ZO_E_FORBIDDEN;
  int lib = zo_zone_of_role(g, ZR_LIBRARY, p), hand = zo_zone_of_role(g, ZR_HAND, p);
  int taken = 0;
  for (int i = 0; lib >= 0 && i < g->zones[lib].n && taken < c->count; i++) {
    int top = g->zones[lib].objs[i];
    if (top == spell) continue;
    taken++;
    if (!g->ncants) continue;
    int dest = hand, redirected;
    if (!draw) {
      zo_step_error e;
      zo_zone_spec to = c->to;
      if (to.type == ZO_ZT_UNSET) to.type = g->graveyard_slot, to.player = -1;
      dest = resolve_dest(g, top, &to, 0, &redirected, &e);
    }
    if (dest != -1 && zo_cant_forbids(g, top, lib, dest, draw ? "draw" : "mill", 0))
      return ZO_E_FORBIDDEN;
  }
  if (taken < c->count && (!draw || SW(g, SW_DRAW_EMPTY) != ZS_LOSE_AT_STATE_CHECK))
    return ZO_E_EMPTY;
  return ZO_E_NONE;
}

/* Whether a cost of the cast mv (of the card spell) can't be paid, and
 * why (*err): then the card can't be cast, nothing moves and no cost is
 * paid (CR 601.2h: partial payments are not allowed, unpayable costs can't
 * be paid; 614.17b). Each cost is judged against the game as it stands
 * before the cast, in the order written (cost_move_unpaid,
 * cost_cards_unpaid); a cost of another kind is left to its own step.
 * Reports feature cant_costs when a "can't" effect forbids a move cost,
 * unpaid_costs for any other refusal (zcp/2 cast the spell and let the
 * cost fail). */
ZO_COLD static int cost_unpaid(zo_game *g, const zo_step *mv, int spell, zo_step_error *err) {
  for (int i = 0; i < mv->ncosts; i++) {
    const zo_step *c = &mv->costs[i];
    int cant = 0;
    zo_step_error e = ZO_E_NONE;
    if (c->kind == ST_MOVE) e = cost_move_unpaid(g, c, spell, &cant);
    else if (c->kind == ST_DRAW || c->kind == ST_MILL) e = cost_cards_unpaid(g, c, spell);
    if (e == ZO_E_NONE) continue;
    /* a meaning zcp/2 did not give */
    g->features_used |= (uint64_t)1 << (cant ? FT_CANT_COSTS : FT_UNPAID_COSTS);
    *err = e;
    return 1;
  }
  return 0;
}

/* ---- the move, phase by phase ---------------------------------------- */

/* move.redirected when an Aura that can't enter attached stays (CR 303.4i) */
#define ZO_STAYS_UNATTACHED 2

/* A move in progress: what its phases share. */
typedef struct {
  zo_game *g;
  int obj;
  zo_obj *o;
  const zo_step *mv;   /* the move as written */
  const zo_step *eff;  /* the move as finally replaced */
  zo_step_result *r;
  zo_step_error *err;  /* the move's error (the caller's) */
  int origin;          /* its zone, or its top-card's for a sub-card */
  int dest;            /* zone, ZO_ZONE_OUTSIDE, -1 none (e says why) */
  zo_step_error e;
  int redirected, replaced;
  int per_object;      /* visibility per object (FaB 3.0.3) */
  int dest_pub;        /* the visibility it will have there */
  int props;           /* it moves with its properties (FaB 3.0.7a) */
  int origin_arena, dest_arena;
  int was_arena;       /* it left the arena's list (not from under a card) */
  int grouped;         /* from one zone of a group (group:) to another: the
                          same object, no watch fires (issue 31) */
} move;

/* G8: the cause of the event as it happened: a replacement's own cause
 * word, else the written move's (a destroy replaced by another destination
 * stays the destroy it was unless the replacement names another cause). */
static inline const char *move_cause(const move *m) {
  return m->eff->cause[0] ? m->eff->cause : m->mv->cause;
}

/* The object exists, is in the zone the move names (from:), and is not
 * phased out (CR 702.24b). */
static ZO_ALWAYS_INLINE zo_outcome leave_check(move *m) {
  zo_game *g = m->g;
  const zo_obj *o = m->o;
  const zo_step *mv = m->mv;
  if (!o->exists) {
    *m->err = ZO_E_NOT_FOUND;
    return ZO_OUTCOME_NOT_FOUND;
  }
  m->origin = o->under >= 0 ? g->objs[o->under].zone : o->zone;
  if (mv->from.type != ZO_ZT_UNSET && mv->from.type != ZO_ZT_ANY &&
      !spec_matches(g, &mv->from, o->under >= 0 ? -1 : m->origin, o->owner)) {
    *m->err = ZO_E_NOT_IN_ZONE;
    return ZO_OUTCOME_FAILED;
  }
  if (mv->from.type == ZO_ZT_OUTSIDE && m->origin >= 0) HITSW(g, SW_OUTSIDE); /* 217.1e */
  if (o->phased_out) {
    /* CR 702.24b: a phased-out permanent is treated as though it doesn't
       exist; effects can't move it */
    HITSW(g, SW_PHASING);
    *m->err = ZO_E_PHASED_OUT;
    return ZO_OUTCOME_FAILED;
  }
  if (g->in_etb && (g->entering[m->obj] || g->etb_chosen[m->obj])) {
    /* CR 614.13a-b: an as-enters effect can't choose what enters with it,
       nor what one of the event's effects already moved */
    *m->err = ZO_E_CANNOT_CHOOSE;
    return ZO_OUTCOME_REJECTED;
  }
  return ZO_OUTCOME_NONE;
}

/* Where a move with attached_to: host of obj, from origin, to dest, goes:
 * an Aura onto the battlefield attached to an object it can't enchant
 * (here: one that is not a phased-in permanent, or itself) stays where it
 * is (-2), or from the stack goes to its owner's graveyard instead (CR
 * 303.4i); else dest. Takes no move, so the move stays in registers. */
ZO_COLD static int enters_attached_dest(zo_game *g, int obj, int origin, int dest, int host,
                                        int face_down) {
  /* face down it is a 2/2 creature with no subtypes, no Aura: it enters,
     unattached (CR 708.3, 708.2a, 303.4h) */
  if (ZT(g, dest)->role != ZR_BATTLEFIELD || !(g->objs[obj].types & g->classes.aura) || face_down)
    return dest;
  /* an Aura that's also a creature can't legally enchant anything (303.4d) */
  if (!(g->objs[obj].types & g->classes.creature) && zo_attach_host_ok(g, obj, host)) return dest;
  HITSW(g, SW_ATTACH);
  if (origin >= 0 && is_stack(g, origin)) {
    int gy = zo_zone_of_role(g, ZR_GRAVEYARD, g->objs[obj].owner);
    return gy >= 0 ? gy : dest;
  }
  return -2;
}

/* The owner's zone of rule set zone type t (or the shared one) that
 * exists, the first that can hold obj where there are several; -1 none. */
static int owner_zone_of_type(zo_game *g, int obj, int t) {
  int owner = g->objs[obj].owner, first = -1;
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (!zn->exists || zn->type != t || (zn->player >= 0 && zn->player != owner)) continue;
    if (first < 0) first = z;
    if (zo_zone_refuses(g, z, obj, 0) == ZO_E_NONE) return z;
  }
  return first;
}

/* One step of a chain of the rule set's own replacements (`instead:`,
 * issue 31) for a move of obj from origin bound for zone `at`: the first
 * entry of at's zone type not yet used in this move (*used, a bit per
 * entry by zone type) whose types and origin match, marked used, sends
 * the object to its owner's zone of the entry's type and sets the face it
 * writes (*eff, copied into *inst). Returns that zone, or -1 when no entry
 * applies. */
ZO_COLD static int instead_once(zo_game *g, int obj, int origin, int at, const zo_step **eff,
                                zo_step *inst, uint8_t *used) {
  const zo_zone_type *zt = ZT(g, at);
  int dt = g->zones[at].type, ot = origin >= 0 ? g->zones[origin].type : -1;
  for (int k = 0; k < zt->instead.value && k < ZO_MAX_INSTEAD; k++) {
    const zo_zone_instead *e = &zt->inst[k];
    if (used[dt] >> k & 1u) continue; /* CR 614.5, FaB 6.5: once per event */
    if (e->types && !(g->objs[obj].types & g->instead_types[dt][k])) continue;
    if (e->from && (ot < 0 || !(e->from >> ot & 1u))) continue;
    int to = e->to ? owner_zone_of_type(g, obj, e->to - 1) : at;
    if (to < 0) continue; /* no such zone (removed): it does not apply */
    used[dt] |= (uint8_t)(1u << k);
    hit(g, &zt->instead);
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
    if (e->face >= 0) {
      if (*eff != inst) *inst = **eff;
      inst->face = e->face;
      *eff = inst;
    }
    return to;
  }
  return -1;
}

/* The rule set's own replacements of a move into the destination's zone
 * type (`instead:`, issue 31), after the effects' (a Pendulum monster bound
 * for the Graveyard from the field goes face up to the Extra Deck): the
 * first entry whose types and origin match sends the object to its
 * owner's zone of the entry's type, with the entry's face; where that is
 * another zone whose type has entries, they are asked in turn about the
 * move as it now stands (a chain, each entry at most once per move as a
 * replacement applies once to an event: CR 614.5, FaB 6.5), so a chain
 * ends, a cycle included, after at most every entry of the rule set. An
 * entry that sets the face only ends the chain. */
ZO_COLD static int rule_instead(zo_game *g, int obj, int origin, int dest, const zo_step **eff,
                                zo_step *inst) {
  uint8_t used[ZO_MAX_ZONE_TYPES] = {0};
  int at = dest;
  for (;;) {
    int to = ZT(g, at)->instead.value ? instead_once(g, obj, origin, at, eff, inst, used) : -1;
    if (to < 0 || to == at) return to < 0 ? at : to;
    at = to;
  }
}

/* Where it goes: the written destination (CR 400.3's redirect), then the
 * replacement effects in force (CR 400.6, 616.1; FaB 6.5), then the rule
 * set's own (instead:). */
static ZO_ALWAYS_INLINE void destination(move *m, zo_step *inst) {
  zo_game *g = m->g;
  int redirected;
  zo_step_error e;
  m->dest = resolve_dest(g, m->obj, &m->mv->to, m->mv->choose, &redirected, &e);
  m->redirected = redirected;
  m->e = e;
  m->eff = m->mv;
  m->replaced = 0;
  if (m->eff->attach_to >= 0 && m->dest >= 0) {
    int d = enters_attached_dest(g, m->obj, m->origin, m->dest, m->eff->attach_to,
                                 m->eff->face == 1);
    if (d == -2) /* CR 303.4i: it stays (refused()) */
      m->dest = -1, m->e = ZO_E_CANNOT_HOLD, m->redirected = ZO_STAYS_UNATTACHED;
    else if (d != m->dest)
      m->dest = d, m->redirected = 1;
  }
  if (m->dest != -1 && g->nactive_repl) {
    /* copies: only they have their address taken, so that m stays in
       registers */
    int dest = m->dest;
    const zo_step *eff = m->eff;
    m->replaced = zo_replacements_apply(g, m->obj, m->origin, &dest, &eff, m->mv->cause);
    m->dest = dest;
    m->eff = eff;
    if (m->replaced) m->redirected = 0;
  }
  if (g->has_instead && m->dest >= 0 && ZT(g, m->dest)->instead.value) {
    const zo_step *eff = m->eff; /* a copy: m keeps no address taken (registers) */
    int to = rule_instead(g, m->obj, m->origin, m->dest, &eff, inst);
    if (to != m->dest) m->dest = to, m->replaced = 1, m->redirected = 0;
    m->eff = eff;
  }
}

/* A "can't" effect forbids the event as it finally stands, replaced or not
 * (CR 614.17, 614.17d; 101.2: "can't" wins): nothing moves, failed
 * (forbidden). A move to the zone the object is in that makes no new
 * object is no event. */
ZO_COLD static zo_outcome forbidden(move *m) {
  zo_game *g = m->g;
  if (m->dest == -1) return ZO_OUTCOME_NONE;
  if (m->dest >= 0 && m->dest == m->origin && !ZT(g, m->dest)->same_zone_new.value)
    return ZO_OUTCOME_NONE;
  if (!zo_cant_forbids(g, m->obj, m->origin, m->dest, move_cause(m), m->eff->face == 1))
    return ZO_OUTCOME_NONE;
  *m->err = ZO_E_FORBIDDEN;
  return ZO_OUTCOME_FAILED;
}

/* destination visibility (FaB: per object; the flip step 3.0.8 gives the
 * object its destination visibility before it moves, again after each
 * replacement 3.0.8a) */
static ZO_ALWAYS_INLINE void dest_visibility(move *m) {
  zo_game *g = m->g;
  int dest = m->dest;
  m->dest_pub = 1;
  if (dest >= 0) m->dest_pub = g->zones[dest].pub;
  if (m->eff->face == 1) m->dest_pub = 0;
  if (m->eff->face == 0) m->dest_pub = 1;
  m->per_object = SW(g, SW_VISIBILITY) == ZS_PER_OBJECT;
  /* a deck is a face-down pile (FaB 3.7.5; CR 401.2): nothing enters it
     face up */
  if (m->per_object && dest >= 0 && ZT(g, dest)->role == ZR_LIBRARY) {
    m->dest_pub = 0;
    hit(g, &ZT(g, dest)->ordered);
  }
  m->props = 1;
  if (m->per_object && dest != ZO_ZONE_OUTSIDE) {
    /* with the flip step (FaB 3.0.8) the object has its destination
       visibility as it moves; without it, its origin visibility */
    int flips = SW(g, SW_FLIP_STEP) == ZS_YES;
    if (flips && m->dest_pub != m->o->pub) HITSW(g, SW_FLIP_STEP);
    if (SW(g, SW_NO_PROPERTIES) == ZS_YES) m->props = flips ? m->dest_pub : m->o->pub;
  }
}

/* same zone (CR 400.8, FaB 3.0.7b): a new object where the zone says so,
 * else no move (only a change of visibility, per object). face: the
 * replaced move's; per_object, dest_pub: as dest_visibility found them. */
ZO_COLD static zo_outcome same_zone(zo_game *g, int obj, int dest, const zo_step *mv, int face,
                                    int per_object, int dest_pub, zo_step_result *r) {
  zo_obj *o = &g->objs[obj];
  const zo_zone_type *zt = ZT(g, dest);
  /* issue 31: a kind of card never face down there stays face up, a move
     into the zone it is in turning nothing (face_up_only:) */
  if (face == 1 && zt->face_up_only.value && zo_face_up_only(g, g->zones[dest].type, obj)) {
    face = 0;
    dest_pub = zt->pub.value;
  }
  if (zt->same_zone_new.value) {
    hit(g, &zt->same_zone_new);
    /* CR 406.3 today: a player allowed to look at a face-down card may go
       on looking until it leaves the zone, though it is a new object */
    int keep_look = o->look_mask && o->look_id == o->id && o->look_zone == dest &&
                    SW(g, SW_LOOK_FACE_DOWN) == ZS_UNTIL_LEAVES;
    new_identity(g, obj);
    if (keep_look) {
      HITSW(g, SW_LOOK_FACE_DOWN);
      o->look_id = o->id;
    }
    /* stickers stay on it (123.5: it moved to a public zone) */
    zo_obj_drop_marks(g, obj, zo_marks_kept(g, obj, dest, dest, mv->cause));
    /* the new object has just been put there (CR 400.8, 400.10; 217.1f):
       face up unless the move says face down, as for a zone change
       (406.3) */
    o->face_down = face == 1;
    event(r, obj, ZO_OUTCOME_NEW_OBJECT_IN_PLACE);
    then_step(g, mv, obj, r);
    return ZO_OUTCOME_NEW_OBJECT_IN_PLACE;
  }
  HITSW(g, SW_SAME_ZONE);
  if (per_object && dest_pub != o->pub) {
    /* it only changes visibility; public -> private is a new object */
    if (o->pub && !dest_pub) {
      HITSW(g, SW_NEW_OBJECT);
      new_identity(g, obj);
      zo_obj_drop_marks(g, obj, 0);
    }
    o->pub = dest_pub;
    o->face_down = !dest_pub;
  }
  event(r, obj, ZO_OUTCOME_NO_MOVE);
  then_step(g, mv, obj, r); /* the same object, where it was */
  return ZO_OUTCOME_NO_MOVE;
}

/* A move to where the object is: outside to outside moves nothing
 * (outside the game is not a zone); a zone to itself is same_zone's. */
static ZO_ALWAYS_INLINE zo_outcome same_zone_move(move *m) {
  if (m->dest == ZO_ZONE_OUTSIDE && m->origin == ZO_ZONE_OUTSIDE) {
    event(m->r, m->obj, ZO_OUTCOME_NO_MOVE);
    return ZO_OUTCOME_NO_MOVE;
  }
  if (m->dest >= 0 && m->dest == m->origin && m->o->under < 0)
    return same_zone(m->g, m->obj, m->dest, m->mv, m->eff->face, m->per_object, m->dest_pub,
                     m->r);
  return ZO_OUTCOME_NONE;
}

/* objects that can't exist there cease first (FaB 3.0.11 Uzuri example) */
static ZO_ALWAYS_INLINE zo_outcome ceases_on_leaving(move *m) {
  zo_game *g = m->g;
  zo_obj *o = m->o;
  int obj = m->obj, origin = m->origin, dest = m->dest;
  m->origin_arena = is_arena(g, origin);
  m->dest_arena = is_arena(g, dest);
  int leaving_arena = m->origin_arena && o->under < 0 && !m->dest_arena;
  if (dest == -1 && m->e == ZO_E_NONE) return ZO_OUTCOME_NONE;
  /* FaB 8.1.8a: a token exists only in the arena or as a sub-card, so a
     move to any zone outside the arena ends it, from a sub-card too */
  if (is_token(g, o) && !m->dest_arena && SW(g, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY) {
    HITSW(g, SW_TOKEN_LEAVES);
    zo_watches_fire(g, obj, origin, dest, m->props, o->controller, move_cause(m));
    zo_obj_cease(g, obj, m->r);
    return ZO_OUTCOME_CEASED;
  }
  if (o->kind == ZK_MACRO && leaving_arena && SW(g, SW_MACROS) != ZS_NONE) {
    HITSW(g, SW_MACROS); /* FaB 1.5.3 */
    zo_obj_cease(g, obj, m->r);
    return ZO_OUTCOME_CEASED;
  }
  if (o->kind == ZK_ABILITY && is_stack(g, origin) && !is_stack(g, dest)) {
    HITSW(g, SW_ABILITIES); /* abilities exist only on the stack */
    zo_obj_cease(g, obj, m->r);
    return ZO_OUTCOME_CEASED;
  }
  if (o->kind == ZK_PROXY && !m->dest_arena) {
    zo_obj_cease(g, obj, m->r);
    return ZO_OUTCOME_CEASED;
  }
  /* only cards exist outside the game (CR 400.10, 217.1e); anything else
     that leaves the game ceases to exist (as FaB 1.5.3 says of macros) */
  if (dest == ZO_ZONE_OUTSIDE && o->kind != ZK_CARD) {
    zo_obj_cease(g, obj, m->r);
    return ZO_OUTCOME_CEASED;
  }
  return ZO_OUTCOME_NONE;
}

/* Zone dest refuses obj (refuse: why, into *err): FaB 3.0.11: a rule
 * (by_rule) clears it, an effect fails (switch cannot_hold:
 * fail_or_clear); else it fails. */
ZO_COLD static zo_outcome refused_by_zone(zo_game *g, int obj, int dest, int by_rule,
                                          zo_step_error refuse, zo_step_error *err,
                                          zo_step_result *r) {
  *err = refuse;
  if (SW(g, SW_CANNOT_HOLD) == ZS_FAIL_OR_CLEAR) {
    /* FaB 3.0.11: a rule clears it, an effect fails */
    HITSW(g, SW_CANNOT_HOLD);
    if (refuse == ZO_E_CANNOT_HOLD && SW(g, SW_WRONG_OWNER) == ZS_CANNOT_HOLD &&
        !ZT(g, dest)->wrong_owner.value && /* issue 31: else the zone type's own */
        ZT(g, dest)->owner_only.value && g->zones[dest].player != g->objs[obj].owner)
      HITSW(g, SW_WRONG_OWNER);
    if (by_rule && SW(g, SW_CLEAR) != ZS_NONE) {
      HITSW(g, SW_CLEAR); /* 3.0.12: the switch decided this clear */
      return zo_obj_clear(g, obj, r);
    }
    return ZO_OUTCOME_FAILED;
  }
  return ZO_OUTCOME_FAILED;
}

/* What the destination can't take: no such zone; CR 400.4b (some cards
 * can't leave the command zone); a token that left can't come back (CR
 * 216.3, 110.5g, 111.8); nothing but a card leaves the removed-from-the-
 * game zone (217.7a of 2004); CR 400.4a (an instant or sorcery stays); and
 * the zone's owner, holds and capacity (zo_zone_refuses). */
static ZO_ALWAYS_INLINE zo_outcome refused(move *m) {
  zo_game *g = m->g;
  zo_obj *o = m->o;
  int origin = m->origin, dest = m->dest;
  if (dest == -1) {
    *m->err = m->e;
    if (m->redirected == ZO_STAYS_UNATTACHED) return ZO_OUTCOME_STAYED; /* CR 303.4i */
    if (SW(g, SW_CANNOT_HOLD) == ZS_FAIL_OR_CLEAR) {
      HITSW(g, SW_CANNOT_HOLD);
      if (m->mv->by_rule && SW(g, SW_CLEAR) != ZS_NONE) {
        HITSW(g, SW_CLEAR); /* 3.0.12: the switch decided this clear */
        return zo_obj_clear(g, m->obj, m->r);
      }
    }
    return ZO_OUTCOME_FAILED;
  }
  /* CR 400.4b: some cards can't leave the command zone, for another zone
     or for outside the game */
  if (origin >= 0 && g->zones[origin].keeps && (dest >= 0 || dest == ZO_ZONE_OUTSIDE) &&
      (o->types & g->keep_types[g->zones[origin].type])) {
    hit(g, &ZT(g, origin)->keeps);
    HITSW(g, SW_CANNOT_HOLD);
    *m->err = ZO_E_CANNOT_HOLD;
    return ZO_OUTCOME_STAYED;
  }
  if (dest < 0) return ZO_OUTCOME_NONE;
  const zo_zone_type *zt = ZT(g, dest);
  /* CR 216.3 (2004), 110.5g (2011): a token that left can't come back;
     CR 111.8 (current): it can't move to any zone */
  if (o->left_arena &&
      ((zt->arena.value && SW(g, SW_TOKEN_RETURN) == ZS_NOT_BATTLEFIELD) ||
       SW(g, SW_TOKEN_RETURN) == ZS_CANNOT_MOVE)) {
    HITSW(g, SW_TOKEN_RETURN);
    *m->err = ZO_E_TOKEN_LEFT;
    return ZO_OUTCOME_STAYED;
  }
  /* CR 217.7a (2004): an object that isn't a card (a token, a copy of a
     spell) can't be returned from the removed-from-the-game zone in any
     way: it stays there until it ceases */
  if (SW(g, SW_EXILED_NONCARDS) == ZS_STAYS && origin >= 0 && ZT(g, origin)->role == ZR_EXILE &&
      (o->kind != ZK_CARD || is_token(g, o))) {
    HITSW(g, SW_EXILED_NONCARDS);
    *m->err = ZO_E_CANNOT_HOLD;
    return ZO_OUTCOME_STAYED;
  }
  /* CR 400.4a: an instant or sorcery that would enter the battlefield
     stays; but one put onto it face down is turned face down before it
     enters, a creature with no other types (708.3, 708.2a; 504.2 of 2007),
     and enters like any (a manifested instant card) */
  if ((zt->holds.value & ZH_NO_INSTANTS) && (o->types & g->classes.instant_sorcery) && m->eff->face == 1)
    g->features_used |= (uint64_t)1 << FT_FACE_DOWN_INSTANTS; /* a meaning zcp/1 did not give */
  if ((zt->holds.value & ZH_NO_INSTANTS) && (o->types & g->classes.instant_sorcery) && m->eff->face != 1) {
    hit(g, &zt->holds);
    HITSW(g, SW_CANNOT_HOLD);
    *m->err = ZO_E_CANNOT_HOLD;
    return ZO_OUTCOME_STAYED;
  }
  /* issue 31: a kind of card that is never face down there (face_up_only:
     a Yu-Gi-Oh! Token can't be Set) can't be put there face down */
  if (m->eff->face == 1 && zt->face_up_only.value && zo_face_up_only(g, g->zones[dest].type, m->obj))
    return refused_by_zone(g, m->obj, dest, m->mv->by_rule, ZO_E_CANNOT_HOLD, m->err, m->r);
  const zo_zone *dzn = &g->zones[dest];
  zo_step_error refuse = dzn->plain && dzn->exists && (!dzn->owner_only || dzn->player == o->owner)
                             ? ZO_E_NONE : zo_zone_refuses(g, dest, m->obj, ZF_COUNT);
  /* issue 31: a full zone with displace: makes room instead */
  if (refuse == ZO_E_CAPACITY && zt->displace.value) refuse = zo_zone_displace(g, dest, m->obj, m->r);
  if (refuse) return refused_by_zone(g, m->obj, dest, m->mv->by_rule, refuse, m->err, m->r);
  return ZO_OUTCOME_NONE;
}

/* the move itself: out of its zone (or from under its top-card), into the
 * destination; a new object or not (CR 400.7: every zone change; FaB
 * 3.0.9: entering a zone outside the arena that is not the stack, or a
 * public object becoming private), with its history (3.0.9c), controller
 * (CR 109.4, FaB 1.2.1b) and visibility; a copy of a spell resolving onto
 * the battlefield becomes a token (CR 110.5 of 2011, 111.13). Returns
 * whether it became new. */
static ZO_ALWAYS_INLINE int transfer(move *m) {
  zo_game *g = m->g;
  zo_obj *o = m->o;
  int obj = m->obj, origin = m->origin, dest = m->dest;
  int was_pub = o->pub;
  uint64_t old_id = o->id;
  int was_sub = o->under >= 0;
  o->phased_out = 0;
  int was_arena = m->was_arena = m->origin_arena && o->under < 0;
  if (o->under >= 0) o->under = -1;
  else zone_remove_obj(g, obj);
  int newobj;
  if (SW(g, SW_NEW_OBJECT) == ZS_LEAVE_ARENA) {
    /* FaB 3.0.9: new when entering a zone outside the arena that is not the
       stack, or when a public object becomes private */
    newobj = (dest == ZO_ZONE_OUTSIDE) || (!m->dest_arena && !is_stack(g, dest)) ||
             (m->per_object && was_pub && !m->dest_pub);
    /* a sub-card that leaves its top-card for the stack or an arena zone,
       staying public, is no new object: 3.0.9 lists the only resets, and
       3.0.14b makes a card new when it becomes a sub-card, not when it
       stops being one */
  } else {
    newobj = 1; /* CR 400.7: every zone change */
  }
  /* issue 31: zone types of one group count as one zone (group:): a move
     between two zones of it keeps the object, unless it turns private
     (per-object visibility) or was a sub-card */
  if (m->grouped) {
    if (!was_sub && !(m->per_object && was_pub && !m->dest_pub)) {
      hit(g, &ZT(g, dest)->group);
      if (newobj) g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
      newobj = 0;
    } else {
      m->grouped = 0;
    }
  }
  if (newobj) HITSW(g, SW_NEW_OBJECT);
  if (dest == ZO_ZONE_OUTSIDE || origin == ZO_ZONE_OUTSIDE)
    HITSW(g, SW_OUTSIDE); /* CR 400.10: outside the game is not a zone */
  if (dest == ZO_ZONE_OUTSIDE) {
    o->zone = ZO_ZONE_OUTSIDE;
  } else {
    int pos = m->eff->position;
    if (g->zones[dest].ordered && pos >= 0 && pos > g->zones[dest].n) pos = ZO_POS_BOTTOM;
    if (!g->zones[dest].ordered) pos = ZO_POS_BOTTOM; /* unordered: arrival order */
    zone_insert(g, dest, obj, pos);
    o->arrived_step = g->nsteps; /* CR 400.7f: when and how it came */
    o->arrived_by_check = g->ntrig && !strcmp(move_cause(m), "state_check");
    if (o->types & g->classes.two_handed) zo_twoh_equip_second(g, dest, obj);
  }
  /* CR 110.5 (2011), 111.13: a copy of a permanent spell that resolves
     becomes a token, and follows the token rules from then on */
  if (o->kind == ZK_COPY && dest >= 0 && ZT(g, dest)->role == ZR_BATTLEFIELD &&
      is_stack(g, origin) && SW(g, SW_COPY_BECOMES_TOKEN) == ZS_YES) {
    HITSW(g, SW_COPY_BECOMES_TOKEN);
    o->kind = ZK_TOKEN;
  }
  if (newobj) {
    new_identity(g, obj);
    if (g->nctrls) zo_control_carry(g, obj, old_id, origin, dest); /* CR 400.7a */
    /* CR 400.7k: the madness trigger put the exiled card into a public
       zone; a trigger on its discard may find it (triggers.c) */
    if (g->ntrig && origin >= 0 && dest >= 0 && ZT(g, origin)->role == ZR_EXILE &&
        ZT(g, dest)->pub.value && !strcmp(move_cause(m), "madness")) {
      o->madness_from = old_id;
      o->madness_id = o->id;
    }
    if (g->nmarks) zo_obj_drop_marks(g, obj, zo_marks_kept(g, obj, origin, dest, move_cause(m)));
    if (SW(g, SW_HISTORY) == ZS_KEPT) {
      HITSW(g, SW_HISTORY);
      o->came_from = origin;
    } else {
      o->came_from = -1;
    }
  }
  /* controller: only on the battlefield/arena and the stack (CR 109.4,
     FaB 1.2.1b); kept across a move between such zones, else the owner */
  if (dest >= 0 && g->zones[dest].controller) {
    /* arriving from a zone without controllers: the player who performs
       the move controls it (a spell's caster, CR 405.4; whoever puts a
       permanent onto the battlefield, 110.2a), else its owner */
    int kept = o->controller >= 0;
    if (!kept) o->controller = m->mv->kind == ST_MOVE && m->mv->player >= 0 ? m->mv->player : o->owner;
    /* CR 110.2: it entered under that control; but the permanent a spell
       becomes is by default its caster's, whoever controls it now, where
       the control effect goes on with it (110.2b, 400.7a: keeps_control) */
    /* issue 31: a move within a group (group:) keeps the object, and with
       it the control it has by default (a control effect moving it to its
       controller's zone, follows_control, ends as it would have) */
    if (!(kept && origin >= 0 && is_stack(g, origin) && o->ctrl_default >= 0 &&
          SW(g, SW_KEEPS_CONTROL) == ZS_YES) &&
        !(kept && m->grouped && o->ctrl_default >= 0))
      o->ctrl_default = o->controller;
    hit(g, &ZT(g, dest)->controller);
  } else {
    o->controller = o->ctrl_default = -1;
  }
  if (m->per_object) {
    o->pub = m->dest_pub;
    o->face_down = !m->dest_pub;
  } else {
    o->face_down = m->eff->face == 1;
  }
  if (was_arena && !m->dest_arena && is_token(g, o)) o->left_arena = 1;
  if (dest >= 0 && g->zones[dest].ordered &&
      SW(g, SW_STACK_LAYERS) == ZS_YES && is_stack(g, dest))
    HITSW(g, SW_STACK_LAYERS);
  if (origin >= 0 && SW(g, SW_STACK_LAYERS) == ZS_YES && is_stack(g, origin))
    HITSW(g, SW_STACK_LAYERS); /* FaB 3.15.6: the layers above move down */
  return newobj;
}

/* After the move: sub-cards (FaB 3.0.14c/e), the destination's attributes
 * it relied on, a shuffle, watched triggers, the event, then:.
 * ctrl_before: its controller before it moved (CR 603.3a). */
static ZO_ALWAYS_INLINE zo_outcome after_move(move *m, int newobj, int ctrl_before) {
  zo_game *g = m->g;
  zo_obj *o = m->o;
  int obj = m->obj, dest = m->dest;
  /* FaB 3.0.14c/e: sub-cards follow a top-card that stays the same object,
     and are cleared when it becomes a new one */
  if (g->has_subs) zo_subs_follow(g, obj, newobj, m->r);
  /* CR 303.4f, 303.4h: it enters attached, as it enters */
  if (m->eff->attach_to >= 0 && o->zone == dest && dest >= 0 && ZT(g, dest)->role == ZR_BATTLEFIELD)
    zo_enters_attached(g, obj, m->eff->attach_to);
  else if (m->eff->attach_player >= 0 && o->zone == dest && dest >= 0 && ZT(g, dest)->role == ZR_BATTLEFIELD)
    zo_enters_attached_player(g, obj, m->eff->attach_player); /* to a player */
  if (dest >= 0) {
    /* the destination's attributes this move relied on */
    const zo_zone_type *dz = ZT(g, dest);
    if (dz->per_player.value) hit(g, &dz->per_player);
    hit(g, &dz->pub);
    if (dz->arena.value || m->was_arena) hit(g, &dz->arena);
    if (dz->ordered.value) hit(g, &dz->ordered);
  }
  if (m->eff->shuffle == ZO_SHUFFLE_ORDER && dest >= 0) {
    if (zo_game_order_zone(g, dest, m->eff)) zo_zone_shuffled(g, dest, m->r);
  } else if (m->eff->shuffle && dest >= 0) {
    zo_game_shuffle_zone(g, dest, m->eff->seed);
    zo_zone_shuffled(g, dest, m->r);
  }
  /* a move within a group is no zone change a watch sees (issue 31) */
  if (g->ntrig && !m->grouped)
    zo_watches_fire(g, obj, m->origin, o->zone, m->props, ctrl_before, move_cause(m));
  else if (g->ntrig)
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
  zo_outcome out = m->replaced ? ZO_OUTCOME_REPLACED
                   : m->redirected ? ZO_OUTCOME_REDIRECTED
                                   : ZO_OUTCOME_MOVED;
  event(m->r, obj, out);
  if (m->mv->then) then_step(g, m->mv, obj, m->r);
  if (m->mv->ncosts) cost_steps(g, m->mv, m->r);
  return out;
}

/* Move one object (CR 400.6; FaB 3.0.7-3.0.11), phase by phase. `mv` holds
 * to/position/face/by/cause/then. Returns the object's outcome, sets *err.
 * Appends events to r. Inlined into zo_game_apply_to (the common step);
 * the steps that move several objects call it through move_each. */
static ZO_ALWAYS_INLINE zo_outcome move_one(zo_game *g, int obj, const zo_step *mv,
                                            zo_step_error *err, zo_step_result *r) {
  move m;
  m.g = g;
  m.obj = obj;
  m.o = &g->objs[obj];
  m.mv = mv;
  m.r = r;
  m.err = err;
  *err = ZO_E_NONE;
  zo_outcome out;
  zo_step inst; /* the move as a rule set's instead: leaves it (issue 31) */
  if ((out = leave_check(&m))) return out;
  destination(&m, &inst);
  if (m.g->ncants && (out = forbidden(&m))) return out;
  dest_visibility(&m);
  if ((out = same_zone_move(&m))) return out;
  if ((out = ceases_on_leaving(&m))) return out;
  if ((out = refused(&m))) return out;
  /* issue 31: from one zone of a group to another (group:) */
  m.grouped = g->has_group && m.dest >= 0 && m.origin >= 0 && m.dest != m.origin &&
              ZT(g, m.dest)->group.value && ZT(g, m.dest)->group.value == ZT(g, m.origin)->group.value;
  /* CR 614.13: its as-enters effects move other objects first; not for
     a card put onto the battlefield face down, which has no abilities as
     it enters (708.3, 708.2a), nor one that moves within a group */
  if (g->netb && m.dest >= 0 && m.dest != m.origin && ZT(g, m.dest)->role == ZR_BATTLEFIELD &&
      m.eff->face != 1 && !m.grouped)
    zo_etb_apply(g, obj, r);
  if (g->in_etb) g->etb_chosen[obj] = 1; /* 614.13b: chosen once */
  int ctrl_before = m.o->controller;
  int newobj = transfer(&m);
  /* issue 31: the marks its new zone clears from an object that stays
     itself (clears:) */
  if (g->has_clears && !newobj && m.dest >= 0 && m.dest != m.origin && ZT(g, m.dest)->clears.value)
    zo_arrival_clears(g, obj, m.dest);
  return after_move(&m, newobj, ctrl_before);
}

/* move_one, called (not inlined) by the steps that move several objects. */
static zo_outcome move_each(zo_game *g, int obj, const zo_step *mv, zo_step_error *err,
                            zo_step_result *r) {
  return move_one(g, obj, mv, err, r);
}

/* A move is most steps: it is done here, with the move inlined; any other
 * step goes to its room through zo_step_dispatch (steps.c). */
void zo_game_apply_to(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  r->outcome = ZO_OUTCOME_NO_MOVE;
  r->error = ZO_E_NONE;
  if (g->nleft && zo_step_names_departed(g, s)) { /* CR 800.4b, 800.4d, 800.4k */
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_WRONG_PLAYER;
    return;
  }
  if (s->attach_player >= 0 && zo_aura_player_refused(g, r)) return; /* mtg-1999 */
  if (s->kind != ST_MOVE) { /* a move is most steps: kept out of the big switch */
    zo_step_dispatch(g, s, obj, r);
    return;
  }
  int o = obj;
  if (o < 0) {
    if (s->ref < 0 && s->card >= 0 && g->objs[s->card].exists) o = s->card;
    else if ((o = zo_step_object(g, s, r)) < 0) return;
  }
  if (s->player >= 0 && !zo_perform_move_ok(g, s, o, r)) return; /* issue 12, G3 */
  zo_step_error e;
  if (s->ncosts && cost_unpaid(g, s, o, &e)) { /* CR 601.2h, 614.17b */
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = e;
    return;
  }
  r->outcome = move_one(g, o, s, &e, r);
  r->error = e;
}

/* A rule's move (by: rule) to the top of a zone of slot to_type, with
 * cause `cause`: every handle and player option unwritten (-1: nobody
 * performs it as a put, it enters attached to nothing), into *mv. */
static void rule_move_step(zo_step *mv, int to_type, const char *cause) {
  memset(mv, 0, sizeof *mv);
  mv->kind = ST_MOVE;
  mv->card = mv->ref = -1;
  mv->from.type = ZO_ZT_UNSET;
  mv->to.type = to_type;
  mv->to.player = -1;
  mv->position = ZO_POS_TOP;
  mv->face = -1;
  mv->by_rule = 1;
  mv->player = mv->order_by = mv->turn_of = -1;
  mv->attach_to = mv->aura = mv->copy_of = mv->attach_player = -1;
  snprintf(mv->cause, sizeof mv->cause, "%s", cause);
}

void zo_rule_move(zo_game *g, int obj, int to_type, const char *cause, zo_step_result *r) {
  zo_step mv;
  rule_move_step(&mv, to_type, cause);
  nested_step(g, &mv, obj, r);
}

void zo_rule_move_into(zo_game *g, int obj, int zone, const char *cause, zo_step_result *r) {
  zo_step mv;
  /* the private slot displace: uses names the zone's type; a displacement
     this move may cause sets it again, after this move's destination is
     resolved */
  g->zmap[g->displace_slot] = g->zones[zone].type;
  rule_move_step(&mv, g->displace_slot, cause);
  mv.to.player = g->zones[zone].player;
  mv.to.index = g->zones[zone].index;
  nested_step(g, &mv, obj, r);
}

zo_step_error zo_zone_displace(zo_game *g, int zone, int obj, zo_step_result *r) {
  const zo_zone_type *zt = ZT(g, zone);
  zo_step_error refuse = ZO_E_CAPACITY;
  /* each round takes one object out, so the zone's objects bound it */
  for (int round = 0, n = g->zones[zone].n; refuse == ZO_E_CAPACITY && round < n; round++) {
    int x = zo_zone_displaced(g, zone, obj);
    if (x < 0) break;
    hit(g, &zt->displace);
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
    g->zmap[g->displace_slot] = zt->displace.value - 1;
    zo_rule_move(g, x, g->displace_slot, "displaced", r);
    if (g->objs[x].exists && g->objs[x].zone == zone) break; /* it stayed */
    refuse = zo_zone_refuses(g, zone, obj, ZF_COUNT);
  }
  return refuse;
}

/* ---- steps that move several objects -------------------------------- */

/* One object's part in a step that moves several (move_together, draw,
 * mill): an event for what move_one does not report itself (it reports
 * arrivals, no_move, and cease/clear do their own), *moved once one
 * arrived somewhere, *first the first other outcome and *first_err its
 * error. The step's outcome is then moved, else that first outcome with
 * its error (cases/README.md, Outcomes). */
static void tally_move(zo_step_result *r, int obj, zo_outcome o, zo_step_error e, int *moved,
                       zo_outcome *first, zo_step_error *first_err) {
  if (o == ZO_OUTCOME_MOVED || o == ZO_OUTCOME_REDIRECTED || o == ZO_OUTCOME_REPLACED) {
    *moved = 1;
    return;
  }
  if (o != ZO_OUTCOME_CEASED && o != ZO_OUTCOME_CLEARED && o != ZO_OUTCOME_NO_MOVE)
    event(r, obj, o);
  if (*first == ZO_OUTCOME_NONE) {
    *first = o;
    *first_err = e; /* the step's error with that outcome (forbidden, cannot_hold...) */
  }
}

static zo_outcome tallied(int moved, zo_outcome first) {
  return moved ? ZO_OUTCOME_MOVED : first != ZO_OUTCOME_NONE ? first : ZO_OUTCOME_NO_MOVE;
}

/* g->order_scratch with room for n arrivals, n positions and n arrival
 * flags (one per move of the step). */
static int *order_scratch(zo_game *g, int n) {
  if (n > g->order_cap) {
    g->order_cap = n;
    g->order_scratch = zo_xrealloc(g->order_scratch, 3 * (size_t)n * sizeof *g->order_scratch);
  }
  return g->order_scratch;
}

/* Did handle h arrive in zone z in step s (arrived[i]: move i of s took
 * its object to a new place)? A member that did not move (a move to the
 * zone it is in, Z.1.Ruling.4, FaB 3.0.7b; or one that failed or stayed)
 * is not an arrival, even where it already sits in z. */
static int arrived_in(const zo_game *g, const zo_step *s, const int *arrived, int h, int z) {
  const zo_obj *o = &g->objs[h];
  if (!o->exists || o->zone != z || o->under >= 0) return 0;
  for (int i = 0; i < s->nmoves; i++)
    if (s->moves[i].card == h && arrived[i]) return 1;
  return 0;
}

/* The rank of object h in turn order from the active player (CR 101.4):
 * the case lists its players in turn order, the first one's turn first;
 * after an untap step, whose player's turn it is (g->turn_player). */
static int turn_rank(const zo_game *g, int h) {
  const zo_obj *o = &g->objs[h];
  int p = o->controller >= 0 ? o->controller : o->owner, n = g->c->nplayers;
  return n > 0 ? ((p - g->turn_player) % n + n) % n : p;
}

/* CR 405.3: objects an effect puts on the stack together go on in APNAP
 * order, the active player's lowest, then each other player's in turn
 * order; each player orders only their own. order[*n] lists the arrivals
 * top first, as chosen (order:, else the list); under `apnap` the arrivals
 * the choice left out join it in list order, and it is sorted by
 * controller, last in turn order on top, keeping each player's relative
 * order: the part of a chosen order that mixes players is no choice the
 * rule leaves them, so the rule's order stands. Under `listed` (the other
 * rule sets, where the text is silent) the chosen order stands as it is. */
static void stack_apnap(zo_game *g, const zo_step *s, int z, const int *arrived, int *order,
                        int *n) {
  if (SW(g, SW_STACK_ARRIVAL) != ZS_APNAP) {
    if (*n > 1) HITSW(g, SW_STACK_ARRIVAL);
    return;
  }
  for (int i = 0; i < s->nmoves; i++) {
    int h = s->moves[i].card, listed = 0;
    if (!arrived[i] || !arrived_in(g, s, arrived, h, z)) continue;
    for (int j = 0; j < *n; j++) listed |= order[j] == h;
    if (!listed) order[(*n)++] = h;
  }
  if (*n > 1) HITSW(g, SW_STACK_ARRIVAL);
  for (int i = 1; i < *n; i++) {
    int h = order[i], rank = turn_rank(g, h), j = i;
    for (; j > 0 && turn_rank(g, order[j - 1]) < rank; j--) order[j] = order[j - 1];
    if (j != i) g->features_used |= (uint64_t)1 << FT_TOGETHER_ORDER; /* sorted by controller */
    order[j] = h;
  }
}

/* Place the arrivals of ordered zone z in the chosen order (default: the
 * list order, first on top) in the positions they took (CR 401.4 / 404.3,
 * 217.2d, Z.6.6, FaB 4.4.3c: only the cards put there are ordered; Z.1.4:
 * the order comes from the case). Objects of z that did not arrive in
 * this step keep their places (CR 400.5: the rest of a library keeps its
 * order), and a handle of the chosen order that did not arrive is left
 * where it is. g->order_scratch holds room for the step (order_scratch)
 * and the arrival flags after its two first parts. */
static void order_arrivals(zo_game *g, const zo_step *s, int z, const int *arrived) {
  zo_zone *zn = &g->zones[z];
  int *order = g->order_scratch, *pos = order + g->order_cap, n = 0;
  if (s->norder && spec_matches(g, &s->order_zone, z, -1) &&
      (s->order_zone.player >= 0 || zn->player < 0 ||
       zn->player == g->objs[s->order_zone_handles[0]].owner)) {
    for (int i = 0; i < s->norder; i++)
      if (arrived_in(g, s, arrived, s->order_zone_handles[i], z))
        order[n++] = s->order_zone_handles[i];
    HITSW(g, SW_ORDER_CHOOSER);
  } else {
    for (int i = 0; i < s->nmoves; i++)
      if (arrived[i] && arrived_in(g, s, arrived, s->moves[i].card, z)) order[n++] = s->moves[i].card;
  }
  if (zn->stack) stack_apnap(g, s, z, arrived, order, &n);
  /* a member that did not move but sits in z keeps its place while others
     arrive (CR 400.5): a meaning zcp/1 did not give (together_order) */
  for (int i = 0; n > 0 && i < s->nmoves; i++)
    if (!arrived[i] && g->objs[s->moves[i].card].exists && g->objs[s->moves[i].card].zone == z)
      g->features_used |= (uint64_t)1 << FT_TOGETHER_ORDER;
  if (n < 2) return;
  int k = 0;
  for (int i = 0; i < zn->n && k < n; i++)
    for (int j = 0; j < n; j++)
      if (zn->objs[i] == order[j]) {
        pos[k++] = i;
        break;
      }
  for (int j = 0; j < k; j++) zn->objs[pos[j]] = order[j];
}

/* Move several objects at once (CR 400.6 for each, in the listed order),
 * then order the arrivals in each ordered zone. */
/* CR 614.13a: the members of s that would enter the battlefield (where
 * the owner's redirect and the replacements in force send them) are
 * marked as entering at once, before any moves. */
static void etb_mark_together(zo_game *g, const zo_step *s) {
  for (int i = 0; i < s->nmoves; i++) {
    const zo_step *mv = &s->moves[i];
    zo_obj *o = &g->objs[mv->card];
    if (!o->exists || o->phased_out) continue;
    move m; /* where the move's own destination phase will send it */
    zo_step inst;
    memset(&m, 0, sizeof m);
    m.g = g;
    m.obj = mv->card;
    m.o = o;
    m.mv = mv;
    m.origin = o->under >= 0 ? g->objs[o->under].zone : o->zone;
    destination(&m, &inst);
    if (m.dest >= 0 && m.dest != m.origin && ZT(g, m.dest)->role == ZR_BATTLEFIELD)
      zo_etb_mark(g, mv->card);
  }
}

void zo_step_move_together(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  int moved = 0;
  zo_outcome first = ZO_OUTCOME_NONE;
  zo_step_error first_err = ZO_E_NONE;
  int need = s->norder > s->nmoves ? s->norder : s->nmoves;
  int *arrived = order_scratch(g, need) + 2 * g->order_cap;
  if ((s->player >= 0 || s->order_by >= 0) && !zo_perform_together_ok(g, s, r)) return;
  if (g->netb) etb_mark_together(g, s); /* CR 614.13a: they enter at once */
  g->together = s; /* CR 303.4f: none is there yet for another to enter attached to */
  /* CR 401.4 / 404.3 (owner orders) or Z.1.4: the order comes from the case */
  for (int i = 0; i < s->nmoves; i++) {
    zo_step_error e;
    zo_outcome o = move_each(g, s->moves[i].card, &s->moves[i], &e, r);
    /* an arrival: it went somewhere new (a clear is a move to the
       graveyard, FaB 3.0.12) */
    arrived[i] = o == ZO_OUTCOME_MOVED || o == ZO_OUTCOME_REDIRECTED ||
                 o == ZO_OUTCOME_REPLACED || o == ZO_OUTCOME_CLEARED;
    tally_move(r, s->moves[i].card, o, e, &moved, &first, &first_err);
  }
  g->together = NULL;
  for (int z = 0; z < g->nzones; z++)
    if (g->rs->zones[g->zones[z].type].ordered.value) order_arrivals(g, s, z, arrived);
  if (g->netb) zo_etb_event_end(g);
  r->outcome = tallied(moved, first);
  if (!moved && first != ZO_OUTCOME_NONE) r->error = first_err;
}

/* The case zone type of player's hand zone instance `hand`, for a move
 * there: the case's own, or the private slot when the case never names the
 * hand. */
static int hand_type(const zo_game *g, int hand) {
  int ztype = -1;
  for (int k = 0; k < g->c->nztypes; k++)
    if (g->zmap[k] == g->zones[hand].type) ztype = k;
  return ztype < 0 ? g->hand_slot : ztype;
}

/* Draw (to the player's hand, CR 121.2) or mill (to s->to, by default the
 * graveyard; CR 701.13) s->count cards from the top of the player's
 * library, one move each. Drawing from an empty library loses the game at
 * the next state check (CR 704.5b) or fails (FaB 8.5.6), as the rule set
 * says. */
void zo_step_draw_mill(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  int lib = zo_zone_of_role(g, ZR_LIBRARY, s->player);
  int moved = 0, failed = 0, replaced = 0;
  zo_outcome o = ZO_OUTCOME_NONE, first = ZO_OUTCOME_NONE;
  zo_step_error first_err = ZO_E_NONE;
  for (int i = 0; i < s->count; i++) {
    /* CR 121.2: one draw at a time; 614.11: a draw replacement applies
       even to a draw from an empty library, and its steps are done before
       the next draw (614.11a) */
    /* CR 614.17c: a draw that can't happen (a can't effect forbids its
       card's move to the hand) is replaced by no draw replacement (none
       is a self-replacement effect) */
    /* CR 121.3: a player who can't draw draws nothing: no draw happens, so
       none is replaced (614.17c) and none from an empty library is
       attempted (704.5b) */
    if (s->kind == ST_DRAW && (g->cant_draw >> s->player & 1u)) {
      if (first == ZO_OUTCOME_NONE) first = ZO_OUTCOME_FAILED, first_err = ZO_E_FORBIDDEN;
      break;
    }
    int cant_draw = 0;
    if (s->kind == ST_DRAW && g->ncants && lib >= 0 && g->zones[lib].n) {
      int top = g->zones[lib].objs[0], hand = zo_zone_of_role(g, ZR_HAND, s->player);
      cant_draw = hand >= 0 && zo_cant_forbids(g, top, lib, hand, "draw", 0);
    }
    if (s->kind == ST_DRAW && g->nactive_repl && !cant_draw) {
      int ri = zo_draw_replacement(g, s->player);
      if (ri >= 0) {
        zo_draw_replace(g, ri, r);
        replaced = 1;
        continue;
      }
    }
    if (lib < 0 || g->zones[lib].n == 0) {
      if (s->kind == ST_DRAW) {
        if (SW(g, SW_DRAW_EMPTY) == ZS_LOSE_AT_STATE_CHECK) {
          g->drew_empty[s->player] = 1; /* CR 704.5b, at the next check */
        } else {
          HITSW(g, SW_DRAW_EMPTY); /* FaB 8.5.6: the draw fails */
          failed = 1;
        }
      } else {
        failed = !moved;
      }
      break;
    }
    int obj_top = g->zones[lib].objs[0];
    if (g->in_etb) { /* CR 614.13c: not what enters from this library */
      int k = 0;
      while (k < g->zones[lib].n && g->entering[g->zones[lib].objs[k]]) k++;
      if (k == g->zones[lib].n) {
        failed = s->kind == ST_MILL && !moved;
        break;
      }
      obj_top = g->zones[lib].objs[k];
    }
    zo_step mv;
    memset(&mv, 0, sizeof mv);
    mv.player = mv.attach_player = -1; /* the rule's draw or mill: nobody performs it as a put */
    mv.kind = ST_MOVE;
    mv.from.type = ZO_ZT_UNSET;
    mv.position = ZO_POS_TOP;
    mv.face = -1;
    zo_step_error e;
    if (s->kind == ST_DRAW) {
      snprintf(mv.cause, sizeof mv.cause, "draw");
      int hand = zo_zone_of_role(g, ZR_HAND, s->player);
      if (hand < 0) break;
      /* a move to the hand zone instance directly */
      mv.to.type = hand_type(g, hand);
      mv.to.player = s->player;
    } else {
      snprintf(mv.cause, sizeof mv.cause, "mill");
      mv.to = s->to;
      if (mv.to.type == ZO_ZT_UNSET) {
        mv.to.type = g->graveyard_slot;
        mv.to.player = -1;
      }
    }
    o = move_each(g, obj_top, &mv, &e, r);
    tally_move(r, obj_top, o, e, &moved, &first, &first_err);
    /* the draw's follow-up, on the card it put into the hand (never on
       what a replacement brought: CR 614.11b) */
    if (s->then && g->objs[obj_top].exists &&
        g->objs[obj_top].zone == zo_zone_of_role(g, ZR_HAND, s->player))
      nested_step(g, s->then, obj_top, r);
    /* a card that did not leave the library (a replacement put it back, a
       token that can't move, 111.8) is still on top: taking it again
       changes nothing */
    if (g->objs[obj_top].exists && g->objs[obj_top].zone == lib) break;
  }
  /* failed (empty) only when nothing at all was drawn or milled: an
     object taken that then ceased or stayed gives the step its outcome
     (the first), as a card that moved does (CR 701.17b: as many as
     possible) */
  if (failed && !moved && !replaced && first == ZO_OUTCOME_NONE) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_EMPTY;
  } else if (replaced && !moved) {
    r->outcome = ZO_OUTCOME_REPLACED; /* a draw was replaced, none drew a card */
  } else {
    r->outcome = tallied(moved, first);
    if (!moved && first != ZO_OUTCOME_NONE) r->error = first_err;
  }
}

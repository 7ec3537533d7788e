/* objects.c: objects coming into being and going away, and what they
 * carry. A handle names one physical card, token or ability through its
 * successive existences; each existence has a fresh identity
 * (model_int.h's new_identity), and a new object forgets its marks (CR
 * 400.7, with the exceptions a rule set keeps). An object ceases (tokens,
 * abilities, macros, proxies that leave where they can exist), or is
 * cleared (FaB 3.0.12: to its owner's graveyard). The create step makes
 * one (CR 111.5, 400.4a: not where it can't exist), the mark step puts a
 * counter, effect, characteristic edit or prevention effect on one.
 */
#include <string.h>

#include "model_int.h"

/* The switch that lets a new object keep marks of kind k, where one does
 * (rule coverage counts it when a mark of that kind is really kept). */
static zo_switch keeping_switch(zo_mark_kind k) {
  switch (k) {
  case MK_STICKER: return SW_KEEPS_STICKERS;
  case MK_PERMISSION: return SW_KEEPS_PERMISSIONS;
  case MK_SPELL_INFO: return SW_KEEPS_SPELL_INFO;
  default: return SW_KEEPS;
  }
}

unsigned zo_marks_kept(zo_game *g, int obj, int origin, int dest, const char *cause) {
  const zo_obj *o = &g->objs[obj];
  if (dest < 0) return 0; /* outside the game: no zone keeps anything */
  unsigned keep = 0;
  int role = ZT(g, dest)->role;
  /* a permanent spell becomes a permanent (Z.9.7; 217.1c; 400.7a-d) */
  if (is_stack(g, origin) && role == ZR_BATTLEFIELD && !(o->types & g->classes.instant_sorcery)) {
    int k = SW(g, SW_KEEPS);
    if (k == ZS_SPELL_CHARACTERISTICS || k == ZS_SPELL_TO_PERMANENT) keep |= 1u << MK_CHARACTERISTIC;
    if (k == ZS_SPELL_TO_PERMANENT) keep |= 1u << MK_PREVENTION;
    if (SW(g, SW_KEEPS_SPELL_INFO) == ZS_YES) keep |= 1u << MK_SPELL_INFO;
  }
  /* 123.5, 400.7m: stickers stay on an object that moves to a public
     zone (the zone's default visibility; a face-down card in exile is
     still in a public zone, 400.2) */
  if (SW(g, SW_KEEPS_STICKERS) == ZS_YES && ZT(g, dest)->pub.value) keep |= 1u << MK_STICKER;
  /* 400.7g-h: a nonland card cast (a move to the stack, 405.1, 601.2a);
     400.7i: a land card played (a move to the battlefield whose cause is
     play, 305.1). cast: the nonland card cast only (400.7f of 2011) */
  int kp = SW(g, SW_KEEPS_PERMISSIONS);
  if ((kp == ZS_YES || kp == ZS_CAST) &&
      ((is_stack(g, dest) && !(o->types & g->classes.land)) ||
       (kp == ZS_YES && role == ZR_BATTLEFIELD && (o->types & g->classes.land) &&
        !is_stack(g, origin) && cause && strcmp(cause, "play") == 0)))
    keep |= 1u << MK_PERMISSION;
  return keep;
}

/* A new object forgets its marks but those whose kinds are in keep. */
void zo_obj_drop_marks(zo_game *g, int obj, unsigned keep) {
  for (int m = 0; m < g->nmarks; m++) {
    zo_mark *mk = &g->marks[m];
    if (!mk->alive || mk->obj != obj) continue;
    if (keep & (1u << mk->kind)) {
      HITSW(g, keeping_switch(mk->kind));
      continue;
    }
    mk->alive = 0;
  }
}

void zo_arrival_clears(zo_game *g, int obj, int zone) {
  const zo_zone_type *zt = ZT(g, zone);
  for (int m = 0; m < g->nmarks; m++) {
    zo_mark *mk = &g->marks[m];
    if (!mk->alive || mk->obj != obj || !(zt->clears.value >> mk->kind & 1)) continue;
    mk->alive = 0;
    hit(g, &zt->clears);
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
  }
}

/* Does an object that is private or public (pub) moving to a zone whose
 * objects are public or private (dest_pub) move with its properties (FaB
 * 3.0.7a: a private mover has none; the flip step, 3.0.8, gives it its
 * destination visibility first)? As move.c's dest_visibility. */
static int moves_with_properties(zo_game *g, int pub, int dest_pub) {
  if (SW(g, SW_VISIBILITY) != ZS_PER_OBJECT || SW(g, SW_NO_PROPERTIES) != ZS_YES) return 1;
  return SW(g, SW_FLIP_STEP) == ZS_YES ? dest_pub : pub;
}

/* FaB 3.0.12: clear = move it to its owner's graveyard, a move like any
 * other: a zone-change trigger on it fires and may find the new object
 * there (3.0.9a). A card already in that graveyard does not move (3.0.7b:
 * a move to where it is does not happen; a private card only becomes
 * public, as the flip step would make it, 3.0.8). A token, macro or
 * non-card layer leaves its zone and just ceases to exist (3.0.12a): a
 * trigger on its leaving sees that, one on its arriving in a graveyard
 * does not. */
zo_outcome zo_obj_clear(zo_game *g, int obj, zo_step_result *r) {
  zo_obj *o = &g->objs[obj];
  /* no hit on the switch clear here: it decides only a rule's move that a
     zone refuses (move.c counts it there); sub-cards (sub_cards) and a
     removed zone's objects (zone_lifecycle) are cleared whatever it says,
     so a table cell of theirs does not cite it (issue 31) */
  int gy = zo_zone_of_role(g, ZR_GRAVEYARD, o->owner);
  int origin = o->zone, ctrl = o->controller;
  if (o->kind != ZK_CARD || is_token(g, o)) {
    if (g->ntrig) zo_watches_fire(g, obj, origin, -1, moves_with_properties(g, o->pub, o->pub), ctrl, "");
    zo_obj_cease(g, obj, r);
    return ZO_OUTCOME_CEASED;
  }
  if (gy >= 0 && o->under < 0 && origin == gy) {
    HITSW(g, SW_SAME_ZONE); /* 3.0.7b */
    if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT && !o->pub && ZT(g, gy)->pub.value) {
      o->pub = 1;
      o->face_down = 0;
    }
    event(r, obj, ZO_OUTCOME_NO_MOVE);
    return ZO_OUTCOME_NO_MOVE;
  }
  int was_pub = o->pub;
  if (gy < 0) {
    /* no graveyard left to clear it to (its zone ceased, 3.0.10b): the
       card is removed from the game, as FaB says of objects with no place
       (1.5.3, 4.5.1a); a card is never destroyed */
    zo_subs_clear(g, obj, r, 0);
    if (o->under < 0) zone_remove_obj(g, obj);
    o->under = -1;
    o->zone = ZO_ZONE_OUTSIDE;
    new_identity(g, obj);
    zo_obj_drop_marks(g, obj, 0);
    o->controller = -1;
    o->pub = 0;
    if (g->ntrig) zo_watches_fire(g, obj, origin, ZO_ZONE_OUTSIDE, 1, ctrl, "");
    event(r, obj, ZO_OUTCOME_CLEARED);
    return ZO_OUTCOME_CLEARED;
  }
  /* sub-cards of a cleared top-card are cleared with it (3.0.14e) */
  zo_subs_clear(g, obj, r, 1);
  if (o->under < 0) zone_remove_obj(g, obj);
  o->under = -1;
  zone_insert(g, gy, obj, ZO_POS_TOP);
  new_identity(g, obj);
  zo_obj_drop_marks(g, obj, 0);
  o->controller = -1;
  o->pub = ZT(g, gy)->pub.value;
  o->face_down = !o->pub;
  o->phased_out = 0;
  o->came_from = SW(g, SW_HISTORY) == ZS_KEPT ? origin : -1;
  if (g->ntrig) zo_watches_fire(g, obj, origin, gy, moves_with_properties(g, was_pub, o->pub), ctrl, "");
  event(r, obj, ZO_OUTCOME_CLEARED);
  return ZO_OUTCOME_CLEARED;
}

void zo_obj_cease(zo_game *g, int obj, zo_step_result *r) {
  zo_obj *o = &g->objs[obj];
  if (!o->exists) return;
  if (o->under < 0) zone_remove_obj(g, obj);
  o->exists = 0;
  o->zone = -1;
  o->under = -1;
  o->controller = -1;
  zo_obj_drop_marks(g, obj, 0);
  event(r, obj, ZO_OUTCOME_CEASED);
  /* FaB 3.0.14e: sub-cards of a top-card that ceases are cleared */
  zo_subs_clear(g, obj, r, 1);
}

/* ---- steps ------------------------------------------------------------- */

/* A create into a full zone of a type with `displace:` (issue 31): the
 * object there goes to its owner's zone of the named type first, as for a
 * move (zo_zone_displace), since the rules that displace (a new Stadium
 * sends the old one to its owner's discard pile: PTCG rulebook p. 10,
 * Stadium; a new Field Spell the old one to the Graveyard, yugioh.yaml
 * "YGO 4 Field Zone") speak of the new card
 * coming, not of how it comes. The new object h, not yet in any zone, is
 * kept out of sight (exists 0) while the displaced one moves, so nothing
 * the move does (watches, sub-cards) sees it in zone 0. Returns what the
 * zone still refuses. */
ZO_COLD static zo_step_error create_displaces(zo_game *g, int zone, int h, zo_step_result *r) {
  g->objs[h].exists = 0;
  zo_step_error refuse = zo_zone_displace(g, zone, h, r);
  g->objs[h].exists = 1;
  return refuse;
}

/* Create object s->as (a token, copy, ability...) in s->zone: a new object
 * with a fresh identity; not created where the zone can't hold it (CR
 * 111.5: a token that can't enter isn't created; 400.4a; FaB capacity and
 * holds); created and ceasing at once where it can't exist (FaB 8.1.8a,
 * 1.6.2b-c). */
void zo_step_create(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (s->ncosts && zo_magic_only(g, r)) return; /* as_enters: Magic's 614.13 */
  int h = s->as;
  zo_obj *o = &g->objs[h];
  memset(o, 0, sizeof *o);
  o->kind = s->kind_of;
  o->owner = s->owner;
  o->controller = -1;
  o->under = -1;
  o->came_from = -1;
  o->phase_controller = -1;
  o->attached = o->phased_with = -1;
  o->phased_under = o->ctrl_default = -1;
  o->types = s->types;
  o->exists = 1;
  new_identity(g, h);
  /* CR 111.12: a token copy of an object that is gone (its reference finds
     it no more) is not created, unless the effect uses last known
     information (lki); nor of a phased-out permanent where phasing is a
     status, which is treated as though it doesn't exist (702.26b) */
  if (s->copy_of >= 0 && !s->lki &&
      (!ref_finds(g, s->copy_of) ||
       (g->objs[g->refs[s->copy_of].obj].phased_out && SW(g, SW_PHASING) == ZS_STATUS))) {
    o->exists = 0;
    o->id = 0;
    r->outcome = ZO_OUTCOME_NOT_FOUND;
    r->error = ZO_E_NOT_FOUND;
    return;
  }
  /* CR 707.13: a copy of a card named by an effect is made outside the
     game, where it stays until it is cast (the loader allows only copies
     there) */
  if (s->zone.type == ZO_ZT_OUTSIDE) {
    HITSW(g, SW_OUTSIDE);
    o->zone = ZO_ZONE_OUTSIDE;
    event(r, h, ZO_OUTCOME_MOVED);
    r->outcome = ZO_OUTCOME_MOVED;
    return;
  }
  int red;
  zo_step_error e;
  int zone = resolve_dest(g, h, &s->zone, 0, &red, &e);
  if (zone < 0) {
    o->exists = 0;
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = e ? e : ZO_E_NO_ZONE;
    return;
  }
  /* CR 111.5: a token that a "can't" effect in force (a cant step) keeps
     from entering the battlefield, judged as it would be there (614.17d),
     is not created: failed, forbidden, and the handle never exists */
  if (g->ncants && ZT(g, zone)->role == ZR_BATTLEFIELD && o->kind != ZK_CARD &&
      zo_cant_forbids(g, h, -1, zone, "", s->face == 1)) {
    o->exists = 0;
    o->id = 0;
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_FORBIDDEN;
    return;
  }
  /* an object the zone can't hold is not created (CR 111.5: a token that
     can't enter isn't created; 400.4a; FaB capacity and holds) */
  zo_step_error refuse = ZT(g, zone)->holds.value & ZH_NO_INSTANTS &&
                                 (o->types & g->classes.instant_sorcery)
                             ? ZO_E_CANNOT_HOLD
                             : zo_zone_refuses(g, zone, h, ZF_COUNT);
  /* issue 31: created face down where its kind is never face down */
  if (!refuse && s->face == 1 && zo_face_up_only(g, g->zones[zone].type, h)) refuse = ZO_E_CANNOT_HOLD;
  int leaves_now = is_token(g, o) && !ZT(g, zone)->arena.value &&
                   SW(g, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY;
  if (refuse == ZO_E_CAPACITY && ZT(g, zone)->displace.value && !leaves_now)
    refuse = create_displaces(g, zone, h, r);
  if (refuse && !leaves_now) {
    o->exists = 0;
    o->id = 0;
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = refuse;
    return;
  }
  /* CR 111.1, 614.12, 614.13: a token's own as-enters effect, as it is
     put onto the battlefield: its steps first, their events before its */
  if (s->ncosts && ZT(g, zone)->role == ZR_BATTLEFIELD) zo_etb_token(g, h, s->costs, s->ncosts, r);
  zone_insert(g, zone, h, ZO_POS_TOP);
  o->pub = ZT(g, zone)->pub.value;
  if (s->face == 1) o->pub = 0;
  o->face_down = s->face == 1 || (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT && !o->pub);
  if (ZT(g, zone)->controller.value) o->controller = s->controller >= 0 ? s->controller : s->owner;
  o->ctrl_default = o->controller; /* CR 110.2 */
  /* a token or a copy of a spell created under another player's control
     is that player's where the rule set says so (CR 110.5a, 111.2 of
     2011); else the create step's owner, the controller of the effect
     that made it (216.1 of 2004) */
  if ((is_token(g, o) || o->kind == ZK_COPY) && o->controller >= 0 &&
      o->controller != o->owner) {
    HITSW(g, SW_CREATED_OWNER);
    if (SW(g, SW_CREATED_OWNER) == ZS_CONTROLLER) {
      o->owner = o->controller;
      g->features_used |= (uint64_t)1 << FT_CREATED_OWNER; /* a meaning zcp/1 did not give */
    }
  }
  /* a copy of a spell on the battlefield is a token where the rule set
     says so (CR 110.5 of 2011, 111.13) */
  if (o->kind == ZK_COPY && ZT(g, zone)->role == ZR_BATTLEFIELD &&
      SW(g, SW_COPY_BECOMES_TOKEN) == ZS_YES)
    o->kind = ZK_TOKEN;
  /* FaB 8.1.8a: a token exists only in the arena; 1.6.2b-c: layers only on
     the stack */
  if (is_token(g, o) && !ZT(g, zone)->arena.value && SW(g, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY) {
    HITSW(g, SW_TOKEN_LEAVES);
    zo_obj_cease(g, h, r);
    r->outcome = ZO_OUTCOME_CEASED;
    return;
  }
  if (o->kind == ZK_ABILITY && !is_stack(g, zone)) {
    HITSW(g, SW_ABILITIES);
    zo_obj_cease(g, h, r);
    r->outcome = ZO_OUTCOME_CEASED;
    return;
  }
  event(r, h, ZO_OUTCOME_MOVED);
  r->outcome = ZO_OUTCOME_MOVED;
}

/* Put mark s->as (its kind s->mark_kind) on the step's object; a new
 * object forgets it (zo_obj_drop_marks). Where phasing is a status, a
 * phased-out permanent is treated as though it doesn't exist, so nothing
 * marks it: failed, phased_out (CR 702.24b of 2011; 702.26b, 702.26e). A
 * card outside the game can't be marked (CR 400.11c). */
void zo_step_mark(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  if (zo_phased_out_unaffected(g, o, r)) {
    g->features_used |= (uint64_t)1 << FT_MARKS_REFUSED;
    return;
  }
  /* CR 400.11c: outside the game, an effect reaches a card only to bring
     it in (a move); as for look and reveal, nothing there to mark:
     rejected, unsupported (cases/README.md, "Model decisions") */
  if (g->objs[o].zone < 0) {
    HITSW(g, SW_OUTSIDE);
    g->features_used |= (uint64_t)1 << FT_MARKS_REFUSED;
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  if (zo_next_turn_unsupported(g, s, r)) return;
  zo_mark *m = &g->marks[s->as];
  m->alive = 1;
  m->obj = o;
  m->kind = s->mark_kind;
  m->until = s->until; /* G4: its duration */
  m->until_of = s->turn_of;
}

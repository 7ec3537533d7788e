/* perform.c: who performs a step, and what a player is shown (issue 12).
 *
 * G3, the performing player (`player:` on move, move_together and reorder;
 * `order_by:` on move_together): only an object's owner may put it into a
 * zone whose `owner_puts` says so (ante: CR 217.9d, 407.4); cards put
 * together into a player's ordered zone are arranged by that zone's owner
 * (Z.6.6, 217.2d, 401.4) or, where `putter_orders` says so, by the player
 * who puts them into another player's zone (217.2.Ruling.1); a player
 * rearranges only their own objects (CR 400.5, 217.1b, Z.4.Ruling.3). A
 * wrong player is `rejected` (`wrong_player`) and nothing happens.
 *
 * G5, permission to look (`look`) and G7, a revealed object (`reveal`):
 * each lasts while the object stays the object it was in the zone it was
 * in (a new object has no relation to the old one, CR 400.7; FaB 3.0.9),
 * except where look_face_down is until_leaves: a look at a face-down card
 * lasts until the card leaves its zone, a new object there included (CR
 * 406.3 today; move.c carries it across exile to exile, 406.7).
 */
#include "model_int.h"

/* ---- G3: the performing player ------------------------------------------ */

/* May s->player put obj into the written destination of move m (CR
 * 217.9d, 407.4: only the owner antes)? 1 yes; 0 with r rejected. */
static int may_put(zo_game *g, const zo_step *s, const zo_step *m, int obj, zo_step_result *r) {
  if (s->player < 0 || obj < 0 || m->to.type < 0) return 1;
  const zo_zone_type *zt = &g->rs->zones[g->zmap[m->to.type]];
  if (!zt->owner_puts.nrules) return 1;
  hit(g, &zt->owner_puts);
  if (!zt->owner_puts.value || g->objs[obj].owner == s->player) return 1;
  r->outcome = ZO_OUTCOME_REJECTED;
  r->error = ZO_E_WRONG_PLAYER;
  event(r, obj, ZO_OUTCOME_REJECTED);
  return 0;
}

int zo_perform_move_ok(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  return may_put(g, s, s, obj, r);
}

/* The player who arranges the arrivals of move_together s in its order:
 * zone: that zone's player, or the putter where putter_orders says so
 * (217.2.Ruling.1); in a shared zone the owner of every arrival named, or
 * -1 when they differ (nobody arranges another's objects, CR 400.5). */
static int order_chooser(zo_game *g, const zo_step *s) {
  const zo_zone_spec *sp = &s->order_zone;
  const zo_zone_type *zt = &g->rs->zones[g->zmap[sp->type]];
  HITSW(g, SW_ORDER_CHOOSER);
  if (zt->per_player.value) {
    int zp = sp->player >= 0 ? sp->player : g->objs[s->order_zone_handles[0]].owner;
    if (zt->putter_orders.nrules) hit(g, &zt->putter_orders);
    if (zt->putter_orders.value && s->player >= 0) return s->player;
    return zp;
  }
  int who = g->objs[s->order_zone_handles[0]].owner;
  for (int i = 1; i < s->norder; i++)
    if (g->objs[s->order_zone_handles[i]].owner != who) return -1;
  return who;
}

int zo_perform_together_ok(zo_game *g, const zo_step *s, zo_step_result *r) {
  for (int i = 0; i < s->nmoves; i++) {
    int h = s->moves[i].card;
    if (!g->objs[h].exists) continue;
    if (!may_put(g, s, &s->moves[i], h, r)) return 0;
  }
  if (s->order_by < 0 || s->norder == 0 || s->order_zone.type < 0) return 1;
  if (order_chooser(g, s) == s->order_by) return 1;
  r->outcome = ZO_OUTCOME_REJECTED;
  r->error = ZO_E_WRONG_PLAYER;
  return 0;
}

int zo_perform_reorder_ok(zo_game *g, const zo_step *s, int z, zo_step_result *r) {
  if (s->player < 0 || s->by_effect) return 1;
  const zo_zone *zn = &g->zones[z];
  int ok = 1;
  if (zn->player >= 0) ok = zn->player == s->player; /* their own zone (402.3, Z.4.Ruling.3) */
  else /* a shared zone: each object that changes place must be theirs (400.5) */
    for (int i = 0; ok && i < s->norder && i < zn->n; i++)
      if (zn->objs[i] != s->order_zone_handles[i])
        ok = g->objs[zn->objs[i]].owner == s->player &&
             g->objs[s->order_zone_handles[i]].owner == s->player;
  if (ok) return 1;
  r->outcome = ZO_OUTCOME_REJECTED;
  r->error = ZO_E_WRONG_PLAYER;
  return 0;
}

/* ---- G5 and G7: what a player is shown ---------------------------------- */

int zo_obj_looks(const zo_game *g, int obj, int player) {
  const zo_obj *o = &g->objs[obj];
  return player >= 0 && player < 32 && (o->look_mask >> player & 1u) && o->look_id == o->id &&
         o->look_zone == o->zone;
}

/* CR 701.20d: the revealed cards of library z, shuffled or reordered,
 * stop being revealed and, where the rule set says so, become new objects
 * (an event each in r, may be NULL). */
static void reveals_renewed(zo_game *g, int z, zo_step_result *r) {
  if (ZT(g, z)->role != ZR_LIBRARY) return;
  const zo_zone *zn = &g->zones[z];
  for (int i = 0; i < zn->n; i++) {
    int o = zn->objs[i];
    if (!zo_obj_revealed(g, o)) continue;
    HITSW(g, SW_REORDER_RENEWS_REVEALED);
    g->objs[o].revealed = 0;
    if (SW(g, SW_REORDER_RENEWS_REVEALED) != ZS_YES) continue;
    new_identity(g, o);
    zo_obj_drop_marks(g, o, 0);
    if (r) event(r, o, ZO_OUTCOME_NEW_OBJECT_IN_PLACE);
  }
}

void zo_zone_reordered(zo_game *g, int z, zo_step_result *r) { reveals_renewed(g, z, r); }

void zo_zone_shuffled(zo_game *g, int z, zo_step_result *r) {
  reveals_renewed(g, z, r);
  const zo_zone *zn = &g->zones[z];
  for (int i = 0; i < zn->n; i++) {
    zo_obj *o = &g->objs[zn->objs[i]];
    o->look_mask = 0;
    o->revealed = 0;
  }
}

int zo_obj_revealed(const zo_game *g, int obj) {
  const zo_obj *o = &g->objs[obj];
  return o->revealed && o->reveal_id == o->id && o->reveal_zone == o->zone;
}

/* The object a look or reveal acts on, in a zone of the game; -1 with r
 * set when there is none (not_found) or it is outside the game
 * (rejected, unsupported: there is nothing to show in the game). */
static int shown_object(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj >= 0 ? obj : zo_step_object(g, s, r);
  if (o < 0) return -1;
  if (g->objs[o].zone < 0) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return -1;
  }
  return o;
}

/* CR 406.3, 217.7b (face-down exiled or removed cards, as instructions
 * allow; switch look_face_down), Z.6.2 and Z.4.2 (a library or hand when
 * a spell or ability says so), FaB 3.7.4 (a deck when an effect says so).
 * Z.7.3, Z.8.4: face-down cards there, never. */
/* look's then: the rest of the same instruction, done to the object o the
 * player looked at (its events join the look's). "Look at the card, then
 * exile it face down": where the rule set lets a look at a face-down
 * exiled card last until it leaves exile (today's 406.3, switch
 * look_face_down: until_leaves), the player may go on looking at it while
 * it stays exiled, though it is a new object there (400.7); elsewhere the
 * look ends with the zone change, as the older texts have no such clause. */
static void look_then(zo_game *g, const zo_step *s, int o, zo_step_result *r) {
  zo_obj *ob = &g->objs[o];
  uint64_t before = ob->id;
  nested_step(g, s->then, o, r);
  if (!ob->exists || ob->id == before || ob->zone < 0 || ob->under >= 0 || !ob->face_down ||
      ZT(g, ob->zone)->role != ZR_EXILE)
    return;
  HITSW(g, SW_LOOK_FACE_DOWN);
  if (SW(g, SW_LOOK_FACE_DOWN) != ZS_UNTIL_LEAVES) return;
  if (ob->look_id != ob->id || ob->look_zone != ob->zone) ob->look_mask = 0;
  ob->look_mask |= 1u << s->player;
  ob->look_id = ob->id;
  ob->look_zone = ob->zone;
}

void zo_step_look(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = shown_object(g, s, obj, r);
  if (o < 0) return;
  zo_obj *ob = &g->objs[o];
  const zo_zone_type *zt = ZT(g, ob->zone);
  int in_public = SW(g, SW_VISIBILITY) == ZS_PER_OBJECT ? zt->pub.value && !ob->pub
                                                        : zt->pub.value && ob->face_down;
  if (in_public) { /* a face-down (private) object in a public zone */
    HITSW(g, SW_LOOK_FACE_DOWN);
    if (SW(g, SW_LOOK_FACE_DOWN) == ZS_NONE) {
      r->outcome = ZO_OUTCOME_REJECTED;
      r->error = ZO_E_UNSUPPORTED;
      event(r, o, ZO_OUTCOME_REJECTED);
      return;
    }
  }
  if (ob->look_id != ob->id || ob->look_zone != ob->zone) ob->look_mask = 0;
  ob->look_mask |= 1u << s->player;
  ob->look_id = ob->id;
  ob->look_zone = ob->zone;
  if (s->then) look_then(g, s, o, r);
}

/* ---- the revealed top card of a library (CR 401.5, 401.6; 217.2e) ------- */

/* The top card of player p's library, or -1. */
static int library_top(const zo_game *g, int p) {
  int z = zo_zone_of_role(g, ZR_LIBRARY, p);
  return z >= 0 && g->zones[z].n ? g->zones[z].objs[0] : -1;
}

int zo_obj_top_revealed(const zo_game *g, int obj) {
  const zo_obj *o = &g->objs[obj];
  if (!g->top_revealed || o->zone < 0 || o->under >= 0) return 0;
  const zo_zone *zn = &g->zones[o->zone];
  return zn->zt->role == ZR_LIBRARY && zn->player >= 0 && (g->top_revealed >> zn->player & 1u) &&
         zn->n && zn->objs[0] == obj;
}

/* obj stops being the revealed top card: remember the object it was, if
 * it is still a card of that library (one that left is new anyway). */
static void top_hidden(zo_game *g, int obj, int p) {
  zo_obj *o = &g->objs[obj];
  int z = zo_zone_of_role(g, ZR_LIBRARY, p);
  if (o->exists && z >= 0 && o->zone == z && o->under < 0) o->top_hid_id = o->id;
}

/* Player p's library shows its top card now (CR 401.5): the card it
 * showed before stops being revealed; one revealed again after it stopped
 * is a new object (401.6) where the rule set says so. */
static void top_reveal(zo_game *g, int p, zo_step_result *r) {
  int t = library_top(g, p), was = g->top_shown[p] - 1;
  if (t == was) return;
  if (was >= 0) top_hidden(g, was, p);
  if (t >= 0 && g->objs[t].top_hid_id == g->objs[t].id) {
    HITSW(g, SW_REVEALED_TOP_RENEWS);
    if (SW(g, SW_REVEALED_TOP_RENEWS) == ZS_YES) {
      new_identity(g, t);
      zo_obj_drop_marks(g, t, 0);
      event(r, t, ZO_OUTCOME_NEW_OBJECT_IN_PLACE);
    }
  }
  g->top_shown[p] = t + 1;
}

void zo_top_reveals_update(zo_game *g, zo_step_result *r) {
  for (int p = 0; p < g->c->nplayers && p < ZO_MAX_PLAYERS; p++)
    if (g->top_revealed >> p & 1u) top_reveal(g, p, r);
}

/* reveal top_of: p: p plays with the top card of their library revealed
 * from now on (CR 401.5; 217.2e), or, with end: true, no longer (its top
 * card stops being revealed, 401.6). */
static void reveal_top_of(zo_game *g, const zo_step *s, zo_step_result *r) {
  int p = zo_reveal_top_of(s); /* a case's player: 0..ZO_MAX_PLAYERS-1 */
  if (s->end) {
    if (g->top_revealed >> p & 1u) {
      int was = g->top_shown[p] - 1;
      if (was >= 0) top_hidden(g, was, p);
    }
    g->top_revealed &= ~(1u << p);
    g->top_shown[p] = 0;
    return;
  }
  if (g->top_revealed >> p & 1u) return; /* already: one effect is enough */
  g->top_revealed |= 1u << p;
  g->top_shown[p] = 0;
  top_reveal(g, p, r);
}

/* CR 701.20a, 217.2e, Z.4.Ruling.2: the object is shown to every player
 * until it leaves its zone (CR 400.7) or a reveal with end: true; with
 * top_of:, a library's top card for as long as it is on top (401.5).
 * FaB's chapter 3 has no reveal (an object is made public, 3.0.4c-d,
 * which is turn_face): rejected, unsupported. */
void zo_step_reveal(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  if (obj < 0 && zo_reveal_top_of(s) >= 0) {
    reveal_top_of(g, s, r);
    return;
  }
  int o = shown_object(g, s, obj, r);
  if (o < 0) return;
  zo_obj *ob = &g->objs[o];
  ob->revealed = !s->end;
  ob->reveal_id = ob->id;
  ob->reveal_zone = ob->zone;
}

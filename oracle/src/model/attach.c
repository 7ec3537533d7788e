/* attach.c: objects that go with another object.
 *
 * FaB sub-cards (3.0.14): a card put under a permanent in the arena or a
 * card on the stack is a sub-card: a new card (3.0.14b), in its top-card's
 * zone but not listed in it, with no controller. It follows its top-card
 * while the top-card stays the same object (3.0.14c) and is cleared when
 * the top-card becomes a new object or ceases (3.0.14e).
 *
 * Two-handed equipment (FaB 8.2.2): a 2H object in an equipment zone is
 * also equipped to a second empty zone of the same type and player, which
 * it does not occupy (zo_zone.twoh); a quiver may share that zone with a
 * two-handed bow (8.2.15, zo_zone_refuses).
 *
 * None of this runs in a game without sub-cards (g->has_subs) or without
 * two-handed objects: the common move skips it.
 */
#include "model_int.h"

/* ---- sub-cards (FaB 3.0.14) ------------------------------------------- */

void zo_subs_clear(zo_game *g, int top, zo_step_result *r, int hits) {
  for (int i = 0; g->has_subs && i < g->nobjs; i++) /* no scan without sub-cards */
    if (g->objs[i].exists && g->objs[i].under == top) {
      if (hits) HITSW(g, SW_SUB_CARDS);
      g->objs[i].under = -1;
      zo_obj_clear(g, i, r);
    }
}

void zo_subs_follow(zo_game *g, int top, int newobj, zo_step_result *r) {
  for (int i = 0; g->has_subs && i < g->nobjs; i++) {
    if (!g->objs[i].exists || g->objs[i].under != top) continue;
    HITSW(g, SW_SUB_CARDS);
    if (newobj) {
      g->objs[i].under = -1;
      zo_obj_clear(g, i, r);
    } else {
      g->objs[i].zone = g->objs[top].zone;
    }
  }
}

/* FaB 3.0.14: put a card or token under a permanent in the arena or a card
 * on the stack (s->under); it becomes a new card there, and its own
 * sub-cards go under the new top-card (3.0.14c). */
void zo_step_put_under(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  if (o < 0 && (o = zo_step_object(g, s, r)) < 0) return;
  if (SW(g, SW_SUB_CARDS) != ZS_YES) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  int top = s->under;
  zo_obj *t = &g->objs[top];
  zo_obj *sub = &g->objs[o];
  /* FaB 3.0.14: a card goes under a permanent or under a card on the
     stack; abilities, macros and proxies are not cards */
  int top_ok = t->exists && top != o && t->under < 0 &&
               ((is_arena(g, t->zone) &&
                 zo_holds_is_fab_permanent(&g->classes, (int)t->kind, t->types, ZT(g, t->zone))) ||
                (is_stack(g, t->zone) && (t->kind == ZK_CARD || t->kind == ZK_TOKEN)));
  if (!top_ok || !(sub->kind == ZK_CARD || sub->kind == ZK_TOKEN)) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_CANNOT_HOLD;
    return;
  }
  /* limits: among sub-cards (issue 31): one Pokemon Tool per Pokemon */
  if (ZT(g, t->zone)->limits.value && zo_under_limit(g, top, o, 1) >= 0) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_CAPACITY;
    return;
  }
  zo_obj *ob = &g->objs[o];
  HITSW(g, SW_SUB_CARDS); /* FaB 3.0.14b: a new card, not in the arena */
  g->has_subs = 1;
  int origin = ob->under >= 0 ? g->objs[ob->under].zone : ob->zone;
  if (ob->under < 0) zone_remove_obj(g, o);
  ob->under = top;
  ob->zone = t->zone;
  ob->controller = -1;
  ob->pub = t->pub;
  ob->face_down = t->face_down;
  new_identity(g, o);
  zo_obj_drop_marks(g, o, 0);
  ob->came_from = SW(g, SW_HISTORY) == ZS_KEPT ? origin : -1;
  /* 3.0.14c: its own sub-cards go under the new top-card */
  for (int i = 0; i < g->nobjs; i++)
    if (g->objs[i].exists && g->objs[i].under == o) {
      g->objs[i].under = top;
      g->objs[i].zone = t->zone;
      g->objs[i].pub = t->pub;
      g->objs[i].face_down = t->face_down;
    }
  event(r, o, ZO_OUTCOME_MOVED);
  r->outcome = ZO_OUTCOME_MOVED;
}

/* ---- two-handed equipment (FaB 8.2.2) ---------------------------------- */

void zo_twoh_equip_second(zo_game *g, int zone, int obj) {
  if (!(g->objs[obj].types & g->classes.two_handed)) return;
  const zo_zone *z = &g->zones[zone];
  if (!(g->rs->zones[z->type].holds.value & ZH_EQUIP)) return;
  for (int i = 0; i < g->nzones; i++) {
    zo_zone *w = &g->zones[i];
    if (i != zone && w->exists && w->type == z->type && w->player == z->player &&
        w->twoh < 0 && w->n == 0) {
      w->twoh = obj;
      return;
    }
  }
}

int zo_twoh_second_zone(const zo_game *g, int zone, int obj) {
  const zo_zone *z = &g->zones[zone];
  for (int i = 0; i < g->nzones; i++) {
    const zo_zone *w = &g->zones[i];
    if (i != zone && w->exists && w->type == z->type && w->player == z->player &&
        (w->n == 0 || (w->n == 1 && w->objs[0] == obj)) && (w->twoh < 0 || w->twoh == obj))
      return i;
  }
  return -1;
}

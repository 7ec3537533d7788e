/* check.c: the model's invariants (fuzz/INVARIANTS.md) checked on its own
 * state after a step (zo_game_check): every object in exactly one zone, tokens
 * in the arena, abilities on the stack, controllers only where objects have
 * them, fresh identities, hidden decks, conserved cards, owner-only zones,
 * what zones hold, and capacity. The fuzzers call it after every step, so it
 * allocates nothing once warm and stays linear in objects.
 */
#include <stdio.h>
#include <string.h>

#include "model_int.h"

static int violation(zo_violation *v, const char *id, const char *rule,
                     const zo_game *g, int obj, const char *what) {
  if (v) {
    v->invariant = id;
    v->rule = rule;
    snprintf(v->detail, sizeof v->detail, "%s%s%s", obj >= 0 ? g->c->handles[obj] : "",
             obj >= 0 ? ": " : "", what);
  }
  return 1;
}

static int check_objects(const zo_game *g, int at_rest, zo_violation *v,
                         const unsigned char *listed) ZO_NO_COVERAGE;

/* Games with at most this many objects find a repeated identity by
 * scanning the objects before (no scratch to touch: the fuzzers' games);
 * larger ones use zo_game's id_stamp table. */
#define ZO_CHECK_SCAN 64

/* limits: among sub-cards (issue 31): does top have more sub-cards of a
 * limit's types than its zone type's limit among: under allows? */
static int under_limit_broken(const zo_game *g, int top) {
  int t = g->zones[g->objs[top].zone].type;
  const zo_zone_type *zt = &g->rs->zones[t];
  for (int l = 0; l < zt->limits.value && l < ZO_MAX_LIMITS; l++) {
    if (zt->limit[l].among != ZL_UNDER) continue;
    int n = 0;
    for (int j = 0; j < g->nobjs; j++)
      n += g->objs[j].exists && g->objs[j].under == top && has_kind_of(g, &g->objs[j], g->limit_types[t][l]);
    if (n > zt->limit[l].count) return 1;
  }
  return 0;
}

/* fresh-ids (CR 400.7): does an existing object with a lower handle than
 * obj have obj's identity? check_objects asks once per existing object, in
 * handle order, so in a large game each identity is stamped as its object
 * is checked (id_stamp[id] = id_gen, this check's generation) and the
 * question is one look-up: the check stays linear in objects. An identity
 * beyond the table (from the future, a violation itself) and every
 * identity of a small game are looked for by scanning. m is the checked
 * game (its scratch only is written). */
static int seen_identity(zo_game *m, int obj) ZO_NO_COVERAGE;
ZO_NO_COVERAGE static int seen_identity(zo_game *m, int obj) {
  uint64_t id = m->objs[obj].id;
  if (m->nobjs <= ZO_CHECK_SCAN || id >= m->id_cap) {
    for (int j = 0; j < obj; j++)
      if (m->objs[j].exists && m->objs[j].id == id) return 1;
    return 0;
  }
  if (m->id_stamp[id] == m->id_gen) return 1;
  m->id_stamp[id] = m->id_gen;
  return 0;
}

ZO_NO_COVERAGE int zo_game_check(const zo_game *g, int at_rest, zo_violation *v) {
  zo_game *m = (zo_game *)g; /* only its check scratch is written */
  /* one pass over every zone's list: listed[h] is 1 when h is listed once,
     in its own zone, and more otherwise (one-zone, sub-cards) */
  unsigned char small[256], *listed = small;
  if ((size_t)g->nobjs > sizeof small) {
    if (!m->chk_listed) m->chk_listed = zo_xcalloc((size_t)g->nobjs, 1);
    listed = m->chk_listed;
  }
  memset(listed, 0, (size_t)g->nobjs);
  for (int z = 0; z < g->nzones; z++)
    for (int k = 0; k < g->zones[z].n; k++) {
      int h = g->zones[z].objs[k];
      int add = g->objs[h].zone == z ? 1 : 2;
      if (listed[h] < 100) listed[h] = (unsigned char)(listed[h] + add);
    }
  if (g->nobjs > ZO_CHECK_SCAN) {
    /* fresh-ids: a stamp per identity the model has given out (1..next_id) */
    if (m->id_cap <= g->next_id) {
      size_t cap = m->id_cap * 2 > g->next_id + 1 ? m->id_cap * 2 : (size_t)g->next_id + 1;
      m->id_stamp = zo_xrealloc(m->id_stamp, cap * sizeof *m->id_stamp);
      memset(m->id_stamp + m->id_cap, 0, (cap - m->id_cap) * sizeof *m->id_stamp);
      m->id_cap = cap;
    }
    if (++m->id_gen == 0) { /* the generations wrapped: forget every stamp */
      memset(m->id_stamp, 0, m->id_cap * sizeof *m->id_stamp);
      m->id_gen = 1;
    }
  }
  return check_objects(g, at_rest, v, listed);
}

ZO_NO_COVERAGE static int check_objects(const zo_game *g, int at_rest, zo_violation *v,
                                        const unsigned char *listed) {
  int fab_tokens = SW(g, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY;
  int cards = 0;
  for (int i = 0; i < g->nobjs; i++) {
    const zo_obj *o = &g->objs[i];
    if (!o->exists) {
      if (listed[i])
        return violation(v, "one-zone", "CR 400.7; FaB 3.0.1a", g, i, "ceased to exist but still listed in a zone");
      continue;
    }
    if (o->kind == ZK_CARD && !is_token(g, o)) cards++; /* a token card may cease (FaB 8.1.8a) */
    if (o->zone == -1 || (o->zone == ZO_ZONE_OUTSIDE && o->kind != ZK_CARD && o->kind != ZK_COPY))
      return violation(v, "in-a-zone", "CR 400.1; FaB 3.0.7", g, i, "exists in no zone");
    if (o->under >= 0) {
      const zo_obj *t = &g->objs[o->under];
      if (!t->exists || t->under >= 0 || t->zone != o->zone)
        return violation(v, "sub-cards", "FaB 3.0.14", g, i, "sub-card without a top-card in the arena");
      if (listed[i])
        return violation(v, "sub-cards", "FaB 3.0.14b", g, i, "sub-card listed in a zone");
      if (ZT(g, t->zone)->limits.value && under_limit_broken(g, o->under))
        return violation(v, "sub-cards", "", g, i, "more sub-cards of a kind than its top-card's zone's limits: allow");
    } else if (o->zone >= 0) {
      if (listed[i] != 1)
        return violation(v, "one-zone", "FaB 3.0.1a", g, i, "not in exactly its one zone");
      if (!g->zones[o->zone].exists)
        return violation(v, "in-a-zone", "FaB 3.0.10", g, i, "in a zone that ceased to exist");
    }
    int in_arena = o->zone >= 0 && o->under < 0 && ZT(g, o->zone)->arena.value;
    /* only where the rule set makes tokens off the battlefield cease (a
       game without tokens, or a user's that leaves token_leaves unwritten,
       has no such rule) */
    if (is_token(g, o) && (at_rest || fab_tokens) && !in_arena &&
        SW(g, SW_TOKEN_LEAVES) != ZS_NONE &&
        !(o->under >= 0 && SW(g, SW_SUB_CARDS) == ZS_YES))
      return violation(v, "tokens-in-arena", "CR 704.5d; FaB 8.1.8a", g, i, "token outside the battlefield/arena");
    if (o->kind == ZK_ABILITY && !is_stack(g, o->zone))
      return violation(v, "copies-on-stack", "CR 704.5e; FaB 1.6.2b", g, i, "ability off the stack");
    /* a copy made outside the game (CR 707.13) is in no zone */
    if (o->kind == ZK_COPY && at_rest && SW(g, SW_COPIES) == ZS_CEASE_OFF_STACK &&
        o->zone != ZO_ZONE_OUTSIDE && !is_stack(g, o->zone) &&
        !(o->zone >= 0 && ZT(g, o->zone)->role == ZR_BATTLEFIELD))
      return violation(v, "copies-on-stack", "CR 704.5e", g, i, "copy off the stack at rest");
    if (o->controller >= 0 && (o->zone < 0 || o->under >= 0 || !ZT(g, o->zone)->controller.value))
      return violation(v, "no-controller", "CR 109.4; FaB 1.2.1b", g, i, "controller outside battlefield/stack");
    if (seen_identity((zo_game *)g, i))
      return violation(v, "fresh-ids", "CR 400.7", g, i, "two objects share an identity");
    if (o->id > g->next_id)
      return violation(v, "fresh-ids", "CR 400.7", g, i, "identity from the future");
    if (o->zone >= 0 && o->under < 0 && ZT(g, o->zone)->role == ZR_LIBRARY)
      for (int p = 0; p < g->c->nplayers; p++)
        if (zo_game_sees(g, p, i) && !zo_obj_revealed(g, i) && !zo_obj_looks(g, i, p) &&
            !zo_obj_top_revealed(g, i))
          return violation(v, "deck-hidden", "CR 401.2; FaB 3.7.4", g, i, "a player sees into a library/deck");
  }
  if (cards + g->cards_left != g->ncards_start) /* less those gone with their owner, 800.4a */
    return violation(v, "cards-conserved", "every zone rule moves, none creates a card", g, -1, "card count changed");
  /* ceases_empty (issue 31): a zone zone_create made that has held an
     object and is empty has ceased (after each step) */
  for (int z = 0; g->has_ceasing && z < g->nzones && z < g->nzone_life; z++)
    if (g->zone_life[z] == (ZONE_MADE | ZONE_HELD) && g->zones[z].exists && !g->zones[z].n &&
        g->zones[z].twoh < 0)
      return violation(v, "ceases-empty", "", g, -1, "an emptied zone that zone_create made still exists");
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (!zn->n) continue;
    const zo_zone_type *zt = zn->zt;
    if (!zn->exists)
      return violation(v, "in-a-zone", "FaB 3.0.10b", g, zn->objs[0], "objects in a removed zone");
    int own = zt->owner_only.value && zn->player >= 0 && !g->ended;
    unsigned holds = (unsigned)zt->holds.value;
    for (int k = 0; (own || holds) && k < zn->n; k++) {
      const zo_obj *o = &g->objs[zn->objs[k]];
      if (own && o->owner != zn->player)
        return violation(v, "owner-zones", "CR 400.3; FaB 3.8.2", g, zn->objs[k], "in another player's owner-only zone");
      if ((holds & ZH_NO_INSTANTS) && (o->types & g->classes.instant_sorcery) && !o->face_down)
        return violation(v, "can-hold", "CR 400.4a", g, zn->objs[k], "instant or sorcery on the battlefield");
      if (holds && cannot_hold(g, zt, o))
        return violation(v, "can-hold", "FaB 3.0.11", g, zn->objs[k], "in a zone that can't hold it");
    }
    if (zt->capacity.value > 0) {
      int occ = zn->n;
      if (zn->twoh >= 0 && !(zn->n == 1 && (g->objs[zn->objs[0]].types & g->classes.quiver) &&
                             (g->objs[zn->twoh].types & g->classes.bow)))
        occ++;
      if (occ > zt->capacity.value)
        return violation(v, "capacity", "FaB 3.3.2, 3.16.2, 8.2.2", g, zn->n ? zn->objs[0] : -1, "zone over capacity");
    }
    /* face_up_only: (issue 31): some kinds of card never face down */
    for (int k = 0; zt->face_up_only.value && k < zn->n; k++) {
      const zo_obj *o = &g->objs[zn->objs[k]];
      uint64_t want = g->face_up_types[zn->type];
      if (o->face_down && ((o->types & want) || ((want & g->classes.token) && is_token(g, o))))
        return violation(v, "can-hold", "", g, zn->objs[k], "face down where its kind is never face down (face_up_only:)");
    }
    /* at_index: (issue 31): some kinds of card only at some indexes */
    for (int k = 0; zt->at_index.value && k < zn->n; k++)
      if (zo_zone_at_index_refusing(g, z, zn->objs[k]) >= 0)
        return violation(v, "can-hold", "", g, zn->objs[k], "in a zone whose index its kind can't be at (at_index:)");
    /* limits: among the zone (issue 31): no more of a kind than allowed */
    for (int l = 0; l < zt->limits.value && l < ZO_MAX_LIMITS; l++) {
      int n = 0;
      for (int k = 0; zt->limit[l].among == ZL_ZONE && k < zn->n; k++)
        n += (g->objs[zn->objs[k]].types & g->limit_types[zn->type][l]) != 0;
      if (n > zt->limit[l].count)
        return violation(v, "capacity", "", g, zn->objs[0], "more objects of a kind than the zone's limits: allow");
    }
  }
  return 0;
}

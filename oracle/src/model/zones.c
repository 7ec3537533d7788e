/* zones.c: zone instances. A game's zones are the rule set's zone types
 * made for its players (one per player, `count` per player, or one shared);
 * FaB 3.0.10 lets a step create and remove more. Here: finding a zone by
 * role or by a written spec, resolving a destination (the owner's zone, CR
 * 400.3's redirect, the owner's choice among several, FaB 3.0.10a), what a
 * zone refuses (owner-only, holds, capacity; FaB chapter 3; a rule set's
 * limits per kind of card, issue 31) and what a full zone displaces, zone names,
 * and the steps on zones: reorder (CR 400.5), shuffle, zone_create and
 * zone_remove. The common move's fast path is model_int.h's resolve_dest.
 */
#include <stdio.h>
#include <string.h>

#include "model_int.h"

int zo_zone_of_role(const zo_game *g, zo_zone_role role, int player) {
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (zn->exists && g->rs->zones[zn->type].role == role &&
        (zn->player == player || zn->player < 0))
      return z;
  }
  return -1;
}

/* ---- names ---------------------------------------------------------- */

/* s appended to the n bytes of buf (cap in all, cap >= 1), cut to fit and
 * terminated as snprintf would; the new length. */
static size_t name_put(char *buf, size_t cap, size_t n, const char *s) {
  while (*s && n + 1 < cap) buf[n++] = *s++;
  buf[n] = 0;
  return n;
}

/* Every observation names the zones objects are in, after every step, so
 * the name is put together by hand: snprintf was a tenth of what `serve`
 * spent on a game. */
void zo_game_zone_name(const zo_game *g, int zone, char *buf, size_t cap) {
  if (!cap) return;
  buf[0] = 0;
  if (zone == ZO_ZONE_OUTSIDE) {
    name_put(buf, cap, 0, "outside");
    return;
  }
  if (zone < 0) return;
  const zo_zone *z = &g->zones[zone];
  const zo_zone_type *zt = &g->rs->zones[z->type];
  if (z->player < 0) {
    name_put(buf, cap, 0, zt->name);
    return;
  }
  size_t n = name_put(buf, cap, 0, g->c->players[z->player]);
  n = name_put(buf, cap, n, ".");
  n = name_put(buf, cap, n, zt->name);
  if (zt->count.value > 1 || g->multi[z->player][z->type]) {
    char index[16]; /* only zones of several instances have one */
    snprintf(index, sizeof index, ".%d", z->index);
    name_put(buf, cap, n, index);
  }
}

/* ---- zone resolution ------------------------------------------------ */

/* Zones of a written spec for one player: count, and the first cap of them
 * in out. g->zone_scratch holds every zone (capzones), so a caller that
 * passes it gets them all. */
static int zones_of(const zo_game *g, int type, int player, int *out, int cap) {
  int one = set_up_zone(g, type, player);
  if (one >= 0) {
    if (cap > 0) out[0] = one;
    return 1;
  }
  int n = 0;
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (zn->exists && zn->type == type && (zn->player < 0 || zn->player == player)) {
      if (n < cap) out[n] = z;
      n++;
    }
  }
  return n;
}

int zo_zone_resolve_slow(zo_game *g, int obj, const zo_zone_spec *s, int choose,
                         int *redirected, zo_step_error *err) {
  const zo_obj *o = &g->objs[obj];
  if (s->type == ZO_ZT_OUTSIDE) return ZO_ZONE_OUTSIDE;
  int type;
  if (s->type == ZO_ZT_ARENA) {
    /* FaB 3.0.5a: into the arena without a zone = the permanent zone */
    if (SW(g, SW_ARENA_DEFAULT) != ZS_PERMANENT_ZONE) {
      *err = ZO_E_NO_ZONE;
      return -1;
    }
    HITSW(g, SW_ARENA_DEFAULT);
    int z = zo_zone_of_role(g, ZR_BATTLEFIELD, -1);
    if (z < 0) *err = ZO_E_NO_ZONE;
    return z;
  }
  /* issue 31 (seats:): the private slots of the hand, graveyard and exile
     name a role; where zone types only some players have share it, the
     role of the player's own zone decides */
  if (g->has_seats && (s->type == g->hand_slot || s->type == g->graveyard_slot ||
                       s->type == g->exile_slot)) {
    zo_zone_role role = s->type == g->hand_slot ? ZR_HAND : s->type == g->graveyard_slot ? ZR_GRAVEYARD
                                                                                          : ZR_EXILE;
    int z = zo_zone_of_role(g, role, s->player >= 0 ? s->player : o->owner);
    if (z < 0) *err = ZO_E_NO_ZONE;
    return z;
  }
  type = g->zmap[s->type];
  const zo_zone_type *zt = &g->rs->zones[type];
  int player = -1;
  if (zt->per_player.value) {
    player = s->player >= 0 ? s->player : o->owner;
    if (player != o->owner && zt->owner_only.value &&
        (zt->wrong_owner.value ? zt->wrong_owner.value : SW(g, SW_WRONG_OWNER)) == ZS_REDIRECT) {
      /* CR 400.3: another player's library, hand or graveyard -> owner's
         (the zone type's own wrong_owner: first, issue 31) */
      zo_zone_wrong_owner(g, zt);
      hit(g, &zt->owner_only);
      player = o->owner;
      *redirected = 1;
    }
  }
  int *cands = g->zone_scratch;
  int n = zones_of(g, type, player, cands, g->capzones);
  if (s->index) {
    for (int i = 0; i < n; i++)
      if (g->zones[cands[i]].index == s->index) return cands[i];
    *err = ZO_E_NO_ZONE;
    return -1;
  }
  if (n == 0) {
    /* issue 31: the player's seat has no zone of this type (seats:) */
    if (zt->seats.value && player >= 0 && !(zt->seat_bits >> player & 1u)) {
      hit(g, &zt->seats);
      g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
    }
    *err = ZO_E_NO_ZONE;
    return -1;
  }
  if (n == 1) return cands[0];
  /* FaB 3.0.10a / 3.3.3b: several zones of the type: the owner chooses; by
     default the first that can hold the object */
  HITSW(g, SW_ZONE_LIFECYCLE);
  if (choose) {
    for (int i = 0; i < n; i++)
      if (g->zones[cands[i]].index == choose) return cands[i];
    *err = ZO_E_NO_ZONE;
    return -1;
  }
  for (int i = 0; i < n; i++)
    if (zo_zone_refuses(g, cands[i], obj, 0) == ZO_E_NONE) return cands[i];
  return cands[0];
}

/* ---- what a zone can hold ------------------------------------------ */

/* The first limit among the zone (limits:, issue 31) of zone `zone` that
 * obj breaks by being there: it has one of the limit's types, and the
 * zone holds `count` others that do; the limit's index, or -1. */
static int zone_limit_refusing(const zo_game *g, int zone, int obj) {
  const zo_zone *z = &g->zones[zone];
  const zo_zone_type *zt = &g->rs->zones[z->type];
  for (int k = 0; k < zt->limits.value && k < ZO_MAX_LIMITS; k++) {
    uint64_t want = g->limit_types[z->type][k];
    if (zt->limit[k].among != ZL_ZONE || !has_kind_of(g, &g->objs[obj], want)) continue;
    int n = 0;
    for (int i = 0; i < z->n; i++)
      if (z->objs[i] != obj && has_kind_of(g, &g->objs[z->objs[i]], want)) n++;
    if (n + 1 > zt->limit[k].count) return k;
  }
  return -1;
}

zo_step_error zo_zone_refuses(zo_game *g, int zone, int obj, int flags) {
  int counting = flags & ZF_COUNT;
  const zo_obj *o = &g->objs[obj];
  const zo_zone *z = &g->zones[zone];
  const zo_zone_type *zt = &g->rs->zones[z->type];
  if (!z->exists) return ZO_E_NO_ZONE;
  if (!(flags & ZF_ANY_OWNER) && zt->owner_only.value && z->player >= 0 && z->player != o->owner) {
    if (counting) hit(g, &zt->owner_only);
    /* issue 31: a zone type's own wrong_owner: cannot_hold refused it */
    if (counting && zt->wrong_owner.value) zo_zone_wrong_owner(g, zt);
    return ZO_E_CANNOT_HOLD;
  }
  unsigned holds = (unsigned)zt->holds.value;
  if (holds && cannot_hold(g, zt, o)) {
    /* the refusal's own citation: holds_types: when only it refuses */
    if (counting)
      hit(g, zo_holds_refusal(&g->classes, zt, (int)o->kind, o->types, g->equip_types[z->type],
                              g->only_types[z->type]) == ZH_TYPES ? &zt->holds_types : &zt->holds);
    return ZO_E_CANNOT_HOLD;
  }
  if (zt->capacity.value > 0) {
    int occupied = 0;
    for (int i = 0; i < z->n; i++)
      if (z->objs[i] != obj) occupied++;
    /* FaB 8.2.2: a 2H object is equipped to a second zone it doesn't occupy;
       8.2.15: a quiver may occupy that zone when the 2H object is a bow */
    if (z->twoh >= 0 && z->twoh != obj) {
      int bow = (g->objs[z->twoh].types & g->classes.bow) != 0;
      if (!((o->types & g->classes.quiver) && bow)) occupied++;
    }
    if (occupied + 1 > zt->capacity.value) {
      if (counting) hit(g, &zt->capacity);
      return ZO_E_CAPACITY;
    }
    /* a 2H object needs a second empty zone of the same type and player */
    if ((o->types & g->classes.two_handed) && (holds & ZH_EQUIP) &&
        zo_twoh_second_zone(g, zone, obj) < 0) {
      if (counting) hit(g, &zt->capacity);
      return ZO_E_CAPACITY;
    }
  }
  /* at_index: (issue 31): some kinds of card only in some zones of the
     type, by index (the Pendulum Zones) */
  if (zt->at_index.value && zo_zone_at_index_refusing(g, zone, obj) >= 0) {
    if (counting) {
      hit(g, &zt->at_index);
      g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
    }
    return ZO_E_CANNOT_HOLD;
  }
  /* limits: (issue 31): at most `count` objects of the limit's types in
     the zone, the arriving one included */
  if (zt->limits.value && zone_limit_refusing(g, zone, obj) >= 0) {
    if (counting) {
      hit(g, &zt->limits);
      g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
    }
    return ZO_E_CAPACITY;
  }
  return ZO_E_NONE;
}

int zo_zone_at_index_refusing(const zo_game *g, int zone, int obj) {
  const zo_zone *z = &g->zones[zone];
  const zo_zone_type *zt = &g->rs->zones[z->type];
  int idx = z->index < 1 ? 1 : z->index;
  for (int k = 0; k < zt->at_index.value && k < ZO_MAX_AT_INDEX; k++)
    if ((g->objs[obj].types & g->at_types[z->type][k]) &&
        (idx > 64 || !(zt->at[k].index >> (idx - 1) & 1u)))
      return k;
  return -1;
}

int zo_face_up_only(zo_game *g, int type, int obj) {
  const zo_zone_type *zt = &g->rs->zones[type];
  if (!zt->face_up_only.value) return 0;
  const zo_obj *o = &g->objs[obj];
  uint64_t want = g->face_up_types[type];
  if (!(o->types & want) && !((want & g->classes.token) && is_token(g, o))) return 0;
  hit(g, &zt->face_up_only);
  g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
  return 1;
}

int zo_zone_displaced(const zo_game *g, int zone, int obj) {
  const zo_zone *z = &g->zones[zone];
  int k = g->rs->zones[z->type].limits.value ? zone_limit_refusing(g, zone, obj) : -1;
  uint64_t want = k >= 0 ? g->limit_types[z->type][k] : 0;
  for (int i = 0; i < z->n; i++) {
    int x = z->objs[i];
    if (x != obj && (k < 0 || has_kind_of(g, &g->objs[x], want))) return x;
  }
  return -1;
}

int zo_under_limit(zo_game *g, int top, int obj, int counting) {
  int t = g->zones[g->objs[top].zone].type;
  const zo_zone_type *zt = &g->rs->zones[t];
  for (int k = 0; k < zt->limits.value && k < ZO_MAX_LIMITS; k++) {
    uint64_t want = g->limit_types[t][k];
    if (zt->limit[k].among != ZL_UNDER) continue;
    int n = 0;
    for (int i = 0; i < g->nobjs; i++) {
      const zo_obj *o = &g->objs[i];
      if (!o->exists || !has_kind_of(g, o, want)) continue;
      n += i == obj || o->under == top || (o->under == obj && obj >= 0);
    }
    if (n > zt->limit[k].count) {
      if (counting) {
        hit(g, &zt->limits);
        g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
      }
      return k;
    }
  }
  return -1;
}

/* ---- the zone table ------------------------------------------------------ */

/* Zone lists live in one pool, each as long as the game has objects, so a
 * move never allocates. */
int zo_game_add_zone(zo_game *g, int type, int player, int index) {
  int per = g->nobjs + 1;
  if (g->nzones == g->capzones) {
    g->capzones = g->capzones ? g->capzones * 2 : 32;
    g->zones = zo_xrealloc(g->zones, (size_t)g->capzones * sizeof *g->zones);
    g->pool = zo_xrealloc(g->pool, (size_t)g->capzones * (size_t)per * sizeof *g->pool);
    g->zone_scratch = zo_xrealloc(g->zone_scratch, (size_t)g->capzones * sizeof *g->zone_scratch);
    for (int i = 0; i < g->nzones; i++) g->zones[i].objs = g->pool + (size_t)i * (size_t)per;
  }
  zo_zone *z = &g->zones[g->nzones];
  memset(z, 0, sizeof *z);
  z->objs = g->pool + (size_t)g->nzones * (size_t)per;
  z->zt = &g->rs->zones[type];
  z->arena = (char)z->zt->arena.value;
  z->stack = z->zt->role == ZR_STACK;
  z->keeps = z->zt->keeps.value != 0;
  /* CR 400.4a (no instants) is the move's own test, not zone_refuses' */
  z->plain = !((unsigned)z->zt->holds.value & ~(unsigned)ZH_NO_INSTANTS) &&
             z->zt->capacity.value <= 0 && !z->zt->limits.value &&
             !z->zt->at_index.value; /* issue 31 */
  z->owner_only = z->zt->owner_only.value && player >= 0;
  z->pub = (char)z->zt->pub.value;
  z->ordered = (char)z->zt->ordered.value;
  z->controller = (char)z->zt->controller.value;
  z->type = type;
  z->player = player;
  z->index = index;
  z->exists = 1;
  z->twoh = -1;
  return g->nzones++;
}

/* ---- shuffle (splitmix64, repeatable from the seed) ----------------- */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void zo_game_shuffle_zone(zo_game *g, int zone, uint64_t seed) {
  zo_zone *z = &g->zones[zone];
  uint64_t s = seed;
  for (int i = z->n - 1; i > 0; i--) {
    int j = (int)(splitmix(&s) % (uint64_t)(i + 1));
    int t = z->objs[i];
    z->objs[i] = z->objs[j];
    z->objs[j] = t;
  }
}

/* ---- steps on zones ------------------------------------------------------ */

/* Zone instance of a step's `zone:` with no object: the first player's. */
static int step_zone(zo_game *g, const zo_zone_spec *s, int player_default) {
  if (s->type < 0) return -1;
  int type = g->zmap[s->type];
  int player = s->player >= 0 ? s->player : player_default;
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (!zn->exists || zn->type != type) continue;
    if (zn->player >= 0 && zn->player != player) continue;
    if (s->index && zn->index != s->index) continue;
    return z;
  }
  return -1;
}

/* Whether the step's order (top first) names every object of zone z once. */
static int names_zone(const zo_game *g, const zo_step *s, int z) {
  const zo_zone *zn = &g->zones[z];
  int ok = s->norder == zn->n;
  for (int i = 0; ok && i < s->norder; i++) {
    const zo_obj *o = &g->objs[s->order_zone_handles[i]];
    ok = o->zone == z && o->exists && o->under < 0;
    for (int k = 0; ok && k < i; k++) ok = s->order_zone_handles[k] != s->order_zone_handles[i];
  }
  return ok;
}

/* Zone z put in the step's order, which must name every object in it
 * once: else failed, not_in_zone, and nothing changes. A reorder that
 * changes the order renews a library's revealed cards (701.20d,
 * zo_zone_reordered); a shuffle's caller does its own. */
static void put_in_order(zo_game *g, const zo_step *s, int z, zo_step_result *r) {
  int changes = 0;
  for (int i = 0; i < s->norder && i < g->zones[z].n; i++)
    changes |= g->zones[z].objs[i] != s->order_zone_handles[i];
  if (zo_game_order_zone(g, z, s)) {
    if (changes && s->kind == ST_REORDER) zo_zone_reordered(g, z, r);
    return;
  }
  r->outcome = ZO_OUTCOME_FAILED;
  r->error = ZO_E_NOT_IN_ZONE;
}

int zo_game_order_zone(zo_game *g, int zone, const zo_step *s) {
  if (!names_zone(g, s, zone)) return 0;
  for (int i = 0; i < s->norder; i++) g->zones[zone].objs[i] = s->order_zone_handles[i];
  return 1;
}

/* Does zone z hold a face-down pile: two or more face-down objects? */
static int face_down_pile(const zo_game *g, int z) {
  const zo_zone *zn = &g->zones[z];
  int n = 0;
  for (int i = 0; i < zn->n && n < 2; i++) n += g->objs[zn->objs[i]].face_down;
  return n >= 2;
}

/* CR 400.5, 401.4: the owner rearranges a zone that allows it; the order
 * names every object in it. By an effect (by: effect), also a zone whose
 * order only effects and rules may change (CR 400.5, 217.1b, Z.6.3). Either
 * way nothing changes zones: every object stays the object it was, and no
 * zone-change trigger fires (CR 400.7 and FaB 3.0.9 speak of zone
 * changes; Z.6.Ruling.2: the cards stay in the library throughout). */
void zo_step_reorder(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  int z = step_zone(g, &s->zone, 0);
  if (z < 0) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_NO_ZONE;
    return;
  }
  const zo_zone_type *zt = ZT(g, z);
  if (s->by_effect && !zt->reorder.value) {
    hit(g, &zt->effect_reorder);
    if (zt->effect_reorder.value) {
      put_in_order(g, s, z, r);
      return;
    }
  } else {
    hit(g, &zt->reorder);
  }
  if (!zt->reorder.value) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_ORDERED;
    return;
  }
  if (!zo_perform_reorder_ok(g, s, z, r)) return; /* issue 12, G3 */
  /* CR 400.5 (since 2009): face-down piles outside the library, graveyard
     and stack keep their order as those do. A zone without positions has
     no order anyone observes, so a player may not rearrange a zone that
     holds such a pile at all (cases/README.md, "Model decisions"); the
     battlefield's face-down permanents are no pile */
  if (!s->by_effect && SW(g, SW_FACE_DOWN_PILES) == ZS_YES && zt->role != ZR_BATTLEFIELD &&
      names_zone(g, s, z) && face_down_pile(g, z)) {
    HITSW(g, SW_FACE_DOWN_PILES);
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_ORDERED;
    return;
  }
  put_in_order(g, s, z, r);
}

void zo_step_shuffle(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  int z = step_zone(g, &s->zone, 0);
  if (z < 0) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_NO_ZONE;
    return;
  }
  /* a shuffle's result is random, and no zone rule fixes it: the case
     gives it as order:, or the seed picks one repeatably */
  if (s->shuffle == ZO_SHUFFLE_ORDER) put_in_order(g, s, z, r);
  else zo_game_shuffle_zone(g, z, s->seed);
  if (r->outcome != ZO_OUTCOME_FAILED) zo_zone_shuffled(g, z, r);
}

/* FaB 3.0.10: zones that come into being and cease; elsewhere rejected. */
static int lifecycle(zo_game *g, zo_step_result *r) {
  if (SW(g, SW_ZONE_LIFECYCLE) != ZS_YES) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return 0;
  }
  HITSW(g, SW_ZONE_LIFECYCLE);
  return 1;
}

/* ceases_empty (issue 31): zone z, just made by zone_create, ceases once
 * its last object has left (zo_zones_cease_empty). */
static void zone_made_ceasing(zo_game *g, int z) {
  if (z >= g->nzone_life) {
    int n = g->capzones > z ? g->capzones : z + 1;
    g->zone_life = zo_xrealloc(g->zone_life, (size_t)n);
    memset(g->zone_life + g->nzone_life, 0, (size_t)(n - g->nzone_life));
    g->nzone_life = n;
  }
  g->zone_life[z] = ZONE_MADE;
  g->has_ceasing = 1;
}

void zo_zones_cease_empty(zo_game *g) {
  for (int z = 0; z < g->nzones && z < g->nzone_life; z++) {
    zo_zone *zn = &g->zones[z];
    if (!(g->zone_life[z] & ZONE_MADE) || !zn->exists) continue;
    /* sub-cards are not listed: a zone holding only a top-card's sub-cards
       holds its top-card too */
    if (zn->n > 0 || zn->twoh >= 0) {
      g->zone_life[z] |= ZONE_HELD;
      continue;
    }
    if (!(g->zone_life[z] & ZONE_HELD)) continue; /* made, never yet used */
    zn->exists = 0;
    g->zones_changed = 1;
    hit(g, &g->rs->zones[zn->type].ceases_empty);
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
  }
}

/* FaB 3.0.10a: a new zone of the type for the player, numbered after the
 * highest it has. */
void zo_step_zone_create(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (!lifecycle(g, r)) return;
  int type = g->zmap[s->zone.type];
  int idx = 0;
  for (int z = 0; z < g->nzones; z++)
    if (g->zones[z].type == type && g->zones[z].player == s->zone.player &&
        g->zones[z].index > idx)
      idx = g->zones[z].index;
  zo_game_add_zone(g, type, s->zone.player, idx + 1);
  if (g->rs->zones[type].ceases_empty.value) zone_made_ceasing(g, g->nzones - 1);
  g->zones_changed = 1;
  g->multi[s->zone.player][type] = 1;
}

/* FaB 3.0.10b-c: a zone ceases (the one named; the only one; an empty one;
 * the one chosen) and what was in it is cleared. */
void zo_step_zone_remove(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (!lifecycle(g, r)) return;
  int type = g->zmap[s->zone.type];
  int *cands = g->zone_scratch;
  int n = zones_of(g, type, s->zone.player, cands, g->capzones);
  int z = -1;
  if (s->zone.index) {
    for (int i = 0; i < n; i++)
      if (g->zones[cands[i]].index == s->zone.index) z = cands[i];
  } else if (n == 1) {
    z = cands[0]; /* 3.0.10b */
  } else {
    for (int i = 0; i < n && z < 0; i++) /* 3.0.10c: an empty one */
      if (g->zones[cands[i]].n == 0 && g->zones[cands[i]].twoh < 0) z = cands[i];
    if (z < 0 && s->choose)
      for (int i = 0; i < n; i++)
        if (g->zones[cands[i]].index == s->choose) z = cands[i];
  }
  if (z < 0) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_NO_ZONE;
    return;
  }
  zo_zone *zn = &g->zones[z];
  int cleared = 0;
  /* the zone ceases first, so a graveyard's own cards can't be cleared
     back into it (with no graveyard left, a card ceases) */
  zn->exists = 0;
  g->zones_changed = 1;
  if (zn->twoh >= 0) zn->twoh = -1;
  while (zn->n > 0) {
    zo_obj_clear(g, zn->objs[0], r);
    cleared = 1;
  }
  r->outcome = cleared ? ZO_OUTCOME_CLEARED : ZO_OUTCOME_NO_MOVE;
}

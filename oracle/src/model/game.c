/* game.c: the reference model of the zone rules (the oracle).
 *
 * A game is a rule set (zone types + switches, ruleset.c) applied to a case's
 * starting position. Objects are the case's handles: a handle names one
 * physical card, token or ability through its successive existences; each
 * existence has a fresh identity (`id`), so "became a new object" is an id
 * change (CR 400.7, FaB 3.0.9) and ids are never reused (fresh-ids).
 *
 * A move runs the zone-change procedure of CR 400.6 / FaB 3.0.7-3.0.11:
 * resolve the destination (owner redirect, CR 400.3), apply replacement
 * effects in the chosen order (616.1 / FaB 6.5), take the flip step (FaB
 * 3.0.8, 3.0.8a), stop same-zone moves (400.8, FaB 3.0.7b), apply what the
 * destination can't hold (400.4a, FaB 3.0.11: stays / fails / clears), then
 * move, decide identity, marks and history, fire watched triggers, and run
 * the effect's `then:` where the rule set lets it find the object.
 *
 * Every switch or zone attribute the model applies counts a hit on the rules
 * it cites; that is the rule coverage the reports show.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "util.h"

/* ---- small helpers ------------------------------------------------ */

/* The model applied a cited attribute or switch: count it (rule hits are
 * derived from these counters by zo_game_hits). */
static inline void hit(zo_game *g, const zo_cited *c) { g->slot_hits[c->slot]++; }
#define SW(g, s) ((g)->rs->sw[s].value)
#define HITSW(g, s) hit(g, &(g)->rs->sw[s])

static inline const zo_zone_type *ZT(const zo_game *g, int zone) { return g->zones[zone].zt; }

static inline void event(zo_step_result *r, int handle, zo_outcome o) {
  if (!r) return;
  if (r->nevents == r->capevents) {
    r->capevents = r->capevents ? r->capevents * 2 : 8;
    r->events = zo_xrealloc(r->events, (size_t)r->capevents * sizeof *r->events);
  }
  r->events[r->nevents].handle = handle;
  r->events[r->nevents].outcome = o;
  r->nevents++;
}

static int zone_of_role(const zo_game *g, zo_zone_role role, int player) {
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (zn->exists && g->rs->zones[zn->type].role == role &&
        (zn->player == player || zn->player < 0))
      return z;
  }
  return -1;
}

static inline int is_arena(const zo_game *g, int zone) {
  return zone >= 0 && g->zones[zone].arena;
}

static inline int is_stack(const zo_game *g, int zone) {
  return zone >= 0 && g->zones[zone].stack;
}

/* ---- zone lists --------------------------------------------------- */

static inline void zone_insert(zo_game *g, int zone, int obj, int pos) {
  zo_zone *z = &g->zones[zone]; /* its list holds every object (g->pool) */
  if (pos == ZO_POS_BOTTOM || pos > z->n) pos = z->n; /* 401.8: past the end = bottom */
  if (pos < 0) pos = 0;                              /* top */
  for (int i = z->n; i > pos; i--) z->objs[i] = z->objs[i - 1]; /* lists are short */
  z->objs[pos] = obj;
  z->n++;
  g->objs[obj].zone = zone;
}

static inline void zone_remove_obj(zo_game *g, int obj) {
  int zone = g->objs[obj].zone;
  if (zone < 0) return;
  zo_zone *z = &g->zones[zone];
  for (int i = 0; i < z->n; i++)
    if (z->objs[i] == obj) {
      for (int k = i + 1; k < z->n; k++) z->objs[k - 1] = z->objs[k];
      z->n--;
      break;
    }
  if (g->objs[obj].types & g->classes.two_handed) /* FaB 8.2.2: it was equipped to two */
    for (int i = 0; i < g->nzones; i++)
      if (g->zones[i].twoh == obj) g->zones[i].twoh = -1;
}

/* ---- object categories (FaB 1.3.2, 1.3.3; holds.h) ------------------ */

/* Is o a FaB permanent (holds.h) in zone instance `zone` (in the arena)? */
static int fab_permanent(const zo_game *g, const zo_obj *o, int zone) {
  return zo_holds_is_fab_permanent(&g->classes, (int)o->kind, o->types, ZT(g, zone));
}

static inline int is_token(const zo_game *g, const zo_obj *o) {
  return zo_holds_is_token(&g->classes, (int)o->kind, o->types);
}

/* ---- visibility ----------------------------------------------------- */

int zo_game_obj_public(const zo_game *g, int obj) {
  const zo_obj *o = &g->objs[obj];
  if (o->zone == ZO_ZONE_OUTSIDE) return 0;
  if (o->zone < 0) return 0;
  if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT) return o->pub;
  return ZT(g, o->zone)->pub.value && !o->face_down;
}

/* May `player` look at object `obj`? (CR 400.2, 402.3, 406.3; FaB 3.0.3a) */
int zo_game_sees(const zo_game *g, int player, int obj) {
  const zo_obj *o = &g->objs[obj];
  if (!o->exists || o->zone < 0) return 0;
  if (zo_game_obj_public(g, obj)) return 1;
  const zo_zone_type *zt = ZT(g, o->zone);
  if (SW(g, SW_LOOK) == ZS_OWNER_NOT_DECK) {
    if (zt->role == ZR_LIBRARY) return 0;
    return o->owner == player || g->zones[o->zone].player == player;
  }
  /* Magic: a hand is seen by its owner; a face-down permanent or spell by
     its controller; libraries and face-down exiled cards by nobody */
  if (zt->role == ZR_HAND) return g->zones[o->zone].player == player;
  if (o->face_down && zt->controller.value) return o->controller == player;
  return 0;
}

/* ---- names ---------------------------------------------------------- */

void zo_game_zone_name(const zo_game *g, int zone, char *buf, size_t cap) {
  if (zone == ZO_ZONE_OUTSIDE) {
    snprintf(buf, cap, "outside");
    return;
  }
  if (zone < 0) {
    buf[0] = 0;
    return;
  }
  const zo_zone *z = &g->zones[zone];
  const zo_zone_type *zt = &g->rs->zones[z->type];
  if (z->player < 0) snprintf(buf, cap, "%s", zt->name);
  else if (zt->count.value > 1 || g->multi[z->player][z->type])
    snprintf(buf, cap, "%s.%s.%d", g->c->players[z->player], zt->name, z->index);
  else snprintf(buf, cap, "%s.%s", g->c->players[z->player], zt->name);
}

/* ---- zone resolution ------------------------------------------------ */

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

/* Zones of a written spec for one player: count, and the first k of them. */
/* The one instance of a zone type (the player's, for a per-player type)
 * while the zones are as set up, at a known index; -1 when the type has
 * several instances or a step created or removed zones. */
static inline int set_up_zone(const zo_game *g, int type, int player) {
  const zo_zone_type *zt = &g->rs->zones[type];
  if (g->zones_changed || zt->count.value != 1) return -1;
  return g->first_zone[type] + (zt->per_player.value ? player : 0);
}

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

/* ---- what a zone can hold ------------------------------------------ */

/* Error a destination gives object `obj` (0 = it can go there). Checks
 * owner-only zones, what the zone holds and its capacity (FaB chapter 3;
 * CR 400.4a is handled by the caller as "stays"). flags: ZF_COUNT counts
 * rule hits; ZF_ANY_OWNER skips the owner test (the checker's can-hold). */
enum { ZF_COUNT = 1, ZF_ANY_OWNER = 2 };
/* What a zone type can hold, whoever owns the object (CR 400.4a; FaB
   3.0.11: deck-cards, permanents, heroes, equipment of its kind). */
static int cannot_hold(const zo_game *g, const zo_zone_type *zt, const zo_obj *o) {
  return zo_holds_refusal(&g->classes, zt, (int)o->kind, o->types,
                          g->equip_types[zt - g->rs->zones]) != 0;
}

static zo_step_error zone_refuses(zo_game *g, int zone, int obj, int flags) {
  int counting = flags & ZF_COUNT;
  const zo_obj *o = &g->objs[obj];
  const zo_zone *z = &g->zones[zone];
  const zo_zone_type *zt = &g->rs->zones[z->type];
  if (!z->exists) return ZO_E_NO_ZONE;
  if (!(flags & ZF_ANY_OWNER) && zt->owner_only.value && z->player >= 0 && z->player != o->owner) {
    if (counting) hit(g, &zt->owner_only);
    return ZO_E_CANNOT_HOLD;
  }
  unsigned holds = (unsigned)zt->holds.value;
  if (holds && cannot_hold(g, zt, o)) {
    if (counting) hit(g, &zt->holds);
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
    if ((o->types & g->classes.two_handed) && (holds & ZH_EQUIP)) {
      /* needs a second empty zone of the same type and player */
      int other = -1;
      for (int i = 0; i < g->nzones; i++) {
        const zo_zone *w = &g->zones[i];
        if (i != zone && w->exists && w->type == z->type && w->player == z->player &&
            (w->n == 0 || (w->n == 1 && w->objs[0] == obj)) &&
            (w->twoh < 0 || w->twoh == obj)) {
          other = i;
          break;
        }
      }
      if (other < 0) {
        if (counting) hit(g, &zt->capacity);
        return ZO_E_CAPACITY;
      }
    }
  }
  return ZO_E_NONE;
}

/* For a 2H object just placed in `zone`: equip it to a second zone too. */
static void equip_second(zo_game *g, int zone, int obj) {
  if (!(g->objs[obj].types & g->classes.two_handed)) return;
  const zo_zone *z = &g->zones[zone];
  if (
      !(g->rs->zones[z->type].holds.value & ZH_EQUIP))
    return;
  for (int i = 0; i < g->nzones; i++) {
    zo_zone *w = &g->zones[i];
    if (i != zone && w->exists && w->type == z->type && w->player == z->player &&
        w->twoh < 0 && w->n == 0) {
      w->twoh = obj;
      return;
    }
  }
}

/* Resolve a written destination for object obj. Returns the zone, or
 * ZO_ZONE_OUTSIDE, or -1 with *err set (no such zone). *redirected is set
 * when CR 400.3 sent it to its owner's zone. */
static int resolve_dest_slow(zo_game *g, int obj, const zo_zone_spec *s, int choose,
                             int *redirected, zo_step_error *err);

static inline int resolve_dest(zo_game *g, int obj, const zo_zone_spec *s, int choose,
                               int *redirected, zo_step_error *err) {
  *redirected = 0;
  *err = ZO_E_NONE;
  if (s->type >= 0 && !s->index && s->player < 0) {
    /* the common case: no player named, so the owner's zone, no redirect */
    int z = set_up_zone(g, g->zmap[s->type], g->objs[obj].owner);
    if (z >= 0) return z;
  }
  return resolve_dest_slow(g, obj, s, choose, redirected, err);
}

static int resolve_dest_slow(zo_game *g, int obj, const zo_zone_spec *s, int choose,
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
    int z = zone_of_role(g, ZR_BATTLEFIELD, -1);
    if (z < 0) *err = ZO_E_NO_ZONE;
    return z;
  }
  type = g->zmap[s->type];
  const zo_zone_type *zt = &g->rs->zones[type];
  int player = -1;
  if (zt->per_player.value) {
    player = s->player >= 0 ? s->player : o->owner;
    if (player != o->owner && zt->owner_only.value &&
        SW(g, SW_WRONG_OWNER) == ZS_REDIRECT) {
      /* CR 400.3: another player's library, hand or graveyard -> owner's */
      HITSW(g, SW_WRONG_OWNER);
      hit(g, &zt->owner_only);
      player = o->owner;
      *redirected = 1;
    }
  }
  int cands[32];
  int n = zones_of(g, type, player, cands, 32);
  if (s->index) {
    for (int i = 0; i < n && i < 32; i++)
      if (g->zones[cands[i]].index == s->index) return cands[i];
    *err = ZO_E_NO_ZONE;
    return -1;
  }
  if (n == 0) {
    *err = ZO_E_NO_ZONE;
    return -1;
  }
  if (n == 1) return cands[0];
  /* FaB 3.0.10a / 3.3.3b: several zones of the type: the owner chooses; by
     default the first that can hold the object */
  HITSW(g, SW_ZONE_LIFECYCLE);
  if (choose) {
    for (int i = 0; i < n && i < 32; i++)
      if (g->zones[cands[i]].index == choose) return cands[i];
    *err = ZO_E_NO_ZONE;
    return -1;
  }
  for (int i = 0; i < n && i < 32; i++)
    if (zone_refuses(g, cands[i], obj, 0) == ZO_E_NONE) return cands[i];
  return cands[0];
}

/* ---- identity, marks, sub-cards ----------------------------------- */

static void new_identity(zo_game *g, int obj) {
  g->objs[obj].id = ++g->next_id;
}

/* A new object forgets its marks. keep_spell_marks: a permanent spell
 * became a permanent, and the rule set keeps characteristic edits
 * (Z.9.7, 217.1c(1), 400.7a) and, where it says so, prevention effects
 * (217.1c(3) in 2008, 400.7b in 2011). */
static void drop_marks(zo_game *g, int obj, int keep_spell_marks) {
  int keep = keep_spell_marks ? SW(g, SW_KEEPS) : ZS_NONE;
  for (int m = 0; m < g->nmarks; m++) {
    zo_mark *mk = &g->marks[m];
    if (!mk->alive || mk->obj != obj) continue;
    if ((keep == ZS_SPELL_TO_PERMANENT || keep == ZS_SPELL_CHARACTERISTICS) &&
        mk->kind == MK_CHARACTERISTIC) {
      HITSW(g, SW_KEEPS);
      continue;
    }
    if (keep == ZS_SPELL_TO_PERMANENT && mk->kind == MK_PREVENTION) {
      HITSW(g, SW_KEEPS);
      continue;
    }
    mk->alive = 0;
  }
}

static void cease(zo_game *g, int obj, zo_step_result *r);
static zo_outcome clear_obj(zo_game *g, int obj, zo_step_result *r);

/* FaB 3.0.12: clear = to its owner's graveyard; a token, macro or non-card
 * layer just ceases to exist (3.0.12a). */
static zo_outcome clear_obj(zo_game *g, int obj, zo_step_result *r) {
  zo_obj *o = &g->objs[obj];
  HITSW(g, SW_CLEAR);
  int gy = zone_of_role(g, ZR_GRAVEYARD, o->owner);
  if (o->kind != ZK_CARD || is_token(g, o)) {
    cease(g, obj, r);
    return ZO_OUTCOME_CEASED;
  }
  int origin = o->zone;
  if (gy < 0) {
    /* no graveyard left to clear it to (its zone ceased, 3.0.10b): the
       card is removed from the game, as FaB says of objects with no place
       (1.5.3, 4.5.1a); a card is never destroyed */
    for (int i = 0; g->has_subs && i < g->nobjs; i++) /* no scan without sub-cards */
      if (g->objs[i].exists && g->objs[i].under == obj) {
        g->objs[i].under = -1;
        clear_obj(g, i, r);
      }
    if (o->under < 0) zone_remove_obj(g, obj);
    o->under = -1;
    o->zone = ZO_ZONE_OUTSIDE;
    new_identity(g, obj);
    drop_marks(g, obj, 0);
    o->controller = -1;
    o->pub = 0;
    event(r, obj, ZO_OUTCOME_CLEARED);
    return ZO_OUTCOME_CLEARED;
  }
  /* sub-cards of a cleared top-card are cleared with it (3.0.14e) */
  for (int i = 0; g->has_subs && i < g->nobjs; i++) /* no scan without sub-cards */
    if (g->objs[i].exists && g->objs[i].under == obj) {
      HITSW(g, SW_SUB_CARDS);
      g->objs[i].under = -1;
      clear_obj(g, i, r);
    }
  if (o->under < 0) zone_remove_obj(g, obj);
  o->under = -1;
  zone_insert(g, gy, obj, ZO_POS_TOP);
  new_identity(g, obj);
  drop_marks(g, obj, 0);
  o->controller = -1;
  o->pub = ZT(g, gy)->pub.value;
  o->face_down = !o->pub;
  o->phased_out = 0;
  o->came_from = SW(g, SW_HISTORY) == ZS_KEPT ? origin : -1;
  event(r, obj, ZO_OUTCOME_CLEARED);
  return ZO_OUTCOME_CLEARED;
}

static void cease(zo_game *g, int obj, zo_step_result *r) {
  zo_obj *o = &g->objs[obj];
  if (!o->exists) return;
  if (o->under < 0) zone_remove_obj(g, obj);
  o->exists = 0;
  o->zone = -1;
  o->under = -1;
  o->controller = -1;
  drop_marks(g, obj, 0);
  event(r, obj, ZO_OUTCOME_CEASED);
  /* FaB 3.0.14e: sub-cards of a top-card that ceases are cleared */
  for (int i = 0; g->has_subs && i < g->nobjs; i++) /* no scan without sub-cards */
    if (g->objs[i].exists && g->objs[i].under == obj) {
      HITSW(g, SW_SUB_CARDS);
      g->objs[i].under = -1;
      clear_obj(g, i, r);
    }
}

/* ---- triggers ------------------------------------------------------- */

static int zone_type_matches(const zo_game *g, int spec_type, int zone) {
  if (spec_type == ZO_ZT_ANY) return 1;
  if (spec_type == ZO_ZT_OUTSIDE) return zone == ZO_ZONE_OUTSIDE;
  if (zone < 0) return 0;
  return g->zmap[spec_type] == g->zones[zone].type;
}

/* Does zone instance `zone` match a zone as a watch or replacement writes
 * it: its type (zone_type_matches), and the player and 1-based index when
 * written (player -1 / index 0: any). `to: bob.graveyard` is bob's
 * graveyard only (CR 400.3: each player's own). */
static int zone_spec_matches(const zo_game *g, int type, int player, int index, int zone) {
  if (!zone_type_matches(g, type, zone)) return 0;
  if (type < 0 || zone < 0) return 1; /* any, outside */
  if (player >= 0 && g->zones[zone].player != player) return 0;
  return index <= 0 || g->zones[zone].index == index;
}

/* A move of obj from origin to dest happened; fire matching watches.
 * `props`: the moving object had its properties (FaB 3.0.7a);
 * `ctrl`: its controller just before it moved. */
static void fire_watches(zo_game *g, int obj, int origin, int dest, int props,
                         int ctrl) {
  for (int t = 0; t < g->ntrig; t++) {
    zo_trigger *tr = &g->trig[t];
    if (!tr->armed || tr->fired || tr->obj != obj) continue;
    if (!zone_spec_matches(g, tr->from, tr->from_player, tr->from_index, origin) ||
        !zone_spec_matches(g, tr->to, tr->to_player, tr->to_index, dest))
      continue;
    if (tr->types) {
      if (!props) {
        HITSW(g, SW_NO_PROPERTIES); /* FaB 3.0.7a: a private mover has none */
        continue;
      }
      if ((g->objs[obj].types & tr->types) != tr->types) continue;
    }
    tr->fired = 1;
    tr->id = g->objs[obj].id;
    tr->zone = dest;
    tr->pub_at_arrival = zo_game_obj_public(g, obj);
    /* CR 603.3a: controlled by whoever controlled the source as it triggered */
    tr->controller = ctrl >= 0 ? ctrl : g->objs[obj].owner;
  }
}

/* Can an ability that followed obj (trigger or `then:`) find it now? */
static int finds(zo_game *g, zo_switch how_sw, int obj, uint64_t id, int zone,
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

/* ---- the move ------------------------------------------------------- */

static int cause_is(const char *cause, const char *want) {
  return want[0] == 0 || strcmp(cause, want) == 0;
}

/* Replacement effects (CR 400.6, 616.1; FaB 6.5): apply in the chosen order,
 * each at most once, re-checking the others after each. */
static int apply_replacements(zo_game *g, int obj, int origin, int *dest,
                              const zo_step **mv, const char *cause) {
  if (!g->nactive_repl) return 0;
  int replaced = 0;
  int used[64] = {0};
  for (;;) {
    int applied = 0;
    for (int k = 0; k < g->nrepl && !applied; k++) {
      int ri = g->repl_order[k];
      zo_replacement *rp = &g->repl[ri];
      if (!rp->active || ri >= 64 || used[ri]) continue;
      if (!rp->any && rp->obj != obj) continue;
      if (!zone_spec_matches(g, rp->when_to, rp->when_to_player, rp->when_to_index, *dest))
        continue;
      if (!zone_spec_matches(g, rp->when_from, rp->when_from_player, rp->when_from_index, origin))
        continue;
      if (!cause_is(cause, rp->when_cause)) continue;
      int redirected;
      zo_step_error e;
      int nd = resolve_dest(g, obj, &rp->instead->to, rp->instead->choose,
                            &redirected, &e);
      used[ri] = 1;
      if (nd == -1) continue; /* impossible replacement: ignored (614.6) */
      *dest = nd;
      *mv = rp->instead;
      HITSW(g, SW_REPLACE_CHOOSER);
      replaced = applied = 1;
    }
    if (!applied) break;
  }
  return replaced;
}

/* Move one object. `mv` holds to/position/face/by/cause/then. Returns the
 * object's outcome, sets *err. Appends events to r. */
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
      finds(g, SW_THEN_FINDS, obj, o->id, o->zone, zo_game_obj_public(g, obj), o->owner)) {
    zo_game_apply_to(g, mv->then, obj, &sub);
  } else {
    sub.outcome = ZO_OUTCOME_NOT_FOUND;
    event(&sub, obj, ZO_OUTCOME_NOT_FOUND);
  }
  for (int i = 0; i < sub.nevents; i++) event(r, sub.events[i].handle, sub.events[i].outcome);
  zo_step_result_free(&sub);
}

static zo_outcome move_one(zo_game *g, int obj, const zo_step *mv,
                           zo_step_error *err, zo_step_result *r,
                           int simultaneous) {
  zo_obj *o = &g->objs[obj];
  *err = ZO_E_NONE;
  if (!o->exists) {
    *err = ZO_E_NOT_FOUND;
    return ZO_OUTCOME_NOT_FOUND;
  }
  int origin = o->under >= 0 ? g->objs[o->under].zone : o->zone;
  if (mv->from.type != ZO_ZT_UNSET && mv->from.type != ZO_ZT_ANY &&
      !spec_matches(g, &mv->from, o->under >= 0 ? -1 : origin, o->owner)) {
    *err = ZO_E_NOT_IN_ZONE;
    return ZO_OUTCOME_FAILED;
  }
  if (mv->from.type == ZO_ZT_OUTSIDE && origin >= 0) HITSW(g, SW_OUTSIDE); /* 217.1e */
  if (o->phased_out) {
    /* CR 702.24b: a phased-out permanent is treated as though it doesn't
       exist; effects can't move it */
    HITSW(g, SW_PHASING);
    *err = ZO_E_PHASED_OUT;
    return ZO_OUTCOME_FAILED;
  }
  int redirected;
  zo_step_error e;
  int dest = resolve_dest(g, obj, &mv->to, mv->choose, &redirected, &e);
  const char *cause = mv->cause;
  const zo_step *eff = mv; /* the move as finally replaced */
  int replaced = dest != -1 && g->nactive_repl
                     ? apply_replacements(g, obj, origin, &dest, &eff, cause) : 0;
  if (replaced) redirected = 0;
  int by_rule = mv->by_rule;

  /* destination visibility (FaB: per object; the flip step 3.0.8 gives the
     object its destination visibility before it moves, again after each
     replacement 3.0.8a) */
  int dest_pub = 1;
  if (dest >= 0) dest_pub = g->zones[dest].pub;
  if (eff->face == 1) dest_pub = 0;
  if (eff->face == 0) dest_pub = 1;
  int per_object = SW(g, SW_VISIBILITY) == ZS_PER_OBJECT;
  /* a deck is a face-down pile (FaB 3.7.5; CR 401.2): nothing enters it
     face up */
  if (per_object && dest >= 0 && ZT(g, dest)->role == ZR_LIBRARY) {
    dest_pub = 0;
    hit(g, &ZT(g, dest)->ordered);
  }
  int props = 1;
  if (per_object && dest != ZO_ZONE_OUTSIDE) {
    /* with the flip step (FaB 3.0.8) the object has its destination
       visibility as it moves; without it, its origin visibility */
    int flips = SW(g, SW_FLIP_STEP) == ZS_YES;
    if (flips && dest_pub != o->pub) HITSW(g, SW_FLIP_STEP);
    if (SW(g, SW_NO_PROPERTIES) == ZS_YES) props = flips ? dest_pub : o->pub;
  }

  /* outside the game is not a zone: outside to outside moves nothing */
  if (dest == ZO_ZONE_OUTSIDE && origin == ZO_ZONE_OUTSIDE) {
    event(r, obj, ZO_OUTCOME_NO_MOVE);
    return ZO_OUTCOME_NO_MOVE;
  }
  /* same zone (CR 400.8, FaB 3.0.7b) */
  if (dest >= 0 && dest == origin && o->under < 0) {
    const zo_zone_type *zt = ZT(g, dest);
    if (zt->same_zone_new.value) {
      hit(g, &zt->same_zone_new);
      new_identity(g, obj);
      drop_marks(g, obj, 0);
      /* the new object has just been put there (CR 400.8, 400.10; 217.1f):
         face up unless the move says face down, as for a zone change
         (406.3) */
      o->face_down = eff->face == 1;
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
        drop_marks(g, obj, 0);
      }
      o->pub = dest_pub;
      o->face_down = !dest_pub;
    }
    event(r, obj, ZO_OUTCOME_NO_MOVE);
    then_step(g, mv, obj, r); /* the same object, where it was */
    return ZO_OUTCOME_NO_MOVE;
  }

  /* objects that can't exist there cease first (FaB 3.0.11 Uzuri example) */
  const int origin_arena = is_arena(g, origin), dest_arena = is_arena(g, dest);
  int leaving_arena = origin_arena && o->under < 0 && !dest_arena;
  if (dest != -1 || e != ZO_E_NONE) {
    /* FaB 8.1.8a: a token exists only in the arena or as a sub-card, so a
       move to any zone outside the arena ends it, from a sub-card too */
    if (is_token(g, o) && !dest_arena && SW(g, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY) {
      HITSW(g, SW_TOKEN_LEAVES);
      fire_watches(g, obj, origin, dest, props, o->controller);
      cease(g, obj, r);
      return ZO_OUTCOME_CEASED;
    }
    if (o->kind == ZK_MACRO && leaving_arena && SW(g, SW_MACROS) != ZS_NONE) {
      HITSW(g, SW_MACROS); /* FaB 1.5.3 */
      cease(g, obj, r);
      return ZO_OUTCOME_CEASED;
    }
    if (o->kind == ZK_ABILITY && is_stack(g, origin) && !is_stack(g, dest)) {
      HITSW(g, SW_ABILITIES); /* abilities exist only on the stack */
      cease(g, obj, r);
      return ZO_OUTCOME_CEASED;
    }
    if (o->kind == ZK_PROXY && !dest_arena) {
      cease(g, obj, r);
      return ZO_OUTCOME_CEASED;
    }
    /* only cards exist outside the game (CR 400.10, 217.1e); anything else
       that leaves the game ceases to exist (as FaB 1.5.3 says of macros) */
    if (dest == ZO_ZONE_OUTSIDE && o->kind != ZK_CARD) {
      cease(g, obj, r);
      return ZO_OUTCOME_CEASED;
    }
  }
  if (dest == -1) {
    *err = e;
    if (SW(g, SW_CANNOT_HOLD) == ZS_FAIL_OR_CLEAR) {
      HITSW(g, SW_CANNOT_HOLD);
      if (by_rule && SW(g, SW_CLEAR) != ZS_NONE) return clear_obj(g, obj, r);
    }
    return ZO_OUTCOME_FAILED;
  }
  /* CR 400.4b: some cards can't leave the command zone, for another zone
     or for outside the game */
  if (origin >= 0 && g->zones[origin].keeps && (dest >= 0 || dest == ZO_ZONE_OUTSIDE) &&
      (o->types & g->keep_types[g->zones[origin].type])) {
    hit(g, &ZT(g, origin)->keeps);
    HITSW(g, SW_CANNOT_HOLD);
    *err = ZO_E_CANNOT_HOLD;
    return ZO_OUTCOME_STAYED;
  }
  if (dest >= 0) {
    const zo_zone_type *zt = ZT(g, dest);
    /* CR 216.3 (2004), 110.5g (2011): a token that left can't come back;
       CR 111.8 (current): it can't move to any zone */
    if (o->left_arena &&
        ((zt->arena.value && SW(g, SW_TOKEN_RETURN) == ZS_NOT_BATTLEFIELD) ||
         SW(g, SW_TOKEN_RETURN) == ZS_CANNOT_MOVE)) {
      HITSW(g, SW_TOKEN_RETURN);
      *err = ZO_E_TOKEN_LEFT;
      return ZO_OUTCOME_STAYED;
    }
    /* CR 400.4a: an instant or sorcery that would enter the battlefield stays */
    if ((zt->holds.value & ZH_NO_INSTANTS) && (o->types & g->classes.instant_sorcery)) {
      hit(g, &zt->holds);
      HITSW(g, SW_CANNOT_HOLD);
      *err = ZO_E_CANNOT_HOLD;
      return ZO_OUTCOME_STAYED;
    }
    const zo_zone *dzn = &g->zones[dest];
    zo_step_error refuse = dzn->plain && dzn->exists && (!dzn->owner_only || dzn->player == o->owner)
                               ? ZO_E_NONE : zone_refuses(g, dest, obj, ZF_COUNT);
    if (refuse) {
      *err = refuse;
      if (SW(g, SW_CANNOT_HOLD) == ZS_FAIL_OR_CLEAR) {
        /* FaB 3.0.11: a rule clears it, an effect fails */
        HITSW(g, SW_CANNOT_HOLD);
        if (refuse == ZO_E_CANNOT_HOLD && SW(g, SW_WRONG_OWNER) == ZS_CANNOT_HOLD &&
            ZT(g, dest)->owner_only.value && g->zones[dest].player != o->owner)
          HITSW(g, SW_WRONG_OWNER);
        if (by_rule && SW(g, SW_CLEAR) != ZS_NONE) return clear_obj(g, obj, r); /* 3.0.12 */
        return ZO_OUTCOME_FAILED;
      }
      return ZO_OUTCOME_FAILED;
    }
  }

  /* the move itself */
  int ctrl_before = o->controller;
  int was_pub = o->pub;
  o->phased_out = 0;
  int was_arena = origin_arena && o->under < 0;
  int was_sub = o->under >= 0;
  if (o->under >= 0) o->under = -1;
  else zone_remove_obj(g, obj);
  int newobj;
  if (SW(g, SW_NEW_OBJECT) == ZS_LEAVE_ARENA) {
    /* FaB 3.0.9: new when entering a zone outside the arena that is not the
       stack, or when a public object becomes private */
    newobj = (dest == ZO_ZONE_OUTSIDE) || (!dest_arena && !is_stack(g, dest)) ||
             (per_object && was_pub && !dest_pub) || was_sub;
  } else {
    newobj = 1; /* CR 400.7: every zone change */
  }
  if (newobj) HITSW(g, SW_NEW_OBJECT);
  if (dest == ZO_ZONE_OUTSIDE || origin == ZO_ZONE_OUTSIDE)
    HITSW(g, SW_OUTSIDE); /* CR 400.10: outside the game is not a zone */
  if (dest == ZO_ZONE_OUTSIDE) {
    o->zone = ZO_ZONE_OUTSIDE;
  } else {
    int pos = eff->position;
    if (g->zones[dest].ordered && pos >= 0 && pos > g->zones[dest].n) pos = ZO_POS_BOTTOM;
    if (!g->zones[dest].ordered) pos = ZO_POS_BOTTOM; /* unordered: arrival order */
    zone_insert(g, dest, obj, pos);
    if (o->types & g->classes.two_handed) equip_second(g, dest, obj);
  }
  if (newobj) {
    int keep = SW(g, SW_KEEPS) != ZS_NONE && is_stack(g, origin) &&
               dest >= 0 && ZT(g, dest)->role == ZR_BATTLEFIELD &&
               !(o->types & g->classes.instant_sorcery);
    new_identity(g, obj);
    if (g->nmarks) drop_marks(g, obj, keep);
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
    if (o->controller < 0) o->controller = o->owner;
    hit(g, &ZT(g, dest)->controller);
  } else {
    o->controller = -1;
  }
  if (per_object) {
    o->pub = dest_pub;
    o->face_down = !dest_pub;
  } else {
    o->face_down = eff->face == 1;
  }
  if (was_arena && !dest_arena && is_token(g, o)) o->left_arena = 1;
  if (dest >= 0 && g->zones[dest].ordered &&
      SW(g, SW_STACK_LAYERS) == ZS_YES && is_stack(g, dest))
    HITSW(g, SW_STACK_LAYERS);
  if (origin >= 0 && SW(g, SW_STACK_LAYERS) == ZS_YES && is_stack(g, origin))
    HITSW(g, SW_STACK_LAYERS); /* FaB 3.15.6: the layers above move down */

  /* FaB 3.0.14c/e: sub-cards follow a top-card that stays the same object,
     and are cleared when it becomes a new one */
  for (int i = 0; g->has_subs && i < g->nobjs; i++) {
    if (!g->objs[i].exists || g->objs[i].under != obj) continue;
    HITSW(g, SW_SUB_CARDS);
    if (newobj) {
      g->objs[i].under = -1;
      clear_obj(g, i, r);
    } else {
      g->objs[i].zone = o->zone;
    }
  }

  if (dest >= 0) {
    /* the destination's attributes this move relied on */
    const zo_zone_type *dz = ZT(g, dest);
    if (dz->per_player.value) hit(g, &dz->per_player);
    hit(g, &dz->pub);
    if (dz->arena.value || was_arena) hit(g, &dz->arena);
    if (dz->ordered.value) hit(g, &dz->ordered);
  }
  if (eff->shuffle && dest >= 0) zo_game_shuffle_zone(g, dest, eff->seed);
  if (g->ntrig) fire_watches(g, obj, origin, o->zone, props, ctrl_before);
  zo_outcome out = replaced ? ZO_OUTCOME_REPLACED
                   : redirected ? ZO_OUTCOME_REDIRECTED
                                : ZO_OUTCOME_MOVED;
  event(r, obj, out);
  (void)simultaneous;

  if (mv->then) then_step(g, mv, obj, r);
  return out;
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

/* ---- state-based actions (CR 704) ---------------------------------- */

static int state_check(zo_game *g, zo_step_result *r) {
  int any = 0, again = 1;
  while (again) {
    again = 0;
    for (int i = 0; i < g->nobjs; i++) {
      zo_obj *o = &g->objs[i];
      if (!o->exists) continue;
      int on_bf = o->zone >= 0 && ZT(g, o->zone)->role == ZR_BATTLEFIELD;
      if (is_token(g, o) && SW(g, SW_TOKEN_LEAVES) == ZS_AT_STATE_CHECK && !on_bf) {
        HITSW(g, SW_TOKEN_LEAVES); /* CR 704.5d; Z.3.Ruling.1; 216.3 */
        if (o->zone >= 0 && ZT(g, o->zone)->role == ZR_PHASED_OUT)
          HITSW(g, SW_PHASED_TOKENS); /* CR 217.8d */
        cease(g, i, r);
        again = any = 1;
      } else if (is_token(g, o) && o->phased_out && SW(g, SW_PHASED_TOKENS) == ZS_CEASE) {
        HITSW(g, SW_PHASED_TOKENS); /* CR 702.24k */
        cease(g, i, r);
        again = any = 1;
      } else if (o->kind == ZK_COPY && SW(g, SW_COPIES) == ZS_CEASE_OFF_STACK &&
                 !is_stack(g, o->zone) && !on_bf) {
        HITSW(g, SW_COPIES); /* CR 704.5e */
        cease(g, i, r);
        again = any = 1;
      }
    }
  }
  for (int p = 0; p < g->c->nplayers; p++)
    if (g->drew_empty[p] && !g->lost[p]) {
      HITSW(g, SW_DRAW_EMPTY); /* CR 704.5b */
      g->lost[p] = 1;
      any = 1;
    }
  return any;
}

/* ---- steps --------------------------------------------------------- */

static int step_object(zo_game *g, const zo_step *s, zo_step_result *r) {
  if (s->ref >= 0) {
    zo_ref *rf = &g->refs[s->ref];
    if (!rf->set || !g->objs[rf->obj].exists || g->objs[rf->obj].id != rf->id) {
      r->outcome = ZO_OUTCOME_NOT_FOUND;
      r->error = ZO_E_NOT_FOUND;
      return -1;
    }
    return rf->obj;
  }
  if (s->card < 0 || !g->objs[s->card].exists) {
    r->outcome = ZO_OUTCOME_NOT_FOUND;
    r->error = ZO_E_NOT_FOUND;
    if (s->card >= 0) event(r, s->card, ZO_OUTCOME_NOT_FOUND);
    return -1;
  }
  return s->card;
}

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

/* One object's part in a step that moves several (move_together, draw,
 * mill): an event for what move_one does not report itself (it reports
 * arrivals, no_move, and cease/clear do their own), *moved once one
 * arrived somewhere, *first the first other outcome. The step's outcome is
 * then moved, else that first outcome (cases/README.md, Outcomes). */
static void tally_move(zo_step_result *r, int obj, zo_outcome o, int *moved,
                       zo_outcome *first) {
  if (o == ZO_OUTCOME_MOVED || o == ZO_OUTCOME_REDIRECTED || o == ZO_OUTCOME_REPLACED) {
    *moved = 1;
    return;
  }
  if (o != ZO_OUTCOME_CEASED && o != ZO_OUTCOME_CLEARED && o != ZO_OUTCOME_NO_MOVE)
    event(r, obj, o);
  if (*first == ZO_OUTCOME_NONE) *first = o;
}

static zo_outcome tallied(int moved, zo_outcome first) {
  return moved ? ZO_OUTCOME_MOVED : first != ZO_OUTCOME_NONE ? first : ZO_OUTCOME_NO_MOVE;
}

static void do_move_together(zo_game *g, const zo_step *s, zo_step_result *r) {
  int moved = 0;
  zo_outcome first = ZO_OUTCOME_NONE;
  /* CR 401.4 / 404.3 (owner orders) or Z.1.4: the order comes from the case */
  for (int i = 0; i < s->nmoves; i++) {
    zo_step_error e;
    zo_outcome o = move_one(g, s->moves[i].card, &s->moves[i], &e, r, 1);
    tally_move(r, s->moves[i].card, o, &moved, &first);
  }
  /* place the arrivals of each ordered zone in the chosen order (default:
     the list order, first on top) in the positions they took */
  for (int z = 0; z < g->nzones; z++) {
    zo_zone *zn = &g->zones[z];
    if (!g->rs->zones[zn->type].ordered.value) continue;
    int order[64], n = 0;
    if (s->norder && spec_matches(g, &s->order_zone, z, -1) &&
        (s->order_zone.player >= 0 || zn->player < 0 ||
         zn->player == g->objs[s->order_zone_handles[0]].owner)) {
      for (int i = 0; i < s->norder && n < 64; i++)
        if (g->objs[s->order_zone_handles[i]].zone == z) order[n++] = s->order_zone_handles[i];
      HITSW(g, SW_ORDER_CHOOSER);
    } else {
      for (int i = 0; i < s->nmoves && n < 64; i++) {
        int h = s->moves[i].card;
        if (g->objs[h].exists && g->objs[h].zone == z && g->objs[h].under < 0)
          order[n++] = h;
      }
    }
    if (n < 2) continue;
    int pos[64], k = 0;
    for (int i = 0; i < zn->n && k < n; i++)
      for (int j = 0; j < n; j++)
        if (zn->objs[i] == order[j]) {
          pos[k++] = i;
          break;
        }
    for (int j = 0; j < k; j++) zn->objs[pos[j]] = order[j];
  }
  r->outcome = tallied(moved, first);
}

static void do_create(zo_game *g, const zo_step *s, zo_step_result *r) {
  int h = s->as;
  zo_obj *o = &g->objs[h];
  memset(o, 0, sizeof *o);
  o->kind = s->kind_of;
  o->owner = s->owner;
  o->controller = -1;
  o->under = -1;
  o->came_from = -1;
  o->phase_controller = -1;
  o->types = s->types;
  o->exists = 1;
  new_identity(g, h);
  int red;
  zo_step_error e;
  int zone = resolve_dest(g, h, &s->zone, 0, &red, &e);
  if (zone < 0) {
    o->exists = 0;
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = e ? e : ZO_E_NO_ZONE;
    return;
  }
  /* an object the zone can't hold is not created (CR 111.5: a token that
     can't enter isn't created; 400.4a; FaB capacity and holds) */
  zo_step_error refuse = ZT(g, zone)->holds.value & ZH_NO_INSTANTS &&
                                 (o->types & g->classes.instant_sorcery)
                             ? ZO_E_CANNOT_HOLD
                             : zone_refuses(g, zone, h, ZF_COUNT);
  int leaves_now = is_token(g, o) && !ZT(g, zone)->arena.value &&
                   SW(g, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY;
  if (refuse && !leaves_now) {
    o->exists = 0;
    o->id = 0;
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = refuse;
    return;
  }
  zone_insert(g, zone, h, ZO_POS_TOP);
  o->pub = ZT(g, zone)->pub.value;
  if (s->face == 1) o->pub = 0;
  o->face_down = s->face == 1 || (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT && !o->pub);
  if (ZT(g, zone)->controller.value) o->controller = s->controller >= 0 ? s->controller : s->owner;
  /* FaB 8.1.8a: a token exists only in the arena; 1.6.2b-c: layers only on
     the stack */
  if (is_token(g, o) && !ZT(g, zone)->arena.value && SW(g, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY) {
    HITSW(g, SW_TOKEN_LEAVES);
    cease(g, h, r);
    r->outcome = ZO_OUTCOME_CEASED;
    return;
  }
  if (o->kind == ZK_ABILITY && !is_stack(g, zone)) {
    HITSW(g, SW_ABILITIES);
    cease(g, h, r);
    r->outcome = ZO_OUTCOME_CEASED;
    return;
  }
  event(r, h, ZO_OUTCOME_MOVED);
  r->outcome = ZO_OUTCOME_MOVED;
}

static void do_draw_mill(zo_game *g, const zo_step *s, zo_step_result *r) {
  int lib = zone_of_role(g, ZR_LIBRARY, s->player);
  int moved = 0, failed = 0;
  zo_outcome o = ZO_OUTCOME_NONE, first = ZO_OUTCOME_NONE;
  for (int i = 0; i < s->count; i++) {
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
    int obj = g->zones[lib].objs[0];
    zo_step mv;
    memset(&mv, 0, sizeof mv);
    mv.kind = ST_MOVE;
    mv.from.type = ZO_ZT_UNSET;
    mv.position = ZO_POS_TOP;
    mv.face = -1;
    if (s->kind == ST_DRAW) {
      mv.to.type = -1;
      snprintf(mv.cause, sizeof mv.cause, "draw");
      int hand = zone_of_role(g, ZR_HAND, s->player);
      if (hand < 0) break;
      /* a move to the hand zone instance directly */
      zo_step_error e;
      int ztype = -1;
      for (int k = 0; k < g->c->nztypes; k++)
        if (g->zmap[k] == g->zones[hand].type) ztype = k;
      if (ztype < 0) {
        /* the case never names the hand: map a private slot */
        ztype = g->hand_slot;
      }
      mv.to.type = ztype;
      mv.to.player = s->player;
      o = move_one(g, obj, &mv, &e, r, 0);
    } else {
      snprintf(mv.cause, sizeof mv.cause, "mill");
      mv.to = s->to;
      if (mv.to.type == ZO_ZT_UNSET) {
        mv.to.type = g->graveyard_slot;
        mv.to.player = -1;
      }
      zo_step_error e;
      o = move_one(g, obj, &mv, &e, r, 0);
    }
    tally_move(r, obj, o, &moved, &first);
    /* a card that did not leave the library (a replacement put it back, a
       token that can't move, 111.8) is still on top: taking it again
       changes nothing */
    if (g->objs[obj].exists && g->objs[obj].zone == lib) break;
  }
  if (failed && !moved) {
    r->outcome = ZO_OUTCOME_FAILED;
    r->error = ZO_E_EMPTY;
  } else {
    r->outcome = tallied(moved, first);
  }
}

/* Phasing as a zone (Z.7, CR 217.8, 502.15): phasing out puts the
 * permanent into the phased-out zone (its owner's where that zone is per
 * player), with no controller, and fires leaves-play triggers (502.15d);
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
  int dest = zone_of_role(g, out ? ZR_PHASED_OUT : ZR_BATTLEFIELD, ob->owner);
  if (dest < 0) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_NO_ZONE;
    return;
  }
  if (!out && (ZT(g, dest)->holds.value & ZH_NO_INSTANTS) && (ob->types & g->classes.instant_sorcery)) {
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
    ob->controller = -1;
    ob->phased_out = 1;
    for (int m = 0; m < g->nmarks; m++)
      if (g->marks[m].alive && g->marks[m].obj == o && g->marks[m].kind == MK_EFFECT)
        g->marks[m].alive = 0;
    fire_watches(g, o, zone, dest, 1, ctrl);
  } else {
    ob->controller = ob->phase_controller >= 0 ? ob->phase_controller : ob->owner;
    ob->phased_out = 0;
  }
  event(r, o, ZO_OUTCOME_MOVED);
  r->outcome = ZO_OUTCOME_MOVED;
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

/* Apply step s to object obj (for then:/do:), or to its own card/ref. */
static void apply_other(zo_game *g, const zo_step *s, int obj, zo_step_result *r);

void zo_game_apply_to(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  r->outcome = ZO_OUTCOME_NO_MOVE;
  r->error = ZO_E_NONE;
  if (s->kind != ST_MOVE) { /* a move is most steps: kept out of the big switch */
    apply_other(g, s, obj, r);
    return;
  }
  int o = obj;
  if (o < 0) {
    if (s->ref < 0 && s->card >= 0 && g->objs[s->card].exists) o = s->card;
    else if ((o = step_object(g, s, r)) < 0) return;
  }
  zo_step_error e;
  r->outcome = move_one(g, o, s, &e, r, 0);
  r->error = e;
}

static void apply_other(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  int o = obj;
  switch (s->kind) {
  case ST_MOVE: break; /* zo_game_apply_to */
  case ST_MOVE_TOGETHER: do_move_together(g, s, r); return;
  case ST_CREATE: do_create(g, s, r); return;
  case ST_CONTROL:
    if (o < 0 && (o = step_object(g, s, r)) < 0) return;
    if (g->objs[o].phased_out && SW(g, SW_PHASING) == ZS_STATUS) { /* 702.24b / 702.26b: unaffected */
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_PHASED_OUT;
      return;
    }
    /* CR 109.4, FaB 1.2.1b: only objects on the battlefield/arena or the
       stack have a controller; a sub-card is not in the arena (3.0.14b) */
    if (g->objs[o].zone < 0 || g->objs[o].under >= 0 ||
        !ZT(g, g->objs[o].zone)->controller.value) {
      r->outcome = ZO_OUTCOME_REJECTED;
      r->error = ZO_E_NO_CONTROLLER;
      return;
    }
    hit(g, &ZT(g, g->objs[o].zone)->controller);
    g->objs[o].controller = s->player;
    return;
  case ST_PHASE:
    if (o < 0 && (o = step_object(g, s, r)) < 0) return;
    if (SW(g, SW_PHASING) == ZS_ZONE) {
      phase_zone(g, o, s->out, r);
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
    if (g->objs[o].phased_out == s->out) {
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_ALREADY;
      return;
    }
    /* CR 702.24d: a status: no zone change, no trigger, same object */
    HITSW(g, SW_PHASING);
    g->objs[o].phased_out = s->out;
    return;
  case ST_TURN_FACE: {
    if (o < 0 && (o = step_object(g, s, r)) < 0) return;
    zo_obj *ob = &g->objs[o];
    if (ob->phased_out && SW(g, SW_PHASING) == ZS_STATUS) { /* 702.24b / 702.26b */
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_PHASED_OUT;
      return;
    }
    if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT) {
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
        drop_marks(g, o, 0);
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
      return;
    }
    if (ob->face_down == s->face) {
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_ALREADY;
      return;
    }
    ob->face_down = s->face;
    if (s->face == 1 && ob->zone >= 0 && ZT(g, ob->zone)->face_down_new.value) {
      hit(g, &ZT(g, ob->zone)->face_down_new); /* CR 400.9 */
      new_identity(g, o);
      drop_marks(g, o, 0);
      r->outcome = ZO_OUTCOME_NEW_OBJECT_IN_PLACE;
    }
    event(r, o, r->outcome);
    return;
  }
  case ST_REORDER: {
    int z = step_zone(g, &s->zone, 0);
    if (z < 0) {
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_NO_ZONE;
      return;
    }
    const zo_zone_type *zt = ZT(g, z);
    hit(g, &zt->reorder);
    if (!zt->reorder.value) {
      r->outcome = ZO_OUTCOME_REJECTED;
      r->error = ZO_E_ORDERED;
      return;
    }
    zo_zone *zn = &g->zones[z];
    if (s->norder != zn->n) {
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_NOT_IN_ZONE;
      return;
    }
    for (int i = 0; i < s->norder; i++)
      if (g->objs[s->order_zone_handles[i]].zone != z || !g->objs[s->order_zone_handles[i]].exists ||
          g->objs[s->order_zone_handles[i]].under >= 0) {
        r->outcome = ZO_OUTCOME_FAILED;
        r->error = ZO_E_NOT_IN_ZONE;
        return;
      }
    for (int i = 0; i < s->norder; i++) zn->objs[i] = s->order_zone_handles[i];
    return;
  }
  case ST_SHUFFLE: {
    int z = step_zone(g, &s->zone, 0);
    if (z < 0) {
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_NO_ZONE;
      return;
    }
    zo_game_shuffle_zone(g, z, s->seed);
    return;
  }
  case ST_DRAW:
  case ST_MILL: do_draw_mill(g, s, r); return;
  case ST_PUT_UNDER: {
    if (o < 0 && (o = step_object(g, s, r)) < 0) return;
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
                 ((is_arena(g, t->zone) && fab_permanent(g, t, t->zone)) ||
                  (is_stack(g, t->zone) && (t->kind == ZK_CARD || t->kind == ZK_TOKEN)));
    if (!top_ok || !(sub->kind == ZK_CARD || sub->kind == ZK_TOKEN)) {
      r->outcome = ZO_OUTCOME_FAILED;
      r->error = ZO_E_CANNOT_HOLD;
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
    drop_marks(g, o, 0);
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
    return;
  }
  case ST_ZONE_CREATE: {
    if (!lifecycle(g, r)) return;
    int type = g->zmap[s->zone.type];
    int idx = 0;
    for (int z = 0; z < g->nzones; z++)
      if (g->zones[z].type == type && g->zones[z].player == s->zone.player &&
          g->zones[z].index > idx)
        idx = g->zones[z].index;
    zo_game_add_zone(g, type, s->zone.player, idx + 1);
    g->zones_changed = 1;
    g->multi[s->zone.player][type] = 1;
    return;
  }
  case ST_ZONE_REMOVE: {
    if (!lifecycle(g, r)) return;
    int type = g->zmap[s->zone.type];
    int cands[32];
    int n = zones_of(g, type, s->zone.player, cands, 32);
    int z = -1;
    if (s->zone.index) {
      for (int i = 0; i < n && i < 32; i++)
        if (g->zones[cands[i]].index == s->zone.index) z = cands[i];
    } else if (n == 1) {
      z = cands[0]; /* 3.0.10b */
    } else {
      for (int i = 0; i < n && i < 32 && z < 0; i++) /* 3.0.10c: an empty one */
        if (g->zones[cands[i]].n == 0 && g->zones[cands[i]].twoh < 0) z = cands[i];
      if (z < 0 && s->choose)
        for (int i = 0; i < n && i < 32; i++)
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
      clear_obj(g, zn->objs[0], r);
      cleared = 1;
    }
    r->outcome = cleared ? ZO_OUTCOME_CLEARED : ZO_OUTCOME_NO_MOVE;
    return;
  }
  case ST_STATE_CHECK:
    r->outcome = state_check(g, r) && r->nevents ? ZO_OUTCOME_CEASED : ZO_OUTCOME_NO_MOVE;
    return;
  case ST_END_GAME: {
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
    return;
  }
  case ST_WATCH: {
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
    return;
  }
  case ST_RESOLVE: {
    zo_trigger *t = &g->trig[s->trigger];
    if (!t->fired) {
      r->outcome = ZO_OUTCOME_NOT_FOUND;
      r->error = ZO_E_NOT_FIRED;
      return;
    }
    t->resolved = 1;
    if (!finds(g, SW_TRIGGER_FINDS, t->obj, t->id, t->zone, t->pub_at_arrival, t->controller)) {
      t->found = 0;
      r->outcome = ZO_OUTCOME_NOT_FOUND;
      r->error = ZO_E_NOT_FOUND;
      event(r, t->obj, ZO_OUTCOME_NOT_FOUND);
      return;
    }
    t->found = 1;
    if (s->then) zo_game_apply_to(g, s->then, t->obj, r);
    return;
  }
  case ST_REMEMBER: {
    if (o < 0 && (o = step_object(g, s, r)) < 0) return;
    g->refs[s->as].set = 1;
    g->refs[s->as].obj = o;
    g->refs[s->as].id = g->objs[o].id;
    return;
  }
  case ST_REPLACE: {
    zo_replacement *rp = &g->repl[s->as];
    if (!rp->active) g->nactive_repl++;
    rp->active = 1;
    rp->any = s->replace_any;
    rp->obj = s->card;
    rp->when_to = s->when_to.type;
    rp->when_to_player = s->when_to.player;
    rp->when_from = s->when_from.type;
    rp->when_from_player = s->when_from.player;
    rp->when_to_index = s->when_to.index;
    rp->when_from_index = s->when_from.index;
    snprintf(rp->when_cause, sizeof rp->when_cause, "%s", s->when_cause);
    rp->instead = s->then;
    return;
  }
  case ST_CHOOSE_REPLACEMENT: {
    if (s->player >= 0) {
      int ok;
      if (SW(g, SW_REPLACE_CHOOSER) == ZS_TURN_PLAYER) {
        ok = s->player == 0; /* FaB 6.5: the turn player picks */
      } else {
        /* CR 400.6, 616.1: the affected object's controller, or owner */
        int who = -1;
        if (s->card >= 0 && g->objs[s->card].exists)
          who = g->objs[s->card].controller >= 0 ? g->objs[s->card].controller
                                                 : g->objs[s->card].owner;
        ok = who < 0 || who == s->player;
      }
      HITSW(g, SW_REPLACE_CHOOSER);
      if (!ok) {
        r->outcome = ZO_OUTCOME_REJECTED;
        r->error = ZO_E_WRONG_PLAYER;
        return;
      }
    }
    /* the chosen ones first, in that order, then the rest as created */
    int k = 0;
    int *ord = g->repl_order;
    int seen[64] = {0};
    for (int i = 0; i < s->norder && k < g->nrepl; i++)
      if (s->order_zone_handles[i] < 64 && !seen[s->order_zone_handles[i]]) {
        seen[s->order_zone_handles[i]] = 1;
        ord[k++] = s->order_zone_handles[i];
      }
    for (int i = 0; i < g->nrepl && k < g->nrepl; i++)
      if (i >= 64 || !seen[i]) ord[k++] = i;
    return;
  }
  case ST_MARK: {
    if (o < 0 && (o = step_object(g, s, r)) < 0) return;
    zo_mark *m = &g->marks[s->as];
    m->alive = 1;
    m->obj = o;
    m->kind = s->mark_kind;
    return;
  }
  default:
    return;
  }
}

void zo_game_apply(zo_game *g, const zo_step *s, zo_step_result *r) {
  memset(r, 0, sizeof *r);
  zo_game_apply_to(g, s, -1, r);
  g->nsteps++;
}

void zo_game_apply_again(zo_game *g, const zo_step *s, zo_step_result *r) {
  r->outcome = ZO_OUTCOME_NONE;
  r->error = ZO_E_NONE;
  r->nevents = 0; /* the events buffer is kept */
  zo_game_apply_to(g, s, -1, r);
  g->nsteps++;
}

/* ---- set-up ----------------------------------------------------------- */

/* Zone lists live in one pool, each as long as the game has objects, so a
 * move never allocates. */
int zo_game_add_zone(zo_game *g, int type, int player, int index) {
  int per = g->nobjs + 1;
  if (g->nzones == g->capzones) {
    g->capzones = g->capzones ? g->capzones * 2 : 32;
    g->zones = zo_xrealloc(g->zones, (size_t)g->capzones * sizeof *g->zones);
    g->pool = zo_xrealloc(g->pool, (size_t)g->capzones * (size_t)per * sizeof *g->pool);
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
             z->zt->capacity.value <= 0;
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

static zo_status setup_fail(zo_error *err, const zo_case *c, const zo_card_setup *cs,
                            const char *rs, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static zo_status setup_fail(zo_error *err, const zo_case *c, const zo_card_setup *cs,
                            const char *rs, const char *fmt, ...) {
  if (err) {
    err->code = ZO_ERR_SETUP;
    snprintf(err->file, sizeof err->file, "%s", c->file);
    err->line = cs ? cs->line : 1;
    err->column = cs ? cs->col : 1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err->message, sizeof err->message, "%s (rule set %s)", msg, rs);
    snprintf(err->context, sizeof err->context, "while setting up card '%s'",
             cs ? c->handles[cs->handle] : "?");
  }
  return ZO_ERR_SETUP;
}

/* Point a set-up error just made by setup_fail at the card's key `key`
 * when the case wrote it (zo_card_setup.at), not at the card's handle: the
 * key is what contradicts the rule set. Returns ZO_ERR_SETUP. */
static zo_status at_key(zo_error *err, const zo_card_setup *cs, int key) {
  if (err && cs->at[key].line > 0) {
    err->line = cs->at[key].line;
    err->column = cs->at[key].col;
  }
  return ZO_ERR_SETUP;
}

/* pre + the first rule a cited attribute or switch rests on in rs + post,
 * or "" where the rules text is silent, written into buf (cap bytes), which
 * is returned: a set-up error cites the rule set's own rule. */
static const char *cite(const zo_ruleset *rs, const zo_cited *ci, const char *pre,
                        const char *post, char *buf, size_t cap) {
  if (ci->nrules > 0 && ci->rules[0] >= 0 && ci->rules[0] < rs->nrules)
    snprintf(buf, cap, "%s%s%s", pre, rs->rules[ci->rules[0]].id, post);
  else buf[0] = 0;
  return buf;
}

/* The case zone type of a zone that can always hold an object of this
 * kind: the battlefield/arena for tokens and macros, the stack for
 * abilities and copies, the graveyard for cards. */
static int fallback_type(const zo_game *g, zo_kind k) {
  zo_zone_role role = k == ZK_TOKEN || k == ZK_MACRO || k == ZK_PROXY ? ZR_BATTLEFIELD
                      : k == ZK_ABILITY || k == ZK_COPY            ? ZR_STACK
                                                                   : ZR_GRAVEYARD;
  for (int t = 0; t < g->c->nztypes; t++)
    if (g->zmap[t] >= 0 && g->rs->zones[g->zmap[t]].role == role) return t;
  return 0;
}

/* Keys of a starting card in zone instance `zone` (type zt) that the rule
 * set makes contradictory, or ignored if they were let pass: a position in a
 * zone that is not ordered (CR 400.5 / the zone's `ordered` citation);
 * visibility: where the zone decides it (switch visibility: per_zone); where
 * each object has it (FaB 3.0.3), face: down with visibility: public, face:
 * up with visibility: private, and a public or face-up object in a deck
 * (FaB 3.7.5). ZO_OK, or ZO_ERR_SETUP with err at the key (when err). */
static zo_status setup_contradictions(zo_game *g, const zo_card_setup *cs,
                                      const zo_zone_type *zt, int zone, zo_error *err) {
  const zo_case *c = g->c;
  const zo_ruleset *rs = g->rs;
  const char *hn = c->handles[cs->handle];
  char zname[64] = "", why[64];
  if (err) zo_game_zone_name(g, zone, zname, sizeof zname);
  if (cs->position >= 0 && !zt->ordered.value) {
    setup_fail(err, c, cs, rs->id, "card '%s': position: is for ordered zones, and %s is "
               "not ordered%s", hn, zname, cite(rs, &zt->ordered, " (", ")", why, sizeof why));
    return at_key(err, cs, CK_POSITION);
  }
  int per_object = SW(g, SW_VISIBILITY) == ZS_PER_OBJECT;
  if (cs->visibility >= 0 && !per_object) {
    setup_fail(err, c, cs, rs->id, "'%s' has visibility: %s, but here a zone decides the "
               "visibility of what it holds (switch visibility is per_zone%s): leave it out", hn,
               cs->visibility ? "public" : "private",
               cite(rs, &rs->sw[SW_VISIBILITY], ", ", "", why, sizeof why));
    return at_key(err, cs, CK_VISIBILITY);
  }
  if (!per_object) return ZO_OK;
  int face_written = cs->at[CK_FACE].line > 0;
  if (zt->role == ZR_LIBRARY && (cs->visibility == 1 || (face_written && !cs->face_down))) {
    int vis = cs->visibility == 1;
    setup_fail(err, c, cs, rs->id, "'%s' is in %s, a deck: objects in a deck are private "
               "and face down (FaB 3.7.5): leave out %s", hn, zname,
               vis ? "visibility: public" : "face: up");
    return at_key(err, cs, vis ? CK_VISIBILITY : CK_FACE);
  }
  if (face_written && cs->visibility >= 0 && cs->face_down == cs->visibility) {
    setup_fail(err, c, cs, rs->id, "'%s': face: %s and visibility: %s contradict each other: "
               "here a face-down object is private and a face-up one public (visibility per "
               "object, FaB 3.0.3)", hn,
               cs->face_down ? "down" : "up", cs->visibility ? "public" : "private");
    return at_key(err, cs, CK_VISIBILITY);
  }
  return ZO_OK;
}

/* Place one starting card (the setup checks of cases/README.md: a position the
 * rule set forbids is an error at the card's line). Nothing is inserted
 * when it fails. */
static zo_status place_card(zo_game *g, const zo_card_setup *cs, zo_error *err) {
  const zo_case *c = g->c;
  const zo_ruleset *rs = g->rs;
    zo_obj *o = &g->objs[cs->handle];
    o->kind = cs->kind;
    o->owner = cs->owner;
    o->types = cs->types;
    o->exists = 1;
    o->face_down = cs->face_down;
    new_identity(g, cs->handle);
    const char *hn = c->handles[cs->handle];
    if (cs->under >= 0) {
      const zo_obj *t = &g->objs[cs->under];
      if (rs->sw[SW_SUB_CARDS].value != ZS_YES) {
        return setup_fail(err, c, cs, rs->id, "card '%s': sub-cards (under:) "
                          "are not part of this rule set", hn);
      }
      /* FaB 3.0.14, as put_under: only a card or a token goes under, and
         only under a permanent in the arena or a card on the stack */
      if (o->kind != ZK_CARD && o->kind != ZK_TOKEN) {
        setup_fail(err, c, cs, rs->id, "'%s' is of kind %s: only cards and tokens can be "
                   "sub-cards (FaB 3.0.14)", hn, zo_kind_name(o->kind));
        return at_key(err, cs, CK_KIND);
      }
      if (!t->exists || t->under >= 0 ||
          !((is_arena(g, t->zone) && fab_permanent(g, t, t->zone)) ||
            (is_stack(g, t->zone) && (t->kind == ZK_CARD || t->kind == ZK_TOKEN)))) {
        setup_fail(err, c, cs, rs->id, "card '%s' is under '%s', which "
                   "is not a permanent in the arena or a card on the "
                   "stack (FaB 3.0.14)", hn, c->handles[cs->under]);
        return at_key(err, cs, CK_UNDER);
      }
      if (cs->zone.type != ZO_ZT_UNSET) { /* written: it must be the top-card's zone */
        int red;
        zo_step_error e;
        int z = cs->zone.type == ZO_ZT_OUTSIDE ? ZO_ZONE_OUTSIDE
                                               : resolve_dest(g, cs->handle, &cs->zone, 0, &red, &e);
        if (z != t->zone) {
          char tz[64] = "";
          if (err) zo_game_zone_name(g, t->zone, tz, sizeof tz);
          setup_fail(err, c, cs, rs->id, "card '%s' is under '%s', which is in %s: a sub-card "
                     "is in its top-card's zone (FaB 3.0.14), so zone: must say %s or be left "
                     "out", hn, c->handles[cs->under], tz, tz);
          return at_key(err, cs, CK_ZONE);
        }
      }
      o->under = cs->under;
      g->has_subs = 1;
      o->zone = t->zone;
      o->pub = t->pub;
      o->face_down = t->face_down; /* its top-card's, as put_under gives it */
      return ZO_OK;
    }
    if (cs->zone.type == ZO_ZT_OUTSIDE) {
      if (o->kind != ZK_CARD) {
        return setup_fail(err, c, cs, rs->id, "'%s' is a %s: only cards can "
                          "be outside the game", hn, zo_kind_name(o->kind));
      }
      o->zone = ZO_ZONE_OUTSIDE;
      return ZO_OK;
    }
    int red;
    zo_step_error e;
    int zone;
    zo_status rc;
    const zo_zone_type *zt0 = cs->zone.type >= 0 ? &rs->zones[g->zmap[cs->zone.type]] : NULL;
    if (zt0 && zt0->per_player.value && cs->zone.player >= 0 &&
        cs->zone.player != o->owner && zt0->owner_only.value) {
      char zn[64];
      snprintf(zn, sizeof zn, "%s.%s", c->players[cs->zone.player], zt0->name);
      return setup_fail(err, c, cs, rs->id, "'%s' can't start in %s: that "
                        "zone holds only its owner's cards", hn, zn);
    }
    zone = resolve_dest(g, cs->handle, &cs->zone, 0, &red, &e);
    if (zone < 0) {
      return setup_fail(err, c, cs, rs->id, "card '%s': no such zone", hn);
    }
    const zo_zone_type *zt = ZT(g, zone);
    char zname[64] = ""; /* named only for an error message */
#define ZNAME (err ? (zo_game_zone_name(g, zone, zname, sizeof zname), zname) : zname)
    if (is_token(g, o) && !zt->arena.value) {
      return setup_fail(err, c, cs, rs->id, "token '%s' can't start in %s: "
                        "tokens exist only on the battlefield / in the arena",
                        hn, ZNAME);
    }
    if (o->kind == ZK_ABILITY && zt->role != ZR_STACK) {
      return setup_fail(err, c, cs, rs->id, "ability '%s' can't start in %s: "
                        "abilities exist only on the stack", hn, ZNAME);
    }
    if (o->kind == ZK_COPY && zt->role != ZR_STACK && zt->role != ZR_BATTLEFIELD) {
      return setup_fail(err, c, cs, rs->id, "copy '%s' can't start in %s: "
                        "copies exist on the stack (or battlefield)", hn, ZNAME);
    }
    if ((zt->holds.value & ZH_NO_INSTANTS) && (o->types & g->classes.instant_sorcery)) {
      return setup_fail(err, c, cs, rs->id, "'%s' is an instant or sorcery: "
                        "it can't be on the %s (CR 400.4a)", hn, ZNAME);
    }
    if (cs->controller >= 0 && !zt->controller.value) {
      return setup_fail(err, c, cs, rs->id, "'%s' has a controller but "
                        "objects in %s have none", hn, ZNAME);
    }
    zo_step_error refuse = zone_refuses(g, zone, cs->handle, 0);
    if (refuse) {
      return setup_fail(err, c, cs, rs->id, "'%s' can't start in %s: %s", hn, ZNAME,
                        refuse == ZO_E_CAPACITY ? "the zone is full (capacity)"
                        : "the zone can't hold it");
    }
    if ((rc = setup_contradictions(g, cs, zt, zone, err))) return rc;
#undef ZNAME
    int pos = cs->position >= 0 ? cs->position : ZO_POS_BOTTOM;
    zone_insert(g, zone, cs->handle, pos);
    equip_second(g, zone, cs->handle);
    if (zt->role == ZR_PHASED_OUT) o->phased_out = 1;
    if (zt->controller.value) o->controller = cs->controller >= 0 ? cs->controller : o->owner;
    /* per object (FaB 3.0.3): face down is private, face up (written) is
       public, else the zone's default; a deck is always private (3.7.5) */
    if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT)
      o->pub = zt->role == ZR_LIBRARY ? 0 /* FaB 3.7.5 */
               : cs->visibility >= 0 ? cs->visibility
               : cs->face_down ? 0
               : cs->at[CK_FACE].line > 0 ? 1 : zt->pub.value;
    else o->pub = zt->pub.value;
    if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT) o->face_down = !o->pub;
    return ZO_OK;
}

static zo_status game_new(const zo_ruleset *rs, const zo_case *c, zo_game **out,
                          zo_error *err, int lenient) {
  /* the game and its fixed tables in one allocation (a fuzz input builds
     a game per run) */
  size_t nobj = (size_t)c->nhandles + 1, ntrig = (size_t)c->ntriggers + 1,
         nref = (size_t)c->nrefs + 1, nrepl = (size_t)c->nreplacements + 1,
         nmark = (size_t)c->nmarknames + 1;
#define ZO_ALIGN(x) (((x) + 15) & ~(size_t)15)
  size_t off_hits = ZO_ALIGN(sizeof(zo_game));
  size_t off_slots = off_hits + ZO_ALIGN(((size_t)rs->nrules + 1) * sizeof(int));
  size_t off_zmap = off_slots + ZO_ALIGN(((size_t)rs->nslots + 1) * sizeof(int));
  size_t off_objs = off_zmap + ZO_ALIGN(((size_t)c->nztypes + 2) * sizeof(int));
  size_t off_trig = off_objs + ZO_ALIGN(nobj * sizeof(zo_obj));
  size_t off_refs = off_trig + ZO_ALIGN(ntrig * sizeof(zo_trigger));
  size_t off_repl = off_refs + ZO_ALIGN(nref * sizeof(zo_ref));
  size_t off_order = off_repl + ZO_ALIGN(nrepl * sizeof(zo_replacement));
  size_t off_marks = off_order + ZO_ALIGN(nrepl * sizeof(int));
  size_t total = off_marks + ZO_ALIGN(nmark * sizeof(zo_mark));
  char *block = zo_xcalloc(1, total);
  zo_game *g = (zo_game *)block;
  g->rs = rs;
  g->c = c;
  g->hits = (int *)(block + off_hits);
  g->slot_hits = (int *)(block + off_slots);
  g->zmap = (int *)(block + off_zmap);
  g->objs = (zo_obj *)(block + off_objs);
  g->trig = (zo_trigger *)(block + off_trig);
  g->refs = (zo_ref *)(block + off_refs);
  g->repl = (zo_replacement *)(block + off_repl);
  g->repl_order = (int *)(block + off_order);
  g->marks = (zo_mark *)(block + off_marks);
#undef ZO_ALIGN
  for (int i = 0; i < c->nztypes; i++) /* the decoder passes the rule set's own names */
    g->zmap[i] = i < rs->nzones && c->ztypes[i] == rs->zones[i].name ? i
                                                                    : zo_ruleset_zone(rs, c->ztypes[i]);
  /* two private slots for zones the model names without the case */
  g->hand_slot = c->nztypes;
  g->graveyard_slot = c->nztypes + 1;
  for (int z = 0; z < rs->nzones; z++) {
    if (rs->zones[z].role == ZR_HAND) g->zmap[g->hand_slot] = z;
    if (rs->zones[z].role == ZR_GRAVEYARD) g->zmap[g->graveyard_slot] = z;
  }
  /* the model's type words: fixed vocabulary bits (rules/types.h), looked
     up per game (no process-wide cache) */
  zo_type_classes_init(&g->classes, rs);
  /* equip: and keeps: words of rs as this case's bits (a rule set's own
     words are numbered by the rule set, a case's by the case) */
  for (int t = 0; t < rs->nzones; t++) {
    g->equip_types[t] = zo_type_bits_for_case(rs, c, rs->zones[t].equip_types);
    g->keep_types[t] = zo_type_bits_for_case(rs, c, rs->zones[t].keep_types);
  }
  g->nobjs = c->nhandles;
  int nzones = 0; /* size the zone tables once */
  for (int t = 0; t < rs->nzones; t++)
    nzones += rs->zones[t].per_player.value ? c->nplayers * rs->zones[t].count.value : 1;
  g->capzones = nzones + 4; /* room for zones a step creates */
  g->zones = zo_xmalloc((size_t)g->capzones * sizeof *g->zones);
  g->pool = zo_xmalloc((size_t)g->capzones * (size_t)(g->nobjs + 1) * sizeof *g->pool);
  for (int t = 0; t < rs->nzones; t++) {
    const zo_zone_type *zt = &rs->zones[t];
    g->first_zone[t] = g->nzones;
    if (zt->per_player.value)
      for (int p = 0; p < c->nplayers; p++)
        for (int k = 1; k <= zt->count.value; k++) zo_game_add_zone(g, t, p, k);
    else zo_game_add_zone(g, t, -1, 1);
  }
  g->ntrig = c->ntriggers;
  g->nrefs = c->nrefs;
  g->nrepl = c->nreplacements;
  for (int i = 0; i < g->nrepl; i++) g->repl_order[i] = i;
  g->nmarks = c->nmarknames;
  for (int i = 0; i < g->nobjs; i++) {
    g->objs[i].zone = -1;
    g->objs[i].under = -1;
    g->objs[i].controller = -1;
    g->objs[i].came_from = -1;
    g->objs[i].phase_controller = -1;
  }
  /* place the cards: explicit positions later, sub-cards after their tops;
     a lenient set-up (the fuzz decoder) moves an impossible card to a zone
     that always holds its kind instead of failing */
  if (lenient) /* the decoder writes no keys (and leaves at[] unset) */
    for (int i = 0; i < c->ncards; i++)
      memset(((zo_card_setup *)&c->cards[i])->at, 0, sizeof c->cards[i].at);
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < c->ncards; i++) {
      const zo_card_setup *cs = &c->cards[i];
      if ((cs->under >= 0) != pass) continue;
      if (place_card(g, cs, lenient ? NULL : err) == ZO_OK) continue;
      if (!lenient) {
        zo_game_free(g);
        return ZO_ERR_SETUP;
      }
      zo_card_setup fb = *cs;
      fb.zone.type = fallback_type(g, cs->kind);
      fb.zone.player = -1;
      fb.zone.index = 0;
      fb.under = -1;
      fb.face_down = 0;
      fb.controller = -1;
      fb.position = -1;
      fb.visibility = -1;
      g->objs[cs->handle].exists = 0;
      ((zo_card_setup *)cs)->zone = fb.zone; /* the decoder's own case */
      ((zo_card_setup *)cs)->under = -1;
      ((zo_card_setup *)cs)->face_down = 0;
      ((zo_card_setup *)cs)->controller = -1;
      ((zo_card_setup *)cs)->position = -1;
      ((zo_card_setup *)cs)->visibility = -1;
      if (place_card(g, &fb, NULL) != ZO_OK) {
        /* an object no fallback holds (a token that is an instant can't be
           on the battlefield, 400.4a) is set up as a card in the graveyard */
        fb.kind = ZK_CARD;
        fb.zone.type = fallback_type(g, ZK_CARD);
        ((zo_card_setup *)cs)->kind = ZK_CARD;
        ((zo_card_setup *)cs)->zone = fb.zone;
        g->objs[cs->handle].exists = 0;
        if (place_card(g, &fb, NULL) != ZO_OK) abort(); /* a graveyard holds any card */
      }
    }
  /* explicit positions: stable sort by requested position */
  for (int z = 0; z < g->nzones; z++) {
    zo_zone *zn = &g->zones[z];
    if (!g->rs->zones[zn->type].ordered.value) continue;
    int any = 0;
    for (int i = 0; i < c->ncards; i++)
      if (c->cards[i].position >= 0 && g->objs[c->cards[i].handle].zone == z) any = 1;
    if (!any) continue;
    int *fixed = zo_xcalloc((size_t)zn->n + 1, sizeof *fixed);
    int *placed = zo_xcalloc((size_t)zn->n + 1, sizeof *placed);
    for (int i = 0; i < zn->n; i++) placed[i] = -1;
    for (int i = 0; i < c->ncards; i++) {
      int h = c->cards[i].handle;
      int p = c->cards[i].position;
      if (p >= 0 && g->objs[h].zone == z) {
        if (p >= zn->n || placed[p] >= 0) {
          /* positions 0..n-1 of a zone holding n, one object each (CR 400.5) */
          char zname[64] = "";
          if (err) zo_game_zone_name(g, z, zname, sizeof zname);
          if (p >= zn->n)
            setup_fail(err, c, &c->cards[i], rs->id, "card '%s': position %d is past the end "
                       "of %s, which holds %d (positions 0..%d)", c->handles[h], p, zname,
                       zn->n, zn->n - 1);
          else
            setup_fail(err, c, &c->cards[i], rs->id, "card '%s': position %d of %s is "
                       "also given to '%s' (one object per position)", c->handles[h], p, zname,
                       c->handles[placed[p]]);
          at_key(err, &c->cards[i], CK_POSITION);
          free(fixed);
          free(placed);
          zo_game_free(g);
          return ZO_ERR_SETUP;
        }
        placed[p] = h;
      }
    }
    int k = 0;
    for (int i = 0; i < zn->n; i++) {
      int h = zn->objs[i];
      int explicit_pos = 0;
      for (int j = 0; j < c->ncards; j++)
        if (c->cards[j].handle == h && c->cards[j].position >= 0) explicit_pos = 1;
      if (explicit_pos) continue;
      while (placed[k] >= 0) k++;
      placed[k++] = h;
    }
    memcpy(zn->objs, placed, (size_t)zn->n * sizeof *zn->objs);
    free(fixed);
    free(placed);
  }
  g->ncards_start = 0;
  for (int i = 0; i < g->nobjs; i++)
    if (g->objs[i].exists && g->objs[i].kind == ZK_CARD) g->ncards_start++;
  *out = g;
  return ZO_OK;
}

zo_status zo_game_new(const zo_ruleset *rs, const zo_case *c, zo_game **out,
                      zo_error *err) {
  return game_new(rs, c, out, err, 0);
}

zo_status zo_game_new_lenient(const zo_ruleset *rs, zo_case *c, zo_game **out) {
  zo_error err;
  return game_new(rs, c, out, &err, 1);
}

void zo_game_free(zo_game *g) {
  if (!g) return;
  free(g->pool);
  free(g->zones);
  free(g->chk_listed); /* zo_game_check's scratch */
  free(g->id_stamp);
  free(g); /* with its tables (one block) */
}

/* ---- observation ---------------------------------------------------- */

/* Observed name of zone (zo_game_zone_name) into out (ZO_OBS_NAME bytes).
 * A zone instance's name is made the first time an observation needs it
 * (names[zone][0] == 0 until then: no name is empty) and copied after that,
 * so an object costs a copy, not a snprintf, and a zone nobody is in costs
 * nothing. names: zo_game_observe's table, one entry per zone instance. */
#define ZO_OBS_NAME sizeof(((zo_obj_obs *)0)->zone)
static void observed_zone_name(const zo_game *g, char (*names)[ZO_OBS_NAME], int zone,
                               char *out) {
  if (zone < 0) {
    zo_game_zone_name(g, zone, out, ZO_OBS_NAME);
    return;
  }
  if (!names[zone][0]) {
    memset(names[zone], 0, ZO_OBS_NAME);
    zo_game_zone_name(g, zone, names[zone], ZO_OBS_NAME);
  }
  memcpy(out, names[zone], ZO_OBS_NAME);
}

/* Linear in objects, zones and marks: zone names are made once, positions
 * come from one pass over the ordered zones' lists (an object's first
 * listing in its own zone; -1 when it is not listed), and marks from one
 * pass over the marks (in mark order, as many as an observation holds). The
 * array is calloc'd (libc's zeroing is faster than zeroing each record as
 * it is filled). */
void zo_game_observe(const zo_game *g, zo_observation *ob) {
  const zo_case *c = g->c;
  ob->nhandles = g->nobjs;
  ob->objs = zo_xcalloc((size_t)g->nobjs + 1, sizeof *ob->objs);
  char small[32][ZO_OBS_NAME], (*names)[ZO_OBS_NAME] = small;
  if (g->nzones > 32) names = zo_xcalloc((size_t)g->nzones, ZO_OBS_NAME);
  for (int z = 0; z < g->nzones; z++) names[z][0] = 0; /* made when first needed */
  for (int h = 0; h < g->nobjs; h++) {
    const zo_obj *o = &g->objs[h];
    zo_obj_obs *x = &ob->objs[h];
    x->position = x->layer = -1;
    x->exists = o->exists;
    x->object = o->id;
    x->owner = o->owner;
    x->controller = o->controller;
    x->under = o->under;
    if (!o->exists) continue;
    observed_zone_name(g, names, o->zone, x->zone);
    x->visibility = zo_game_obj_public(g, h);
    x->face_down = o->face_down;
    x->phased_out = o->phased_out;
    if (o->came_from != -1) observed_zone_name(g, names, o->came_from, x->came_from);
  }
  for (int z = 0; z < g->nzones; z++) {
    const zo_zone *zn = &g->zones[z];
    if (!ZT(g, z)->ordered.value) continue;
    for (int k = 0; k < zn->n; k++) {
      int h = zn->objs[k];
      const zo_obj *o = &g->objs[h];
      if (o->exists && o->zone == z && o->under < 0 && ob->objs[h].position < 0)
        ob->objs[h].position = k;
    }
  }
  if (SW(g, SW_STACK_LAYERS) == ZS_YES) /* FaB 3.15.4-6: layer 1 = the bottom */
    for (int h = 0; h < g->nobjs; h++) {
      const zo_obj *o = &g->objs[h];
      if (o->exists && o->zone >= 0 && o->under < 0 && ZT(g, o->zone)->ordered.value &&
          ZT(g, o->zone)->role == ZR_STACK)
        ob->objs[h].layer = g->zones[o->zone].n - ob->objs[h].position;
    }
  for (int m = 0; m < g->nmarks; m++) {
    const zo_mark *mk = &g->marks[m];
    if (!mk->alive || mk->obj < 0 || mk->obj >= g->nobjs || !g->objs[mk->obj].exists) continue;
    zo_obj_obs *x = &ob->objs[mk->obj];
    if (x->nmarks < ZO_MAX_MARKS_PER_OBJ) x->marks[x->nmarks++] = m;
  }
  if (names != small) free(names);
  ob->ntriggers = g->ntrig;
  ob->trig_fired = zo_xcalloc((size_t)g->ntrig + 1, sizeof(int));
  ob->trig_found = zo_xcalloc((size_t)g->ntrig + 1, sizeof(int));
  ob->trig_controller = zo_xcalloc((size_t)g->ntrig + 1, sizeof(int));
  for (int t = 0; t < g->ntrig; t++) {
    ob->trig_fired[t] = g->trig[t].fired;
    ob->trig_found[t] = g->trig[t].resolved ? g->trig[t].found : -1;
    ob->trig_controller[t] = g->trig[t].fired ? g->trig[t].controller : -1;
  }
  ob->nrefs = g->nrefs;
  ob->ref_found = zo_xcalloc((size_t)g->nrefs + 1, sizeof(int));
  ob->ref_handle = zo_xcalloc((size_t)g->nrefs + 1, sizeof(int));
  for (int i = 0; i < g->nrefs; i++) {
    const zo_ref *rf = &g->refs[i];
    ob->ref_handle[i] = rf->set ? rf->obj : -1;
    ob->ref_found[i] = rf->set && g->objs[rf->obj].exists && g->objs[rf->obj].id == rf->id;
  }
  ob->nplayers = c->nplayers;
  for (int p = 0; p < c->nplayers; p++) ob->lost[p] = g->lost[p];
  ob->sees = zo_xcalloc((size_t)(c->nplayers * g->nobjs) + 1, 1);
  for (int h = 0; h < g->nobjs; h++) {
    /* zo_game_sees: nobody sees an object in no zone; everybody a public
       one (its visibility, above); the rest as zo_game_sees decides */
    if (!g->objs[h].exists || g->objs[h].zone < 0) continue;
    for (int p = 0; p < c->nplayers; p++)
      ob->sees[p * g->nobjs + h] = ob->objs[h].visibility ? 1 : (unsigned char)zo_game_sees(g, p, h);
  }
}

void zo_observation_free(zo_observation *o) {
  free(o->objs);
  free(o->trig_fired);
  free(o->trig_found);
  free(o->trig_controller);
  free(o->ref_found);
  free(o->ref_handle);
  free(o->sees);
  memset(o, 0, sizeof *o);
}

void zo_step_result_free(zo_step_result *r) {
  free(r->events);
  memset(r, 0, sizeof *r);
}

const int *zo_game_hits(const zo_game *g) {
  zo_game *m = (zo_game *)g; /* the per-rule view is recomputed on demand */
  memset(m->hits, 0, (size_t)g->rs->nrules * sizeof *m->hits);
  for (int z = 0; z < g->rs->nzones; z++) {
    const zo_zone_type *t = &g->rs->zones[z];
    const zo_cited *f[] = {&t->per_player, &t->count,      &t->pub,      &t->ordered,
                           &t->arena,      &t->controller, &t->capacity, &t->owner_only,
                           &t->holds,      &t->reorder,    &t->same_zone_new, &t->keeps,
                           &t->face_down_new};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
      for (int k = 0; k < f[i]->nrules; k++) m->hits[f[i]->rules[k]] += g->slot_hits[f[i]->slot];
  }
  for (int s = 0; s < SW_COUNT; s++)
    for (int k = 0; k < g->rs->sw[s].nrules; k++)
      m->hits[g->rs->sw[s].rules[k]] += g->slot_hits[g->rs->sw[s].slot];
  return m->hits;
}

/* ---- invariants (fuzz/INVARIANTS.md) ------------------------------------- */

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
    if (o->kind == ZK_CARD) cards++;
    if (o->zone == -1 || (o->zone == ZO_ZONE_OUTSIDE && o->kind != ZK_CARD))
      return violation(v, "in-a-zone", "CR 400.1; FaB 3.0.7", g, i, "exists in no zone");
    if (o->under >= 0) {
      const zo_obj *t = &g->objs[o->under];
      if (!t->exists || t->under >= 0 || t->zone != o->zone)
        return violation(v, "sub-cards", "FaB 3.0.14", g, i, "sub-card without a top-card in the arena");
      if (listed[i])
        return violation(v, "sub-cards", "FaB 3.0.14b", g, i, "sub-card listed in a zone");
    } else if (o->zone >= 0) {
      if (listed[i] != 1)
        return violation(v, "one-zone", "FaB 3.0.1a", g, i, "not in exactly its one zone");
      if (!g->zones[o->zone].exists)
        return violation(v, "in-a-zone", "FaB 3.0.10", g, i, "in a zone that ceased to exist");
    }
    int in_arena = o->zone >= 0 && o->under < 0 && ZT(g, o->zone)->arena.value;
    if (is_token(g, o) && (at_rest || fab_tokens) && !in_arena &&
        !(o->under >= 0 && SW(g, SW_SUB_CARDS) == ZS_YES))
      return violation(v, "tokens-in-arena", "CR 704.5d; FaB 8.1.8a", g, i, "token outside the battlefield/arena");
    if (o->kind == ZK_ABILITY && !is_stack(g, o->zone))
      return violation(v, "copies-on-stack", "CR 704.5e; FaB 1.6.2b", g, i, "ability off the stack");
    if (o->kind == ZK_COPY && at_rest && SW(g, SW_COPIES) == ZS_CEASE_OFF_STACK &&
        !is_stack(g, o->zone) &&
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
        if (zo_game_sees(g, p, i))
          return violation(v, "deck-hidden", "CR 401.2; FaB 3.7.4", g, i, "a player sees into a library/deck");
  }
  if (cards != g->ncards_start)
    return violation(v, "cards-conserved", "every zone rule moves, none creates a card", g, -1, "card count changed");
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
      if ((holds & ZH_NO_INSTANTS) && (o->types & g->classes.instant_sorcery))
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
  }
  return 0;
}

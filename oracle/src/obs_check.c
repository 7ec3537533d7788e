/* obs_check.c: the invariants of fuzz/INVARIANTS.md, decided on what an engine
 * shows rather than on the oracle's state (which zo_game_check sees).
 *
 * An engine under test is a black box: after each step the runner has its
 * answer (outcome and per-object events) and its observation (per handle:
 * exists, zone name, identity token, position, layer, visibility,
 * controller, owner, under; references; who sees what). What the engine
 * must never show follows from the zone rules alone: an object in no zone
 * (CR 400.1), a token off the battlefield after state-based actions (CR
 * 704.5d) or ever outside the FaB arena (8.1.8a), a card in another
 * player's library (CR 400.3), a library card someone may look at (CR
 * 401.2), an identity that comes back after the object became new (CR
 * 400.7), a reference that still finds it (CR 400.7d), untouched objects
 * reordered in an ordered zone (CR 400.5) and so on. The case supplies
 * each handle's kind and types (setup cards, create steps); the rule set
 * supplies the zone types' attributes and the switches, so everything
 * here is decided the way the oracle's rule set says, not the oracle's
 * state. obs_check.h lists what is checked and what can't be.
 */
#include "obs_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct {
  uint64_t id;
  int handle;
  int retired; /* its object became new or ceased: never again (CR 400.7) */
} idrec;

/* Facts about a step tree (the step, its then:/do:, its move_together
 * moves; a replacement's instead is the replace step's then). */
enum {
  F_PHASE = 1 << 0,    /* phasing moves nothing into a new object (Z.7.2) */
  F_REORDERS = 1 << 1, /* reorder, shuffle, or a move with shuffle: true */
  F_PUT_UNDER = 1 << 2,
  F_CREATE = 1 << 3,
  F_END_GAME = 1 << 4, /* ante ownership may change (Z.2.2) */
  F_MOVES = 1 << 5     /* a move, draw or mill */
};

struct zo_obs_checker {
  const zo_ruleset *rs;
  const zo_case *c;
  int n;             /* the case's handles */
  int *kind;         /* [n] zo_kind from the case; -1 unknown */
  uint64_t *types;   /* [n] type words as bits (zo_type_bit) */
  int fab_tokens;    /* tokens leave at once: always at rest (FaB 8.1.8a) */
  int per_object;    /* visibility per object (FaB 3.0.4) */
  int repl_shuffles; /* some replacement's instead shuffles its destination */
  int started;       /* the setup has been observed */
  int ncards;        /* cards at the setup */
  int ended;         /* an end_game step ran (owners may have changed) */
  zo_obj_obs *prev;  /* [n] the last sound observation's objects */
  idrec *ids;
  int nids, capids;
  int *ref_set, *ref_handle; /* [nrefs] what each remember step saw */
  uint64_t *ref_id;
  int *ztype, *zplayer; /* [n] scratch: each handle's parsed zone */
  uint64_t t_instant_sorcery, t_hero, t_token, t_deck_card, t_perm_sub;
};

#define SWV(k, s) ((k)->rs->sw[s].value)

static unsigned tree_flags(const zo_step *s) {
  if (!s) return 0;
  unsigned f = 0;
  switch (s->kind) {
  case ST_PHASE: f |= F_PHASE; break;
  case ST_REORDER: case ST_SHUFFLE: f |= F_REORDERS; break;
  case ST_PUT_UNDER: f |= F_PUT_UNDER; break;
  case ST_CREATE: f |= F_CREATE; break;
  case ST_END_GAME: f |= F_END_GAME; break;
  case ST_MOVE: case ST_MOVE_TOGETHER: case ST_DRAW: case ST_MILL: f |= F_MOVES; break;
  default: break;
  }
  if (s->shuffle) f |= F_REORDERS;
  f |= tree_flags(s->then);
  for (int i = 0; i < s->nmoves; i++) f |= tree_flags(&s->moves[i]);
  return f;
}

static int tree_remembers(const zo_step *s, int ref) {
  if (!s) return 0;
  if (s->kind == ST_REMEMBER && s->as == ref) return 1;
  if (tree_remembers(s->then, ref)) return 1;
  for (int i = 0; i < s->nmoves; i++)
    if (tree_remembers(&s->moves[i], ref)) return 1;
  return 0;
}

/* Kinds and types of created handles (create steps, at any depth). */
static void learn_created(zo_obs_checker *k, const zo_step *s) {
  if (!s) return;
  if (s->kind == ST_CREATE && s->as >= 0 && s->as < k->n) {
    k->kind[s->as] = (int)s->kind_of;
    k->types[s->as] = s->types;
  }
  if (s->kind == ST_REPLACE && (tree_flags(s->then) & F_REORDERS)) k->repl_shuffles = 1;
  learn_created(k, s->then);
  for (int i = 0; i < s->nmoves; i++) learn_created(k, &s->moves[i]);
}

zo_obs_checker *zo_obs_checker_new(const zo_ruleset *rs, const zo_case *c) {
  zo_obs_checker *k = zo_xcalloc(1, sizeof *k);
  k->rs = rs;
  k->c = c;
  k->n = c->nhandles;
  size_t n1 = (size_t)k->n + 1, r1 = (size_t)c->nrefs + 1;
  k->kind = zo_xcalloc(n1, sizeof *k->kind);
  k->types = zo_xcalloc(n1, sizeof *k->types);
  k->prev = zo_xcalloc(n1, sizeof *k->prev);
  k->ztype = zo_xcalloc(n1, sizeof *k->ztype);
  k->zplayer = zo_xcalloc(n1, sizeof *k->zplayer);
  k->ref_set = zo_xcalloc(r1, sizeof *k->ref_set);
  k->ref_handle = zo_xcalloc(r1, sizeof *k->ref_handle);
  k->ref_id = zo_xcalloc(r1, sizeof *k->ref_id);
  for (int h = 0; h < k->n; h++) k->kind[h] = -1;
  for (int i = 0; i < c->ncards; i++) {
    const zo_card_setup *cs = &c->cards[i];
    if (cs->handle < 0 || cs->handle >= k->n) continue;
    k->kind[cs->handle] = (int)cs->kind;
    k->types[cs->handle] = cs->types;
  }
  for (int i = 0; i < c->nsteps; i++) learn_created(k, &c->steps[i]);
  k->fab_tokens = SWV(k, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY;
  k->per_object = SWV(k, SW_VISIBILITY) == ZS_PER_OBJECT;
  /* the type words game.c reads (CR 400.4a; FaB 1.3.2, 1.3.3, 3.11.2) */
  k->t_instant_sorcery = zo_type_bit("instant") | zo_type_bit("sorcery");
  k->t_hero = zo_type_bit("hero");
  k->t_token = zo_type_bit("token");
  k->t_deck_card = zo_type_bit("action") | zo_type_bit("attack_reaction") | zo_type_bit("block") |
                   zo_type_bit("defense_reaction") | zo_type_bit("instant") |
                   zo_type_bit("mentor") | zo_type_bit("resource");
  k->t_perm_sub = zo_type_bit("affliction") | zo_type_bit("ally") | zo_type_bit("ash") |
                  zo_type_bit("aura") | zo_type_bit("construct") | zo_type_bit("figment") |
                  zo_type_bit("invocation") | zo_type_bit("item") | zo_type_bit("landmark");
  if (!rs->game || strcmp(rs->game, "fab")) k->t_deck_card = 0; /* only FaB has deck-cards */
  return k;
}

void zo_obs_checker_free(zo_obs_checker *k) {
  if (!k) return;
  free(k->kind);
  free(k->types);
  free(k->prev);
  free(k->ztype);
  free(k->zplayer);
  free(k->ids);
  free(k->ref_set);
  free(k->ref_handle);
  free(k->ref_id);
  free(k);
}

/* ---- helpers ---------------------------------------------------------- */

static int viol(zo_obs_violation *v, const char *id, const char *rule, const zo_case *c, int h,
                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static int viol(zo_obs_violation *v, const char *id, const char *rule, const zo_case *c, int h,
                const char *fmt, ...) {
  if (!v) return 1;
  v->invariant = id;
  v->rule = rule;
  v->handle = h;
  char what[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (h >= 0 && h < c->nhandles) snprintf(v->detail, sizeof v->detail, "%s: %s", c->handles[h], what);
  else snprintf(v->detail, sizeof v->detail, "%s", what);
  return 1;
}

static const char *pname(const zo_case *c, int p) {
  return p >= 0 && p < c->nplayers ? c->players[p] : "nobody";
}

static const char *hname(const zo_case *c, int h) {
  return h >= 0 && h < c->nhandles ? c->handles[h] : "?";
}

static const char *kname(int kind) {
  return kind >= 0 ? zo_kind_name((zo_kind)kind) : "object";
}

/* An observed zone name ("battlefield", "alice.graveyard",
 * "alice.weapon.2", "outside") -> rule set zone type and player. Returns
 * the type index, ZO_ZT_OUTSIDE, or -1 for no zone of this rule set (a
 * per-player type named without a player or the other way round too). */
static int parse_zone(const zo_obs_checker *k, const char *name, int *player) {
  *player = -1;
  if (!strcmp(name, "outside")) return ZO_ZT_OUTSIDE;
  const char *rest = name;
  size_t best = 0;
  for (int p = 0; p < k->c->nplayers; p++) {
    size_t len = strlen(k->c->players[p]);
    if (len > best && !strncmp(name, k->c->players[p], len) && name[len] == '.') {
      best = len;
      *player = p;
      rest = name + len + 1;
    }
  }
  char type[64];
  snprintf(type, sizeof type, "%s", rest);
  char *dot = strrchr(type, '.');
  if (dot) { /* ".N": the Nth zone of a type a player has several of */
    if (!dot[1]) return -1;
    for (const char *d = dot + 1; *d; d++)
      if (*d < '0' || *d > '9') return -1;
    *dot = 0;
  }
  int t = zo_ruleset_zone(k->rs, type);
  if (t < 0) return -1;
  if (!k->rs->zones[t].per_player.value != (*player < 0)) return -1;
  return t;
}

static int is_token(const zo_obs_checker *k, int h) {
  return k->kind[h] == ZK_TOKEN || (k->types[h] & k->t_token) != 0;
}

/* FaB 1.3.3: is the object a permanent in a zone of type zt? (game.c) */
static int fab_permanent(const zo_obs_checker *k, int h, const zo_zone_type *zt) {
  int kind = k->kind[h];
  if (kind == ZK_TOKEN || kind == ZK_MACRO) return 1; /* 1.5.1 */
  if (kind != ZK_CARD && kind != ZK_COPY) return 0;
  if (!(kind == ZK_CARD && (k->types[h] & k->t_deck_card))) return 1; /* hero-, arena-cards */
  if (zt->holds.value & ZH_PROXIES) return 0; /* not a permanent on the combat chain */
  return (k->types[h] & k->t_perm_sub) != 0;
}

static int events_for(const zo_step_result *r, int h, unsigned outcomes) {
  int n = 0;
  for (int i = 0; r && i < r->nevents; i++)
    if (r->events[i].handle == h && (unsigned)r->events[i].outcome < 32 &&
        (outcomes & (1u << r->events[i].outcome)))
      n++;
  return n;
}

#define O(x) (1u << ZO_OUTCOME_##x)
#define ANY_OUTCOME (~0u)
#define MOVED_SET (O(MOVED) | O(REDIRECTED) | O(REPLACED))

/* Top-level members of zone `name` in obs, sorted by position. */
static int members(const zo_obj_obs *objs, int n, const char *name, int *out) {
  int m = 0;
  for (int h = 0; h < n; h++)
    if (objs[h].exists && objs[h].under < 0 && !strcmp(objs[h].zone, name)) out[m++] = h;
  for (int i = 1; i < m; i++)
    for (int j = i; j > 0 && objs[out[j]].position < objs[out[j - 1]].position; j--) {
      int t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  return m;
}

static int in_zone(const zo_obj_obs *o, const char *name) {
  return o->exists && o->under < 0 && !strcmp(o->zone, name);
}

/* ---- the check -------------------------------------------------------- */

/* Invariants of one existing object h (zone parsed into k->ztype/zplayer). */
static int check_object(zo_obs_checker *k, const zo_observation *ob, int h, int at_rest, int ended,
                        zo_obs_violation *v) {
  const zo_case *c = k->c;
  const zo_ruleset *rs = k->rs;
  const zo_obj_obs *o = &ob->objs[h];
  int kind = k->kind[h], t = k->ztype[h], zp = k->zplayer[h];
  const zo_zone_type *zt = t >= 0 ? &rs->zones[t] : NULL;

  /* in-a-zone */
  if (!o->zone[0])
    return viol(v, "in-a-zone", "CR 400.1; FaB 3.0.7", c, h, "exists in no zone");
  if (t == ZO_ZT_OUTSIDE && kind >= 0 && kind != ZK_CARD)
    return viol(v, "in-a-zone", "CR 400.10; FaB 3.0.7", c, h,
                "a %s outside the game, where only cards exist", kname(kind));
  if (t == -1)
    return viol(v, "in-a-zone", "CR 400.1; FaB 3.0.1", c, h, "in '%s', not a zone of rule set %s",
                o->zone, rs->id);

  /* sub-cards */
  if (o->under >= 0) {
    int top = o->under;
    if (SWV(k, SW_SUB_CARDS) != ZS_YES)
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "a sub-card (under %s), which rule set %s has not",
                  hname(c, top), rs->id);
    if (top >= ob->nhandles || top == h || !ob->objs[top].exists)
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "a sub-card under %s, which does not exist",
                  hname(c, top));
    if (ob->objs[top].under >= 0)
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "under %s, which is itself a sub-card",
                  hname(c, top));
    if (strcmp(ob->objs[top].zone, o->zone))
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "a sub-card in %s, its top-card %s in %s",
                  o->zone, hname(c, top), ob->objs[top].zone);
    if (o->position >= 0 || o->layer >= 0)
      return viol(v, "sub-cards", "FaB 3.0.14b", c, h,
                  "a sub-card listed at position %d in %s: sub-cards are not in the zone",
                  o->position >= 0 ? o->position : o->layer, o->zone);
  }

  /* one-zone: the same object shown on two handles */
  for (int j = 0; j < ob->nhandles; j++)
    if (j != h && ob->objs[j].exists && ob->objs[j].object == o->object)
      return viol(v, "one-zone", "FaB 3.0.1a; CR 400.7", c, h,
                  "the same object (identity) as %s: one object in %s and %s", hname(c, j), o->zone,
                  ob->objs[j].zone);

  int top_level = o->under < 0;
  /* tokens-in-arena */
  if (at_rest && is_token(k, h)) {
    int in_arena = zt && top_level && zt->arena.value;
    if (!in_arena && !(!top_level && SWV(k, SW_SUB_CARDS) == ZS_YES))
      return viol(v, "tokens-in-arena", "CR 111.7, 704.5d; FaB 8.1.8a", c, h,
                  "a token in %s at rest (tokens exist only on the battlefield / in the arena)",
                  o->zone);
  }

  /* copies-on-stack */
  int on_stack = zt && top_level && zt->role == ZR_STACK;
  if (kind == ZK_ABILITY && !on_stack)
    return viol(v, "copies-on-stack", "CR 704.5e; Z.9.6; FaB 1.6.2b", c, h,
                "an ability in %s: abilities exist only on the stack", o->zone);
  if (kind == ZK_COPY && at_rest && SWV(k, SW_COPIES) == ZS_CEASE_OFF_STACK && !on_stack &&
      !(zt && zt->role == ZR_BATTLEFIELD))
    return viol(v, "copies-on-stack", "CR 704.5e", c, h, "a copy of a spell in %s at rest", o->zone);

  /* no-controller */
  if (o->controller >= 0 && (!zt || !top_level || !zt->controller.value))
    return viol(v, "no-controller", "CR 109.4; FaB 1.2.1b", c, h,
                "controlled by %s in %s%s, where objects have no controller",
                pname(c, o->controller), o->zone, top_level ? "" : " as a sub-card");

  if (zt && top_level) {
    /* owner-zones */
    if (zt->owner_only.value && zp >= 0 && o->owner != zp && !ended)
      return viol(v, "owner-zones", "CR 400.3; FaB 3.0.2", c, h,
                  "owned by %s, in %s, which holds only its owner's objects", pname(c, o->owner),
                  o->zone);
    /* can-hold */
    unsigned holds = (unsigned)zt->holds.value;
    if ((holds & ZH_NO_INSTANTS) && (k->types[h] & k->t_instant_sorcery))
      return viol(v, "can-hold", "CR 400.4a", c, h, "an instant or sorcery in %s", o->zone);
    if (kind >= 0) {
      const char *why = NULL;
      if ((holds & ZH_DECK_CARDS) && !(kind == ZK_CARD && (k->types[h] & k->t_deck_card)))
        why = "holds only deck-cards (FaB 1.3.2c)";
      else if ((holds & ZH_CARDS) &&
               !(kind == ZK_CARD || kind == ZK_TOKEN || kind == ZK_COPY ||
                 ((holds & ZH_PROXIES) && kind == ZK_PROXY)))
        why = "holds only cards";
      else if ((holds & ZH_PERMANENTS) && !fab_permanent(k, h, zt))
        why = "holds only permanents (FaB 1.3.3)";
      else if ((holds & ZH_HERO) && !(k->types[h] & k->t_hero))
        why = "holds only a hero";
      else if ((holds & ZH_EQUIP) && !(k->types[h] & zt->equip_types))
        why = "holds only equipment of its kind";
      if (why)
        return viol(v, "can-hold", "FaB 3.0.11; CR 400.4a", c, h, "a %s in %s, which %s", kname(kind),
                    o->zone, why);
    }
    /* deck-hidden */
    if (zt->role == ZR_LIBRARY) {
      if (o->visibility)
        return viol(v, "deck-hidden", "CR 401.2; Z.6.2; FaB 3.7.4", c, h, "public in %s", o->zone);
      for (int p = 0; p < ob->nplayers && ob->sees; p++)
        if (ob->sees[p * ob->nhandles + h])
          return viol(v, "deck-hidden", "CR 401.2; Z.6.2; FaB 3.7.4", c, h,
                      "%s may look at it in %s", pname(c, p), o->zone);
    }
  }

  /* fresh-ids */
  for (int i = 0; i < k->nids; i++) {
    const idrec *d = &k->ids[i];
    if (d->id != o->object) continue;
    if (d->handle != h)
      return viol(v, "fresh-ids", "CR 400.7", c, h, "shows the identity %s had%s", hname(c, d->handle),
                  d->retired ? " before it became a new object or ceased" : "");
    if (d->retired)
      return viol(v, "fresh-ids", "CR 400.7", c, h,
                  "its earlier identity came back after it became a new object");
  }
  return 0;
}

/* Per zone instance: capacity and positions (stack-layers). */
static int check_zones(zo_obs_checker *k, const zo_observation *ob, int *buf, zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *o = &ob->objs[h];
    if (!o->exists || o->under >= 0 || k->ztype[h] < 0) continue;
    int first = 1;
    for (int j = 0; j < h && first; j++)
      if (in_zone(&ob->objs[j], o->zone) && k->ztype[j] >= 0) first = 0;
    if (!first) continue;
    const zo_zone_type *zt = &k->rs->zones[k->ztype[h]];
    int m = members(ob->objs, n, o->zone, buf);
    if (zt->capacity.value > 0 && m > zt->capacity.value)
      return viol(v, "capacity", "FaB 3.2.2, 3.3.2, 3.16.2", c, buf[m - 1],
                  "one of %d objects in %s, whose capacity is %d", m, o->zone, zt->capacity.value);
    if (!zt->ordered.value) continue;
    int any_pos = 0, any_layer = 0;
    for (int i = 0; i < m; i++) {
      any_pos |= ob->objs[buf[i]].position >= 0;
      any_layer |= ob->objs[buf[i]].layer >= 0;
    }
    if (any_pos)
      for (int i = 0; i < m; i++) { /* sorted: position i must be i */
        int p = ob->objs[buf[i]].position;
        if (p < 0)
          return viol(v, "stack-layers", "CR 400.5; FaB 3.15.4", c, buf[i],
                      "no position in %s, an ordered zone of %d objects", o->zone, m);
        if (p != i)
          return viol(v, "stack-layers", "CR 400.5; FaB 3.15.4", c, buf[i],
                      "position %d in %s, whose %d objects take positions 0..%d, each once", p,
                      o->zone, m, m - 1);
      }
    if (any_layer && zt->role == ZR_STACK && SWV(k, SW_STACK_LAYERS) == ZS_YES)
      for (int i = 0; i < m; i++) {
        int l = ob->objs[buf[i]].layer, dup = 0;
        for (int j = 0; j < i; j++) dup |= ob->objs[buf[j]].layer == l;
        /* FaB 3.15.4-6: layer 1 is the bottom; with positions (0 = top)
           the layer is N - position, without them 1..N each once */
        int want = any_pos ? m - ob->objs[buf[i]].position : l;
        if (l < 1 || l > m || dup || l != want)
          return viol(v, "stack-layers", "FaB 3.15.4-6", c, buf[i],
                      "layer %d in %s, whose %d layers are 1..%d from the bottom", l, o->zone, m, m);
      }
  }
  return 0;
}

/* identity-rule: identity and existence change only as the step's events
 * say, and as the rule set's new_object switch says for a plain move. */
static int check_identity(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                          const zo_observation *ob, zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  unsigned flags = tree_flags(s);
  unsigned changes = MOVED_SET | O(NEW_OBJECT_IN_PLACE) | O(CLEARED);
  /* FaB 3.0.9: a same-zone move or turn from public to private makes a
     new object with no zone change (per-object visibility) */
  if (k->per_object) changes |= O(NO_MOVE);
  int sw_new = SWV(k, SW_NEW_OBJECT);
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (!p->exists && !o->exists) continue;
    if (!p->exists) {
      if (!events_for(r, h, ANY_OUTCOME))
        return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                    "came into existence in %s with no event of the step for it", o->zone);
      continue;
    }
    if (!o->exists) {
      if (!events_for(r, h, O(CEASED)))
        return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                    "ceased to exist (was in %s) with no 'ceased' event of the step", p->zone);
      continue;
    }
    int changed = p->object != o->object;
    if (changed && !events_for(r, h, changes))
      return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                  "became a new object (%s -> %s) with no event saying it moved, was cleared or "
                  "became new", p->zone, o->zone);
    if (!changed) {
      int said = events_for(r, h, O(NEW_OBJECT_IN_PLACE) | O(CLEARED));
      if (said)
        return viol(v, "identity-rule", "CR 400.8; FaB 3.0.12", c, h,
                    "the step says it became new (new_object_in_place or cleared), its identity "
                    "did not change");
    }
    /* how a plain move decides identity (not phasing, Z.7.2; not a
       put_under or create, which have their own events) */
    if (flags & (F_PHASE | F_PUT_UNDER | F_CREATE)) continue;
    int moved = events_for(r, h, MOVED_SET);
    if (!moved) continue;
    if (sw_new == ZS_EVERY_MOVE && !changed)
      return viol(v, "identity-rule", "CR 400.7", c, h,
                  "moved (%s -> %s) and stayed the same object; in rule set %s every zone change "
                  "makes a new object", p->zone, o->zone, k->rs->id);
    if (sw_new == ZS_LEAVE_ARENA && moved == 1 && events_for(r, h, ANY_OUTCOME) == 1 &&
        strcmp(p->zone, "outside")) {
      const zo_zone_type *dz = k->ztype[h] >= 0 ? &k->rs->zones[k->ztype[h]] : NULL;
      int want = !dz || (!dz->arena.value && dz->role != ZR_STACK) || p->under >= 0 ||
                 (k->per_object && p->visibility && !o->visibility);
      if (want != changed)
        return viol(v, "identity-rule", "FaB 3.0.9", c, h,
                    "moved %s -> %s and %s; FaB 3.0.9 makes it new only leaving the arena and "
                    "stack, as a sub-card, or turning private",
                    p->zone, o->zone, changed ? "became a new object" : "stayed the same object");
    }
  }
  return 0;
}

/* stale-refs: a reference finds only what its remember step saw. */
static int check_refs(zo_obs_checker *k, const zo_step *s, const zo_observation *ob,
                      zo_obs_violation *v) {
  const zo_case *c = k->c;
  int nrefs = ob->nrefs < c->nrefs ? ob->nrefs : c->nrefs;
  for (int i = 0; i < nrefs; i++) {
    if (!ob->ref_found[i] || (s && tree_remembers(s, i))) continue;
    int h = ob->ref_handle ? ob->ref_handle[i] : -1;
    if (!k->ref_set[i])
      return viol(v, "stale-refs", "CR 400.7d; Z.1.Ruling.3", c, h,
                  "reference '%s' finds it, but no remember step set that reference", c->refs[i]);
    if (h != k->ref_handle[i])
      return viol(v, "stale-refs", "CR 400.7d; Z.1.Ruling.3", c, h,
                  "reference '%s' finds it, but it remembered %s", c->refs[i],
                  hname(c, k->ref_handle[i]));
    if (h < 0 || h >= ob->nhandles || !ob->objs[h].exists || ob->objs[h].object != k->ref_id[i])
      return viol(v, "stale-refs", "CR 400.7d; Z.1.Ruling.3", c, h,
                  "reference '%s' still finds it after it became a new object or ceased",
                  c->refs[i]);
  }
  return 0;
}

static int touched(const zo_step_result *r, int h) { return events_for(r, h, ANY_OUTCOME) > 0; }

/* order-kept: in an ordered zone, objects without an event keep their
 * relative order (CR 400.5; Z.3.4; 217.2b). */
static int check_order(zo_obs_checker *k, const zo_step_result *r, const zo_observation *ob,
                       int *buf, zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  int *a = buf, *b = buf + n + 1;
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h];
    if (!p->exists || p->under >= 0 || p->position < 0) continue;
    int pl, t = parse_zone(k, p->zone, &pl); /* the zone it was in */
    if (t < 0 || !k->rs->zones[t].ordered.value) continue;
    int first = 1; /* each zone once: at its first member */
    for (int j = 0; j < h && first; j++)
      if (in_zone(&k->prev[j], p->zone) && k->prev[j].position >= 0) first = 0;
    if (!first) continue;
    int na = 0, nb = 0;
    int m = members(k->prev, n, p->zone, a);
    for (int i = 0; i < m; i++) /* before, untouched and still there */
      if (!touched(r, a[i]) && in_zone(&ob->objs[a[i]], p->zone) && ob->objs[a[i]].position >= 0)
        a[na++] = a[i];
    m = members(ob->objs, n, p->zone, b);
    for (int i = 0; i < m; i++) /* now, untouched and there before */
      if (!touched(r, b[i]) && in_zone(&k->prev[b[i]], p->zone) && ob->objs[b[i]].position >= 0)
        b[nb++] = b[i];
    for (int i = 0; i < na && i < nb; i++)
      if (a[i] != b[i])
        return viol(v, "order-kept", "CR 400.5; Z.3.4; 217.2b", c, a[i],
                    "now below %s in %s, though the step moved neither of them", hname(c, b[i]),
                    p->zone);
  }
  return 0;
}

int zo_observation_check(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                         const zo_observation *ob, zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  unsigned flags = tree_flags(s);
  int at_rest = k->fab_tokens || (s && s->kind == ST_STATE_CHECK);
  int ended = k->ended || (flags & F_END_GAME);
  int *buf = zo_xcalloc(2 * (size_t)n + 2, sizeof *buf);
  int bad = 0, ncards = 0, vanished = -1;
  for (int h = 0; h < n; h++)
    k->ztype[h] = ob->objs[h].exists ? parse_zone(k, ob->objs[h].zone, &k->zplayer[h]) : -1;
  for (int h = 0; h < n && !bad; h++) {
    if (!ob->objs[h].exists) {
      if (k->kind[h] == ZK_CARD && k->prev[h].exists) vanished = h;
      continue;
    }
    if (k->kind[h] == ZK_CARD) ncards++;
    bad = check_object(k, ob, h, at_rest, ended, v);
  }
  /* cards-conserved: no zone rule creates or destroys a card */
  if (!bad && k->started && ncards != k->ncards)
    bad = viol(v, "cards-conserved", "CR 400.1; FaB 3.0.7", c, vanished,
               "%d cards in the game and outside it, %d at the setup%s", ncards, k->ncards,
               vanished >= 0 ? " (this card ceased to exist)" : "");
  if (!bad) bad = check_zones(k, ob, buf, v);
  if (!bad && s && k->started) bad = check_identity(k, s, r, ob, v);
  if (!bad) bad = check_refs(k, s, ob, v);
  if (!bad && s && k->started && !(flags & F_REORDERS) &&
      !(k->repl_shuffles && (flags & F_MOVES)))
    bad = check_order(k, r, ob, buf, v);
  free(buf);
  if (bad) return 1;

  /* sound: remember it */
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (k->started && p->exists && (!o->exists || p->object != o->object))
      for (int i = 0; i < k->nids; i++) /* CR 400.7: that identity is gone */
        if (k->ids[i].id == p->object && k->ids[i].handle == h) k->ids[i].retired = 1;
    if (!o->exists) continue;
    int known = 0;
    for (int i = 0; i < k->nids && !known; i++) known = k->ids[i].id == o->object;
    if (known) continue;
    if (k->nids == k->capids) {
      k->capids = k->capids ? 2 * k->capids : 64;
      k->ids = zo_xrealloc(k->ids, (size_t)k->capids * sizeof *k->ids);
    }
    k->ids[k->nids++] = (idrec){.id = o->object, .handle = h, .retired = 0};
  }
  int nrefs = ob->nrefs < c->nrefs ? ob->nrefs : c->nrefs;
  for (int i = 0; s && i < nrefs; i++) /* a remember that found nothing keeps the old one */
    if (tree_remembers(s, i) && ob->ref_found[i] && ob->ref_handle && ob->ref_handle[i] >= 0 &&
        ob->ref_handle[i] < n) {
      k->ref_set[i] = 1;
      k->ref_handle[i] = ob->ref_handle[i];
      k->ref_id[i] = ob->objs[ob->ref_handle[i]].object;
    }
  memset(k->prev, 0, (size_t)k->n * sizeof *k->prev);
  memcpy(k->prev, ob->objs, (size_t)n * sizeof *k->prev);
  if (!k->started) k->ncards = ncards;
  k->started = 1;
  k->ended = ended;
  return 0;
}

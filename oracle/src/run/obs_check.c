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

#include "holds.h"
#include "util.h"

#include "obs_check_int.h"

#define SWV(k, s) ((k)->rs->sw[s].value)

static unsigned tree_flags(const zo_step *s) {
  if (!s) return 0;
  unsigned f = 0;
  switch (s->kind) {
  case ST_PHASE: case ST_UNTAP: f |= F_PHASE; break; /* untap: its phasing (702.26a, Z.7.2) */
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
  for (int i = 0; i < s->ncosts; i++) f |= tree_flags(&s->costs[i]); /* CR 601.2 */
  return f;
}

static int tree_remembers(const zo_step *s, int ref) {
  if (!s) return 0;
  if (s->kind == ST_REMEMBER && s->as == ref) return 1;
  if (tree_remembers(s->then, ref)) return 1;
  for (int i = 0; i < s->nmoves; i++)
    if (tree_remembers(&s->moves[i], ref)) return 1;
  for (int i = 0; i < s->ncosts; i++)
    if (tree_remembers(&s->costs[i], ref)) return 1;
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
  if (s->kind == ST_MARK && s->as >= 0 && s->as < k->c->nmarknames) k->mark_kind[s->as] = (int)s->mark_kind;
  learn_created(k, s->then);
  for (int i = 0; i < s->nmoves; i++) learn_created(k, &s->moves[i]);
  for (int i = 0; i < s->ncosts; i++) learn_created(k, &s->costs[i]);
}

/* The rules citation c names, "; "-joined, into buf (cap bytes): what a
 * violation of a rule set's own attribute prints (issue 31). */
static void cite_text(const zo_ruleset *rs, const zo_cited *c, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = 0;
  for (int r = 0; r < c->nrules && used < cap; r++)
    used += (size_t)snprintf(buf + used, cap - used, "%s%s", r ? "; " : "", rs->rules[c->rules[r]].id);
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
  k->zid = zo_xcalloc(n1, sizeof *k->zid);
  k->prev_zid = zo_xcalloc(n1, sizeof *k->prev_zid);
  k->ev_head = zo_xcalloc(n1, sizeof *k->ev_head);
  k->scratch = zo_xcalloc(2 * n1, sizeof *k->scratch);
  k->pairs = zo_xcalloc(n1, sizeof *k->pairs);
  k->shown_mask = zo_xcalloc(n1, sizeof *k->shown_mask);
  k->shown_id = zo_xcalloc(n1, sizeof *k->shown_id);
  k->shown_zid = zo_xcalloc(n1, sizeof *k->shown_zid);
  k->before_n = -1;
  for (int h = 0; h < k->n; h++) k->kind[h] = k->zid[h] = k->prev_zid[h] = k->ev_head[h] = -1;
  for (int i = 0; i < c->ncards; i++) {
    const zo_card_setup *cs = &c->cards[i];
    if (cs->handle < 0 || cs->handle >= k->n) continue;
    k->kind[cs->handle] = (int)cs->kind;
    k->types[cs->handle] = cs->types;
  }
  k->mark_kind = zo_xcalloc((size_t)c->nmarknames + 1, sizeof *k->mark_kind);
  for (int i = 0; i < c->nmarknames; i++) k->mark_kind[i] = -1;
  for (int i = 0; i < c->nsteps; i++) learn_created(k, &c->steps[i]);
  k->fab_tokens = SWV(k, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY;
  k->per_object = SWV(k, SW_VISIBILITY) == ZS_PER_OBJECT;
  /* the type classes the model reads (CR 400.4a; FaB 1.3.2, 1.3.3, 3.11.2) */
  zo_type_classes_init(&k->classes, rs);
  for (int z = 0; z < rs->nzones; z++) {
    k->equip[z] = zo_type_bits_for_case(rs, c, rs->zones[z].equip_types);
    k->only[z] = zo_type_bits_for_case(rs, c, rs->zones[z].only_types);
    const zo_zone_type *zt = &rs->zones[z];
    for (int l = 0; l < zt->limits.value && l < ZO_MAX_LIMITS; l++)
      k->limit[z][l] = zo_type_bits_for_case(rs, c, zt->limit[l].types);
    cite_text(rs, &zt->limits, k->limit_rule[z], sizeof k->limit_rule[z]);
    for (int e = 0; e < zt->instead.value && e < ZO_MAX_INSTEAD; e++)
      k->inst[z][e] = zo_type_bits_for_case(rs, c, zt->inst[e].types);
    cite_text(rs, &zt->instead, k->inst_rule[z], sizeof k->inst_rule[z]);
    cite_text(rs, &zt->group, k->group_rule[z], sizeof k->group_rule[z]);
    cite_text(rs, &zt->clears, k->clears_rule[z], sizeof k->clears_rule[z]);
    k->has_clears |= zt->clears.value != 0;
    k->has_instead |= zt->instead.value > 0;
    cite_text(rs, &zt->wrong_owner, k->wrong_owner_rule[z], sizeof k->wrong_owner_rule[z]);
    cite_text(rs, &zt->follows_control, k->follows_rule[z], sizeof k->follows_rule[z]);
    k->has_zone_rules2 |= zt->wrong_owner.value == ZS_CANNOT_HOLD || zt->follows_control.value;
    for (int e = 0; e < zt->at_index.value && e < ZO_MAX_AT_INDEX; e++)
      k->at[z][e] = zo_type_bits_for_case(rs, c, zt->at[e].types);
    cite_text(rs, &zt->at_index, k->at_rule[z], sizeof k->at_rule[z]);
    k->face_up[z] = zo_type_bits_for_case(rs, c, zt->face_up_types);
    cite_text(rs, &zt->face_up_only, k->face_up_rule[z], sizeof k->face_up_rule[z]);
    cite_text(rs, &zt->seats, k->seats_rule[z], sizeof k->seats_rule[z]);
  }
  return k;
}

void zo_obs_checker_free(zo_obs_checker *k) {
  if (!k) return;
  free(k->shown_mask);
  free(k->shown_id);
  free(k->shown_zid);
  free(k->kind);
  free(k->mark_kind);
  free(k->types);
  free(k->prev);
  free(k->ztype);
  free(k->zplayer);
  free(k->ids);
  free(k->ref_set);
  free(k->ref_handle);
  free(k->ref_id);
  zo_obsx_idmap_free(&k->id_index);
  zo_obsx_idmap_free(&k->now);
  zo_obsx_idmap_free(&k->name_index);
  free(k->twin);
  free(k->known);
  free(k->names);
  free(k->zid);
  free(k->prev_zid);
  zo_obsx_zgroups_free(&k->cur);
  zo_obsx_zgroups_free(&k->before);
  free(k->ev_head);
  free(k->ev_next);
  free(k->scratch);
  free(k->pairs);
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

static int is_token(const zo_obs_checker *k, int h) {
  return zo_holds_is_token(&k->classes, k->kind[h], k->types[h]);
}

/* Whether handle h has one of a limit's type words `want`, the word
 * `token` naming every token (the model's has_kind_of). */
static int has_kind_of(const zo_obs_checker *k, int h, uint64_t want) {
  return (k->types[h] & want) || ((want & k->classes.token) && is_token(k, h));
}

#define O(x) (1u << ZO_OUTCOME_##x)
#define ANY_OUTCOME (~0u)
#define MOVED_SET (O(MOVED) | O(REDIRECTED) | O(REPLACED))

/* ---- the check -------------------------------------------------------- */

/* issue 12 (G5, G7): the players a look or reveal step still shows handle
 * h to (~0u: every player, a reveal), while it is the identity, in the
 * zone, it was shown as (CR 400.7; FaB 3.0.9). shown_mask: a bit per
 * player a look allowed, and SHOWN_ALL while a reveal lasts. */
#define SHOWN_ALL (1u << 31)
static unsigned shown_to(const zo_obs_checker *k, const zo_observation *ob, int h) {
  if (!k->shown_mask[h] || ob->objs[h].object != k->shown_id[h] || k->zid[h] != k->shown_zid[h])
    return 0;
  return k->shown_mask[h] & SHOWN_ALL ? ~0u : k->shown_mask[h];
}

/* Remember what an accepted look or reveal step (no_move) shows: its
 * object as observed now. A reveal with end: true takes the reveal back;
 * looks granted stay. */
static void learn_shown(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                        const zo_observation *ob) {
  if (!s || !r || (s->kind != ST_LOOK && s->kind != ST_REVEAL) || r->outcome != ZO_OUTCOME_NO_MOVE)
    return;
  int top = zo_reveal_top_of(s); /* top_of: (CR 401.5); a player, below 32 */
  if (top >= 0) {
    k->top_revealed = s->end ? k->top_revealed & ~(1u << top) : k->top_revealed | 1u << top;
    return;
  }
  int h = s->ref >= 0 ? (k->ref_set[s->ref] ? k->ref_handle[s->ref] : -1) : s->card;
  if (h < 0 || h >= k->n || h >= ob->nhandles || !ob->objs[h].exists) return;
  unsigned m = shown_to(k, ob, h) ? k->shown_mask[h] : 0;
  if (s->kind == ST_REVEAL) m = s->end ? m & ~SHOWN_ALL : m | SHOWN_ALL;
  else if (s->player >= 0 && s->player < 31) m |= 1u << s->player;
  k->shown_mask[h] = m;
  k->shown_id[h] = ob->objs[h].object;
  k->shown_zid[h] = k->zid[h];
}

/* limits: among sub-cards (issue 31): at most `count` of a kind under one
 * top-card (one Pokemon Tool per Pokemon), counted at the first of them:
 * sub-card h under top. */
static int under_limit(const zo_obs_checker *k, const zo_observation *ob, int h, int top,
                       zo_obs_violation *v) {
  int tt = k->ztype[top];
  const zo_zone_type *ht = tt >= 0 ? &k->rs->zones[tt] : NULL;
  for (int l = 0; ht && l < ht->limits.value && l < ZO_MAX_LIMITS; l++) {
    uint64_t want = k->limit[tt][l];
    if (ht->limit[l].among != ZL_UNDER || !has_kind_of(k, h, want)) continue;
    int n = 0, first = h;
    for (int j = 0; j < ob->nhandles; j++)
      if (ob->objs[j].exists && ob->objs[j].under == top && has_kind_of(k, j, want)) {
        n++;
        if (j < first) first = j;
      }
    if (n > ht->limit[l].count && first == h)
      return viol(v, "sub-cards", k->limit_rule[tt], k->c, h,
                  "one of %d sub-cards of a kind under %s, whose zone's limits: allow %d", n,
                  hname(k->c, top), ht->limit[l].count);
  }
  return 0;
}

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
  if (t == ZO_ZT_OUTSIDE && kind >= 0 && kind != ZK_CARD && kind != ZK_COPY)
    return viol(v, "in-a-zone", "CR 400.10, 707.13; FaB 3.0.7", c, h,
                "a %s outside the game, where only cards (and copies made there, "
                "CR 707.13) exist", kname(kind));
  if (t == -1)
    return viol(v, "in-a-zone", "CR 400.1; FaB 3.0.1", c, h, "in '%s', not a zone of rule set %s",
                o->zone, rs->id);
  /* issue 31 (seats:): a zone type only some players have */
  if (zt && zt->seats.value && zp >= 0 && !(zp < 32 && (zt->seat_bits >> zp & 1u)))
    return viol(v, "in-a-zone", k->seats_rule[t], c, h,
                "in %s, but %s's seat has no zone of type %s (seats:)", o->zone, pname(c, zp), zt->name);

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
    if (under_limit(k, ob, h, top, v)) return 1;
  }

  /* attachments: attached to an existing other permanent, both on the
     battlefield (or both phased out), in a rule set with attachments */
  if (o->attached_to >= 0) {
    int to = o->attached_to;
    if (SWV(k, SW_ATTACH) != ZS_YES)
      return viol(v, "attachments", "CR 303.4, 301.5", c, h, "attached to %s, which rule set %s can't do",
                  hname(c, to), rs->id);
    if (to >= ob->nhandles || to == h || !ob->objs[to].exists)
      return viol(v, "attachments", "CR 303.4, 400.7", c, h, "attached to %s, which does not exist",
                  hname(c, to));
    int tt = k->ztype[to];
    zo_zone_role r = zt ? zt->role : ZR_NONE, rt = tt >= 0 ? rs->zones[tt].role : ZR_NONE;
    if (r != rt || (r != ZR_BATTLEFIELD && r != ZR_PHASED_OUT) ||
        o->phased_out != ob->objs[to].phased_out)
      return viol(v, "attachments", "CR 303.4, 702.26g", c, h,
                  "in %s%s, attached to %s in %s%s: both are permanents, phased in or out together",
                  o->zone, o->phased_out ? " (phased out)" : "", hname(c, to), ob->objs[to].zone,
                  ob->objs[to].phased_out ? " (phased out)" : "");
    /* limits: among attached (issue 31): at most `count` of a kind on one
       object (one tool per creature), counted at the first of them */
    const zo_zone_type *ht = tt >= 0 ? &rs->zones[tt] : NULL;
    for (int l = 0; ht && l < ht->limits.value && l < ZO_MAX_LIMITS; l++) {
      uint64_t want = k->limit[tt][l];
      if (ht->limit[l].among != ZL_ATTACHED || !has_kind_of(k, h, want)) continue;
      int n = 0, first = h;
      for (int j = 0; j < ob->nhandles; j++)
        if (ob->objs[j].exists && ob->objs[j].attached_to == to && has_kind_of(k, j, want)) {
          n++;
          if (j < first) first = j;
        }
      if (n > ht->limit[l].count && first == h)
        return viol(v, "attachments", k->limit_rule[tt], c, h,
                    "one of %d objects of a kind attached to %s, whose zone's limits: allow %d", n,
                    hname(c, to), ht->limit[l].count);
    }
  }

  /* attachments to a player: an Aura (CR 303.4b; 301.5, 301.6: nothing
     else is attached to a player) on the battlefield or phased out,
     attached to that player alone, in a rule set with attachments */
  if (o->attached_player >= 0) {
    zo_zone_role r = zt ? zt->role : ZR_NONE;
    if (SWV(k, SW_ATTACH) != ZS_YES)
      return viol(v, "attachments", "CR 303.4b", c, h, "attached to player %s, which rule set %s can't do",
                  o->attached_player < c->nplayers ? c->players[o->attached_player] : "?", rs->id);
    if (o->attached_player >= c->nplayers || o->attached_to >= 0 || !(k->types[h] & k->classes.aura) ||
        (r != ZR_BATTLEFIELD && r != ZR_PHASED_OUT))
      return viol(v, "attachments", "CR 303.4b, 303.4d", c, h,
                  "in %s, attached to player %s%s: only an Aura on the battlefield enchants a player, "
                  "and only one thing at a time", o->zone,
                  o->attached_player < c->nplayers ? c->players[o->attached_player] : "?",
                  o->attached_to >= 0 ? " and to a permanent" : "");
  }

  /* one-zone: the same object shown on two handles (twin: the lowest
     other handle showing this identity, from zo_observation_check) */
  int j = k->twin[h];
  if (j >= 0)
    return viol(v, "one-zone", "FaB 3.0.1a; CR 400.7", c, h,
                "the same object (identity) as %s: one object in %s and %s", hname(c, j), o->zone,
                ob->objs[j].zone);

  int top_level = o->under < 0;
  /* tokens-in-arena */
  if (at_rest && is_token(k, h) && SWV(k, SW_TOKEN_LEAVES) != ZS_NONE) {
    /* only where the rule set makes tokens off the battlefield cease */
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
      t != ZO_ZT_OUTSIDE && /* made outside the game (CR 707.13): in no zone */
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
    if ((holds & ZH_NO_INSTANTS) && (k->types[h] & k->classes.instant_sorcery) && !o->face_down)
      return viol(v, "can-hold", "CR 400.4a", c, h, "an instant or sorcery in %s", o->zone);
    if (kind >= 0) {
      /* what zt holds (holds.h); equip: its words as the case's bits, the
         way the model compares them (setup.c) */
      unsigned refusal = zo_holds_refusal(&k->classes, zt, kind, k->types[h], k->equip[t], k->only[t]);
      const char *why = refusal == ZH_DECK_CARDS ? "holds only deck-cards (FaB 1.3.2c)"
                        : refusal == ZH_CARDS    ? "holds only cards"
                        : refusal == ZH_PERMANENTS ? "holds only permanents (FaB 1.3.3)"
                        : refusal == ZH_HERO     ? "holds only a hero"
                        : refusal == ZH_EQUIP    ? "holds only equipment of its kind"
                        : refusal == ZH_TYPES    ? "holds only the types of its holds_types:"
                                                 : NULL;
      if (why)
        return viol(v, "can-hold", "FaB 3.0.11; CR 400.4a", c, h, "a %s in %s, which %s", kname(kind),
                    o->zone, why);
    }
    /* can-hold, at_index: (issue 31): a kind of card only in the zones of
       the type with the indexes its entry lists (a zone shown without an
       index is the first) */
    for (int e = 0; e < zt->at_index.value && e < ZO_MAX_AT_INDEX; e++) {
      if (!(k->types[h] & k->at[t][e])) continue;
      const char *dot = strrchr(o->zone, '.');
      int idx = dot && dot[1] >= '0' && dot[1] <= '9' ? atoi(dot + 1) : 1;
      if (idx < 1 || idx > 64 || !(zt->at[e].index >> (idx - 1) & 1u))
        return viol(v, "can-hold", k->at_rule[t], c, h,
                    "in %s, a zone of type %s whose index its kind can't be at (at_index:)", o->zone,
                    zt->name);
    }
    /* can-hold, face_up_only: (issue 31): a kind of card never face down
       in a zone of this type (a token, by its kind or its type word) */
    if (zt->face_up_only.value && o->face_down &&
        ((k->types[h] & k->face_up[t]) ||
         ((k->face_up[t] & k->classes.token) && (kind == ZK_TOKEN || (k->types[h] & k->classes.token)))))
      return viol(v, "can-hold", k->face_up_rule[t], c, h,
                  "face down in %s, where its kind is never face down (face_up_only:)", o->zone);
    /* deck-hidden, but for what a look or reveal step shows (shown_to) */
    if (zt->role == ZR_LIBRARY) {
      unsigned shown = shown_to(k, ob, h);
      if (o->position == 0 && zp >= 0 && zp < 32 && (k->top_revealed >> zp & 1u))
        shown = ~0u; /* the revealed top card (CR 401.5) */
      if (o->visibility && shown != ~0u)
        return viol(v, "deck-hidden", "CR 401.2; Z.6.2; FaB 3.7.4", c, h, "public in %s", o->zone);
      for (int p = 0; p < ob->nplayers && ob->sees; p++)
        if (ob->sees[p * ob->nhandles + h] && !(shown >> p & 1u))
          return viol(v, "deck-hidden", "CR 401.2; Z.6.2; FaB 3.7.4", c, h,
                      "%s may look at it in %s", pname(c, p), o->zone);
    }
  }

  /* fresh-ids: the record of this identity, if it was seen before (ids
     holds each identity once) */
  int known = k->known[h];
  if (known >= 0) {
    const idrec *d = &k->ids[known];
    if (d->handle != h)
      return viol(v, "fresh-ids", "CR 400.7", c, h, "shows the identity %s had%s", hname(c, d->handle),
                  d->retired ? " before it became a new object or ceased" : "");
    if (d->retired)
      return viol(v, "fresh-ids", "CR 400.7", c, h,
                  "its earlier identity came back after it became a new object");
  }
  return 0;
}

/* Per zone instance: capacity and positions (stack-layers). Zones in the
 * order of their first member (k->cur, built by zo_observation_check),
 * each member list in position order. */
static int check_zones(zo_obs_checker *k, const zo_observation *ob, zo_obs_violation *v) {
  const zo_case *c = k->c;
  zgroups *zg = &k->cur;
  for (int g = 0; g < zg->ngroups; g++) {
    const zname *nm = &k->names[zg->name[g]];
    if (nm->type < 0) continue;
    const char *zone = nm->name;
    const zo_zone_type *zt = &k->rs->zones[nm->type];
    int m = zg->start[g + 1] - zg->start[g];
    if (zt->capacity.value > 0 && m > zt->capacity.value) {
      const int *buf = zo_obsx_group_sorted(k, zg, g, ob->objs);
      return viol(v, "capacity", "FaB 3.2.2, 3.3.2, 3.16.2", c, buf[m - 1],
                  "one of %d objects in %s, whose capacity is %d", m, zone, zt->capacity.value);
    }
    /* limits: among the zone (issue 31): at most `count` of its types */
    for (int l = 0; l < zt->limits.value && l < ZO_MAX_LIMITS; l++) {
      if (zt->limit[l].among != ZL_ZONE) continue;
      int n = 0, last = -1;
      for (int i = zg->start[g]; i < zg->start[g + 1]; i++)
        if (has_kind_of(k, zg->members[i], k->limit[nm->type][l])) n++, last = zg->members[i];
      if (n > zt->limit[l].count)
        return viol(v, "capacity", k->limit_rule[nm->type], c, last,
                    "one of %d objects in %s of a kind its limits: allow %d of", n, zone,
                    zt->limit[l].count);
    }
    if (!zt->ordered.value) continue;
    const int *buf = zo_obsx_group_sorted(k, zg, g, ob->objs);
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
                      "no position in %s, an ordered zone of %d objects", zone, m);
        if (p != i)
          return viol(v, "stack-layers", "CR 400.5; FaB 3.15.4", c, buf[i],
                      "position %d in %s, whose %d objects take positions 0..%d, each once", p,
                      zone, m, m - 1);
      }
    if (any_layer && zt->role == ZR_STACK && SWV(k, SW_STACK_LAYERS) == ZS_YES) {
      /* seen[l]: layer l (1..m) taken by an earlier member; a layer out of
         1..m fails at its first member, so only those are remembered */
      unsigned char *seen = zo_xcalloc((size_t)m + 2, 1);
      for (int i = 0; i < m; i++) {
        int l = ob->objs[buf[i]].layer;
        int dup = l >= 1 && l <= m && seen[l];
        /* FaB 3.15.4-6: layer 1 is the bottom; with positions (0 = top)
           the layer is N - position, without them 1..N each once */
        int want = any_pos ? m - ob->objs[buf[i]].position : l;
        if (l < 1 || l > m || dup || l != want) {
          free(seen);
          return viol(v, "stack-layers", "FaB 3.15.4-6", c, buf[i],
                      "layer %d in %s, whose %d layers are 1..%d from the bottom", l, zone, m, m);
        }
        seen[l] = 1;
      }
      free(seen);
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
      if (!zo_obsx_events_for(k, r, h, ANY_OUTCOME))
        return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                    "came into existence in %s with no event of the step for it", o->zone);
      continue;
    }
    if (!o->exists) {
      if (!zo_obsx_events_for(k, r, h, O(CEASED)))
        return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                    "ceased to exist (was in %s) with no 'ceased' event of the step", p->zone);
      continue;
    }
    int changed = p->object != o->object;
    if (changed && !zo_obsx_events_for(k, r, h, changes))
      return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                  "became a new object (%s -> %s) with no event saying it moved, was cleared or "
                  "became new", p->zone, o->zone);
    if (!changed) {
      int said = zo_obsx_events_for(k, r, h, O(NEW_OBJECT_IN_PLACE) | O(CLEARED));
      if (said)
        return viol(v, "identity-rule", "CR 400.8; FaB 3.0.12", c, h,
                    "the step says it became new (new_object_in_place or cleared), its identity "
                    "did not change");
    }
    /* how a plain move decides identity (not phasing, Z.7.2; not a
       put_under or create, which have their own events) */
    if (flags & (F_PHASE | F_PUT_UNDER | F_CREATE)) continue;
    int moved = zo_obsx_events_for(k, r, h, MOVED_SET);
    if (!moved) continue;
    /* issue 31: zone types of one group (group:) count as one zone: a plain
       move between two of its zones keeps the object (unless it turns
       private, per-object visibility) */
    int fz = k->prev_zid[h] >= 0 ? k->names[k->prev_zid[h]].type : -1, tz = k->ztype[h];
    if (fz >= 0 && tz >= 0 && k->rs->zones[tz].group.value &&
        k->rs->zones[tz].group.value == k->rs->zones[fz].group.value && p->under < 0) {
      /* judged only for a plain move (one event: nothing else made it new) */
      if (changed && moved == 1 && zo_obsx_events_for(k, r, h, ANY_OUTCOME) == 1 &&
          !(k->per_object && p->visibility && !o->visibility))
        return viol(v, "identity-rule", k->group_rule[tz], c, h,
                    "moved %s -> %s, zones of one group (%s), and became a new object; zone types "
                    "of a group count as one zone", p->zone, o->zone, k->rs->zones[tz].group_name);
      continue;
    }
    if (sw_new == ZS_EVERY_MOVE && !changed)
      return viol(v, "identity-rule", "CR 400.7", c, h,
                  "moved (%s -> %s) and stayed the same object; in rule set %s every zone change "
                  "makes a new object", p->zone, o->zone, k->rs->id);
    if (sw_new == ZS_LEAVE_ARENA && moved == 1 && zo_obsx_events_for(k, r, h, ANY_OUTCOME) == 1 &&
        strcmp(p->zone, "outside")) {
      const zo_zone_type *dz = k->ztype[h] >= 0 ? &k->rs->zones[k->ztype[h]] : NULL;
      /* a sub-card that leaves its top-card resets only by these same
         tests (3.0.14b makes a card new when it becomes a sub-card) */
      int want = !dz || (!dz->arena.value && dz->role != ZR_STACK) ||
                 (k->per_object && p->visibility && !o->visibility);
      if (want != changed)
        return viol(v, "identity-rule", "FaB 3.0.9", c, h,
                    "moved %s -> %s and %s; new_object: leave_arena makes it new only leaving "
                    "the arena and stack, or turning private",
                    p->zone, o->zone, changed ? "became a new object" : "stayed the same object");
    }
  }
  return 0;
}

/* Does an instead: entry of another zone type of rs send objects with
 * case type bits `types` from zone type f into zone type d (so an arrival
 * there from f may be its doing)? */
static int sent_by_instead(const zo_obs_checker *k, uint64_t types, int f, int d) {
  const zo_ruleset *rs = k->rs;
  for (int z = 0; z < rs->nzones; z++)
    for (int e = 0; z != d && e < rs->zones[z].instead.value && e < ZO_MAX_INSTEAD; e++) {
      const zo_zone_instead *in = &rs->zones[z].inst[e];
      if (in->to == d + 1 && (!in->types || (types & k->inst[z][e])) &&
          (!in->from || (f >= 0 && (in->from >> f & 1u))))
        return 1;
    }
  return 0;
}

/* Does step s, or a step nested in it, put a mark on something? */
static int marks_in(const zo_step *s) {
  if (!s) return 0;
  if (s->kind == ST_MARK || marks_in(s->then)) return 1;
  for (int i = 0; i < s->nmoves; i++)
    if (marks_in(&s->moves[i])) return 1;
  for (int i = 0; i < s->ncosts; i++)
    if (marks_in(&s->costs[i])) return 1;
  return 0;
}

/* clears (issue 31): an object that moved into another zone and stayed the
 * same object carries no mark of a kind its new zone type clears (a
 * Pokemon gone to the Bench has no Special Condition). Not after a step
 * that marks something itself (its then: may mark the object there). */
static int check_clears(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                        const zo_observation *ob, zo_obs_violation *v) {
  if (marks_in(s)) return 0;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (!p->exists || !o->exists || p->object != o->object || k->zid[h] < 0 ||
        k->prev_zid[h] == k->zid[h] || !zo_obsx_events_for(k, r, h, MOVED_SET))
      continue;
    int d = k->names[k->zid[h]].type;
    if (d < 0 || !k->rs->zones[d].clears.value) continue;
    for (int i = 0; i < o->nmarks; i++) {
      int m = o->marks[i], kind = m >= 0 && m < k->c->nmarknames ? k->mark_kind[m] : -1;
      if (kind >= 0 && (k->rs->zones[d].clears.value >> kind & 1))
        return viol(v, "clears", k->clears_rule[d], k->c, h,
                    "moved %s -> %s as the same object and still carries %s mark %s, which %s "
                    "clears", p->zone, o->zone, zo_mark_kind_names[kind], k->c->marknames[m],
                    k->rs->zones[d].name);
    }
  }
  return 0;
}

/* instead (issue 31): no object arrives, by a move, in a zone type whose
 * instead: entry sends objects of its kind from where it came to another
 * zone type (the rule set's own replacement, applied after every effect's),
 * unless another entry sent it there; an entry that sets the face (to the
 * same zone type) is checked on the face it arrived with. */
static int check_instead(zo_obs_checker *k, const zo_step_result *r, const zo_observation *ob,
                         zo_obs_violation *v) {
  const zo_ruleset *rs = k->rs;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (!p->exists || !o->exists || k->prev_zid[h] < 0 || k->zid[h] < 0) continue;
    int f = k->names[k->prev_zid[h]].type, d = k->names[k->zid[h]].type;
    if (d < 0 || (p->object == o->object && f == d) || !zo_obsx_events_for(k, r, h, MOVED_SET)) continue;
    if (o->under >= 0) continue;
    const zo_zone_type *dz = &rs->zones[d];
    for (int e = 0; e < dz->instead.value && e < ZO_MAX_INSTEAD; e++) {
      const zo_zone_instead *in = &dz->inst[e];
      if (in->types && !(k->types[h] & k->inst[d][e])) continue;
      if (in->from && (f < 0 || !(in->from >> f & 1u))) continue;
      if (in->to && in->to != d + 1) {
        /* another entry sent it here; or, where zones come and go (FaB
           3.0.10), the zone it names may be gone, and the entry void */
        if (sent_by_instead(k, k->types[h], f, d) || SWV(k, SW_ZONE_LIFECYCLE) == ZS_YES) break;
        return viol(v, "instead", k->inst_rule[d], k->c, h,
                    "moved %s -> %s, where the rule set's instead: sends it to its owner's %s",
                    p->zone, o->zone, rs->zones[in->to - 1].name);
      }
      /* the face it arrived with (not one a then: step turned it to) */
      if (in->face >= 0 && o->face_down != in->face && zo_obsx_events_for(k, r, h, ANY_OUTCOME) == 1)
        return viol(v, "instead", k->inst_rule[d], k->c, h,
                    "arrived in %s face %s; the rule set's instead: puts it there face %s", o->zone,
                    o->face_down ? "down" : "up", in->face ? "down" : "up");
      break; /* the first entry that matches decides */
    }
  }
  return 0;
}

/* issue 31, the zone types' wrong_owner: and follows_control:
 * wrong-owner: no object is redirected into a zone whose type refuses
 * another player's objects rather than redirect them (wrong_owner:
 * cannot_hold: nothing was redirected there, as the redirect is the only
 * move that lands there with outcome redirected).
 * follows-control: an object whose controller the step changed, in a
 * zone whose type follows control or in the zone type it follows to, is
 * in a zone of its (new) controller's. */
static int check_zone_rules2(zo_obs_checker *k, const zo_step_result *r, const zo_observation *ob,
                             zo_obs_violation *v) {
  const zo_ruleset *rs = k->rs;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (!p->exists || !o->exists || k->zid[h] < 0 || o->under >= 0) continue;
    int d = k->names[k->zid[h]].type;
    if (d < 0) continue;
    const zo_zone_type *dz = &rs->zones[d];
    if (dz->wrong_owner.value == ZS_CANNOT_HOLD && dz->owner_only.value &&
        zo_obsx_events_for(k, r, h, O(REDIRECTED)))
      return viol(v, "wrong-owner", k->wrong_owner_rule[d], k->c, h,
                  "redirected into %s, though a zone of type %s refuses another player's "
                  "objects (wrong_owner: cannot_hold)", o->zone, dz->name);
    int f = k->prev_zid[h] >= 0 ? k->names[k->prev_zid[h]].type : -1;
    if (f < 0 || !rs->zones[f].follows_control.value || p->controller < 0 || o->controller < 0 ||
        p->controller == o->controller)
      continue;
    int to = rs->zones[f].follows_control.value - 1;
    if ((d == f || d == to) && k->zplayer[h] >= 0 && k->zplayer[h] != o->controller)
      return viol(v, "follows-control", k->follows_rule[f], k->c, h,
                  "now controlled by %s but in %s: a zone of type %s follows its controller "
                  "(follows_control: %s)", pname(k->c, o->controller), o->zone,
                  rs->zones[f].name, rs->zones[to].name);
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

/* Does the step have an event for handle h? */
static int touched(const zo_obs_checker *k, const zo_step_result *r, int h) {
  return zo_obsx_events_for(k, r, h, ANY_OUTCOME) > 0;
}

/* An ordered zone of prev (a group of k->before) and its first member
 * with a position, the order in which check_order takes the zones. */
typedef struct { int first, group; } order_zone;

/* qsort order of order_zone: by first member. */
static int by_first(const void *a, const void *b) {
  const order_zone *x = a, *y = b;
  return (x->first > y->first) - (x->first < y->first);
}

/* order-kept: in an ordered zone, objects without an event keep their
 * relative order (CR 400.5; Z.3.4; 217.2b). Each ordered zone of prev with
 * a positioned member is taken once, in the order of that first member:
 * its untouched members in prev's order that are still there, against the
 * zone's untouched members now that were there before. Linear in objects
 * (but for sorting members that are out of position order). */
static int check_order(zo_obs_checker *k, const zo_step_result *r, const zo_observation *ob,
                       zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  int *a = k->scratch, *b = k->scratch + n + 1;
  zgroups *bg = &k->before, *cg = &k->cur;
  if (k->before_n != n) { /* else: the last sound check's groups, prev's */
    zo_obsx_zgroups_build(bg, k->prev, k->prev_zid, n, k->nnames);
    k->before_n = n;
  }
  order_zone *oz = zo_xcalloc((size_t)bg->ngroups + 1, sizeof *oz);
  int noz = 0;
  for (int g = 0; g < bg->ngroups; g++) {
    int t = k->names[bg->name[g]].type; /* the zone it was in */
    if (t < 0 || !k->rs->zones[t].ordered.value) continue;
    int first = -1;
    for (int i = bg->start[g]; i < bg->start[g + 1]; i++) {
      int h = bg->members[i];
      if (k->prev[h].position >= 0 && (first < 0 || h < first)) first = h;
    }
    if (first >= 0) oz[noz++] = (order_zone){first, g};
  }
  qsort(oz, (size_t)noz, sizeof *oz, by_first);
  int bad = 0;
  for (int z = 0; z < noz && !bad; z++) {
    int g = oz[z].group, nm = bg->name[g];
    const char *zone = k->names[nm].name;
    int na = 0, nb = 0;
    const int *pm = zo_obsx_group_sorted(k, bg, g, k->prev);
    for (int i = bg->start[g]; i < bg->start[g + 1]; i++) { /* before, untouched and still there */
      int h = pm[i - bg->start[g]];
      if (!touched(k, r, h) && k->zid[h] == nm && ob->objs[h].under < 0 &&
          ob->objs[h].position >= 0)
        a[na++] = h;
    }
    int cgi = zo_obsx_zgroups_of(cg, nm);
    if (cgi >= 0) {
      const int *cm = zo_obsx_group_sorted(k, cg, cgi, ob->objs);
      for (int i = 0; i < cg->start[cgi + 1] - cg->start[cgi]; i++) { /* now, untouched and there before */
        int h = cm[i];
        if (!touched(k, r, h) && k->prev_zid[h] == nm && k->prev[h].under < 0 &&
            ob->objs[h].position >= 0)
          b[nb++] = h;
      }
    }
    for (int i = 0; i < na && i < nb && !bad; i++)
      if (a[i] != b[i])
        bad = viol(v, "order-kept", "CR 400.5; Z.3.4; 217.2b", c, a[i],
                   "now below %s in %s, though the step moved neither of them", hname(c, b[i]),
                   zone);
  }
  free(oz);
  return bad;
}

int zo_observation_check(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                         const zo_observation *ob, zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  unsigned flags = tree_flags(s);
  int at_rest = k->fab_tokens || (s && s->kind == ST_STATE_CHECK);
  int ended = k->ended || (flags & F_END_GAME);
  int bad = 0, ncards = 0, vanished = -1;
  /* each object's zone: its name once in names[], parsed once */
  for (int h = 0; h < k->n; h++) {
    if (h >= n || !ob->objs[h].exists) {
      k->zid[h] = k->ztype[h] = -1;
      continue;
    }
    int nm = zo_obsx_zone_name_id(k, ob->objs[h].zone, k->prev_zid[h]);
    k->zid[h] = nm;
    k->ztype[h] = k->names[nm].type;
    k->zplayer[h] = k->names[nm].player;
  }
  /* one look-up per identity shown: known[j], its ids[] record (fresh-ids),
     and twin[j], the lowest other handle showing it (one-zone). An identity
     seen before is marked in id_index with this observation's number and
     its first handle; a new one goes into the map `now`. */
  if (ob->nhandles > k->capnow) {
    k->capnow = ob->nhandles;
    k->twin = zo_xrealloc(k->twin, (size_t)k->capnow * sizeof *k->twin);
    k->known = zo_xrealloc(k->known, (size_t)k->capnow * sizeof *k->known);
  }
  if (++k->nobs == 0) { /* the marks wrapped: clear them */
    for (size_t i = 0; i < k->id_index.cap; i++) k->id_index.slot[i].mark = 0;
    k->nobs = 1;
  }
  zo_obsx_idmap_reset(&k->now, 0);
  for (int j = 0; j < ob->nhandles; j++) {
    k->twin[j] = k->known[j] = -1;
    if (!ob->objs[j].exists) continue;
    idslot *e = zo_obsx_idmap_find(&k->id_index, ob->objs[j].object);
    if (e) {
      k->known[j] = e->val;
    } else if (!(e = zo_obsx_idmap_find(&k->now, ob->objs[j].object))) {
      e = zo_obsx_idmap_put(&k->now, ob->objs[j].object, j);
    }
    if (e->mark != k->nobs) { /* the first handle showing it */
      e->mark = k->nobs;
      e->mval = j;
      continue;
    }
    int f = e->mval;
    k->twin[j] = f; /* the first handle showing it is the lowest */
    if (k->twin[f] < 0) k->twin[f] = j;
  }
  zo_obsx_events_index(k, s ? r : NULL);
  learn_shown(k, s, r, ob);
  for (int h = 0; h < n && !bad; h++) {
    /* a card that is a token (FaB 8.1.8a) may cease: not counted */
    int card = k->kind[h] == ZK_CARD && !is_token(k, h);
    if (!ob->objs[h].exists) {
      if (card && k->prev[h].exists) vanished = h;
      continue;
    }
    if (card) ncards++;
    bad = check_object(k, ob, h, at_rest, ended, v);
  }
  /* cards-conserved: no zone rule creates or destroys a card; a player
     leaving the game takes their cards out of it (CR 800.4a) */
  if (!bad && s && k->started && s->kind == ST_LEAVE_GAME)
    for (int h = 0; h < n; h++)
      if (!ob->objs[h].exists && k->kind[h] == ZK_CARD && !is_token(k, h) && k->prev[h].exists) k->ncards--;
  if (!bad && k->started && ncards != k->ncards)
    bad = viol(v, "cards-conserved", "CR 400.1; FaB 3.0.7", c, vanished,
               "%d cards in the game and outside it, %d at the setup%s", ncards, k->ncards,
               vanished >= 0 ? " (this card ceased to exist)" : "");
  if (!bad) {
    zo_obsx_zgroups_build(&k->cur, ob->objs, k->zid, n, k->nnames);
    bad = check_zones(k, ob, v);
  }
  if (!bad && s && k->started) bad = check_identity(k, s, r, ob, v);
  if (!bad && s && k->started && k->has_instead) bad = check_instead(k, r, ob, v);
  if (!bad && s && k->started && k->has_clears) bad = check_clears(k, s, r, ob, v);
  if (!bad && s && k->started && k->has_zone_rules2) bad = check_zone_rules2(k, r, ob, v);
  if (!bad) bad = check_refs(k, s, ob, v);
  if (!bad && s && k->started && !(flags & F_REORDERS) &&
      !(k->repl_shuffles && (flags & F_MOVES)))
    bad = check_order(k, r, ob, v);
  zo_obsx_events_unindex(k);
  if (bad) return 1;

  /* sound: remember it */
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (k->started && p->exists && (!o->exists || p->object != o->object)) {
      int i = zo_obsx_idmap_get(&k->id_index, p->object); /* CR 400.7: that identity is gone */
      if (i >= 0 && k->ids[i].handle == h) k->ids[i].retired = 1;
    }
    if (!o->exists) continue;
    if (k->known[h] >= 0) continue; /* seen before this observation */
    if (k->nids == k->capids) {
      k->capids = k->capids ? 2 * k->capids : 64;
      k->ids = zo_xrealloc(k->ids, (size_t)k->capids * sizeof *k->ids);
    }
    zo_obsx_idmap_put(&k->id_index, o->object, k->nids);
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
  int *t = k->prev_zid; /* prev's zone names are this observation's */
  k->prev_zid = k->zid;
  k->zid = t;
  zgroups g = k->before; /* and so are its zones (built above) */
  k->before = k->cur;
  k->cur = g;
  k->before_n = n;
  if (!k->started) k->ncards = ncards;
  k->started = 1;
  k->ended = ended;
  return 0;
}

/* table.c: the transition table of a rule set (table.h), computed by the
 * model: one small game per cell.
 *
 * The objects (rows) come from the case language's kinds (case.h,
 * ZO_OBJECT_KINDS) and what the rule set gives them: a plain card, and a
 * card of each type class a zone rule reads (an instant where a zone holds
 * no instants, CR 400.4a; a hero, each equipment word and a two-handed
 * one where zones equip them, FaB 3.11, 3.16; each word a zone keeps, CR
 * 400.4b), a token (and a token card, FaB 1.3.2), copies, an ability, a
 * macro and an attack-proxy where the rule set has them, a face-down
 * card, a phased-out permanent and token (switch phasing), a sub-card and
 * a top-card with one (switch sub_cards). The origins are every zone type
 * and outside the game; the destinations every zone type (the owner's and
 * the other player's of a per-player type), each ordered one at the top,
 * second (#1), at the bottom and past its end (#9), outside the game and,
 * in FaB, "arena".
 *
 * A cell's game: players owner and other; the object, owned by owner (and
 * controlled by other where its zone has controllers), starts in the
 * origin, or, when the set-up refuses it there and it has a home (a token
 * on the battlefield, a copy or an ability on the stack), starts at home
 * and is moved to the origin first, or, a copy outside the game where
 * the rule set has CR 707.13, is created there; two cards lie in every
 * ordered zone;
 * the object gets one mark of each kind (counter, effect, characteristic,
 * prevention, sticker, permission, spell_info); then an effect moves it to
 * the destination, and a state check follows. What the model shows after the move is the cell, and
 * what the state check did is its "state_check".
 *
 * The rule of a cell is what the model applied: the game runs on a copy
 * of the rule set in which each citation (each switch and zone attribute)
 * is a rule of its own, so the model's rule hits (zo_game_hits) say which
 * switches and zone limits decided the move; the cell lists their
 * citations in the real rule set. Zone visibility, order and the like,
 * which every move reads, are left out, except the order of the
 * destination for a position in it.
 *
 * JSON shape: {ruleset, title, players, legend, cells, rows, objects:
 * [{object, kind, types, status, same_as?, unreachable: [{from, why}],
 * origins: [{from: [...], via?, rows: [{to: [...], outcome, error?,
 * state_check?, new_object?, ends_in, position?, sees, controller, keeps,
 * rules, by, by_rule?}]}]}]}. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model.h"
#include "table.h"
#include "table_int.h"
#include "types.h"
#include "util.h"

#define MAX_DESTS (6 * 2 * ZO_MAX_ZONE_TYPES + 8) /* issue 31: face down, by index, control */
/* A destination's type: -1 outside the game, -2 the arena, DEST_CONTROL
 * a control step giving the object to the other player (follows_control,
 * issue 31), else a zone type. */
#define DEST_CONTROL (-3)
enum { OWNER = 0, OTHER = 1 };
static const char *const players[2] = {"owner", "other"};

/* One kind of object: a row of the table. */
typedef struct {
  char label[200];
  const char *kind;  /* the case's kind word */
  char types[160];   /* its type words, ", "-separated, or "" */
  int face_down, phased, sub, has_sub;
  int home;          /* zone type it starts in when its origin refuses it, -1 */
} tobj;

/* What a table is built from. */
typedef struct {
  const zo_ruleset *rs;
  zo_ruleset *probe;     /* rs with one rule per citation (the slots) */
  int nslots;
  json_t **slot_rules;   /* [nslots]: the citation's rules in rs (array) */
  char **slot_name;      /* [nslots]: "new_object", "exile.same_zone_new" */
  unsigned char *decisive, *ordered_slot; /* [nslots] */
  zo_type_classes cls;
  tobj *objs; int nobjs, capobjs; /* grown as rows are added: no limit */
  tzone from[ZO_MAX_ZONE_TYPES + 1]; int nfrom;
  tzone to[MAX_DESTS]; int nto;
  char filler[96];       /* the types of the cards that fill ordered zones */
} builder;

/* ---- a growing string ------------------------------------------------ */

typedef struct { char *s; size_t n, cap; } sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sb_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (b->n + (size_t)n + 1 > b->cap) {
    b->cap = (b->n + (size_t)n + 1) * 2;
    b->s = zo_xrealloc(b->s, b->cap);
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->n += (size_t)n;
}

/* ---- the probe: one rule per citation --------------------------------- */

/* Name and citations of one cited value into slot c->slot. */
static void slot_set(builder *b, const zo_cited *c, const char *name, int decisive) {
  if (c->slot < 0 || c->slot >= b->nslots) return;
  b->slot_name[c->slot] = zo_xstrdup(name);
  json_t *a = json_array();
  for (int k = 0; k < c->nrules; k++) json_array_append_new(a, json_string(b->rs->rules[c->rules[k]].id));
  b->slot_rules[c->slot] = a;
  b->decisive[c->slot] = (unsigned char)decisive;
}

/* Zone attributes that decide a move (the others, visibility, order,
 * controllers..., every move reads). */
static int attr_decides(zo_zone_attr a) {
  return a == ZA_CAPACITY || a == ZA_OWNER_ONLY || a == ZA_HOLDS || a == ZA_EQUIP ||
         a == ZA_HOLDS_TYPES || a == ZA_LIMITS || a == ZA_DISPLACE || a == ZA_INSTEAD ||
         a == ZA_GROUP || a == ZA_CLEARS || a == ZA_WRONG_OWNER || a == ZA_FOLLOWS_CONTROL ||
         a == ZA_AT_INDEX || a == ZA_FACE_UP_ONLY || a == ZA_SEATS ||
         a == ZA_SAME_ZONE_NEW || a == ZA_KEEPS || a == ZA_FACE_DOWN_NEW;
}

/* b->probe: a shallow copy of rs whose rules are its citations, one each,
 * so that the model's per-rule hits are per citation. */
static void probe_make(builder *b) {
  const zo_ruleset *rs = b->rs;
  b->nslots = rs->nslots;
  b->slot_rules = zo_xcalloc((size_t)b->nslots + 1, sizeof *b->slot_rules);
  b->slot_name = zo_xcalloc((size_t)b->nslots + 1, sizeof *b->slot_name);
  b->decisive = zo_xcalloc((size_t)b->nslots + 1, 1);
  b->ordered_slot = zo_xcalloc((size_t)b->nslots + 1, 1);
  zo_ruleset *p = zo_ruleset_clone_shallow(rs);
  char name[96];
  for (int z = 0; z < p->nzones; z++)
    for (int a = 0; a < ZA_COUNT; a++) {
      zo_cited *c = zo_zone_cited(&p->zones[z], (zo_zone_attr)a);
      snprintf(name, sizeof name, "%s.%s", p->zones[z].name, zo_zone_attr_keys[a]);
      slot_set(b, c, name, attr_decides((zo_zone_attr)a));
      if (a == ZA_ORDERED && c->slot >= 0 && c->slot < b->nslots) b->ordered_slot[c->slot] = 1;
      c->rules[0] = c->slot;
      c->nrules = 1;
    }
  for (int s = 0; s < SW_COUNT; s++) {
    slot_set(b, &p->sw[s], zo_switch_names[s], 1);
    p->sw[s].rules[0] = p->sw[s].slot;
    p->sw[s].nrules = 1;
  }
  zo_rule *rules = zo_xcalloc((size_t)b->nslots + 1, sizeof *rules);
  for (int i = 0; i < b->nslots; i++) {
    rules[i].id = b->slot_name[i] ? b->slot_name[i] : (char *)"?";
    rules[i].text = (char *)"";
  }
  p->rules = rules;
  p->nrules = b->nslots;
  b->probe = p;
}

static void probe_free(builder *b) {
  for (int i = 0; i < b->nslots; i++) {
    json_decref(b->slot_rules[i]);
    free(b->slot_name[i]);
  }
  free(b->slot_rules);
  free(b->slot_name);
  free(b->decisive);
  free(b->ordered_slot);
  free(b->objs);
  if (b->probe) free(b->probe->rules);
  free(b->probe);
}

/* ---- objects, origins, destinations ---------------------------------- */

static tobj *obj_add(builder *b, const char *label, const char *kind, const char *types) {
  char l[sizeof b->objs->label], t[sizeof b->objs->types]; /* they may point into objs */
  snprintf(l, sizeof l, "%s", label);
  snprintf(t, sizeof t, "%s", types);
  label = l;
  types = t;
  if (b->nobjs == b->capobjs) {
    b->capobjs = b->capobjs ? 2 * b->capobjs : 32;
    b->objs = zo_xrealloc(b->objs, (size_t)b->capobjs * sizeof *b->objs);
  }
  tobj *o = &b->objs[b->nobjs++];
  memset(o, 0, sizeof *o);
  snprintf(o->label, sizeof o->label, "%s", label);
  o->kind = kind;
  snprintf(o->types, sizeof o->types, "%s", types);
  o->home = -1;
  return o;
}

/* The word of type bit i of rule set rs (vocabulary or its own), or NULL. */
static const char *type_word(const zo_ruleset *rs, int i) {
  if (i < ZO_NVOCAB) return zo_type_word(i);
  return i - ZO_NVOCAB < rs->nxtypes ? rs->xtypes[i - ZO_NVOCAB] : NULL;
}

/* The first zone type of role `role`, or -1. */
static int zone_of_role(const zo_ruleset *rs, zo_zone_role role) {
  for (int z = 0; z < rs->nzones; z++)
    if (rs->zones[z].role == role) return z;
  return -1;
}

/* A card of every type word in `bits` (a zone's equip: or keeps:), once
 * each: "WORD card". */
static void word_cards(builder *b, uint64_t bits, uint64_t *seen) {
  char label[200];
  for (int i = 0; i < 64; i++) {
    uint64_t bit = (uint64_t)1 << i;
    const char *w = type_word(b->rs, i);
    if (!(bits & bit) || (*seen & bit) || !w) continue;
    *seen |= bit;
    snprintf(label, sizeof label, "%s card", w);
    obj_add(b, label, "card", w);
  }
}

/* The card rows: a plain card, then a card of each type class the rule
 * set's zones read. */
static void card_rows(builder *b) {
  const zo_ruleset *rs = b->rs;
  int fab = b->cls.deck_card != 0;
  snprintf(b->filler, sizeof b->filler, "%s", fab ? "action" : "creature");
  obj_add(b, fab ? "deck-card (action)" : "card (creature)", "card", b->filler);
  if (fab) obj_add(b, "permanent deck-card (action, aura)", "card", "action, aura");
  unsigned holds = 0;
  for (int z = 0; z < rs->nzones; z++) holds |= (unsigned)rs->zones[z].holds.value;
  if (holds & ZH_NO_INSTANTS) obj_add(b, "instant card", "card", "instant");
  if (holds & ZH_HERO) obj_add(b, "hero card", "card", "hero");
  uint64_t seen = 0;
  for (int z = 0; z < rs->nzones; z++)
    if (rs->zones[z].holds.value & ZH_EQUIP) word_cards(b, rs->zones[z].equip_types, &seen);
  for (int z = 0; z < rs->nzones; z++) {
    const zo_zone_type *zt = &rs->zones[z];
    if (!(zt->holds.value & ZH_EQUIP) || zt->count.value < 2 || !zt->equip_types) continue;
    int pick = -1; /* the word naming the zone ("weapon"), else its first */
    for (int i = 0; i < 64; i++)
      if (((zt->equip_types >> i) & 1) && type_word(rs, i) &&
          (pick < 0 || !strcmp(type_word(rs, i), zt->name)))
        pick = i;
    const char *w = pick < 0 ? NULL : type_word(rs, pick);
    if (!w) continue;
    char label[200], types[160];
    snprintf(label, sizeof label, "two-handed %s card", w);
    snprintf(types, sizeof types, "%s, 2h", w);
    obj_add(b, label, "card", types);
  }
  for (int z = 0; z < rs->nzones; z++)
    if (rs->zones[z].keeps.value) word_cards(b, rs->zones[z].keep_types, &seen);
  for (int z = 0; z < rs->nzones; z++)
    if (rs->zones[z].holds.value & (int)ZH_TYPES) word_cards(b, rs->zones[z].only_types, &seen);
  for (int z = 0; z < rs->nzones; z++) /* limits: (issue 31) */
    for (int l = 0; l < rs->zones[z].limits.value && l < ZO_MAX_LIMITS; l++)
      word_cards(b, rs->zones[z].limit[l].types, &seen);
  for (int z = 0; z < rs->nzones; z++) /* instead: (issue 31) */
    for (int e = 0; e < rs->zones[z].instead.value && e < ZO_MAX_INSTEAD; e++)
      word_cards(b, rs->zones[z].inst[e].types, &seen);
  for (int z = 0; z < rs->nzones; z++) /* at_index: (issue 31) */
    for (int e = 0; e < rs->zones[z].at_index.value && e < ZO_MAX_AT_INDEX; e++)
      word_cards(b, rs->zones[z].at[e].types, &seen);
}

/* Every row: the cards, then the other kinds and the statuses. */
static void object_rows(builder *b) {
  const zo_ruleset *rs = b->rs;
  int fab = b->cls.deck_card != 0;
  int bf = zone_of_role(rs, ZR_BATTLEFIELD), stack = zone_of_role(rs, ZR_STACK);
  card_rows(b);
  int ncards = b->nobjs;
  tobj *o = obj_add(b, "token", "token", "");
  if (o) o->home = bf;
  if (fab) obj_add(b, "token card", "card", "token");
  char label[200];
  for (int i = 0; i < 2 && i < ncards; i++) { /* copies of the first two cards */
    snprintf(label, sizeof label, "copy of a spell (%s)", b->objs[i].types);
    if ((o = obj_add(b, label, "copy", b->objs[i].types))) o->home = stack;
  }
  if ((o = obj_add(b, "ability", "ability", ""))) o->home = stack;
  if (rs->sw[SW_MACROS].value != ZS_NONE && (o = obj_add(b, "macro", "macro", ""))) o->home = bf;
  for (int z = 0; z < rs->nzones; z++)
    if ((rs->zones[z].holds.value & ZH_PROXIES) && (o = obj_add(b, "attack-proxy", "attack-proxy", ""))) {
      o->home = z;
      break;
    }
  if ((o = obj_add(b, fab ? "private card (face down)" : "face-down card", "card", b->filler)))
    o->face_down = 1;
  if (rs->sw[SW_PHASING].value != ZS_NONE) {
    if ((o = obj_add(b, "phased-out permanent", "card", b->filler))) o->phased = 1;
    if ((o = obj_add(b, "phased-out token", "token", ""))) o->phased = 1;
  }
  if (rs->sw[SW_SUB_CARDS].value == ZS_YES) {
    if ((o = obj_add(b, "sub-card", "card", b->filler))) o->sub = 1;
    if ((o = obj_add(b, "top-card with a sub-card", "card", b->filler))) o->has_sub = 1;
  }
}

/* Whether player p (0 owner, 1 other; -1 shared) has zones of type zt
 * (seats:, issue 31: the owner sits first, the other second). */
static int seated(const zo_zone_type *zt, int p) {
  return p < 0 || !zt->seats.value || (zt->seat_bits >> p & 1u);
}

/* A zone's name as a case writes it for player p (-1 shared). */
static void zone_written(const zo_zone_type *zt, int p, char *buf, size_t cap) {
  if (!zt->per_player.value || p < 0) snprintf(buf, cap, "%s", zt->name);
  else if (zt->count.value > 1) snprintf(buf, cap, "%s.%s.1", players[p], zt->name);
  else snprintf(buf, cap, "%s.%s", players[p], zt->name);
}

static void dest_add(builder *b, int type, int p, const char *zone, int pos) {
  if (b->nto == MAX_DESTS) return;
  tzone *d = &b->to[b->nto++];
  d->face_down = 0;
  d->type = type;
  d->player = p;
  d->position = pos;
  snprintf(d->zone, sizeof d->zone, "%s", zone);
  if (pos == ZO_POS_TOP && type >= 0 && b->rs->zones[type].ordered.value)
    snprintf(d->name, sizeof d->name, "%s top", zone);
  else if (pos == ZO_POS_BOTTOM) snprintf(d->name, sizeof d->name, "%s bottom", zone);
  else if (pos >= 0) snprintf(d->name, sizeof d->name, "%s #%d", zone, pos);
  else snprintf(d->name, sizeof d->name, "%s", zone);
}

/* Origins: every zone type (the owner's), outside the game. Destinations:
 * every zone type (the owner's and the other's), each position of an
 * ordered one, outside the game, and the arena where it names a zone. */
static void zone_lists(builder *b) {
  const zo_ruleset *rs = b->rs;
  char w[48];
  for (int z = 0; z < rs->nzones; z++) {
    const zo_zone_type *zt = &rs->zones[z];
    tzone *f = &b->from[b->nfrom++];
    memset(f, 0, sizeof *f);
    f->type = z;
    f->player = zt->per_player.value ? OWNER : -1;
    zone_written(zt, f->player, f->zone, sizeof f->zone);
    memcpy(f->name, f->zone, sizeof f->zone);
    for (int p = 0; p < (zt->per_player.value ? 2 : 1); p++) {
      int pl = zt->per_player.value ? p : -1;
      if (!zt->per_player.value || zt->count.value < 2) zone_written(zt, pl, w, sizeof w);
      else snprintf(w, sizeof w, "%s.%s", players[p], zt->name); /* the owner picks one */
      dest_add(b, z, pl, w, ZO_POS_TOP);
      /* issue 31: face down too, where a kind of card is never face down
         there (face_up_only:) */
      if (zt->face_up_only.value && b->nto < MAX_DESTS) {
        char wf[64];
        snprintf(wf, sizeof wf, "%s face down", w);
        dest_add(b, z, pl, w, ZO_POS_TOP);
        b->to[b->nto - 1].face_down = 1;
        snprintf(b->to[b->nto - 1].name, sizeof b->to[b->nto - 1].name, "%s", wf);
      }
      /* issue 31: the first zone of the type, by index, that an at_index:
         entry leaves out, where the owner's choice above would not go */
      if (zt->per_player.value && zt->count.value > 1 && zt->at_index.value) {
        uint64_t all = ~(uint64_t)0;
        for (int e = 0; e < zt->at_index.value && e < ZO_MAX_AT_INDEX; e++) all &= zt->at[e].index;
        for (int i = 1; i <= zt->count.value; i++)
          if (!(all >> (i - 1) & 1u)) {
            char wi[48];
            snprintf(wi, sizeof wi, "%s.%s.%d", players[p], zt->name, i);
            dest_add(b, z, pl, wi, ZO_POS_TOP);
            break;
          }
      }
      if (!zt->ordered.value) continue;
      dest_add(b, z, pl, w, 1);
      dest_add(b, z, pl, w, ZO_POS_BOTTOM);
      dest_add(b, z, pl, w, 9);
    }
  }
  tzone *f = &b->from[b->nfrom++];
  memset(f, 0, sizeof *f);
  f->type = -1;
  f->player = -1;
  snprintf(f->zone, sizeof f->zone, "outside");
  snprintf(f->name, sizeof f->name, "outside");
  dest_add(b, -1, -1, "outside", ZO_POS_TOP);
  if (rs->sw[SW_ARENA_DEFAULT].value != ZS_NONE) dest_add(b, -2, -1, "arena", ZO_POS_TOP);
  /* issue 31: where a zone type follows control, a control step giving
     the object to the other player is a destination too */
  int follows = 0;
  for (int z = 0; z < rs->nzones; z++) follows |= rs->zones[z].follows_control.value != 0;
  if (follows) dest_add(b, DEST_CONTROL, OTHER, "control by other", ZO_POS_TOP);
}

/* ---- one cell: a small game ------------------------------------------- */

/* The ways an object gets to its origin: set up there, moved there from
 * its home, or made there by a create step (a copy outside the game, CR
 * 707.13, which no set-up and no move can place). */
enum { VIA_SETUP, VIA_HOME, VIA_CREATE, VIA_COUNT };

/* Does zone type zt have a limit among the zone (not among attached
 * objects or sub-cards, which a move into it does not fill)? */
static int limited_zone(const zo_zone_type *zt) {
  for (int l = 0; l < zt->limits.value && l < ZO_MAX_LIMITS; l++)
    if (zt->limit[l].among == ZL_ZONE) return 1;
  return 0;
}

/* Cards that fill each zone that displaces (displace:, issue 31) or has
 * limits among the zone, other than the origin's type and the start's
 * (where x must fit): as many as its capacity of the filler's type, or as
 * many as each limit allows of the limit's first type word, the owner's
 * and the other's zone of a per-player type; so that a move into it shows
 * what a full zone does (refused, capacity; or displaced). */
static void full_zones(const builder *b, int origin, int start, sbuf *s) {
  const zo_ruleset *rs = b->rs;
  int nf = 0;
  char w[48];
  for (int z = 0; z < rs->nzones; z++) {
    const zo_zone_type *zt = &rs->zones[z];
    if (z == origin || z == start || (!zt->displace.value && !limited_zone(zt))) continue;
    for (int p = 0; p < (zt->per_player.value ? 2 : 1); p++) {
      if (!seated(zt, zt->per_player.value ? p : -1)) continue;
      zone_written(zt, zt->per_player.value ? p : -1, w, sizeof w);
      for (int k = 0; k < zt->capacity.value; k++)
        sb_printf(s, "  z%d: {owner: %s, zone: %s, types: [%s]}\n", nf++, players[p], w, b->filler);
      for (int l = 0; zt->capacity.value == 0 && l < zt->limits.value && l < ZO_MAX_LIMITS; l++) {
        const char *word = NULL;
        for (int i = 0; i < 64 && !word; i++)
          if (zt->limit[l].types >> i & 1) word = type_word(rs, i);
        for (int k = 0; word && zt->limit[l].among == ZL_ZONE && k < zt->limit[l].count; k++)
          sb_printf(s, "  z%d: {owner: %s, zone: %s, types: [%s]}\n", nf++, players[p], w, word);
      }
    }
  }
}

/* The case of object o in origin f, into s: x starts there (VIA_SETUP), or
 * at its home and a first step moves it there (VIA_HOME), or a first step
 * creates it there (VIA_CREATE), with `types` (a sub-card's top-card has
 * them instead, a top-card's sub-card the filler's). */
static void case_text(const builder *b, const tobj *o, const tzone *f, int via, const char *types,
                      sbuf *s) {
  const zo_ruleset *rs = b->rs;
  sb_printf(s, "id: table/cell\ntitle: cell\nrulesets: [%s]\nrules: [\"%s\"]\n"
               "players: [owner, other]\ncards:\n", rs->id, rs->rules[0].id);
  char start[48];
  int stype = via == VIA_HOME ? o->home : f->type;
  if (via == VIA_HOME) zone_written(&rs->zones[o->home], OWNER, start, sizeof start);
  else snprintf(start, sizeof start, "%s", f->zone);
  const char *ctrl = stype >= 0 && rs->zones[stype].controller.value ? ", controller: other" : "";
  if (via == VIA_CREATE) {
    /* x comes into being in the steps */
  } else if (o->sub) {
    sb_printf(s, "  top: {owner: owner, zone: %s, types: [%s]%s}\n", start, types, ctrl);
    sb_printf(s, "  x: {owner: owner, under: top, kind: %s, types: [%s]}\n", o->kind, o->types);
  } else {
    sb_printf(s, "  x: {owner: owner, zone: %s, kind: %s, types: [%s]%s%s}\n", start, o->kind, types,
              ctrl, o->face_down ? ", face: down" : "");
    if (o->has_sub) sb_printf(s, "  s: {owner: owner, under: x, types: [%s]}\n", b->filler);
  }
  int nf = 0;
  char w[48];
  for (int z = 0; z < rs->nzones; z++) {
    const zo_zone_type *zt = &rs->zones[z];
    if (!zt->ordered.value) continue;
    for (int p = 0; p < (zt->per_player.value ? 2 : 1); p++) {
      if (!seated(zt, zt->per_player.value ? p : -1)) continue;
      zone_written(zt, zt->per_player.value ? p : -1, w, sizeof w);
      for (int k = 0; k < 2; k++)
        sb_printf(s, "  f%d: {owner: %s, zone: %s, types: [%s]}\n", nf++, players[p], w, b->filler);
    }
  }
  full_zones(b, f->type, stype, s);
  sb_printf(s, "steps:\n");
  if (via == VIA_HOME) sb_printf(s, "  - move: {card: x, to: %s}\n", f->zone);
  if (via == VIA_CREATE)
    sb_printf(s, "  - create: {as: x, owner: owner, zone: %s, kind: %s, types: [%s]%s%s}\n", f->zone,
              o->kind, types, ctrl, o->face_down ? ", face: down" : "");
  for (int k = 0; k < MK_COUNT; k++)
    sb_printf(s, "  - mark: {card: x, as: %s, kind: %s}\n", zo_mark_kind_names[k], zo_mark_kind_names[k]);
  if (o->phased) sb_printf(s, "  - phase: {card: x}\n");
}

/* Handle called name in c, or -1. */
static int handle_of(const zo_case *c, const char *name) {
  for (int i = 0; i < c->nhandles; i++)
    if (!strcmp(c->handles[i], name)) return i;
  return -1;
}

/* A game of case c with its steps played, or NULL: *why (when not NULL)
 * receives why (the set-up refused it, or the steps did not leave x in
 * the origin named `origin`, "" for any). */
static zo_game *prepared(builder *b, const zo_case *c, const char *origin, char *why, size_t cap) {
  zo_game *g;
  zo_error err = {0};
  if (zo_game_new(b->probe, c, &g, &err)) {
    snprintf(why, cap, "set-up refused: %s", err.message);
    return NULL;
  }
  zo_step_result r = {0};
  int x = handle_of(c, "x");
  for (int i = 0; i < c->nsteps; i++) {
    zo_game_apply(g, &c->steps[i], &r);
    int bad = r.outcome == ZO_OUTCOME_FAILED || r.outcome == ZO_OUTCOME_REJECTED ||
              r.outcome == ZO_OUTCOME_STAYED || r.outcome == ZO_OUTCOME_NOT_FOUND;
    if (bad && c->steps[i].kind != ST_MARK) {
      snprintf(why, cap, "%s there: %s%s%s", zo_step_kind_name(c->steps[i].kind),
               zo_outcome_name(r.outcome), r.error ? ", " : "", r.error ? zo_step_error_name(r.error) : "");
      zo_step_result_free(&r);
      zo_game_free(g);
      return NULL;
    }
    zo_step_result_free(&r);
  }
  char zone[64];
  zo_game_zone_name(g, zo_game_obj_zone(g, x), zone, sizeof zone);
  if (!zo_game_obj_exists(g, x) || (*origin && strcmp(zone, origin))) {
    snprintf(why, cap, "moved there, it is %s", zo_game_obj_exists(g, x) ? zone : "gone");
    zo_game_free(g);
    return NULL;
  }
  return g;
}

/* The case's zone type named like rule set zone type z, or -1. */
static int case_ztype(const zo_case *c, const zo_ruleset *rs, int z) {
  for (int i = 0; i < c->nztypes; i++)
    if (!strcmp(c->ztypes[i], rs->zones[z].name)) return i;
  return -1;
}

/* Whether observed zone `zone` is destination d ("other.weapon.2" is
 * "other.weapon"). */
static int is_dest(const char *zone, const tzone *d) {
  size_t n = strlen(d->zone);
  return !strncmp(zone, d->zone, n) && (zone[n] == 0 || zone[n] == '.');
}

/* Whether observed zone `zone` is the owner's zone of destination d's type
 * where d names the other player's ("owner.hand" for "other.hand"). */
static int owners_instead(const char *zone, const tzone *d) {
  size_t n = strlen(players[OTHER]);
  if (d->player != OTHER || strncmp(d->zone, players[OTHER], n) || d->zone[n] != '.') return 0;
  char want[64];
  snprintf(want, sizeof want, "%s%s", players[OWNER], d->zone + n);
  size_t m = strlen(want);
  return !strncmp(zone, want, m) && (zone[m] == 0 || zone[m] == '.');
}

/* Where x is in g after the move: position in its ordered zone. */
static json_t *position_of(const zo_game *g, int x, int pos) {
  if (pos < 0) return NULL;
  const int *objs;
  int n = zo_game_zone_contents(g, zo_game_obj_zone(g, x), &objs);
  char buf[16];
  if (pos == 0) return json_string("top");
  if (pos == n - 1) return json_string("bottom");
  snprintf(buf, sizeof buf, "#%d", pos);
  return json_string(buf);
}

/* What object x keeps after the move: its marks and statuses. */
static json_t *keeps_of(const zo_case *c, const zo_obj_obs *ob, const zo_obj_obs *sub, int x) {
  json_t *k = json_array();
  if (ob->nmarks == MK_COUNT) /* one of each kind: all of them */
    json_array_append_new(k, json_string("all marks"));
  else
    for (int i = 0; i < ob->nmarks; i++)
      if (ob->marks[i] >= 0 && ob->marks[i] < c->nmarknames)
        json_array_append_new(k, json_string(c->marknames[ob->marks[i]]));
  if (ob->face_down) json_array_append_new(k, json_string("face down"));
  if (ob->phased_out) json_array_append_new(k, json_string("phased out"));
  if (sub && sub->exists && sub->under == x) json_array_append_new(k, json_string("sub-card"));
  if (ob->came_from[0]) json_array_append_new(k, json_string("history"));
  return k;
}

/* The rules of a cell: the citations hit between h0 and h1 that decide a
 * move (the destination's order only for a position asked in it, where
 * the object is: there), and their names into by. */
static json_t *rules_of(const builder *b, const int *h0, const int *h1, const tzone *d, int there,
                        json_t *by) {
  json_t *rules = json_array();
  for (int i = 0; i < b->nslots; i++) {
    if (h1[i] <= h0[i] || !b->slot_name[i]) continue;
    int ord = b->ordered_slot[i] && there && d->position >= 0 && d->type >= 0 &&
              !strncmp(b->slot_name[i], b->rs->zones[d->type].name, strlen(b->rs->zones[d->type].name));
    if (!b->decisive[i] && !ord) continue;
    json_array_append_new(by, json_string(b->slot_name[i]));
    size_t k;
    json_t *r;
    json_array_foreach(b->slot_rules[i], k, r) {
      int dup = 0;
      size_t j;
      json_t *q;
      json_array_foreach(rules, j, q) dup |= json_equal(q, r);
      if (!dup) json_array_append(rules, r);
    }
  }
  return rules;
}

/* Observe x (and the sub-card s, -1 none) after the move into cell. */
static void observe_into(const zo_game *g, const zo_case *c, int x, int s, uint64_t id0,
                         const char *origin, const tzone *d, json_t *cell) {
  zo_observation ob = {0};
  zo_game_observe(g, &ob);
  const zo_obj_obs *o = &ob.objs[x];
  if (!o->exists) {
    json_object_set_new(cell, "ends_in", json_string(""));
    zo_observation_free(&ob);
    return;
  }
  json_object_set_new(cell, "new_object", json_boolean(o->object != id0));
  const char *where = !strcmp(o->zone, origin) ? "where it was"
                      : is_dest(o->zone, d)    ? "there"
                      : owners_instead(o->zone, d) ? "the owner's instead"
                                                   : o->zone;
  json_object_set_new(cell, "ends_in", json_string(where));
  json_t *pos = position_of(g, x, o->position);
  if (pos) json_object_set_new(cell, "position", pos);
  int so = zo_game_sees(g, OWNER, x), st = zo_game_sees(g, OTHER, x);
  json_object_set_new(cell, "sees", json_string(so && st ? "all" : so ? "owner" : st ? "other" : "nobody"));
  json_object_set_new(cell, "controller",
                      json_string(o->controller < 0 ? "none" : players[o->controller ? OTHER : OWNER]));
  json_object_set_new(cell, "keeps", keeps_of(c, o, s >= 0 ? &ob.objs[s] : NULL, x));
  zo_observation_free(&ob);
}

/* Where the model counts no rule for a cell, the switch whose value
 * decided it, looked up: outside the game (a move to or from it that left
 * nothing to decide, or an object that is not a card ceasing as it
 * leaves the game), or new_object (a move that made no new object, FaB
 * 3.0.9's arena and stack). Its citations into rules, its name into by. */
static void looked_up(const builder *b, const json_t *cell, const tzone *d, json_t *rules, json_t *by) {
  const char *out = json_string_value(json_object_get(cell, "outcome"));
  int sw = -1;
  if (d->type == -1 || !strcmp(json_string_value(json_object_get(cell, "ends_in")), "outside"))
    sw = SW_OUTSIDE;
  else if (out && (!strcmp(out, "moved") || !strcmp(out, "redirected")) &&
           json_is_false(json_object_get(cell, "new_object")))
    sw = SW_NEW_OBJECT;
  int slot = sw < 0 ? -1 : b->rs->sw[sw].slot;
  if (slot < 0 || slot >= b->nslots || !b->slot_rules[slot]) return;
  json_array_extend(rules, b->slot_rules[slot]);
  char name[64];
  snprintf(name, sizeof name, "%s (looked up%s)", zo_switch_names[sw],
           json_array_size(b->slot_rules[slot]) ? "" : ": it cites no rule");
  json_array_append_new(by, json_string(name));
}

/* One cell: the game of case c, x moved to d by an effect (by_rule: by a
 * rule), then a state check. */
static json_t *cell_run(builder *b, const zo_case *c, const tzone *d, int by_rule) {
  char why[600], origin[64];
  zo_game *g = prepared(b, c, "", why, sizeof why);
  json_t *cell = json_object();
  if (!g) { /* the same case set up before: cannot happen */
    json_object_set_new(cell, "outcome", json_string("?"));
    json_object_set_new(cell, "why", json_string(why));
    return cell;
  }
  int x = handle_of(c, "x"), s = handle_of(c, "s");
  zo_game_zone_name(g, zo_game_obj_zone(g, x), origin, sizeof origin);
  uint64_t id0 = zo_game_obj_identity(g, x);
  int *h0 = zo_xmalloc(((size_t)b->nslots + 1) * sizeof *h0);
  memcpy(h0, zo_game_hits(g), (size_t)b->nslots * sizeof *h0);
  zo_step mv;
  zo_step_init(&mv);
  mv.kind = ST_MOVE;
  mv.card = x;
  if (d->type == DEST_CONTROL) { /* issue 31: control, not a move */
    mv.kind = ST_CONTROL;
    mv.player = d->player;
  } else {
    mv.to.type = d->type == -1 ? ZO_ZT_OUTSIDE : d->type == -2 ? ZO_ZT_ARENA : case_ztype(c, b->rs, d->type);
    mv.to.player = d->player;
    mv.position = d->position;
    mv.by_rule = by_rule;
    if (d->face_down) mv.face = 1; /* face_up_only:'s destination (issue 31) */
    /* a zone named by its index (at_index:'s destination, issue 31) */
    const char *dot = strrchr(d->zone, '.');
    if (d->type >= 0 && dot && dot[1] >= '0' && dot[1] <= '9') mv.to.index = atoi(dot + 1);
  }
  zo_step_result r = {0};
  zo_game_apply(g, &mv, &r);
  json_object_set_new(cell, "outcome", json_string(zo_outcome_name(r.outcome)));
  if (r.error) json_object_set_new(cell, "error", json_string(zo_step_error_name(r.error)));
  zo_step_result_free(&r);
  observe_into(g, c, x, s, id0, origin, d, cell);
  int existed = zo_game_obj_exists(g, x);
  zo_step sc;
  zo_step_init(&sc);
  sc.kind = ST_STATE_CHECK;
  zo_game_apply(g, &sc, &r);
  zo_step_result_free(&r);
  if (existed && !zo_game_obj_exists(g, x)) json_object_set_new(cell, "state_check", json_string("ceased"));
  const char *e = json_string_value(json_object_get(cell, "ends_in"));
  int there = e && (!strcmp(e, "there") || !strcmp(e, "the owner's instead"));
  json_t *by = json_array(), *rules = rules_of(b, h0, zo_game_hits(g), d, there, by);
  if (!json_array_size(rules)) looked_up(b, cell, d, rules, by);
  json_object_set_new(cell, "rules", rules);
  json_object_set_new(cell, "by", by);
  free(h0);
  zo_game_free(g);
  return cell;
}

/* A cell, and where an effect's move fails but a rule's would clear the
 * object (FaB 3.0.11, switch clear), what the same move by a rule does:
 * by_rule {outcome, error?, new_object?, ends_in, rules, by}. */
static json_t *cell_both(builder *b, const zo_case *c, const tzone *d) {
  json_t *cell = cell_run(b, c, d, 0);
  const char *out = json_string_value(json_object_get(cell, "outcome"));
  if (b->rs->sw[SW_CLEAR].value == ZS_NONE || !out || strcmp(out, "failed")) return cell;
  json_t *r = cell_run(b, c, d, 1), *br = json_object();
  /* the same move by a rule does the same: clear decided nothing here (a
     zone refusal that cannot_hold: fail_or_clear does not turn into a
     clear), so the cell shows and cites no by-rule part (issue 31) */
  static const char *const same[] = {"outcome", "error", "new_object", "ends_in"};
  int differs = 0;
  for (size_t k = 0; k < sizeof same / sizeof *same; k++)
    differs |= !json_equal(json_object_get(r, same[k]), json_object_get(cell, same[k])) &&
                (json_object_get(r, same[k]) || json_object_get(cell, same[k]));
  if (!differs) {
    json_decref(r);
    json_decref(br);
    return cell;
  }
  const char *keys[] = {"outcome", "error", "new_object", "ends_in", "rules", "by"};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
    if (json_object_get(r, keys[k])) json_object_set(br, keys[k], json_object_get(r, keys[k]));
  json_object_set_new(cell, "by_rule", br);
  json_decref(r);
  return cell;
}

/* ---- an object from each origin, grouped ------------------------------ */

/* The cells of object o from origin f, one per destination (an array), or
 * NULL with why: the set-up refuses it there and no move from its home
 * leaves it there. *via: it was moved there from its home; now: the zone
 * it is in once set up (phasing out may have moved it). */
static json_t *origin_cells(builder *b, const tobj *o, const tzone *f, int *via, char now[64], char *why,
                            size_t cap) {
  const char **cands = zo_xcalloc((size_t)b->nobjs + 1, sizeof *cands);
  int nc = 0;
  if (o->sub || o->has_sub) { /* the first card that can be (or carry) a top-card there */
    for (int i = 0; i < b->nobjs; i++)
      if (!strcmp(b->objs[i].kind, "card") && !b->objs[i].face_down && !b->objs[i].phased &&
          !b->objs[i].sub && !b->objs[i].has_sub)
        cands[nc++] = b->objs[i].types;
  } else {
    cands[nc++] = o->types;
  }
  why[0] = 0;
  for (int v = VIA_SETUP; v < VIA_COUNT; v++) {
    if (v == VIA_HOME && (o->home < 0 || o->home == f->type)) continue;
    /* only a copy made outside the game, where the rule set's text has it
       (today's CR 707.13; no older text speaks of it) */
    if (v == VIA_CREATE && (strcmp(o->kind, "copy") || o->phased || strcmp(f->zone, "outside") ||
                            zo_ruleset_rule(b->rs, "CR 707.13") < 0))
      continue;
    for (int k = 0; k < nc; k++) {
      sbuf s = {0};
      case_text(b, o, f, v, cands[k], &s);
      zo_case *c;
      zo_error err = {0};
      char w[600];
      zo_game *g = NULL;
      if (zo_case_parse_mem("table", s.s, s.n, &c, &err)) {
        snprintf(w, sizeof w, "not a case: %s", err.message);
        c = NULL;
      } else {
        zo_case_add_zone_types(c, b->rs);
        g = prepared(b, c, v != VIA_SETUP ? f->zone : "", w, sizeof w);
      }
      free(s.s);
      if (!g) {
        if (k == 0) {
          size_t n = strlen(why);
          if (v == VIA_HOME)
            snprintf(why + n, cap - n, "; moved there from %s: %s", b->rs->zones[o->home].name, w);
          else if (v == VIA_CREATE) snprintf(why + n, cap - n, "; created there: %s", w);
          else snprintf(why, cap, "%s", w);
        }
        zo_case_free(c);
        continue;
      }
      zo_game_zone_name(g, zo_game_obj_zone(g, handle_of(c, "x")), now, 64);
      zo_game_free(g);
      *via = v;
      json_t *cells = json_array();
      for (int d = 0; d < b->nto; d++)
        json_array_append_new(cells, json_pack("{s:o}", "cell", cell_both(b, c, &b->to[d])));
      zo_case_free(c);
      free(cands);
      return cells;
    }
  }
  free(cands);
  return NULL;
}

/* The words of "action, aura" as an array. */
static json_t *words(const char *t) {
  json_t *a = json_array();
  while (*t) {
    size_t n = strcspn(t, ", ");
    if (n) json_array_append_new(a, json_stringn(t, n));
    t += n;
    t += strspn(t, ", ");
  }
  return a;
}

/* One object's part of the table: its rows, the origins it can't be in,
 * or "same_as" an earlier object with the same table (sigs: signature ->
 * label). Adds to *ncells and *nrows. */
static json_t *object_json(builder *b, const tobj *o, json_t *sigs, long *ncells, long *nrows) {
  json_t *oj = json_object(), *status = json_array();
  json_object_set_new(oj, "object", json_string(o->label));
  json_object_set_new(oj, "kind", json_string(o->kind));
  json_object_set_new(oj, "types", words(o->types));
  const char *st[4] = {"face down", "phased out", "sub-card", "has a sub-card"};
  int flags[4] = {o->face_down, o->phased, o->sub, o->has_sub};
  for (int i = 0; i < 4; i++)
    if (flags[i]) json_array_append_new(status, json_string(st[i]));
  json_object_set_new(oj, "status", status);
  json_t *unreachable = json_array(), *bykey = json_object(), *order = json_array();
  char why[1400], fname[256];
  for (int f = 0; f < b->nfrom; f++) {
    if (o->phased && (b->from[f].type < 0 || b->rs->zones[b->from[f].type].role != ZR_BATTLEFIELD))
      continue; /* phasing acts on the battlefield only */
    int via = 0;
    char now[64]; /* where the object is once set up (phased out: its zone) */
    json_t *cells = origin_cells(b, o, &b->from[f], &via, now, why, sizeof why);
    if (!cells) {
      json_array_append_new(unreachable, json_pack("{s:s,s:s}", "from", b->from[f].name, "why", why));
      continue;
    }
    *ncells += (long)json_array_size(cells);
    if (via == VIA_HOME)
      snprintf(fname, sizeof fname, "%s (via %s)", b->from[f].name, b->rs->zones[o->home].name);
    else if (via == VIA_CREATE) snprintf(fname, sizeof fname, "%s (created there)", b->from[f].name);
    else if (strcmp(now, b->from[f].zone)) snprintf(fname, sizeof fname, "%s (now in %s)", b->from[f].name, now);
    else snprintf(fname, sizeof fname, "%s", b->from[f].name);
    /* "its own zone" is the origin's, unless the set-up moved it */
    zo_table_add_origin(b->to, b->nto, strcmp(now, b->from[f].zone) ? NULL : &b->from[f], fname, cells,
                        bykey, order);
    json_decref(cells);
  }
  json_t *rows = zo_table_rows(bykey, order);
  json_decref(bykey);
  json_decref(order);
  json_t *whole = json_pack("{s:O,s:O}", "rows", rows, "unreachable", unreachable);
  char *sig = json_dumps(whole, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(whole);
  json_t *same = json_object_get(sigs, sig);
  if (same) {
    json_object_set(oj, "same_as", same);
    json_decref(rows);
    json_decref(unreachable);
  } else {
    *nrows += (long)json_array_size(rows);
    json_object_set_new(sigs, sig, json_string(o->label));
    json_object_set_new(oj, "rows", rows);
    json_object_set_new(oj, "unreachable", unreachable);
  }
  free(sig);
  return oj;
}

/* What the table's words mean, for its readers. */
static json_t *legend(void) {
  return json_pack(
      "{s:s,s:s,s:s,s:s,s:s,s:s}",
      "game", "Each cell is a game of the model: players owner and other; the object, owned by owner "
              "and controlled by other where its zone has controllers, starts in the origin (or is "
              "moved there first from where it can start: via; or, a copy outside the game, "
              "created there: CR 707.13), carries one mark of each kind "
              "(counter, effect, characteristic, prevention, sticker, permission, spell_info), and an "
              "effect moves it to the "
              "destination; a state check follows. Two cards lie in every ordered zone.",
      "to", "the destination as a case writes it; an ordered zone at the top, second (#1), at the "
            "bottom, and past its end (#9); face down: the move puts it there face down (where a "
            "zone type has kinds of card that are never face down); control by other: a control step giving it to the other "
            "player instead of a move (where a zone type follows control)",
      "outcome", "the move's outcome (and error); state_check: what the state check then did to it",
      "ends_in", "where it is after the move: there (the destination), where it was, or the zone; "
                 "empty when it is gone",
      "sees", "who may look at it after the move: all, owner, other, nobody",
      "rules", "the citations of the switches and zone limits the model applied to the move and "
               "the state check (their names: by, in the text and JSON forms)");
}

zo_status zo_table_build(const zo_ruleset *rs, json_t **out, zo_error *err) {
  *out = NULL;
  if (!rs || !zo_ruleset_find(rs->id))
    return zo_error_set(err, ZO_ERR_UNKNOWN, NULL, 0, 0, "unknown rule set '%s'", rs ? rs->id : "");
  if (rs->nrules == 0)
    return zo_error_set(err, ZO_ERR_SETUP, NULL, 0, 0,
                        "rule set '%s' lists no rule: a table's games cite one", rs->id);
  builder *b = zo_xcalloc(1, sizeof *b);
  b->rs = rs;
  zo_type_classes_init(&b->cls, rs);
  probe_make(b);
  object_rows(b);
  zone_lists(b);
  json_t *objs = json_array(), *sigs = json_object();
  long ncells = 0, nrows = 0;
  for (int i = 0; i < b->nobjs; i++) json_array_append_new(objs, object_json(b, &b->objs[i], sigs, &ncells, &nrows));
  json_decref(sigs);
  *out = json_pack("{s:s,s:s,s:[s,s],s:o,s:I,s:I,s:o}", "ruleset", rs->id, "title", rs->title ? rs->title : "",
                   "players", players[0], players[1], "legend", legend(), "cells", (json_int_t)ncells,
                   "rows", (json_int_t)nrows, "objects", objs);
  probe_free(b);
  free(b);
  return ZO_OK;
}

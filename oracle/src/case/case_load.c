/* case_load.c: case files (the case language v1, cases/README.md) -> zo_case.
 *
 * Reads through ydoc (so aliases, tags and duplicate keys are already
 * refused) and checks everything a person can get wrong: unknown keys and
 * names (with the nearest valid one), handles used before they exist, zones
 * that no rule set of the case has, values of the wrong kind. Finally it sets
 * up the starting position under each of the case's rule sets, so a position
 * a rule set forbids is reported against the card's line (ZO_ERR_SETUP).
 *
 * Zone types are interned per case (zo_case.ztypes); the model maps them to
 * each rule set's zone indices when a game starts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "util.h"
#include "yjson.h"
#include "yread.h"

#include <jansson.h>

typedef struct {
  yr_reader r;
  zo_case *c;
  const zo_ruleset *rs[16];
  int nrs;
} cparse;

#define COUNT(a) (sizeof(a) / sizeof *(a))

static int index_of(const char *s, char *const *names, int n) {
  return yr_index(s, (const char *const *)names, (size_t)n);
}

/* ---- names: players, handles, triggers, refs ------------------------ */

static zo_status player(cparse *p, const yd_node *n, const char *what, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  int i = index_of(n->str, p->c->players, p->c->nplayers);
  if (i < 0)
    return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "player", n->str, NULL, (const char *const *)p->c->players,
                   (size_t)p->c->nplayers);
  *out = i;
  return ZO_OK;
}

static zo_status handle(cparse *p, const yd_node *n, const char *what, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  int i = index_of(n->str, p->c->handles, p->c->nhandles);
  if (i < 0) {
    if (p->c->nhandles == 0)
      return yr_fail(&p->r, n, ZO_ERR_UNKNOWN, "unknown card '%s' (no cards yet)",
                  n->str);
    return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "card", n->str, NULL, (const char *const *)p->c->handles,
                   (size_t)p->c->nhandles);
  }
  *out = i;
  return ZO_OK;
}

static int add_name(char ***names, int *n, const char *s) {
  *names = zo_xrealloc(*names, (size_t)(*n + 1) * sizeof **names);
  (*names)[*n] = zo_xstrdup(s);
  return (*n)++;
}

/* A new name (`as:`): must be a fresh word. */
static zo_status new_name(cparse *p, const yd_node *n, const char *what,
                          char ***names, int *count, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  if (strchr(n->str, '.') || strchr(n->str, ' ') || !n->str[0])
    return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s '%s' must be one word without '.'",
                what, n->str);
  if (index_of(n->str, *names, *count) >= 0)
    return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s '%s' is already used", what, n->str);
  *out = add_name(names, count, n->str);
  return ZO_OK;
}

static zo_status named(cparse *p, const yd_node *n, const char *what,
                       char **names, int count, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  int i = index_of(n->str, names, count);
  if (i < 0) {
    if (!count)
      return yr_fail(&p->r, n, ZO_ERR_UNKNOWN, "unknown %s '%s' (none defined before "
                                        "this step)", what, n->str);
    return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, what, n->str, NULL, (const char *const *)names,
                   (size_t)count);
  }
  *out = i;
  return ZO_OK;
}

/* ---- zones ---------------------------------------------------------- */

static int intern_ztype(zo_case *c, const char *name) {
  int i = index_of(name, c->ztypes, c->nztypes);
  return i >= 0 ? i : add_name(&c->ztypes, &c->nztypes, name);
}

/* Parse "type", "player.type", "player.type.N", "outside", "any", "arena".
 * `allow`: bit 1 outside, 2 any, 4 arena. */
static zo_status zone(cparse *p, const yd_node *n, const char *what, int allow,
                      zo_zone_spec *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  out->player = -1;
  out->index = 0;
  char buf[96];
  if (strlen(n->str) >= sizeof buf)
    return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "zone name too long");
  snprintf(buf, sizeof buf, "%s", n->str);
  if (!strcmp(buf, "outside") && (allow & 1)) { out->type = ZO_ZT_OUTSIDE; return ZO_OK; }
  if (!strcmp(buf, "any") && (allow & 2)) { out->type = ZO_ZT_ANY; return ZO_OK; }
  char *parts[3] = {buf, NULL, NULL};
  int np = 1;
  for (char *s = buf; *s; s++)
    if (*s == '.' && np < 3) { *s = 0; parts[np++] = s + 1; }
  char *type = parts[0];
  if (np >= 2) {
    int pl = index_of(parts[0], p->c->players, p->c->nplayers);
    if (pl < 0)
      return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "player in zone name", parts[0], NULL,
                     (const char *const *)p->c->players,
                     (size_t)p->c->nplayers);
    out->player = pl;
    type = parts[1];
    if (np == 3) {
      char *end;
      long ix = strtol(parts[2], &end, 10);
      if (*end || ix < 1 || ix > 16)
        return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "zone index '%s' must be 1..16 in %s",
                    parts[2], n->str);
      out->index = (int)ix;
    }
  }
  if (!strcmp(type, "arena") && out->player < 0 && (allow & 4)) {
    for (int r = 0; r < p->nrs; r++)
      if (p->rs[r]->sw[SW_ARENA_DEFAULT].value != ZS_PERMANENT_ZONE)
        return yr_fail(&p->r, n, ZO_ERR_UNKNOWN, "'arena' is not a destination in "
                    "rule set %s (only where the arena is not a zone)",
                    p->rs[r]->id);
    out->type = ZO_ZT_ARENA;
    return ZO_OK;
  }
  for (int r = 0; r < p->nrs; r++) {
    int zi = zo_ruleset_zone(p->rs[r], type);
    if (zi < 0) {
      const char *names[64];
      int nn = 0;
      for (int z = 0; z < p->rs[r]->nzones; z++) names[nn++] = p->rs[r]->zones[z].name;
      char where[80];
      snprintf(where, sizeof where, "rule set %s", p->rs[r]->id);
      return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "zone", type, where, names, (size_t)nn);
    }
    const zo_zone_type *zt = &p->rs[r]->zones[zi];
    if (out->player >= 0 && !zt->per_player.value)
      return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "zone '%s' is shared in %s: write it "
                  "without a player", type, p->rs[r]->id);
    if (out->index > zt->count.value &&
        p->rs[r]->sw[SW_ZONE_LIFECYCLE].value != ZS_YES)
      return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s has %d %s zone%s per player in %s",
                  n->str, zt->count.value, type, zt->count.value > 1 ? "s" : "",
                  p->rs[r]->id);
  }
  out->type = intern_ztype(p->c, type);
  return ZO_OK;
}

/* A zone as text, validated: for expectations (compared as strings). */
static zo_status zone_text(cparse *p, const yd_node *n, const char *what,
                           char *buf, size_t cap) {
  zo_zone_spec z;
  zo_status st = zone(p, n, what, 1, &z);
  if (st) return st;
  if (z.type >= 0 && z.player < 0) {
    /* observed names are full: a per-player zone needs its player */
    for (int r = 0; r < p->nrs; r++) {
      int zi = zo_ruleset_zone(p->rs[r], p->c->ztypes[z.type]);
      if (p->rs[r]->zones[zi].per_player.value) {
        const char *pl = p->c->nplayers ? p->c->players[0] : "alice";
        return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "'%s' is a zone of each player: "
                    "write the full name, e.g. %s.%s", n->str, pl, n->str);
      }
    }
  }
  return yr_name(&p->r, n, what, buf, cap);
}

/* ---- types ---------------------------------------------------------- */

/* A list of type words as bits of this case: a word the model does not
 * know joins the case's own table (zo_case.xtypes, model.h), never a table
 * another file shares. Refused at the word: one not lower case without
 * spaces, and one beyond ZO_MAX_XTYPES words of the case's own. */
static zo_status types(cparse *p, const yd_node *n, const char *what,
                       uint64_t *bits) {
  zo_status st = yr_want(&p->r, n, YD_SEQ, what);
  if (st) return st;
  for (size_t i = 0; i < n->n; i++) {
    const yd_node *t = n->kids[i];
    if ((st = yr_want(&p->r, t, YD_SCALAR, what))) return st;
    for (const char *s = t->str; *s; s++)
      if (*s == ' ' || (*s >= 'A' && *s <= 'Z'))
        return yr_fail(&p->r, t, ZO_ERR_SCHEMA, "type words are lower case with _ "
                    "for spaces (got '%s')", t->str);
    uint64_t b = zo_type_intern(&p->c->xtypes, &p->c->nxtypes, t->str);
    if (!b)
      return yr_fail(&p->r, t, ZO_ERR_SCHEMA, "type word '%s': a case may use at most %d type "
                  "words the model does not know", t->str, ZO_MAX_XTYPES);
    *bits |= b;
  }
  return ZO_OK;
}

static const char *const kind_names[] = {"card", "token", "ability", "copy",
                                         "macro", "attack-proxy"};
/* Bit of word in case c (its own words or the vocabulary), or 0. */
uint64_t zo_case_type_bit(const zo_case *c, const char *word) {
  uint64_t b = zo_type_bit(word);
  if (b || !c) return b;
  for (int i = 0; i < c->nxtypes; i++)
    if (strcmp(c->xtypes[i], word) == 0) return (uint64_t)1 << (ZO_NVOCAB + i);
  return 0;
}

/* rs's bits (vocabulary + rs->xtypes) as c's bits (vocabulary + c->xtypes). */
uint64_t zo_type_bits_for_case(const zo_ruleset *rs, const zo_case *c, uint64_t rs_bits) {
  uint64_t vmask = ((uint64_t)1 << ZO_NVOCAB) - 1, out = rs_bits & vmask;
  for (int i = 0; i < rs->nxtypes; i++)
    if (rs_bits & ((uint64_t)1 << (ZO_NVOCAB + i))) out |= zo_case_type_bit(c, rs->xtypes[i]);
  return out;
}

const char *zo_kind_name(zo_kind k) {
  return (unsigned)k < COUNT(kind_names) ? kind_names[k] : "?";
}

static zo_status parse_kind(cparse *p, const yd_node *n, zo_kind *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, "kind");
  if (st) return st;
  int k = yr_index(n->str, kind_names, COUNT(kind_names));
  if (k < 0) return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "kind", n->str, NULL, kind_names, COUNT(kind_names));
  *out = (zo_kind)k;
  return ZO_OK;
}

static zo_status face(cparse *p, const yd_node *n, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, "face");
  if (st) return st;
  if (!strcmp(n->str, "up")) *out = 0;
  else if (!strcmp(n->str, "down")) *out = 1;
  else return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "expected up or down for face");
  return ZO_OK;
}

static zo_status visibility(cparse *p, const yd_node *n, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, "visibility");
  if (st) return st;
  if (!strcmp(n->str, "public")) *out = 1;
  else if (!strcmp(n->str, "private")) *out = 0;
  else return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "expected public or private for visibility");
  return ZO_OK;
}

/* ---- cards ---------------------------------------------------------- */

static const char *const card_keys[] = {
    "owner", "zone",     "kind",       "types",    "subtypes",
    "controller", "face", "visibility", "position", "under"};
_Static_assert(COUNT(card_keys) == CK_COUNT, "card_keys follows enum zo_card_key (model.h)");

/* Keys of a starting card that contradict each other whatever the rule set
 * (the rule set's own set-up checks are zo_game_new's): a sub-card (under:)
 * takes its top-card's visibility and face and has no position or controller
 * of its own (FaB 3.0.14, 3.0.14b; its zone:, if written, must be its
 * top-card's: checked at set-up); outside the game is not a zone (CR
 * 400.10), so an object there has no position and no controller (CR 109.4).
 * Refused at the first such key, naming both. */
static zo_status card_contradictions(cparse *p, const yd_node *k, const yd_node *v,
                                     const zo_card_setup *cs) {
  static const int sub_keys[] = {CK_POSITION, CK_CONTROLLER, CK_FACE, CK_VISIBILITY};
  static const int outside_keys[] = {CK_CONTROLLER, CK_POSITION};
  for (size_t j = 0; j < v->n; j++) {
    const yd_node *key = YD_KEY(v, j);
    int ki = yr_index(key->str, card_keys, COUNT(card_keys));
    for (size_t i = 0; cs->under >= 0 && i < COUNT(sub_keys); i++)
      if (ki == sub_keys[i])
        return yr_fail(&p->r, key, ZO_ERR_SCHEMA, "card '%s' is under '%s': a sub-card has no %s of "
                    "its own (it takes its top-card's visibility and face, and has no position "
                    "or controller, FaB 3.0.14): leave out %s:", k->str,
                    p->c->handles[cs->under], key->str, key->str);
    for (size_t i = 0; cs->zone.type == ZO_ZT_OUTSIDE && i < COUNT(outside_keys); i++)
      if (ki == outside_keys[i])
        return yr_fail(&p->r, key, ZO_ERR_SCHEMA, "card '%s' is outside the game, which is not a "
                    "zone (CR 400.10): it has no %s (leave out %s:)", k->str, key->str,
                    key->str);
  }
  return ZO_OK;
}

static zo_status parse_cards(cparse *p, const yd_node *m) {
  zo_case *c = p->c;
  zo_status st = yr_want(&p->r, m, YD_MAP, "cards");
  if (st) return st;
  /* handles first, so `under:` may name a later card */
  for (size_t i = 0; i < m->n; i++) {
    int h;
    if ((st = new_name(p, YD_KEY(m, i), "card handle", &c->handles,
                       &c->nhandles, &h)))
      return st;
  }
  c->nsetup = c->nhandles;
  c->cards = zo_xcalloc(m->n ? m->n : 1, sizeof *c->cards);
  c->ncards = (int)m->n;
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    snprintf(p->r.note, sizeof p->r.note, "while reading card '%s'", k->str);
    zo_card_setup *cs = &c->cards[i];
    cs->handle = (int)i;
    cs->controller = -1;
    cs->visibility = -1;
    cs->position = -1;
    cs->under = -1;
    cs->zone.type = ZO_ZT_UNSET;
    cs->line = k->line;
    cs->col = k->col;
    if ((st = yr_want(&p->r, v, YD_MAP, "a card (owner, zone, ...)"))) return st;
    if ((st = yr_keys(&p->r, v, ZO_ERR_UNKNOWN, card_keys, COUNT(card_keys), "a card"))) return st;
    const yd_node *o = yd_get(v, "owner");
    if (!o) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "card '%s' needs an owner", k->str);
    if ((st = player(p, o, "owner", &cs->owner))) return st;
    for (size_t j = 0; j < v->n; j++) {
      const char *key = YD_KEY(v, j)->str;
      const yd_node *val = YD_VAL(v, j);
      int ki = yr_index(key, card_keys, COUNT(card_keys)); /* enum zo_card_key */
      cs->at[ki].line = val->line;
      cs->at[ki].col = val->col;
      if (!strcmp(key, "zone")) st = zone(p, val, "zone", 1, &cs->zone);
      else if (!strcmp(key, "kind")) st = parse_kind(p, val, &cs->kind);
      else if (!strcmp(key, "types") || !strcmp(key, "subtypes"))
        st = types(p, val, key, &cs->types);
      else if (!strcmp(key, "controller")) st = player(p, val, "controller", &cs->controller);
      else if (!strcmp(key, "face")) st = face(p, val, &cs->face_down);
      else if (!strcmp(key, "visibility")) st = visibility(p, val, &cs->visibility);
      else if (!strcmp(key, "position")) st = yr_int(&p->r, val, "position", 0, 10000, &cs->position);
      else if (!strcmp(key, "under")) {
        st = handle(p, val, "under", &cs->under);
        if (!st && cs->under == (int)i)
          st = yr_fail(&p->r, val, ZO_ERR_SCHEMA, "a card can't be under itself");
      }
      if (st) return st;
    }
    if (cs->zone.type == ZO_ZT_UNSET && cs->under < 0)
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "card '%s' needs a zone (or under:)",
                  k->str);
    if ((st = card_contradictions(p, k, v, cs))) return st;
  }
  p->r.note[0] = 0;
  return ZO_OK;
}

/* ---- expectations --------------------------------------------------- */

static const char *const obj_keys[] = {
    "zone", "exists", "new_object", "same_as", "position", "visibility",
    "face", "controller", "owner", "marks", "under", "phased_out",
    "came_from", "layer"};

static const char *const expect_keys[] = {"outcome", "error", "zones", "counts",
                                          "triggers", "refs", "players",
                                          "visible"};

static zo_status handle_list(cparse *p, const yd_node *n, const char *what,
                             int **out, int *count) {
  zo_status st = yr_want(&p->r, n, YD_SEQ, what);
  if (st) return st;
  *out = zo_xcalloc(n->n ? n->n : 1, sizeof **out);
  *count = 0;
  for (size_t i = 0; i < n->n; i++) {
    if ((st = handle(p, n->kids[i], what, &(*out)[i]))) return st;
    (*count)++;
  }
  return ZO_OK;
}

static zo_status parse_obj_expect(cparse *p, int h, const yd_node *m,
                                  zo_obj_expect *ox) {
  zo_status st = yr_want(&p->r, m, YD_MAP, "an object's expected properties");
  if (st) return st;
  if ((st = yr_keys(&p->r, m, ZO_ERR_UNKNOWN, obj_keys, COUNT(obj_keys), "an object expectation")))
    return st;
  ox->handle = h;
  ox->line = m->line;
  ox->col = m->col;
  for (size_t i = 0; i < m->n; i++) {
    const char *k = YD_KEY(m, i)->str;
    const yd_node *v = YD_VAL(m, i);
    int bit = yr_index(k, obj_keys, COUNT(obj_keys));
    ox->lines[bit] = v->line;
    if (!strcmp(k, "zone")) {
      ox->mask |= OX_ZONE;
      st = zone_text(p, v, "zone", ox->zone, sizeof ox->zone);
    } else if (!strcmp(k, "exists")) {
      ox->mask |= OX_EXISTS;
      st = yr_bool(&p->r, v, "exists", &ox->exists);
    } else if (!strcmp(k, "new_object")) {
      ox->mask |= OX_NEW;
      st = yr_bool(&p->r, v, "new_object", &ox->is_new);
    } else if (!strcmp(k, "same_as")) {
      ox->mask |= OX_SAME_AS;
      st = named(p, v, "reference", p->c->refs, p->c->nrefs, &ox->same_as);
    } else if (!strcmp(k, "position")) {
      ox->mask |= OX_POSITION;
      st = yr_int(&p->r, v, "position", 0, 10000, &ox->position);
    } else if (!strcmp(k, "layer")) {
      ox->mask |= OX_LAYER;
      st = yr_int(&p->r, v, "layer", 1, 10000, &ox->layer);
    } else if (!strcmp(k, "visibility")) {
      ox->mask |= OX_VISIBILITY;
      st = visibility(p, v, &ox->visibility);
    } else if (!strcmp(k, "face")) {
      ox->mask |= OX_FACE;
      st = face(p, v, &ox->face);
    } else if (!strcmp(k, "controller")) {
      ox->mask |= OX_CONTROLLER;
      if (yd_is_null(v)) ox->controller = -1;
      else st = player(p, v, "controller", &ox->controller);
    } else if (!strcmp(k, "owner")) {
      ox->mask |= OX_OWNER;
      st = player(p, v, "owner", &ox->owner);
    } else if (!strcmp(k, "under")) {
      ox->mask |= OX_UNDER;
      if (yd_is_null(v)) ox->under = -1;
      else st = handle(p, v, "under", &ox->under);
    } else if (!strcmp(k, "phased_out")) {
      ox->mask |= OX_PHASED;
      st = yr_bool(&p->r, v, "phased_out", &ox->phased);
    } else if (!strcmp(k, "came_from")) {
      ox->mask |= OX_CAME_FROM;
      if (yd_is_null(v)) ox->came_from_null = 1;
      else st = zone_text(p, v, "came_from", ox->came_from, sizeof ox->came_from);
    } else if (!strcmp(k, "marks")) {
      ox->mask |= OX_MARKS;
      if ((st = yr_want(&p->r, v, YD_SEQ, "marks"))) return st;
      ox->marks = zo_xcalloc(v->n ? v->n : 1, sizeof *ox->marks);
      for (size_t j = 0; j < v->n; j++) {
        int mi;
        if ((st = named(p, v->kids[j], "mark", p->c->marknames,
                        p->c->nmarknames, &mi)))
          return st;
        ox->marks[ox->nmarks++] = zo_xstrdup(v->kids[j]->str);
      }
    }
    if (st) return st;
  }
  return ZO_OK;
}

static zo_status parse_named_flags(cparse *p, const yd_node *m, const char *what,
                                   char **names, int nnames,
                                   const char *const *keys, size_t nkeys,
                                   zo_trig_expect **out, int *count) {
  zo_status st = yr_want(&p->r, m, YD_MAP, what);
  if (st) return st;
  *out = zo_xcalloc(m->n ? m->n : 1, sizeof **out);
  for (size_t i = 0; i < m->n; i++) {
    zo_trig_expect *t = &(*out)[i];
    t->line = YD_KEY(m, i)->line;
    if (!strcmp(what, "players")) {
      if ((st = player(p, YD_KEY(m, i), "player", &t->index))) return st;
    } else if ((st = named(p, YD_KEY(m, i), what, names, nnames, &t->index))) {
      return st;
    }
    const yd_node *v = YD_VAL(m, i);
    if ((st = yr_want(&p->r, v, YD_MAP, what))) return st;
    if ((st = yr_keys(&p->r, v, ZO_ERR_UNKNOWN, keys, nkeys, what))) return st;
    for (size_t j = 0; j < v->n; j++) {
      const char *k = YD_KEY(v, j)->str;
      const yd_node *x = YD_VAL(v, j);
      if (!strcmp(k, "fired") || !strcmp(k, "lost")) {
        t->mask |= 1;
        st = yr_bool(&p->r, x, k, &t->fired);
      } else if (!strcmp(k, "found")) {
        t->mask |= 2;
        st = yr_bool(&p->r, x, k, &t->found);
      } else if (!strcmp(k, "controller")) {
        t->mask |= 4;
        st = player(p, x, k, &t->controller);
      }
      if (st) return st;
    }
    (*count)++;
  }
  return ZO_OK;
}

static zo_status parse_expect(cparse *p, const yd_node *m, zo_expect **out) {
  zo_status st = yr_want(&p->r, m, YD_MAP, "expect");
  if (st) return st;
  zo_expect *e = zo_xcalloc(1, sizeof *e);
  *out = e;
  e->line = m->line;
  e->col = m->col;
  e->objs = zo_xcalloc(m->n ? m->n : 1, sizeof *e->objs);
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    const char *key = k->str;
    if (!strcmp(key, "outcome")) {
      if ((st = yr_want(&p->r, v, YD_SCALAR, "outcome"))) return st;
      int o = zo_outcome_parse(v->str);
      if (o < 0) {
        const char *names[ZO_OUTCOME_COUNT];
        for (int j = 1; j < ZO_OUTCOME_COUNT; j++) names[j - 1] = zo_outcome_name((zo_outcome)j);
        return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "outcome", v->str, NULL, names, ZO_OUTCOME_COUNT - 1);
      }
      e->has_outcome = 1;
      e->outcome = (zo_outcome)o;
      e->outcome_line = v->line;
    } else if (!strcmp(key, "error")) {
      if ((st = yr_want(&p->r, v, YD_SCALAR, "error"))) return st;
      int x = zo_step_error_parse(v->str);
      if (x < 0) {
        const char *names[ZO_E_COUNT];
        for (int j = 1; j < ZO_E_COUNT; j++) names[j - 1] = zo_step_error_name((zo_step_error)j);
        return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "error code", v->str, NULL, names, ZO_E_COUNT - 1);
      }
      e->has_error = 1;
      e->error = (zo_step_error)x;
      e->error_line = v->line;
    } else if (!strcmp(key, "zones")) {
      if ((st = yr_want(&p->r, v, YD_MAP, "zones"))) return st;
      e->zones = zo_xcalloc(v->n ? v->n : 1, sizeof *e->zones);
      for (size_t j = 0; j < v->n; j++) {
        zo_zone_expect *z = &e->zones[e->nzones++];
        z->line = YD_KEY(v, j)->line;
        if ((st = zone_text(p, YD_KEY(v, j), "zones", z->zone, sizeof z->zone))) return st;
        if ((st = handle_list(p, YD_VAL(v, j), "zone contents", &z->handles, &z->n))) return st;
      }
    } else if (!strcmp(key, "counts")) {
      if ((st = yr_want(&p->r, v, YD_MAP, "counts"))) return st;
      e->counts = zo_xcalloc(v->n ? v->n : 1, sizeof *e->counts);
      for (size_t j = 0; j < v->n; j++) {
        zo_count_expect *z = &e->counts[e->ncounts];
        z->line = YD_KEY(v, j)->line;
        if ((st = zone_text(p, YD_KEY(v, j), "counts", z->zone, sizeof z->zone))) return st;
        if ((st = yr_int(&p->r, YD_VAL(v, j), "a count", 0, 100000, &z->count))) return st;
        e->ncounts++;
      }
    } else if (!strcmp(key, "triggers")) {
      static const char *const ks[] = {"fired", "found", "controller"};
      if ((st = parse_named_flags(p, v, "trigger", p->c->triggers,
                                  p->c->ntriggers, ks, 3, &e->triggers,
                                  &e->ntriggers)))
        return st;
    } else if (!strcmp(key, "refs")) {
      static const char *const ks[] = {"found"};
      if ((st = parse_named_flags(p, v, "reference", p->c->refs, p->c->nrefs,
                                  ks, 1, &e->refs, &e->nrefs)))
        return st;
    } else if (!strcmp(key, "players")) {
      static const char *const ks[] = {"lost"};
      if ((st = parse_named_flags(p, v, "players", NULL, 0, ks, 1,
                                  &e->players, &e->nplayers)))
        return st;
    } else if (!strcmp(key, "visible")) {
      if ((st = yr_want(&p->r, v, YD_MAP, "visible"))) return st;
      e->visible = zo_xcalloc(v->n ? v->n : 1, sizeof *e->visible);
      for (size_t j = 0; j < v->n; j++) {
        zo_visible_expect *ve = &e->visible[e->nvisible++];
        ve->line = YD_KEY(v, j)->line;
        if ((st = player(p, YD_KEY(v, j), "player", &ve->player))) return st;
        const yd_node *pm = YD_VAL(v, j);
        static const char *const ks[] = {"sees", "hidden"};
        if ((st = yr_want(&p->r, pm, YD_MAP, "visible"))) return st;
        if ((st = yr_keys(&p->r, pm, ZO_ERR_UNKNOWN, ks, 2, "visible"))) return st;
        const yd_node *s = yd_get(pm, "sees"), *h = yd_get(pm, "hidden");
        if (s && (st = handle_list(p, s, "sees", &ve->sees, &ve->nsees))) return st;
        if (h && (st = handle_list(p, h, "hidden", &ve->hidden, &ve->nhidden))) return st;
      }
    } else {
      int h = index_of(key, p->c->handles, p->c->nhandles);
      if (h < 0) {
        /* neither an expectation key nor a card: suggest from both */
        const char *cands[64];
        size_t n = 0;
        for (size_t j = 0; j < COUNT(expect_keys); j++) cands[n++] = expect_keys[j];
        for (int j = 0; j < p->c->nhandles && n < 64; j++) cands[n++] = p->c->handles[j];
        return yr_unknown(&p->r, k, ZO_ERR_UNKNOWN, "key", key, "expect (an expectation or a card)",
                          cands, n);
      }
      /* counted before parsing, so a half-parsed entry is freed too */
      if ((st = parse_obj_expect(p, h, v, &e->objs[e->nobjs++]))) return st;
    }
  }
  return ZO_OK;
}

/* ---- steps ---------------------------------------------------------- */

static const char *const step_names[ST_COUNT] = {
    "move",      "move_together", "create",      "control",   "phase",
    "turn_face", "reorder",       "shuffle",     "draw",      "mill",
    "put_under", "zone_create",   "zone_remove", "state_check", "end_game",
    "watch",     "resolve",       "remember",    "replace",
    "choose_replacement", "mark"};

const char *zo_step_kind_name(zo_step_kind k) {
  return (unsigned)k < ST_COUNT ? step_names[k] : "?";
}

static const char *const move_keys[] = {"card", "ref", "to", "from", "position",
                                        "face", "by", "cause", "choose",
                                        "shuffle", "seed", "then"};

/* Options of each step kind (the first entries of each list). */
static const char *const *step_keys(zo_step_kind k, size_t *n) {
  static const char *const together[] = {"moves", "order"};
  static const char *const create[] = {"as", "kind", "owner", "zone", "types",
                                       "subtypes", "controller", "face"};
  static const char *const control[] = {"card", "ref", "player"};
  static const char *const phase[] = {"card", "ref", "out"};
  static const char *const turn[] = {"card", "ref", "face"};
  static const char *const reorder[] = {"zone", "order"};
  static const char *const shuffle[] = {"zone", "seed"};
  static const char *const draw[] = {"player", "count"};
  static const char *const mill[] = {"player", "count", "to"};
  static const char *const under[] = {"card", "ref", "under"};
  static const char *const zonek[] = {"zone", "choose"};
  static const char *const none[] = {""};
  static const char *const end[] = {"winner"};
  static const char *const watch[] = {"as", "card", "from", "to", "types"};
  static const char *const resolve[] = {"trigger", "do"};
  static const char *const remember[] = {"as", "card", "ref"};
  static const char *const replace[] = {"as", "card", "when", "instead",
                                        "controller"};
  static const char *const choose[] = {"order", "player", "card"};
  static const char *const mark[] = {"card", "ref", "as", "kind"};
  switch (k) {
#define R(a) *n = COUNT(a); return a
  case ST_MOVE: R(move_keys);
  case ST_MOVE_TOGETHER: R(together);
  case ST_CREATE: R(create);
  case ST_CONTROL: R(control);
  case ST_PHASE: R(phase);
  case ST_TURN_FACE: R(turn);
  case ST_REORDER: R(reorder);
  case ST_SHUFFLE: R(shuffle);
  case ST_DRAW: R(draw);
  case ST_MILL: R(mill);
  case ST_PUT_UNDER: R(under);
  case ST_ZONE_CREATE: *n = 1; return zonek;
  case ST_ZONE_REMOVE: R(zonek);
  case ST_STATE_CHECK: *n = 0; return none;
  case ST_END_GAME: R(end);
  case ST_WATCH: R(watch);
  case ST_RESOLVE: R(resolve);
  case ST_REMEMBER: R(remember);
  case ST_REPLACE: R(replace);
  case ST_CHOOSE_REPLACEMENT: R(choose);
  case ST_MARK: R(mark);
  default: *n = 0; return none;
#undef R
  }
}

/* A step with every field at its "not given" value (model.h). */
void zo_step_init(zo_step *s) {
  memset(s, 0, sizeof *s);
  s->card = s->ref = s->as = s->trigger = -1;
  s->owner = s->controller = s->player = s->winner = -1;
  s->position = ZO_POS_TOP;
  s->face = -1;
  s->count = 1;
  s->out = 1;
  s->to.type = s->from.type = s->zone.type = ZO_ZT_UNSET;
  s->when_to.type = s->when_from.type = ZO_ZT_UNSET;
  s->order_zone.type = ZO_ZT_UNSET;
  s->kind_of = ZK_TOKEN;
}

static zo_status parse_step_body(cparse *p, zo_step_kind kind, const yd_node *opts,
                                 const yd_node *at, int nested, zo_step *s);

/* The object of a step: card: or ref: (one of them unless nested). */
static zo_status object_of(cparse *p, const yd_node *opts, const yd_node *at,
                           int nested, zo_step *s) {
  const yd_node *c = yd_get(opts, "card"), *r = yd_get(opts, "ref");
  zo_status st;
  if (c && r) return yr_fail(&p->r, r, ZO_ERR_SCHEMA, "give card: or ref:, not both");
  if (nested) {
    if (c || r)
      return yr_fail(&p->r, c ? c : r, ZO_ERR_SCHEMA, "a then:/do: step acts on the "
                  "moved or tracked object: leave out card: and ref:");
    return ZO_OK;
  }
  if (c) return handle(p, c, "card", &s->card);
  if (r) return named(p, r, "reference", p->c->refs, p->c->nrefs, &s->ref);
  st = yr_fail(&p->r, at, ZO_ERR_SCHEMA, "%s needs card: (a handle) or ref: (a "
            "remembered reference)", zo_step_kind_name(s->kind));
  return st;
}

static zo_status parse_move_opts(cparse *p, const yd_node *opts,
                                 const yd_node *at, int nested, int need_to,
                                 zo_step *s) {
  zo_status st;
  if ((st = yr_keys(&p->r, opts, ZO_ERR_UNKNOWN, move_keys, COUNT(move_keys), "move"))) return st;
  if (nested >= 0 && (st = object_of(p, opts, at, nested, s))) return st;
  for (size_t i = 0; i < opts->n; i++) {
    const char *k = YD_KEY(opts, i)->str;
    const yd_node *v = YD_VAL(opts, i);
    if (!strcmp(k, "to")) st = zone(p, v, "to", 1 | 4, &s->to);
    else if (!strcmp(k, "from")) st = zone(p, v, "from", 1, &s->from);
    else if (!strcmp(k, "position")) {
      if ((st = yr_want(&p->r, v, YD_SCALAR, "position"))) return st;
      if (!strcmp(v->str, "top")) s->position = ZO_POS_TOP;
      else if (!strcmp(v->str, "bottom")) s->position = ZO_POS_BOTTOM;
      else st = yr_int(&p->r, v, "position (top, bottom or an index from the top)",
                        0, 10000, &s->position);
    } else if (!strcmp(k, "face")) st = face(p, v, &s->face);
    else if (!strcmp(k, "by")) {
      if ((st = yr_want(&p->r, v, YD_SCALAR, "by"))) return st;
      if (!strcmp(v->str, "rule")) s->by_rule = 1;
      else if (!strcmp(v->str, "effect")) s->by_rule = 0;
      else st = yr_fail(&p->r, v, ZO_ERR_SCHEMA, "expected effect or rule for by");
    } else if (!strcmp(k, "cause")) st = yr_name(&p->r, v, "cause", s->cause, sizeof s->cause);
    else if (!strcmp(k, "choose")) st = yr_int(&p->r, v, "choose", 1, 16, &s->choose);
    else if (!strcmp(k, "shuffle")) st = yr_bool(&p->r, v, "shuffle", &s->shuffle);
    else if (!strcmp(k, "seed")) {
      int x;
      st = yr_int(&p->r, v, "seed", 0, 2147483647, &x);
      s->seed = (uint64_t)x;
    } else if (!strcmp(k, "then")) {
      if (nested > 0)
        st = yr_fail(&p->r, v, ZO_ERR_SCHEMA, "then: can't be nested in then:/do:");
      else {
        if ((st = yr_want(&p->r, v, YD_MAP, "then (one step)"))) return st;
        if (v->n != 1)
          return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "then: holds exactly one step");
        const yd_node *tk = YD_KEY(v, 0);
        int kk = yr_index(tk->str, step_names, ST_COUNT);
        if (kk < 0) return yr_unknown(&p->r, tk, ZO_ERR_UNKNOWN, "step", tk->str, NULL, step_names, ST_COUNT);
        s->then = zo_xcalloc(1, sizeof *s->then);
        st = parse_step_body(p, (zo_step_kind)kk, YD_VAL(v, 0), tk, 1, s->then);
      }
    }
    if (st) return st;
  }
  if (need_to && s->to.type == ZO_ZT_UNSET)
    return yr_fail(&p->r, at, ZO_ERR_SCHEMA, "move needs to: (a zone)");
  return ZO_OK;
}

static zo_status parse_step_body(cparse *p, zo_step_kind kind, const yd_node *opts,
                                 const yd_node *at, int nested, zo_step *s) {
  zo_status st;
  zo_step_init(s);
  s->kind = kind;
  s->line = at->line;
  s->col = at->col;
  if (kind == ST_STATE_CHECK) {
    if (!yd_is_null(opts) && !(opts->kind == YD_MAP && opts->n == 0))
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "state_check takes no options "
                  "(write '- state_check: {}')");
    return ZO_OK;
  }
  if (opts->kind != YD_MAP)
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "expected a map of options for %s",
                step_names[kind]);
  size_t nk;
  const char *const *keys = step_keys(kind, &nk);
  if (kind != ST_MOVE && (st = yr_keys(&p->r, opts, ZO_ERR_UNKNOWN, keys, nk, step_names[kind])))
    return st;
  const yd_node *v;
  switch (kind) {
  case ST_MOVE:
    return parse_move_opts(p, opts, at, nested, 1, s);
  case ST_MOVE_TOGETHER: {
    if (nested) return yr_fail(&p->r, at, ZO_ERR_SCHEMA, "move_together can't be a then:/do: step");
    v = yd_get(opts, "moves");
    if (!v) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "move_together needs moves: (a list of moves)");
    if ((st = yr_want(&p->r, v, YD_SEQ, "moves"))) return st;
    if (v->n == 0) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "moves: needs at least one move");
    s->moves = zo_xcalloc(v->n, sizeof *s->moves);
    for (size_t i = 0; i < v->n; i++) {
      const yd_node *m = v->kids[i];
      if ((st = yr_want(&p->r, m, YD_MAP, "a move"))) return st;
      zo_step_init(&s->moves[i]);
      s->nmoves++;
      s->moves[i].kind = ST_MOVE;
      s->moves[i].line = m->line;
      s->moves[i].col = m->col;
      if ((st = parse_move_opts(p, m, m, 0, 1, &s->moves[i]))) return st;
      if (s->moves[i].then)
        return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "then: is not allowed inside move_together");
      if (s->moves[i].card < 0)
        return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "moves inside move_together name card:");
      for (size_t j = 0; j < i; j++)
        if (s->moves[j].card == s->moves[i].card)
          return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "card '%s' moves twice in one event",
                      p->c->handles[s->moves[i].card]);
    }
    v = yd_get(opts, "order");
    if (v) {
      if ((st = yr_want(&p->r, v, YD_MAP, "order"))) return st;
      if (v->n != 1)
        return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "order: names one destination zone");
      if ((st = zone(p, YD_KEY(v, 0), "order zone", 0, &s->order_zone))) return st;
      if ((st = handle_list(p, YD_VAL(v, 0), "order", &s->order_zone_handles,
                            &s->norder)))
        return st;
    }
    return ZO_OK;
  }
  case ST_CREATE:
    if (nested) return yr_fail(&p->r, at, ZO_ERR_SCHEMA, "create can't be a then:/do: step");
    s->kind_of = ZK_TOKEN;
    if ((v = yd_get(opts, "kind")) && (st = parse_kind(p, v, &s->kind_of))) return st;
    if ((v = yd_get(opts, "owner"))) {
      if ((st = player(p, v, "owner", &s->owner))) return st;
    } else return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "create needs owner:");
    if (!(v = yd_get(opts, "zone")))
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "create needs zone:");
    if ((st = zone(p, v, "zone", 4, &s->zone))) return st;
    if ((v = yd_get(opts, "types")) && (st = types(p, v, "types", &s->types))) return st;
    if ((v = yd_get(opts, "subtypes")) && (st = types(p, v, "subtypes", &s->types))) return st;
    if ((v = yd_get(opts, "controller")) && (st = player(p, v, "controller", &s->controller))) return st;
    if ((v = yd_get(opts, "face")) && (st = face(p, v, &s->face))) return st;
    if (!(v = yd_get(opts, "as")))
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "create needs as: (the new handle)");
    return new_name(p, v, "handle", &p->c->handles, &p->c->nhandles, &s->as);
  case ST_CONTROL:
    if ((st = object_of(p, opts, at, nested, s))) return st;
    if (!(v = yd_get(opts, "player"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "control needs player:");
    return player(p, v, "player", &s->player);
  case ST_PHASE:
    if ((st = object_of(p, opts, at, nested, s))) return st;
    if ((v = yd_get(opts, "out"))) return yr_bool(&p->r, v, "out", &s->out);
    return ZO_OK;
  case ST_TURN_FACE:
    if ((st = object_of(p, opts, at, nested, s))) return st;
    if (!(v = yd_get(opts, "face"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "turn_face needs face:");
    return face(p, v, &s->face);
  case ST_REORDER:
    if (!(v = yd_get(opts, "zone"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "reorder needs zone:");
    if ((st = zone(p, v, "zone", 0, &s->zone))) return st;
    if (!(v = yd_get(opts, "order"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "reorder needs order: (handles top first)");
    return handle_list(p, v, "order", &s->order_zone_handles, &s->norder);
  case ST_SHUFFLE:
    if (!(v = yd_get(opts, "zone"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "shuffle needs zone:");
    if ((st = zone(p, v, "zone", 0, &s->zone))) return st;
    if ((v = yd_get(opts, "seed"))) {
      int x;
      if ((st = yr_int(&p->r, v, "seed", 0, 2147483647, &x))) return st;
      s->seed = (uint64_t)x;
    }
    return ZO_OK;
  case ST_DRAW:
  case ST_MILL:
    if (!(v = yd_get(opts, "player")))
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s needs player:", step_names[kind]);
    if ((st = player(p, v, "player", &s->player))) return st;
    if ((v = yd_get(opts, "count")) && (st = yr_int(&p->r, v, "count", 0, 1000, &s->count))) return st;
    if (kind == ST_MILL && (v = yd_get(opts, "to"))) return zone(p, v, "to", 1, &s->to);
    return ZO_OK;
  case ST_PUT_UNDER:
    if ((st = object_of(p, opts, at, nested, s))) return st;
    if (!(v = yd_get(opts, "under"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "put_under needs under: (a handle)");
    return handle(p, v, "under", &s->under);
  case ST_ZONE_CREATE:
  case ST_ZONE_REMOVE:
    if (!(v = yd_get(opts, "zone")))
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s needs zone:", step_names[kind]);
    if ((st = zone(p, v, "zone", 0, &s->zone))) return st;
    if (s->zone.player < 0)
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s names a player's zone, e.g. "
                  "alice.arsenal", step_names[kind]);
    if ((v = yd_get(opts, "choose"))) return yr_int(&p->r, v, "choose", 1, 16, &s->choose);
    return ZO_OK;
  case ST_END_GAME:
    if (!(v = yd_get(opts, "winner"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "end_game needs winner:");
    return player(p, v, "winner", &s->winner);
  case ST_WATCH:
    if (!(v = yd_get(opts, "card"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "watch needs card:");
    if ((st = handle(p, v, "card", &s->card))) return st;
    s->from.type = s->to.type = ZO_ZT_ANY;
    if ((v = yd_get(opts, "from")) && (st = zone(p, v, "from", 3, &s->from))) return st;
    if ((v = yd_get(opts, "to")) && (st = zone(p, v, "to", 3, &s->to))) return st;
    if ((v = yd_get(opts, "types")) && (st = types(p, v, "types", &s->types))) return st;
    if (!(v = yd_get(opts, "as"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "watch needs as: (the trigger's name)");
    return new_name(p, v, "trigger", &p->c->triggers, &p->c->ntriggers, &s->as);
  case ST_RESOLVE: {
    if (!(v = yd_get(opts, "trigger"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "resolve needs trigger:");
    if ((st = named(p, v, "trigger", p->c->triggers, p->c->ntriggers, &s->trigger))) return st;
    const yd_node *d = yd_get(opts, "do");
    if (!d) return ZO_OK;
    if ((st = yr_want(&p->r, d, YD_MAP, "do (one step)"))) return st;
    if (d->n != 1) return yr_fail(&p->r, d, ZO_ERR_SCHEMA, "do: holds exactly one step");
    const yd_node *tk = YD_KEY(d, 0);
    int kk = yr_index(tk->str, step_names, ST_COUNT);
    if (kk < 0) return yr_unknown(&p->r, tk, ZO_ERR_UNKNOWN, "step", tk->str, NULL, step_names, ST_COUNT);
    s->then = zo_xcalloc(1, sizeof *s->then);
    return parse_step_body(p, (zo_step_kind)kk, YD_VAL(d, 0), tk, 1, s->then);
  }
  case ST_REMEMBER:
    if ((st = object_of(p, opts, at, nested, s))) return st;
    if (!(v = yd_get(opts, "as"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "remember needs as:");
    return new_name(p, v, "reference", &p->c->refs, &p->c->nrefs, &s->as);
  case ST_REPLACE: {
    if (!(v = yd_get(opts, "card"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace needs card: (a handle or any)");
    if (v->kind == YD_SCALAR && !strcmp(v->str, "any")) s->replace_any = 1;
    else if ((st = handle(p, v, "card", &s->card))) return st;
    if ((v = yd_get(opts, "controller")) && (st = player(p, v, "controller", &s->controller))) return st;
    const yd_node *w = yd_get(opts, "when");
    s->when_to.type = s->when_from.type = ZO_ZT_ANY;
    if (w) {
      static const char *const ks[] = {"to", "from", "cause"};
      if ((st = yr_want(&p->r, w, YD_MAP, "when"))) return st;
      if ((st = yr_keys(&p->r, w, ZO_ERR_UNKNOWN, ks, 3, "when"))) return st;
      if ((v = yd_get(w, "to")) && (st = zone(p, v, "to", 3, &s->when_to))) return st;
      if ((v = yd_get(w, "from")) && (st = zone(p, v, "from", 3, &s->when_from))) return st;
      if ((v = yd_get(w, "cause")) && (st = yr_name(&p->r, v, "cause", s->when_cause, sizeof s->when_cause))) return st;
    }
    const yd_node *ins = yd_get(opts, "instead");
    if (!ins) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace needs instead: (move options)");
    if ((st = yr_want(&p->r, ins, YD_MAP, "instead (move options)"))) return st;
    s->then = zo_xcalloc(1, sizeof *s->then);
    zo_step_init(s->then);
    s->then->kind = ST_MOVE;
    s->then->line = ins->line;
    s->then->col = ins->col;
    if ((st = parse_move_opts(p, ins, ins, 1, 1, s->then))) return st;
    if (s->then->then) return yr_fail(&p->r, ins, ZO_ERR_SCHEMA, "then: is not allowed in instead:");
    if (!(v = yd_get(opts, "as"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace needs as: (its name)");
    return new_name(p, v, "replacement", &p->c->replacements,
                    &p->c->nreplacements, &s->as);
  }
  case ST_CHOOSE_REPLACEMENT:
    if (!(v = yd_get(opts, "order"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "choose_replacement needs order:");
    if ((st = yr_want(&p->r, v, YD_SEQ, "order"))) return st;
    s->order_zone_handles = zo_xcalloc(v->n ? v->n : 1, sizeof(int));
    for (size_t i = 0; i < v->n; i++) {
      if ((st = named(p, v->kids[i], "replacement", p->c->replacements,
                      p->c->nreplacements, &s->order_zone_handles[i])))
        return st;
      s->norder++;
    }
    if ((v = yd_get(opts, "player")) && (st = player(p, v, "player", &s->player))) return st;
    if ((v = yd_get(opts, "card")) && (st = handle(p, v, "card", &s->card))) return st;
    return ZO_OK;
  case ST_MARK: {
    if ((st = object_of(p, opts, at, nested, s))) return st;
    if (!(v = yd_get(opts, "kind"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "mark needs kind:");
    static const char *const mk[] = {"counter", "effect", "characteristic", "prevention"};
    if ((st = yr_want(&p->r, v, YD_SCALAR, "kind"))) return st;
    int k = yr_index(v->str, mk, 4);
    if (k < 0) return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "mark kind", v->str, NULL, mk, 4);
    s->mark_kind = (zo_mark_kind)k;
    if (!(v = yd_get(opts, "as"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "mark needs as: (its name)");
    return new_name(p, v, "mark", &p->c->marknames, &p->c->nmarknames, &s->as);
  }
  default:
    return ZO_OK;
  }
}

static zo_status parse_steps(cparse *p, const yd_node *seq) {
  zo_case *c = p->c;
  zo_status st = yr_want(&p->r, seq, YD_SEQ, "steps");
  if (st) return st;
  size_t cap = 1; /* a power of two: zo_case_append_step grows it so */
  while (cap < seq->n) cap *= 2;
  c->steps = zo_xcalloc(cap, sizeof *c->steps);
  for (size_t i = 0; i < seq->n; i++) {
    const yd_node *m = seq->kids[i];
    snprintf(p->r.note, sizeof p->r.note, "while reading step %zu", i + 1);
    if (m->kind != YD_MAP || m->n == 0)
      return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "expected a step: a map with one step "
                  "name (move, watch, ...) and optionally expect:");
    const yd_node *kind_key = NULL, *opts = NULL, *exp = NULL;
    for (size_t j = 0; j < m->n; j++) {
      const yd_node *k = YD_KEY(m, j);
      if (!strcmp(k->str, "expect")) {
        exp = YD_VAL(m, j);
        continue;
      }
      if (yr_index(k->str, step_names, ST_COUNT) < 0)
        return yr_unknown(&p->r, k, ZO_ERR_UNKNOWN, "step", k->str, NULL, step_names, ST_COUNT);
      if (kind_key)
        return yr_fail(&p->r, k, ZO_ERR_SCHEMA, "one step per list item: '%s' and "
                    "'%s' (start a new item with '- ')", kind_key->str, k->str);
      kind_key = k;
      opts = YD_VAL(m, j);
    }
    if (!kind_key)
      return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "expect: without a step");
    int kk = yr_index(kind_key->str, step_names, ST_COUNT);
    c->nsteps++; /* counted first so a half-parsed step is freed too */
    if ((st = parse_step_body(p, (zo_step_kind)kk, opts, kind_key, 0, &c->steps[i])))
      return st;
    /* the step as written (without expect), for engines over the protocol */
    json_t *js = json_object();
    json_object_set_new(js, kind_key->str, yd_to_json(opts));
    c->steps[i].json = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(js);
    if (exp && (st = parse_expect(p, exp, &c->steps[i].expect))) return st;
  }
  p->r.note[0] = 0;
  return ZO_OK;
}

/* ---- the file ------------------------------------------------------- */

static const char *const top_keys[] = {"id",      "title",    "rulesets",
                                       "rules",   "source",   "features",
                                       "players", "cards",    "steps",
                                       "expect"};

static const char *const feature_names[] = {
    "triggers", "replacement", "phasing",    "face_down",  "sub_cards",
    "zone_lifecycle", "ante",  "visibility", "reorder",    "stack_layers",
    "state_check", "marks"};

static zo_status string_list(cparse *p, const yd_node *n, const char *what,
                             char ***out, int *count) {
  zo_status st = yr_want(&p->r, n, YD_SEQ, what);
  if (st) return st;
  if (n->n == 0) return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s must not be empty", what);
  *out = zo_xcalloc(n->n, sizeof **out);
  for (size_t i = 0; i < n->n; i++) {
    if ((st = yr_want(&p->r, n->kids[i], YD_SCALAR, what))) return st;
    (*out)[i] = zo_xstrdup(n->kids[i]->str);
    (*count)++;
  }
  return ZO_OK;
}

static zo_status parse_case(cparse *p, const yd_node *root) {
  zo_case *c = p->c;
  zo_status st = yr_want(&p->r, root, YD_MAP, "a case file (a map of id, title, "
                      "rulesets, rules, players, cards, steps)");
  if (st) return st;
  if ((st = yr_keys(&p->r, root, ZO_ERR_UNKNOWN, top_keys, COUNT(top_keys), "a case"))) return st;
  static const char *const required[] = {"id", "title", "rulesets", "rules",
                                         "players", "cards", "steps"};
  for (size_t i = 0; i < COUNT(required); i++)
    if (!yd_get(root, required[i]))
      return yr_fail(&p->r, root, ZO_ERR_SCHEMA, "missing required key '%s'",
                  required[i]);
  const yd_node *v = yd_get(root, "id");
  if ((st = yr_want(&p->r, v, YD_SCALAR, "id"))) return st;
  if (!v->str[0]) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "id must not be empty");
  for (const char *s = v->str; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
          strchr("-_./", *s)))
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "id '%s' may hold only a-z 0-9 - _ . /",
                  v->str);
  c->id = zo_xstrdup(v->str);
  if ((st = yr_want(&p->r, v = yd_get(root, "title"), YD_SCALAR, "title"))) return st;
  c->title = zo_xstrdup(v->str);
  if ((v = yd_get(root, "source"))) {
    if ((st = yr_want(&p->r, v, YD_SCALAR, "source"))) return st;
    c->source = zo_xstrdup(v->str);
  }
  v = yd_get(root, "rulesets");
  if ((st = string_list(p, v, "rulesets", &c->rulesets, &c->nrulesets))) return st;
  if (c->nrulesets > 16) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "at most 16 rule sets");
  for (int i = 0; i < c->nrulesets; i++) {
    const zo_ruleset *rs = zo_ruleset_find(c->rulesets[i]);
    if (!rs) {
      const char *names[32];
      size_t n = 0;
      for (size_t j = 0; j < zo_ruleset_count() && n < 32; j++)
        names[n++] = zo_ruleset_id(zo_ruleset_at(j));
      return yr_unknown(&p->r, v->kids[i], ZO_ERR_UNKNOWN, "rule set", c->rulesets[i], NULL, names, n);
    }
    for (int j = 0; j < i; j++)
      if (p->rs[j] == rs)
        return yr_fail(&p->r, v->kids[i], ZO_ERR_SCHEMA, "rule set '%s' listed twice",
                    c->rulesets[i]);
    p->rs[p->nrs++] = rs;
  }
  v = yd_get(root, "rules");
  if ((st = string_list(p, v, "rules", &c->rules, &c->nrules))) return st;
  for (int i = 0; i < c->nrules; i++) {
    int known = 0;
    for (int r = 0; r < p->nrs && !known; r++)
      known = zo_ruleset_rule(p->rs[r], c->rules[i]) >= 0;
    if (!known) {
      const char *names[512];
      size_t n = 0;
      for (int r = 0; r < p->nrs; r++)
        for (int j = 0; j < p->rs[r]->nrules && n < 512; j++)
          names[n++] = p->rs[r]->rules[j].id;
      const char *near = zo_nearest(c->rules[i], names, n);
      return yr_fail(&p->r, v->kids[i], ZO_ERR_UNKNOWN, "rule '%s' is not in the rule "
                  "list of %s%s%s%s", c->rules[i], c->rulesets[0],
                  near ? " (did you mean '" : "", near ? near : "",
                  near ? "'?)" : "");
    }
  }
  if ((v = yd_get(root, "features"))) {
    if ((st = string_list(p, v, "features", &c->features, &c->nfeatures))) return st;
    for (int i = 0; i < c->nfeatures; i++)
      if (yr_index(c->features[i], feature_names, COUNT(feature_names)) < 0)
        return yr_unknown(&p->r, v->kids[i], ZO_ERR_UNKNOWN, "feature", c->features[i], NULL, feature_names,
                       COUNT(feature_names));
  }
  v = yd_get(root, "players");
  if ((st = yr_want(&p->r, v, YD_SEQ, "players"))) return st;
  if (v->n < 1 || v->n > ZO_MAX_PLAYERS)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "expected 1..%d players", ZO_MAX_PLAYERS);
  for (size_t i = 0; i < v->n; i++) {
    const yd_node *pl = v->kids[i];
    if ((st = yr_want(&p->r, pl, YD_SCALAR, "a player name"))) return st;
    if (strchr(pl->str, '.') || index_of(pl->str, c->players, c->nplayers) >= 0)
      return yr_fail(&p->r, pl, ZO_ERR_SCHEMA, "player names are distinct words "
                  "without '.' ('%s')", pl->str);
    for (int r = 0; r < p->nrs; r++)
      if (zo_ruleset_zone(p->rs[r], pl->str) >= 0 || !strcmp(pl->str, "outside"))
        return yr_fail(&p->r, pl, ZO_ERR_SCHEMA, "player name '%s' is also a zone "
                    "name", pl->str);
    c->players[c->nplayers++] = zo_xstrdup(pl->str);
  }
  if ((st = parse_cards(p, yd_get(root, "cards")))) return st;
  c->cards_json = yd_to_json_text(yd_get(root, "cards"));
  if ((st = parse_steps(p, yd_get(root, "steps")))) return st;
  if ((v = yd_get(root, "expect"))) {
    snprintf(p->r.note, sizeof p->r.note, "while reading the final expect");
    /* the final expect: holds after the last step, or of the setup when there
       are no steps; an outcome or error code is one step's result and is
       compared beside that step (cases/README.md, Expectations) */
    for (size_t i = 0; v->kind == YD_MAP && i < v->n; i++) {
      const yd_node *key = YD_KEY(v, i);
      if (!strcmp(key->str, "outcome") || !strcmp(key->str, "error"))
        return yr_fail(&p->r, key, ZO_ERR_SCHEMA, "%s: is a step's result and the top-level expect: "
                    "has no step: write it in the expect: beside the step%s", key->str,
                    c->nsteps ? " (here the last one)" : "");
    }
    if ((st = parse_expect(p, v, &c->expect))) return st;
    p->r.note[0] = 0;
  }
  return ZO_OK;
}

static zo_status load_doc(const yd_doc *doc, zo_case **out, zo_error *err) {
  cparse p = {.r = {.doc = doc, .err = err}};
  zo_case *c = zo_xcalloc(1, sizeof *c);
  c->file = zo_xstrdup(doc->file);
  p.c = c;
  zo_status st = parse_case(&p, doc->root);
  if (st) {
    zo_case_free(c);
    return st;
  }
  *out = c;
  return ZO_OK;
}

zo_status zo_case_parse_mem(const char *name, const char *text, size_t len,
                           zo_case **out, zo_error *err) {
  yd_doc doc;
  zo_status st = yd_parse(name, text, len, &doc, err);
  if (st) return st;
  st = load_doc(&doc, out, err);
  yd_free(&doc);
  return st;
}

zo_status zo_case_parse_file(const char *path, zo_case **out, zo_error *err) {
  yd_doc doc;
  zo_status st = yd_parse_file(path, &doc, err);
  if (st) return st;
  st = load_doc(&doc, out, err);
  yd_free(&doc);
  return st;
}

/* ---- freeing and accessors ----------------------------------------- */

static void free_names(char **names, int n) {
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
}

static void free_expect(zo_expect *e) {
  if (!e) return;
  for (int i = 0; i < e->nobjs; i++) free_names(e->objs[i].marks, e->objs[i].nmarks);
  free(e->objs);
  for (int i = 0; i < e->nzones; i++) free(e->zones[i].handles);
  free(e->zones);
  free(e->counts);
  free(e->triggers);
  free(e->refs);
  free(e->players);
  for (int i = 0; i < e->nvisible; i++) {
    free(e->visible[i].sees);
    free(e->visible[i].hidden);
  }
  free(e->visible);
  free(e);
}

static void free_step(zo_step *s) {
  if (s->then) {
    free_step(s->then);
    free(s->then);
  }
  for (int i = 0; i < s->nmoves; i++) free_step(&s->moves[i]);
  free(s->moves);
  free(s->order_zone_handles);
  free(s->json);
  free_expect(s->expect);
}

void zo_case_free(zo_case *c) {
  if (!c) return;
  free(c->file);
  free(c->id);
  free(c->title);
  free(c->source);
  free_names(c->rulesets, c->nrulesets);
  free(c->ruleset_lines);
  free_names(c->rules, c->nrules);
  free_names(c->features, c->nfeatures);
  for (int i = 0; i < c->nplayers; i++) free(c->players[i]);
  free_names(c->handles, c->nhandles);
  free_names(c->ztypes, c->nztypes);
  free_names(c->xtypes, c->nxtypes);
  free(c->cards);
  if (c->steps)
    for (int i = 0; i < c->nsteps; i++) free_step(&c->steps[i]);
  free(c->steps);
  free_names(c->triggers, c->ntriggers);
  free_names(c->refs, c->nrefs);
  free_names(c->replacements, c->nreplacements);
  free_names(c->marknames, c->nmarknames);
  free_expect(c->expect);
  free(c->cards_json);
  free(c);
}

const char *zo_case_id(const zo_case *c) { return c->id; }
const char *zo_case_title(const zo_case *c) { return c->title; }
const char *zo_case_file(const zo_case *c) { return c->file; }
size_t zo_case_ruleset_count(const zo_case *c) { return (size_t)c->nrulesets; }
const char *zo_case_ruleset(const zo_case *c, size_t i) { return c->rulesets[i]; }
size_t zo_case_rule_count(const zo_case *c) { return (size_t)c->nrules; }
const char *zo_case_rule(const zo_case *c, size_t i) { return c->rules[i]; }

static zo_status append_step_doc(zo_case *c, yd_doc *doc, zo_error *err);

zo_status zo_case_append_step_json(zo_case *c, json_t *step, zo_error *err) {
  yd_doc doc = {.root = yd_from_json(step), .file = zo_xstrdup("step")};
  return append_step_doc(c, &doc, err);
}

/* One step written as YAML or JSON text (`{"move": {...}}`), parsed in the
 * context of case c (its handles, triggers, references...) and appended to
 * c's steps; names the step introduces are added to c. Used by `serve`. */
zo_status zo_case_append_step(zo_case *c, const char *text, size_t len, zo_error *err) {
  yd_doc doc;
  zo_status st = yd_parse("step", text, len, &doc, err);
  if (st) return st;
  return append_step_doc(c, &doc, err);
}

static zo_status append_step_doc(zo_case *c, yd_doc *docp, zo_error *err) {
  yd_doc doc = *docp;
  zo_status st = ZO_OK;
  cparse p = {.r = {.doc = &doc, .err = err}, .c = c};
  for (int r = 0; r < c->nrulesets && r < 16; r++) {
    const zo_ruleset *rs = zo_ruleset_find(c->rulesets[r]);
    if (rs) p.rs[p.nrs++] = rs;
  }
  const yd_node *m = doc.root;
  if (m->kind != YD_MAP || m->n != 1) {
    st = yr_fail(&p.r, m, ZO_ERR_SCHEMA, "expected one step: a map with one step name");
  } else {
    const yd_node *k = YD_KEY(m, 0);
    int kk = yr_index(k->str, step_names, ST_COUNT);
    if (kk < 0) {
      st = yr_unknown(&p.r, k, ZO_ERR_UNKNOWN, "step", k->str, NULL, step_names, ST_COUNT);
    } else {
      if ((c->nsteps & (c->nsteps - 1)) == 0) /* capacity: powers of two */
        c->steps = zo_xrealloc(c->steps, (size_t)(c->nsteps ? 2 * c->nsteps : 1) * sizeof *c->steps);
      memset(&c->steps[c->nsteps], 0, sizeof *c->steps);
      c->nsteps++;
      st = parse_step_body(&p, (zo_step_kind)kk, YD_VAL(m, 0), k, 0, &c->steps[c->nsteps - 1]);
      if (st) free_step(&c->steps[--c->nsteps]);
    }
  }
  yd_free(&doc);
  return st;
}

/* Intern every zone type of rs into c, so steps parsed later (serve) never
 * add a zone type after the game is built. */
void zo_case_add_zone_types(zo_case *c, const zo_ruleset *rs) {
  for (int z = 0; z < rs->nzones; z++) intern_ztype(c, rs->zones[z].name);
  /* and the rule set's own type words (equip:, keeps:), so an object a later
     step creates with one of them has the bit the game matches (a full
     table leaves the word out: a step naming it is then refused) */
  for (int i = 0; i < rs->nxtypes; i++) zo_type_intern(&c->xtypes, &c->nxtypes, rs->xtypes[i]);
}

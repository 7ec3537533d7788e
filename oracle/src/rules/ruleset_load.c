/* ruleset_load.c: rule set files -> zo_ruleset (ruleset.h). It calls
 * ruleset_names.c only; the registry (registry.c) calls it, handing it the
 * look-up that resolves `extends:`.
 *
 * A rule set is data (oracle/rulesets/<id>.yaml, embedded at build time, or
 * a user's file): the zone types of one game and era, and the policy
 * switches that differ between eras (oracle/rulesets/RULESETS.md). Every
 * zone attribute and switch is written `{value: V, rule: R}` where R is a
 * rule number or a list of them, or null where the rules text is silent
 * (the cell is "unspecified"); every cited rule must appear in the file's
 * `rules:` list, which is what rule coverage reports. A file may `extends:`
 * another rule set and override any part. The attributes and switches are
 * ruleset.h's tables (ZO_ZONE_ATTRS, ZO_SWITCHES).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"
#include "util.h"
#include "yread.h"

typedef struct {
  yr_reader r;
  zo_ruleset *rs;
  /* citations are resolved after `rules:` is read: remember them */
  struct pending {
    zo_cited *at;
    const yd_node *node;
  } *pend;
  int npend, cappend;
  /* where this file writes each zone type's role and count (NULL: not
     here), for the checks that need the whole file (check_zones) */
  const yd_node *role_at[ZO_MAX_ZONE_TYPES], *count_at[ZO_MAX_ZONE_TYPES];
  /* and the value of displace: and limits: (a zone type's name is resolved
     once every zone is read; attached limits need a battlefield) */
  const yd_node *displace_at[ZO_MAX_ZONE_TYPES], *limits_at[ZO_MAX_ZONE_TYPES];
  const yd_node *instead_at[ZO_MAX_ZONE_TYPES]; /* instead:'s list (zone names) */
  const yd_node *ceases_at[ZO_MAX_ZONE_TYPES]; /* ceases_empty: as written */
  /* where wrong_owner: and follows_control: are written (issue 31), for
     the checks that need every zone */
  const yd_node *wrong_owner_at[ZO_MAX_ZONE_TYPES], *follows_at[ZO_MAX_ZONE_TYPES];
  const yd_node *follows_cited_at[ZO_MAX_ZONE_TYPES];
  const yd_node *seats_at[ZO_MAX_ZONE_TYPES];
  zo_ruleset_lookup base_of; /* extends: the registry's look-up (registry.c) */
  const zo_ruleset *base;    /* the rule set extends: names, once found */
} rparse;

static zo_status bad(rparse *p, const yd_node *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A schema error at node at (the document's start when at is NULL). */
static zo_status bad(rparse *p, const yd_node *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zo_status st = yr_failv(&p->r, at, ZO_ERR_SCHEMA, fmt, ap);
  va_end(ap);
  return st;
}

/* ---- cited values ---------------------------------------------------- */

/* The text of a value: a scalar, not null. */
static zo_status want_str(rparse *p, const yd_node *n, const char *what) {
  if (!n || n->kind != YD_SCALAR || yd_is_null(n))
    return bad(p, n, "expected a text value for %s", what);
  return ZO_OK;
}

static int parse_bool(const yd_node *n, int *out) {
  if (!n || n->kind != YD_SCALAR) return -1;
  if (!strcmp(n->str, "true") || !strcmp(n->str, "yes")) *out = 1;
  else if (!strcmp(n->str, "false") || !strcmp(n->str, "no")) *out = 0;
  else return -1;
  return 0;
}

/* `{value: V, rule: R}`: returns the value node, records the citation. */
static zo_status cited(rparse *p, const yd_node *n, const char *what,
                       zo_cited *out, const yd_node **value) {
  if (!n || n->kind != YD_MAP)
    return bad(p, n, "expected {value: ..., rule: ...} for %s (every "
                     "attribute cites its rule; rule: null where the text "
                     "is silent)", what);
  const yd_node *v = NULL, *r = NULL;
  for (size_t i = 0; i < n->n; i++) {
    const char *k = YD_KEY(n, i)->str;
    if (!strcmp(k, "value")) v = YD_VAL(n, i);
    else if (!strcmp(k, "rule")) r = YD_VAL(n, i);
    else {
      static const char *const ks[] = {"value", "rule"};
      return yr_unknown(&p->r, YD_KEY(n, i), ZO_ERR_SCHEMA, "key", YD_KEY(n, i)->str, what, ks, 2);
    }
  }
  if (!v) return bad(p, n, "missing 'value' in %s", what);
  if (!r) return bad(p, n, "missing 'rule' in %s (write rule: null where the "
                           "rules text is silent)", what);
  out->nrules = 0;
  if (!yd_is_null(r)) {
    if (r->kind != YD_SCALAR && r->kind != YD_SEQ)
      return bad(p, r, "expected a rule number or a list of them for %s",
                 what);
    if (p->npend == p->cappend) {
      p->cappend = p->cappend ? p->cappend * 2 : 64;
      p->pend = zo_xrealloc(p->pend, (size_t)p->cappend * sizeof *p->pend);
    }
    p->pend[p->npend].at = out;
    p->pend[p->npend].node = r;
    p->npend++;
  }
  *value = v;
  return ZO_OK;
}

static zo_status cited_bool(rparse *p, const yd_node *n, const char *what,
                            zo_cited *out) {
  const yd_node *v;
  zo_status st = cited(p, n, what, out, &v);
  if (st) return st;
  if (parse_bool(v, &out->value))
    return bad(p, v, "expected true or false for %s", what);
  return ZO_OK;
}

/* A whole number 0..64 written at v, into *out. */
static zo_status whole_number(rparse *p, const yd_node *v, const char *what, int *out) {
  /* digits only: an empty value, a sign, spaces or a quoted number are
     not a whole number (strtol would read "" as 0) */
  int digits = v && v->kind == YD_SCALAR && v->plain && v->str[0];
  for (const char *c = digits ? v->str : ""; *c; c++)
    if (*c < '0' || *c > '9') digits = 0;
  long x = digits && strlen(v->str) <= 3 ? strtol(v->str, NULL, 10) : -1;
  if (x < 0 || x > 64)
    return bad(p, v, "expected a whole number 0..64 for %s", what);
  *out = (int)x;
  return ZO_OK;
}

static zo_status cited_int(rparse *p, const yd_node *n, const char *what,
                           zo_cited *out) {
  const yd_node *v;
  zo_status st = cited(p, n, what, out, &v);
  if (st) return st;
  return whole_number(p, v, what, &out->value);
}

/* A list of type words (equip:, keeps:) as bits of this rule set: words
 * outside the vocabulary join the rule set's own table (never a table
 * shared with other files). Refused: a word that is not lower case without
 * spaces (cases/README.md writes them so), and a word beyond the table's
 * ZO_MAX_XTYPES, at its position. */
static zo_status type_list(rparse *p, const yd_node *v, const char *what,
                           uint64_t *bits) {
  if (v->kind != YD_SEQ)
    return bad(p, v, "expected a list of type words for %s", what);
  *bits = 0;
  for (size_t i = 0; i < v->n; i++) {
    const yd_node *w = v->kids[i];
    zo_status st = want_str(p, w, what);
    if (st) return st;
    for (const char *c = w->str; *c; c++)
      if (*c == ' ' || (*c >= 'A' && *c <= 'Z'))
        return bad(p, w, "type words are lower case with _ for spaces (got '%s') for %s",
                   w->str, what);
    /* a word for "everything" would be read as a type of its own that no
       object has: say so rather than load a rule that never applies */
    static const char *const quantifiers[] = {"all", "any", "every", "everything", "none"};
    if (yr_index(w->str, quantifiers, 5) >= 0)
      return bad(p, w, "'%s' is not a type word: %s lists the types (or subtypes) it applies "
                 "to, one by one", w->str, what);
    uint64_t b = zo_type_intern(&p->rs->xtypes, &p->rs->nxtypes, w->str);
    if (!b)
      return bad(p, w, "type word '%s': a rule set may use at most %d type words the model "
                 "does not know (for %s)", w->str, ZO_MAX_XTYPES, what);
    *bits |= b;
  }
  return ZO_OK;
}

/* ---- zones ----------------------------------------------------------- */

/* role: one of the zone roles (ZO_ZONE_ROLES). */
static zo_status parse_role(rparse *p, const yd_node *v, const char *what, zo_zone_type *z) {
  zo_status st = want_str(p, v, what);
  if (st) return st;
  int r = yr_index(v->str, zo_zone_role_names, ZR_COUNT);
  if (r < 0) return yr_unknown(&p->r, v, ZO_ERR_SCHEMA, "role", v->str, NULL, zo_zone_role_names, ZR_COUNT);
  z->role = (zo_zone_role)r;
  return ZO_OK;
}

/* holds: a list of holds words (ZO_HOLDS) as bits. */
static zo_status parse_holds(rparse *p, const yd_node *v, const char *what, zo_cited *out) {
  const yd_node *val;
  zo_status st = cited(p, v, what, out, &val);
  if (st) return st;
  if (val->kind != YD_SEQ) return bad(p, val, "expected a list for %s", what);
  out->value &= (int)ZH_TYPES; /* holds_types:'s, kept through extends: */
  for (size_t j = 0; j < val->n; j++) {
    const yd_node *h = val->kids[j];
    if ((st = want_str(p, h, what))) return st;
    int b = yr_index(h->str, zo_holds_names, ZH_COUNT);
    if (b < 0) {
      char list[200];
      zo_join(list, sizeof list, zo_holds_names, ZH_COUNT);
      const char *near = zo_nearest(h->str, zo_holds_names, ZH_COUNT);
      return bad(p, h, "unknown holds value '%s'%s%s%s (expected one of: %s)", h->str,
                 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", list);
    }
    out->value |= 1 << b;
  }
  return ZO_OK;
}

/* limits: a list of at most ZO_MAX_LIMITS maps {types: [words], count:
 * 0..64, among: zone | attached} into z->limit (issue 31; RULESETS.md,
 * Zones). The value is how many. */
static zo_status parse_limits(rparse *p, zo_zone_type *z, const yd_node *val, const char *what) {
  if (val->kind != YD_SEQ)
    return bad(p, val, "expected a list of {types: [...], count: N, among: zone|attached|under} for %s",
               what);
  if (val->n > ZO_MAX_LIMITS)
    return bad(p, val->kids[ZO_MAX_LIMITS], "at most %d limits for %s", ZO_MAX_LIMITS, what);
  memset(z->limit, 0, sizeof z->limit);
  for (size_t i = 0; i < val->n; i++) {
    const yd_node *m = val->kids[i];
    zo_status st = yr_want(&p->r, m, YD_MAP, "a limit {types, count, among}");
    if (st) return st;
    static const char *const ks[] = {"types", "count", "among"};
    if ((st = yr_keys(&p->r, m, ZO_ERR_SCHEMA, ks, 3, "a limit"))) return st;
    const yd_node *types = yd_get(m, "types"), *count = yd_get(m, "count"),
                  *among = yd_get(m, "among");
    if (!types) return bad(p, m, "missing 'types' in a limit of %s (the types it counts)", what);
    if (!count) return bad(p, m, "missing 'count' in a limit of %s (how many it allows)", what);
    zo_zone_limit *l = &z->limit[i];
    if ((st = type_list(p, types, what, &l->types))) return st;
    if (!l->types) return bad(p, types, "a limit of %s lists no type word", what);
    if ((st = whole_number(p, count, what, &l->count))) return st;
    l->among = ZL_ZONE;
    if (among) {
      static const char *const amongs[] = {"zone", "attached", "under"};
      if ((st = want_str(p, among, what))) return st;
      int a = yr_index(among->str, amongs, 3);
      if (a < 0) return yr_unknown(&p->r, among, ZO_ERR_SCHEMA, "among", among->str, NULL, amongs, 3);
      l->among = a == 2 ? ZL_UNDER : a ? ZL_ATTACHED : ZL_ZONE;
    }
  }
  return ZO_OK;
}

/* instead: a list of at most ZO_MAX_INSTEAD maps {types: [words], from:
 * [zone types], to: zone type, face: up | down} into z->inst (issue 31;
 * RULESETS.md, Zones): the words here; the zone names, which may name
 * zones written later, by check_capabilities. The value is how many. */
static zo_status parse_instead(rparse *p, zo_zone_type *z, const yd_node *val, const char *what) {
  if (val->kind != YD_SEQ)
    return bad(p, val, "expected a list of {types: [...], from: [...], to: ZONE, face: up|down} "
               "for %s", what);
  if (val->n > ZO_MAX_INSTEAD)
    return bad(p, val->kids[ZO_MAX_INSTEAD], "at most %d entries for %s", ZO_MAX_INSTEAD, what);
  memset(z->inst, 0, sizeof z->inst);
  for (size_t i = 0; i < val->n; i++) {
    const yd_node *m = val->kids[i];
    zo_status st = yr_want(&p->r, m, YD_MAP, "an instead: entry {types, from, to, face}");
    if (st) return st;
    static const char *const ks[] = {"types", "from", "to", "face"};
    if ((st = yr_keys(&p->r, m, ZO_ERR_SCHEMA, ks, 4, "an instead: entry"))) return st;
    const yd_node *types = yd_get(m, "types"), *from = yd_get(m, "from"), *to = yd_get(m, "to"),
                  *face = yd_get(m, "face");
    zo_zone_instead *e = &z->inst[i];
    e->face = -1;
    if (types && (st = type_list(p, types, what, &e->types))) return st;
    if (from && from->kind != YD_SEQ)
      return bad(p, from, "expected a list of zone types for from: in %s", what);
    for (size_t k = 0; from && k < from->n; k++)
      if ((st = want_str(p, from->kids[k], what))) return st;
    if (to && (st = want_str(p, to, what))) return st;
    if (face) {
      static const char *const faces[] = {"up", "down"};
      if ((st = want_str(p, face, what))) return st;
      e->face = yr_index(face->str, faces, 2);
      if (e->face < 0) return yr_unknown(&p->r, face, ZO_ERR_SCHEMA, "face", face->str, NULL, faces, 2);
    }
    if (!to && !face)
      return bad(p, m, "an instead: entry of %s says neither to: nor face:, so it changes nothing",
                 what);
  }
  return ZO_OK;
}

/* The mark kinds' words, by row of ZO_MARK_KINDS. */
#define MARK_WORD(id, name) name,
static const char *const mark_words[] = {ZO_MARK_KINDS(MARK_WORD)};
#undef MARK_WORD
#define NMARK_WORDS (sizeof mark_words / sizeof *mark_words)

/* clears: a list of mark kind words (issue 31; RULESETS.md, Zones) into
 * out->value, a bit per kind; a word twice is refused, as it says nothing
 * more. */
static zo_status parse_marks(rparse *p, const yd_node *val, const char *what, zo_cited *out) {
  if (val->kind != YD_SEQ)
    return bad(p, val, "expected a list of mark kinds for %s", what);
  out->value = 0;
  for (size_t i = 0; i < val->n; i++) {
    const yd_node *w = val->kids[i];
    zo_status st = want_str(p, w, what);
    if (st) return st;
    int k = yr_index(w->str, mark_words, NMARK_WORDS);
    if (k < 0) return yr_unknown(&p->r, w, ZO_ERR_SCHEMA, "mark kind", w->str, NULL, mark_words, NMARK_WORDS);
    if (out->value >> k & 1) return bad(p, w, "mark kind '%s' is listed twice for %s", w->str, what);
    out->value |= 1 << k;
  }
  return ZO_OK;
}

/* ---- issue 31: wrong_owner:, follows_control: ------------------------- */

/* wrong_owner: a value of the switch wrong_owner (redirect, cannot_hold)
 * for zone type z, or null for the switch's; the value is the ZS_* word.
 * Where it is written is kept for check_zone_rules2. */
static zo_status parse_wrong_owner(rparse *p, zo_zone_type *z, const yd_node *v, const char *what,
                                   zo_cited *c) {
  const yd_node *val;
  zo_status st = cited(p, v, what, c, &val);
  if (st) return st;
  p->wrong_owner_at[z - p->rs->zones] = v;
  if (yd_is_null(val)) {
    c->value = 0;
    return ZO_OK;
  }
  if ((st = want_str(p, val, what))) return st;
  static const char *const words[] = {"redirect", "cannot_hold"};
  int w = yr_index(val->str, words, 2);
  if (w < 0) return yr_unknown(&p->r, val, ZO_ERR_SCHEMA, "value", val->str, what, words, 2);
  c->value = w ? ZS_CANNOT_HOLD : ZS_REDIRECT;
  return ZO_OK;
}

/* follows_control: a zone type's name, or null (issue 31); the name is
 * resolved by check_zone_rules2, once every zone is read. */
static zo_status parse_follow(rparse *p, zo_zone_type *z, const yd_node *v, const char *what,
                              zo_cited *c) {
  const yd_node *val;
  zo_status st = cited(p, v, what, c, &val);
  if (st) return st;
  int i = (int)(z - p->rs->zones);
  p->follows_at[i] = NULL;
  p->follows_cited_at[i] = v;
  if (yd_is_null(val)) {
    c->value = 0;
    return ZO_OK;
  }
  if ((st = want_str(p, val, what))) return st;
  p->follows_at[i] = val;
  return ZO_OK;
}

/* at_index: a list of at most ZO_MAX_AT_INDEX maps {types: [words],
 * index: [1..64, ...]} into z->at (issue 31); the value is how many. */
static zo_status parse_at_index(rparse *p, zo_zone_type *z, const yd_node *v, const char *what,
                                zo_cited *c) {
  const yd_node *val;
  zo_status st = cited(p, v, what, c, &val);
  if (st) return st;
  if (val->kind != YD_SEQ)
    return bad(p, val, "expected a list of {types: [...], index: [...]} for %s", what);
  if (val->n > ZO_MAX_AT_INDEX)
    return bad(p, val->kids[ZO_MAX_AT_INDEX], "at most %d entries for %s", ZO_MAX_AT_INDEX, what);
  memset(z->at, 0, sizeof z->at);
  for (size_t i = 0; i < val->n; i++) {
    const yd_node *m = val->kids[i];
    if ((st = yr_want(&p->r, m, YD_MAP, "an at_index: entry {types, index}"))) return st;
    static const char *const ks[] = {"types", "index"};
    if ((st = yr_keys(&p->r, m, ZO_ERR_SCHEMA, ks, 2, "an at_index: entry"))) return st;
    const yd_node *types = yd_get(m, "types"), *index = yd_get(m, "index");
    if (!types) return bad(p, m, "missing 'types' in an at_index: entry of %s (the kinds of card)", what);
    if (!index) return bad(p, m, "missing 'index' in an at_index: entry of %s (the zones that hold them)", what);
    zo_zone_at_index *e = &z->at[i];
    if ((st = type_list(p, types, what, &e->types))) return st;
    if (!e->types) return bad(p, types, "an at_index: entry of %s lists no type word", what);
    if (index->kind != YD_SEQ || !index->n)
      return bad(p, index, "expected a list of zone indexes 1..64 for index: in %s", what);
    for (size_t k = 0; k < index->n; k++) {
      int n;
      if ((st = whole_number(p, index->kids[k], what, &n))) return st;
      if (n < 1) return bad(p, index->kids[k], "zone indexes start at 1 (got 0) in %s", what);
      e->index |= (uint64_t)1 << (n - 1);
    }
  }
  c->value = (int)val->n;
  return ZO_OK;
}

/* seats: a list of seats 1..8 (the case's players in turn order) that
 * have zones of type z (issue 31); the value is whether any. Where it is
 * written is kept for check_zone_rules2. */
static zo_status parse_seats(rparse *p, zo_zone_type *z, const yd_node *v, const char *what,
                             zo_cited *c) {
  const yd_node *val;
  zo_status st = cited(p, v, what, c, &val);
  if (st) return st;
  p->seats_at[z - p->rs->zones] = v;
  if (val->kind != YD_SEQ || !val->n)
    return bad(p, val, "expected a list of seats 1..8 (the players, in turn order) for %s", what);
  z->seat_bits = 0;
  for (size_t k = 0; k < val->n; k++) {
    int n;
    if ((st = whole_number(p, val->kids[k], what, &n))) return st;
    if (n < 1 || n > 8)
      return bad(p, val->kids[k], "a seat is 1..8, the players in turn order (got %d) in %s", n, what);
    z->seat_bits |= 1u << (n - 1);
  }
  c->value = 1;
  return ZO_OK;
}

/* Cited attribute a of zone z, written v (`what` names it in messages). */
static zo_status parse_attr(rparse *p, zo_zone_type *z, zo_zone_attr a, const yd_node *v,
                            const char *what) {
  zo_cited *c = zo_zone_cited(z, a);
  const yd_node *val;
  zo_status st;
  switch (zo_zone_attr_values[a]) {
  case AV_BOOL: return cited_bool(p, v, what, c);
  case AV_INT: return cited_int(p, v, what, c);
  case AV_VISIBILITY:
    if ((st = cited(p, v, what, c, &val))) return st;
    if (val->kind != YD_SCALAR ||
        (strcmp(val->str, "public") && strcmp(val->str, "hidden") && strcmp(val->str, "private")))
      return bad(p, val, "expected public, hidden or private for %s", what);
    c->value = strcmp(val->str, "public") == 0;
    return ZO_OK;
  case AV_HOLDS: return parse_holds(p, v, what, c);
  case AV_EQUIP:
    /* the citation lives in the zone type: resolve_citations writes its
       rule indices later (a local here would be gone by then) */
    if ((st = cited(p, v, what, c, &val))) return st;
    return type_list(p, val, what, &z->equip_types);
  case AV_KEEPS:
    if ((st = cited(p, v, what, c, &val))) return st;
    st = type_list(p, val, what, &z->keep_types);
    c->value = z->keep_types != 0;
    return st;
  case AV_TYPES:
    if ((st = cited(p, v, what, c, &val))) return st;
    if ((st = type_list(p, val, what, &z->only_types))) return st;
    c->value = z->only_types != 0;
    if (c->value) z->holds.value |= (int)ZH_TYPES;
    else z->holds.value &= ~(int)ZH_TYPES;
    return ZO_OK;
  case AV_LIMITS:
    if ((st = cited(p, v, what, c, &val))) return st;
    if ((st = parse_limits(p, z, val, what))) return st;
    c->value = (int)val->n;
    p->limits_at[z - p->rs->zones] = val;
    return ZO_OK;
  case AV_ZONE:
    /* a zone type's name: resolved by check_zones, once all are read */
    if ((st = cited(p, v, what, c, &val))) return st;
    if (yd_is_null(val)) {
      c->value = 0;
      return ZO_OK;
    }
    if ((st = want_str(p, val, what))) return st;
    p->displace_at[z - p->rs->zones] = val;
    return ZO_OK;
  case AV_GROUP:
    if ((st = cited(p, v, what, c, &val))) return st;
    if (yd_is_null(val)) {
      z->group_name[0] = 0;
      c->value = 0;
      return ZO_OK;
    }
    if ((st = want_str(p, val, what))) return st;
    if (!val->str[0] || strlen(val->str) >= ZO_NAME ||
        strspn(val->str, "abcdefghijklmnopqrstuvwxyz_") != strlen(val->str))
      return bad(p, val, "a group is named by a word of lower-case letters a-z and '_', at most "
                 "%d characters (got '%s') for %s", ZO_NAME - 1, val->str, what);
    snprintf(z->group_name, sizeof z->group_name, "%s", val->str);
    return ZO_OK; /* its value: numbered by number_groups, once all are read */
  case AV_MARKS:
    if ((st = cited(p, v, what, c, &val))) return st;
    return parse_marks(p, val, what, c);
  case AV_INSTEAD:
    if ((st = cited(p, v, what, c, &val))) return st;
    if ((st = parse_instead(p, z, val, what))) return st;
    c->value = (int)val->n;
    p->instead_at[z - p->rs->zones] = val;
    return ZO_OK;
  case AV_WRONG_OWNER: return parse_wrong_owner(p, z, v, what, c);
  case AV_FOLLOW: return parse_follow(p, z, v, what, c);
  case AV_AT_INDEX: return parse_at_index(p, z, v, what, c);
  case AV_SEATS: return parse_seats(p, z, v, what, c);
  case AV_FACE_UP: /* issue 31: face_up_only: type words */
    if ((st = cited(p, v, what, c, &val))) return st;
    if ((st = type_list(p, val, what, &z->face_up_types))) return st;
    c->value = z->face_up_types != 0;
    return ZO_OK;
  }
  return ZO_OK;
}

/* The zone keys a file may write: role, then the cited attributes. */
#define ROW_KEY(id, field, key, ...) key,
static const char *const zone_keys[1 + ZA_COUNT] = {"role", ZO_ZONE_ATTRS(ROW_KEY)};
#undef ROW_KEY

/* Zone type `key` (a new one, or the base's) with attributes m. */
static zo_status parse_zone(rparse *p, const yd_node *key, const yd_node *m) {
  zo_ruleset *rs = p->rs;
  zo_status st = yr_want(&p->r, m, YD_MAP, "a zone");
  if (st) return st;
  int zi = zo_ruleset_zone(rs, key->str);
  if (zi < 0) {
    if (rs->nzones == ZO_MAX_ZONE_TYPES)
      return bad(p, key, "more than %d zone types", ZO_MAX_ZONE_TYPES);
    if (strchr(key->str, '.'))
      return bad(p, key, "zone name '%s' must be a short word without '.'", key->str);
    if (!key->str[0] || strspn(key->str, "abcdefghijklmnopqrstuvwxyz_") != strlen(key->str))
      return bad(p, key, "zone name '%s' may hold only lower-case letters a-z and '_' (cases "
                 "name zones as player.type.index)", key->str);
    if (strlen(key->str) >= ZO_NAME)
      return bad(p, key, "zone name '%s' is longer than %d characters", key->str, ZO_NAME - 1);
    zi = rs->nzones++;
    memset(&rs->zones[zi], 0, sizeof rs->zones[zi]);
    snprintf(rs->zones[zi].name, ZO_NAME, "%s", key->str);
    rs->zones[zi].count.value = 1;
  }
  zo_zone_type *z = &rs->zones[zi];
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    char what[80];
    snprintf(what, sizeof what, "zone %s, %s", z->name, k->str);
    int a = yr_index(k->str, zo_zone_attr_keys, ZA_COUNT);
    if (!strcmp(k->str, "role")) {
      st = parse_role(p, v, what, z);
      p->role_at[zi] = v;
    } else if (a >= 0) {
      st = parse_attr(p, z, (zo_zone_attr)a, v, what);
      if (a == ZA_ZONE_COUNT) p->count_at[zi] = v;
      if (a == ZA_CEASES_EMPTY) p->ceases_at[zi] = v;
    }
    else return yr_unknown(&p->r, k, ZO_ERR_SCHEMA, "key", k->str, "a zone", zone_keys,
                           1 + ZA_COUNT);
    if (st) return st;
  }
  return ZO_OK;
}

/* The zone type named at node n: its index into *out, or an error naming
 * the zone types there are (and the nearest). */
static zo_status zone_named(rparse *p, const yd_node *n, int *out) {
  zo_ruleset *rs = p->rs;
  *out = zo_ruleset_zone(rs, n->str);
  if (*out >= 0) return ZO_OK;
  const char *names[ZO_MAX_ZONE_TYPES];
  for (int k = 0; k < rs->nzones; k++) names[k] = rs->zones[k].name;
  return yr_unknown(&p->r, n, ZO_ERR_SCHEMA, "zone type", n->str, NULL, names, (size_t)rs->nzones);
}

/* Zone type i's instead: entries' zone names (issue 31), once every zone
 * is read: from: and to: name zone types of the rule set; an entry that
 * sends an object to this zone with no face changes nothing. */
static zo_status resolve_instead(rparse *p, int i) {
  zo_zone_type *z = &p->rs->zones[i];
  const yd_node *val = p->instead_at[i];
  zo_status st;
  for (size_t k = 0; val && k < val->n; k++) {
    const yd_node *from = yd_get(val->kids[k], "from"), *to = yd_get(val->kids[k], "to");
    zo_zone_instead *e = &z->inst[k];
    e->from = 0;
    e->to = 0;
    for (size_t j = 0; from && j < from->n; j++) {
      int t;
      if ((st = zone_named(p, from->kids[j], &t))) return st;
      e->from |= 1u << t;
    }
    if (to) {
      int t;
      if ((st = zone_named(p, to, &t))) return st;
      if (t == i && e->face < 0)
        return bad(p, to, "this instead: entry of zone %s sends the object to the zone it is "
                   "bound for, with no face: it changes nothing", z->name);
      e->to = t + 1;
    }
  }
  return ZO_OK;
}

/* Zone type i's limits: and displace: (issue 31), which need every zone of
 * the file and its base: displace names a zone type of the rule set other
 * than i, and i can be full (a capacity, or a limit among the zone); a
 * limit among attached objects is on a battlefield-role zone (only there
 * does the attach step attach). */
static zo_status check_capabilities(rparse *p, int i) {
  zo_ruleset *rs = p->rs;
  zo_zone_type *z = &rs->zones[i];
  const yd_node *d = p->displace_at[i];
  zo_status st = resolve_instead(p, i);
  if (st) return st;
  if (d) {
    int t;
    if ((st = zone_named(p, d, &t))) return st;
    if (t == i)
      return bad(p, d, "zone %s displaces into itself: name the zone type (of the displaced "
                 "object's owner) where the object already there goes", z->name);
    z->displace.value = t + 1;
  }
  if (z->displace.value) {
    int full = z->capacity.value > 0;
    for (int k = 0; k < z->limits.value; k++) full |= z->limit[k].among == ZL_ZONE;
    if (!full)
      return bad(p, d ? d : p->limits_at[i], "zone %s has displace but can't be full: give it a "
                 "capacity or a limit among the zone", z->name);
  }
  for (int k = 0; k < z->limits.value; k++)
    if (z->limit[k].among == ZL_ATTACHED && z->role != ZR_BATTLEFIELD)
      return bad(p, p->limits_at[i] ? p->limits_at[i]->kids[k] : NULL,
                 "a limit among: attached is for the battlefield-role zone (where the attach "
                 "step attaches), not zone %s", z->name);
  return ZO_OK;
}

/* group: every zone type's group value, 1 + the first zone type with the
 * same word (issue 31), so that two zone types are of one group when their
 * values are equal and not 0. */
static void number_groups(zo_ruleset *rs) {
  for (int i = 0; i < rs->nzones; i++) {
    zo_zone_type *z = &rs->zones[i];
    z->group.value = 0;
    for (int j = 0; j <= i && z->group_name[0] && !z->group.value; j++)
      if (!strcmp(rs->zones[j].group_name, z->group_name)) z->group.value = j + 1;
  }
}

/* Does a chain of instead: entries (issue 31) lead from zone type `at`
 * back to zone type `home`, for an object that every entry on the way
 * matches (types: bits, from: zone types; all ones for "any")? `used`:
 * the entries already on the path, a bit each by zone type (the model
 * applies each once per move). */
static int instead_returns(const zo_ruleset *rs, int home, int at, uint64_t types, uint32_t from,
                           uint8_t *used) {
  if (at == home) return 1;
  const zo_zone_type *z = &rs->zones[at];
  for (int k = 0; k < z->instead.value && k < ZO_MAX_INSTEAD; k++) {
    const zo_zone_instead *e = &z->inst[k];
    uint64_t t = types & (e->types ? e->types : ~(uint64_t)0);
    uint32_t f = from & (e->from ? e->from : ~(uint32_t)0);
    if ((used[at] >> k & 1u) || !e->to || e->to - 1 == at || !t || !f) continue;
    used[at] |= (uint8_t)(1u << k);
    int back = instead_returns(rs, home, e->to - 1, t, f, used);
    used[at] &= (uint8_t) ~(1u << k);
    if (back) return 1;
  }
  return 0;
}

/* instead: chains (issue 31): the model follows an entry's destination's
 * own entries, each entry once per move (CR 614.5, FaB 6.5), so a chain
 * always ends; but one that can bring an object back to the zone type it
 * was bound for only undoes itself, and is refused at the first entry's
 * to: (write the entry that says where the object goes instead). */
static zo_status check_instead_chains(rparse *p) {
  const zo_ruleset *rs = p->rs;
  for (int i = 0; i < rs->nzones; i++) {
    const zo_zone_type *z = &rs->zones[i];
    for (int k = 0; k < z->instead.value && k < ZO_MAX_INSTEAD; k++) {
      const zo_zone_instead *e = &z->inst[k];
      if (!e->to || e->to - 1 == i) continue;
      uint8_t used[ZO_MAX_ZONE_TYPES] = {0};
      used[i] = (uint8_t)(1u << k);
      if (!instead_returns(rs, i, e->to - 1, e->types ? e->types : ~(uint64_t)0,
                           e->from ? e->from : ~(uint32_t)0, used))
        continue;
      const yd_node *at = p->instead_at[i] && (size_t)k < p->instead_at[i]->n
                              ? yd_get(p->instead_at[i]->kids[k], "to") : NULL;
      return bad(p, at, "this instead: entry of zone %s sends the object to zone %s, whose "
                 "instead: entries (followed as a chain) can send it back to zone %s: a cycle "
                 "that undoes itself; say in one entry where the object goes instead", z->name,
                 rs->zones[e->to - 1].name, z->name);
    }
  }
  return ZO_OK;
}

/* What wrong_owner: and follows_control: of zone type i need of the whole
 * rule set (issue 31): wrong_owner decides only a per-player, owner-only
 * zone type (another player's zone of it); follows_control names a zone
 * type of the rule set, and moves an object between players' zones, of
 * per-player types whose objects have controllers. */
static zo_status check_zone_rules2(rparse *p, int i) {
  zo_zone_type *z = &p->rs->zones[i];
  const yd_node *w = p->wrong_owner_at[i], *f = p->follows_at[i];
  zo_status st;
  if (w && z->wrong_owner.value && (!z->per_player.value || !z->owner_only.value))
    return bad(p, w, "wrong_owner of zone %s decides a move to another player's zone of an "
               "owner-only type: give the zone type per_player: true and owner_only: true, or "
               "leave wrong_owner out", z->name);
  if (f) {
    int t;
    if ((st = zone_named(p, f, &t))) return st;
    z->follows_control.value = t + 1;
  }
  if (z->seats.value && !z->per_player.value)
    return bad(p, p->seats_at[i], "seats of zone %s names the players who have zones of a "
               "per-player type: give the zone type per_player: true, or leave seats out", z->name);
  if (z->follows_control.value) {
    const zo_zone_type *to = &p->rs->zones[z->follows_control.value - 1];
    if (!z->per_player.value || !z->controller.value || !to->per_player.value ||
        !to->controller.value)
      return bad(p, f ? f : p->follows_cited_at[i], "follows_control of zone %s moves an object "
                 "from its zone to its new controller's zone of type %s: both zone types need "
                 "per_player: true and controller: true", z->name, to->name);
  }
  return ZO_OK;
}

/* Whether zone types a and b are never both a player's (issue 31, seats:
 * the Corp's HQ and the Runner's grip may both be the hand). */
static int seats_apart(const zo_zone_type *a, const zo_zone_type *b) {
  return a->seats.value && b->seats.value && !(a->seat_bits & b->seat_bits);
}

/* What needs every zone of the file and its base: a `count` written for a
 * shared zone type (it would be ignored) or below 1 (no zone of the type
 * at all), and a role the model looks a zone up by given to two zone
 * types (RULESETS.md, Roles: the model would use the first only). */
static zo_status check_zones(rparse *p) {
  zo_ruleset *rs = p->rs;
  zo_status st;
  number_groups(rs);
  for (int i = 0; i < rs->nzones; i++) {
    const zo_zone_type *z = &rs->zones[i];
    const yd_node *c = p->count_at[i];
    if (c && !z->per_player.value)
      return bad(p, c, "count is for per-player zone types: zone %s is shared (per_player: "
                 "false), so there is one of it; write per_player: true or leave count out",
                 z->name);
    if (c && z->count.value < 1)
      return bad(p, c->kind == YD_MAP && yd_get(c, "value") ? yd_get(c, "value") : c,
                 "count must be 1..64 for zone %s: each player has at least one zone of a "
                 "per-player type (leave the zone type out if a player has none)", z->name);
    if ((st = check_capabilities(p, i))) return st;
    if ((st = check_zone_rules2(p, i))) return st;
    if (z->role == ZR_NONE || z->role == ZR_OTHER || z->role == ZR_COMMAND) continue;
    for (int j = 0; j < i; j++)
      if (rs->zones[j].role == z->role && !seats_apart(z, &rs->zones[j])) {
        const yd_node *at = p->role_at[i] ? p->role_at[i] : p->role_at[j];
        return bad(p, at, "role %s is given to zone types %s and %s: the model finds the %s "
                   "by its role, so give it to one zone type", zo_zone_role_names[z->role],
                   rs->zones[j].name, z->name, zo_zone_role_names[z->role]);
      }
  }
  return check_instead_chains(p);
}

/* Does zone type y list every limit among sub-cards that x lists? */
static int under_limits_in(const zo_zone_type *x, const zo_zone_type *y) {
  for (int k = 0; k < x->limits.value; k++) {
    if (x->limit[k].among != ZL_UNDER) continue;
    int found = 0;
    for (int j = 0; j < y->limits.value && !found; j++)
      found = y->limit[j].among == ZL_UNDER && y->limit[j].types == x->limit[k].types &&
              y->limit[j].count == x->limit[k].count;
    if (!found) return 0;
  }
  return 1;
}

/* Limits among sub-cards (`among: under`, issue 31), once the switches
 * are read: the model checks them where a card goes under another
 * (put_under, the set-up), so a top-card must not carry its sub-cards
 * into a zone type with other such limits. Under new_object: every_move a
 * top-card keeps its sub-cards only when it moves within a group, so the
 * zone types of a group list the same limits among sub-cards; under
 * another new_object (FaB's leave_arena keeps them from the stack into the
 * arena) the loader refuses the limit. */
static zo_status check_under_limits(rparse *p) {
  zo_ruleset *rs = p->rs;
  for (int i = 0; i < rs->nzones; i++) {
    const zo_zone_type *z = &rs->zones[i];
    int k = 0;
    while (k < z->limits.value && z->limit[k].among != ZL_UNDER) k++;
    if (k == z->limits.value) continue;
    const yd_node *at = p->limits_at[i] && (size_t)k < p->limits_at[i]->n ? p->limits_at[i]->kids[k] : NULL;
    if (rs->sw[SW_NEW_OBJECT].value != ZS_EVERY_MOVE)
      return bad(p, at, "a limit among: under (zone %s) needs new_object: every_move, where a "
                 "top-card keeps its sub-cards only within a group: under %s a top-card could "
                 "carry more sub-cards into the zone than the limit allows", z->name,
                 zo_switch_value_names[rs->sw[SW_NEW_OBJECT].value]);
    for (int j = 0; j < rs->nzones; j++)
      if (j != i && z->group.value && rs->zones[j].group.value == z->group.value &&
          !(under_limits_in(z, &rs->zones[j]) && under_limits_in(&rs->zones[j], z)))
        return bad(p, at, "zone types %s and %s are of one group (%s), where a top-card keeps its "
                   "sub-cards, but list different limits among: under: write the same on both",
                   z->name, rs->zones[j].name, z->group_name);
  }
  return ZO_OK;
}

/* ceases_empty (issue 31), once the switches are read: only zone_create
 * makes a zone that can cease, and zone_create needs switch
 * zone_lifecycle: yes and a per-player zone type (it names the player). */
static zo_status check_ceasing_zones(rparse *p) {
  const zo_ruleset *rs = p->rs;
  for (int i = 0; i < rs->nzones; i++) {
    const zo_zone_type *z = &rs->zones[i];
    if (!z->ceases_empty.value) continue;
    const yd_node *at = p->ceases_at[i];
    if (rs->sw[SW_ZONE_LIFECYCLE].value != ZS_YES)
      return bad(p, at, "zone %s has ceases_empty, which only a zone made by zone_create can do: "
                 "the rule set needs switch zone_lifecycle: yes", z->name);
    if (!z->per_player.value)
      return bad(p, at, "zone %s has ceases_empty but is shared: zone_create makes a zone for a "
                 "player, so write per_player: true", z->name);
  }
  return ZO_OK;
}

/* ---- switches --------------------------------------------------------- */

/* The value word of switch s named by node val, checked against the
 * switch's own values (zo_switch_values): a word of another switch, or no
 * value word at all, is refused at val with the switch's list (and the
 * nearest of its words). Returns the ZS_* value in *out. */
static zo_status switch_value(rparse *p, int s, const yd_node *val, const char *what, int *out) {
  const char *mine[6];
  int n = 0;
  for (int i = 0; i < 5 && zo_switch_values[s][i] >= 0; i++) {
    int v = zo_switch_values[s][i];
    if (!strcmp(val->str, zo_switch_value_names[v])) {
      *out = v;
      return ZO_OK;
    }
    mine[n++] = zo_switch_value_names[v];
  }
  char list[200];
  zo_join(list, sizeof list, mine, (size_t)n);
  const char *near = zo_nearest(val->str, mine, (size_t)n);
  if (!strcmp(val->str, "none")) /* the unwritten value of this switch */
    return bad(p, val, "'none' is not a value of %s: leave the switch out for its default, or "
               "write one of: %s", what, list);
  if (yr_index(val->str, zo_switch_value_names, (size_t)ZS_COUNT_) >= 0)
    return bad(p, val, "'%s' is not a value of %s, but of another switch (expected one of: %s)",
               val->str, what, list);
  return bad(p, val, "unknown value '%s' for %s (%s%s%sexpected one of: %s)", val->str, what,
             near ? "did you mean '" : "", near ? near : "", near ? "'? " : "", list);
}

static zo_status parse_switches(rparse *p, const yd_node *m) {
  zo_status st = yr_want(&p->r, m, YD_MAP, "switches");
  if (st) return st;
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    int s = yr_index(k->str, zo_switch_names, (size_t)SW_COUNT);
    if (s < 0)
      return yr_unknown(&p->r, k, ZO_ERR_SCHEMA, "key", k->str, "switches", zo_switch_names, SW_COUNT);
    char what[64];
    snprintf(what, sizeof what, "switch %s", k->str);
    const yd_node *val;
    if ((st = cited(p, v, what, &p->rs->sw[s], &val))) return st;
    if ((st = want_str(p, val, what))) return st;
    int x = 0;
    if ((st = switch_value(p, s, val, what, &x))) return st;
    p->rs->sw[s].value = x;
  }
  return ZO_OK;
}

/* ---- rules ------------------------------------------------------------ */

static zo_status parse_rule_list(rparse *p, const yd_node *seq, char *seen);

/* rules: a list of {id, text, seed, out_of_scope, language_gap}. An id of the base
 * (extends:) gets this file's text; an id listed twice in this file, or an
 * empty one, is refused at the second one. */
static zo_status parse_rules(rparse *p, const yd_node *seq) {
  zo_ruleset *rs = p->rs;
  if (!seq || seq->kind != YD_SEQ)
    return bad(p, seq, "expected a list of {id, text, seed, out_of_scope, language_gap} for rules");
  /* seen[i]: rule i is listed in this file already (an inherited one may
     be re-texted once) */
  char *seen = zo_xcalloc((size_t)rs->nrules + seq->n + 1, 1);
  zo_status st = parse_rule_list(p, seq, seen);
  free(seen);
  return st;
}

/* parse_rules' loop: each {id, text, seed} of seq into p->rs, seen[] marking
 * the rules this file lists (the rule set owns what is added; on an error
 * the caller frees the whole rule set). */
static zo_status parse_rule_list(rparse *p, const yd_node *seq, char *seen) {
  zo_ruleset *rs = p->rs;
  for (size_t i = 0; i < seq->n; i++) {
    const yd_node *r = seq->kids[i];
    zo_status st = yr_want(&p->r, r, YD_MAP, "a rule");
    if (st) return st;
    const yd_node *id = NULL, *text = NULL, *seed = NULL, *out = NULL, *gap = NULL;
    for (size_t j = 0; j < r->n; j++) {
      const char *k = YD_KEY(r, j)->str;
      if (!strcmp(k, "id")) id = YD_VAL(r, j);
      else if (!strcmp(k, "text")) text = YD_VAL(r, j);
      else if (!strcmp(k, "seed")) seed = YD_VAL(r, j);
      else if (!strcmp(k, "out_of_scope")) out = YD_VAL(r, j);
      else if (!strcmp(k, "language_gap")) gap = YD_VAL(r, j);
      else {
        static const char *const ks[] = {"id", "text", "seed", "out_of_scope", "language_gap"};
        return yr_unknown(&p->r, YD_KEY(r, j), ZO_ERR_SCHEMA, "key", YD_KEY(r, j)->str, "a rule", ks, 5);
      }
    }
    if (!id) return bad(p, r, "missing 'id' in a rule");
    if ((st = want_str(p, id, "rule id"))) return st;
    if (!id->str[0]) return bad(p, id, "a rule id must not be empty");
    if (!text) return bad(p, r, "missing 'text' in rule '%s'", id->str);
    if ((st = want_str(p, text, "rule text"))) return st;
    int isseed = 0;
    if (seed && parse_bool(seed, &isseed))
      return bad(p, seed, "expected true or false for seed");
    if (out && (st = want_str(p, out, "out_of_scope"))) return st;
    if (out && !out->str[0])
      return bad(p, out, "out_of_scope must say why the zone model has nothing of rule '%s' to check",
                 id->str);
    if (out && isseed)
      return bad(p, out, "rule '%s' is a seed rule and out_of_scope: a seed rule needs a case", id->str);
    if (gap && (st = want_str(p, gap, "language_gap"))) return st;
    if (gap && !gap->str[0])
      return bad(p, gap, "language_gap must say what the case language lacks for rule '%s'", id->str);
    if (gap && (isseed || out))
      return bad(p, gap, "rule '%s' has a language_gap: it can't also be a seed rule or out_of_scope",
                 id->str);
    int at = zo_ruleset_rule(rs, id->str);
    if (at >= 0 && seen[at]) {
      int first = 0;
      for (size_t k = 0; k < i && !first; k++) {
        const yd_node *fid = yd_get(seq->kids[k], "id");
        if (fid && fid->kind == YD_SCALAR && !strcmp(fid->str, id->str)) first = fid->line;
      }
      return bad(p, id, "rule '%s' is listed twice (first at line %d)", id->str, first);
    }
    if (at < 0) {
      rs->rules = zo_xrealloc(rs->rules, (size_t)(rs->nrules + 1) * sizeof *rs->rules);
      at = rs->nrules++;
      rs->rules[at].id = zo_xstrdup(id->str);
    } else {
      free(rs->rules[at].text);
      free(rs->rules[at].out_of_scope);
      free(rs->rules[at].language_gap);
    }
    rs->rules[at].text = zo_xstrdup(text->str);
    rs->rules[at].seed = isseed;
    rs->rules[at].out_of_scope = out ? zo_xstrdup(out->str) : NULL;
    rs->rules[at].language_gap = gap ? zo_xstrdup(gap->str) : NULL;
    seen[at] = 1;
  }
  return ZO_OK;
}

/* ---- citations -------------------------------------------------------- */

static zo_status resolve_citations(rparse *p) {
  for (int i = 0; i < p->npend; i++) {
    const yd_node *r = p->pend[i].node;
    zo_cited *c = p->pend[i].at;
    size_t n = r->kind == YD_SEQ ? r->n : 1;
    if (n > 6) return bad(p, r, "at most six rules per citation");
    for (size_t j = 0; j < n; j++) {
      const yd_node *one = r->kind == YD_SEQ ? r->kids[j] : r;
      if (one->kind != YD_SCALAR) return bad(p, one, "expected a rule number");
      int idx = zo_ruleset_rule(p->rs, one->str);
      if (idx < 0)
        return bad(p, one, "rule '%s' is cited but not listed under rules:",
                   one->str);
      c->rules[j] = idx;
    }
    c->nrules = (int)n;
  }
  return ZO_OK;
}


/* Every cited value of a rule set: each zone's attributes (ZO_ZONE_ATTRS,
 * in its order), then the switches. out holds ZO_MAX_ZONE_TYPES * ZA_COUNT
 * + SW_COUNT. */
static int all_cited(zo_ruleset *rs, zo_cited **out) {
  int n = 0;
  for (int z = 0; z < rs->nzones; z++)
    for (int a = 0; a < ZA_COUNT; a++) out[n++] = zo_zone_cited(&rs->zones[z], (zo_zone_attr)a);
  for (int s = 0; s < SW_COUNT; s++) out[n++] = &rs->sw[s];
  return n;
}

/* drop_rules: an extending rule set drops rules of its base that its own
 * text numbers differently; none may still be cited. */
static zo_status drop_rules(rparse *p, const yd_node *seq) {
  zo_ruleset *rs = p->rs;
  if (seq->kind != YD_SEQ) return bad(p, seq, "expected a list of rule numbers for drop_rules");
  int *gone = zo_xcalloc((size_t)rs->nrules + 1, sizeof *gone);
  zo_status st = ZO_OK;
  for (size_t i = 0; i < seq->n && !st; i++) {
    const yd_node *s = seq->kids[i];
    int at = s->kind == YD_SCALAR ? zo_ruleset_rule(rs, s->str) : -1;
    if (at < 0) st = bad(p, s, "drop_rules names '%s', which is not a rule of this rule set",
                         s->kind == YD_SCALAR ? s->str : "?");
    else gone[at] = 1;
  }
  zo_cited *cited_all[ZO_MAX_ZONE_TYPES * ZA_COUNT + SW_COUNT];
  int nc = all_cited(rs, cited_all);
  for (int k = 0; k < nc && !st; k++)
    for (int j = 0; j < cited_all[k]->nrules; j++)
      if (gone[cited_all[k]->rules[j]]) {
        st = bad(p, seq, "rule '%s' is dropped but still cited: re-cite the zone attribute or "
                 "switch that uses it", rs->rules[cited_all[k]->rules[j]].id);
        break;
      }
  if (!st) {
    int *map = zo_xcalloc((size_t)rs->nrules + 1, sizeof *map);
    int n = 0;
    for (int i = 0; i < rs->nrules; i++) {
      if (gone[i]) {
        free(rs->rules[i].id);
        free(rs->rules[i].text);
        free(rs->rules[i].out_of_scope);
        free(rs->rules[i].language_gap);
        map[i] = -1;
      } else {
        map[i] = n;
        rs->rules[n++] = rs->rules[i];
      }
    }
    rs->nrules = n;
    for (int k = 0; k < nc; k++)
      for (int j = 0; j < cited_all[k]->nrules; j++) cited_all[k]->rules[j] = map[cited_all[k]->rules[j]];
    free(map);
  }
  free(gone);
  return st;
}


/* ---- the file ----------------------------------------------------------- */

static const char *const top_keys[] = {"id",       "title", "game",
                                       "extends",  "zones", "switches",
                                       "rules",    "seed_rules", "drop_rules"};
#define NTOP ((int)(sizeof top_keys / sizeof *top_keys))

/* extends: the registered rule set the file starts from, copied wholesale
 * (rule indices stay valid as rules are only appended or re-texted). */
static zo_status inherit(rparse *p, const yd_node *ext) {
  zo_ruleset *rs = p->rs;
  zo_status st = want_str(p, ext, "extends");
  if (st) return st;
  const zo_ruleset *base = p->base_of ? p->base_of(ext->str) : NULL;
  if (!base) return yr_fail(&p->r, ext, ZO_ERR_UNKNOWN, "extends unknown rule set '%s'", ext->str);
  p->base = base;
  memcpy(rs->zones, base->zones, sizeof rs->zones);
  rs->nzones = base->nzones;
  memcpy(rs->sw, base->sw, sizeof rs->sw);
  rs->rules = zo_xcalloc((size_t)base->nrules + 1, sizeof *rs->rules);
  for (int i = 0; i < base->nrules; i++) {
    rs->rules[i].id = zo_xstrdup(base->rules[i].id);
    rs->rules[i].text = zo_xstrdup(base->rules[i].text);
    rs->rules[i].seed = base->rules[i].seed;
    if (base->rules[i].out_of_scope) rs->rules[i].out_of_scope = zo_xstrdup(base->rules[i].out_of_scope);
    if (base->rules[i].language_gap) rs->rules[i].language_gap = zo_xstrdup(base->rules[i].language_gap);
  }
  rs->nrules = base->nrules;
  /* the base's own type words, in its order: the copied zones' bits
     number them */
  for (int i = 0; i < base->nxtypes; i++) zo_type_intern(&rs->xtypes, &rs->nxtypes, base->xtypes[i]);
  rs->game = zo_xstrdup(base->game);
  rs->extends = zo_xstrdup(ext->str);
  return ZO_OK;
}

/* Is game name g a slip of the special name w (three letters): one letter
 * changed, or the same letters in another order ("fba")? */
static int slip_of(const char *g, const char *w) {
  if (strlen(g) != 3 || !strcmp(g, w)) return 0;
  int diff = (g[0] != w[0]) + (g[1] != w[1]) + (g[2] != w[2]);
  char a[4], b[4];
  memcpy(a, g, 4);
  memcpy(b, w, 4);
  for (int i = 0; i < 3; i++) /* sort both: anagrams compare equal */
    for (int j = i + 1; j < 3; j++) {
      if (a[j] < a[i]) { char t = a[i]; a[i] = a[j]; a[j] = t; }
      if (b[j] < b[i]) { char t = b[i]; b[i] = b[j]; b[j] = t; }
    }
  return diff == 1 || !strcmp(a, b);
}

/* id:, title: and game: (which an extending file may leave to its base). */
static zo_status parse_names(rparse *p, const yd_node *root) {
  zo_ruleset *rs = p->rs;
  const yd_node *id = yd_get(root, "id"), *title = yd_get(root, "title"),
                *game = yd_get(root, "game");
  zo_status st;
  if (!id || !title)
    return bad(p, root, "missing '%s' (every rule set has an id and a title)", !id ? "id" : "title");
  if ((st = want_str(p, id, "id"))) return st;
  if (!id->str[0]) return bad(p, id, "id must not be empty (cases name the rule set by it)");
  if ((st = want_str(p, title, "title"))) return st;
  rs->id = zo_xstrdup(id->str);
  rs->id_line = id->line;
  rs->id_col = id->col;
  rs->title = zo_xstrdup(title->str);
  if (game) {
    /* any game, named by a word; only fab changes the model (FaB
       deck-cards), mtg and every other name leave it as it is */
    if ((st = want_str(p, game, "game"))) return st;
    size_t gl = strlen(game->str);
    if (gl == 0 || gl >= ZO_NAME || !(game->str[0] >= 'a' && game->str[0] <= 'z') ||
        strspn(game->str, "abcdefghijklmnopqrstuvwxyz0123456789_-") != gl)
      return bad(p, game, "game '%s' must be a word of lower-case letters, digits, '_' and '-', "
                 "starting with a letter, at most %d characters (mtg and fab have a meaning "
                 "in the model; any other names a game of your own)", game->str, ZO_NAME - 1);
    static const char *const special[] = {"mtg", "fab"};
    for (int i = 0; i < 2; i++)
      if (slip_of(game->str, special[i]))
        return bad(p, game, "game '%s': did you mean '%s'? (mtg and fab are the built-in games; "
                   "name a game of your own by a word further from them)", game->str, special[i]);
    free(rs->game);
    rs->game = zo_xstrdup(game->str);
  }
  if (!rs->game)
    return bad(p, root, "missing 'game' (the game's name: mtg, fab or one of your own; or "
               "extends: a rule set)");
  return ZO_OK;
}

/* seed_rules: exactly these rules are numbered in this rule set's seed text
 * (an extending rule set names its own). */
static zo_status parse_seed_rules(rparse *p, const yd_node *seeds) {
  zo_ruleset *rs = p->rs;
  if (seeds->kind != YD_SEQ) return bad(p, seeds, "expected a list of rule numbers for seed_rules");
  for (int i = 0; i < rs->nrules; i++) rs->rules[i].seed = 0;
  for (size_t i = 0; i < seeds->n; i++) {
    const yd_node *s = seeds->kids[i];
    int at = s->kind == YD_SCALAR ? zo_ruleset_rule(rs, s->str) : -1;
    if (at < 0)
      return bad(p, s, "seed rule '%s' is not listed under rules:", s->kind == YD_SCALAR ? s->str : "?");
    if (rs->rules[at].out_of_scope)
      return bad(p, s, "seed rule '%s' is out_of_scope under rules: a seed rule needs a case", s->str);
    if (rs->rules[at].language_gap)
      return bad(p, s, "seed rule '%s' has a language_gap under rules: a seed rule needs a case", s->str);
    rs->rules[at].seed = 1;
  }
  return ZO_OK;
}

/* The whole file into p->rs, in the order its parts depend on each other. */
static zo_status parse_file(rparse *p, const yd_node *root) {
  zo_ruleset *rs = p->rs;
  const yd_node *v;
  zo_status st = yr_want(&p->r, root, YD_MAP, "a rule set file");
  if (st) return st;
  if ((st = yr_keys(&p->r, root, ZO_ERR_SCHEMA, top_keys, (size_t)NTOP, "a rule set"))) return st;
  if ((v = yd_get(root, "extends")) && (st = inherit(p, v))) return st;
  if ((st = parse_names(p, root))) return st;
  if ((v = yd_get(root, "rules")) && (st = parse_rules(p, v))) return st;
  if ((v = yd_get(root, "seed_rules")) && (st = parse_seed_rules(p, v))) return st;
  if ((v = yd_get(root, "zones"))) {
    if ((st = yr_want(&p->r, v, YD_MAP, "zones"))) return st;
    for (size_t i = 0; i < v->n; i++)
      if ((st = parse_zone(p, YD_KEY(v, i), YD_VAL(v, i)))) return st;
  }
  if ((st = check_zones(p))) return st;
  if ((v = yd_get(root, "switches")) && (st = parse_switches(p, v))) return st;
  if ((st = check_under_limits(p))) return st;
  if ((st = check_ceasing_zones(p))) return st;
  if ((st = resolve_citations(p))) return st;
  if ((v = yd_get(root, "drop_rules")) && (st = drop_rules(p, v))) return st;
  if (rs->nzones == 0) return bad(p, root, "a rule set needs zones:");
  /* number every citation: a game counts hits per citation and turns them
     into rule hits only when asked (zo_game_hits) */
  zo_cited *all[ZO_MAX_ZONE_TYPES * ZA_COUNT + SW_COUNT];
  int n = all_cited(rs, all);
  for (int i = 0; i < n; i++) all[i]->slot = i;
  rs->nslots = n;
  return ZO_OK;
}

zo_status zo_ruleset_parse_doc(const yd_doc *doc, zo_ruleset_lookup base_of, zo_ruleset **out,
                               zo_error *err) {
  rparse p = {.r = {.doc = doc, .err = err}, .base_of = base_of};
  zo_ruleset *rs = zo_xcalloc(1, sizeof *rs);
  p.rs = rs;
  rs->file = zo_xstrdup(doc->file);
  zo_status st = parse_file(&p, doc->root);
  free(p.pend);
  if (st) {
    zo_ruleset_free(rs);
    return st;
  }
  snprintf(rs->digest, sizeof rs->digest, "sha256:%s", doc->sha256);
  if (p.base) { /* chained with the base's: the file means nothing without it */
    char chain[160], hex[65];
    int n = snprintf(chain, sizeof chain, "%s %s", p.base->digest, rs->digest);
    zo_sha256_hex(chain, (size_t)n, hex);
    snprintf(rs->digest, sizeof rs->digest, "sha256:%s", hex);
  }
  *out = rs;
  return ZO_OK;
}

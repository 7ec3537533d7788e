/* ruleset.c: rule set files -> zo_ruleset.
 *
 * A rule set is data (oracle/rulesets/<id>.yaml, embedded at build time): the
 * zone types of one game and era, and the policy switches that differ between
 * eras (oracle/rulesets/RULESETS.md). Every zone attribute and switch is written
 * `{value: V, rule: R}` where R is a rule number or a list of them, or null
 * where the rules text is silent (the cell is "unspecified"); every cited rule
 * must appear in the file's `rules:` list, which is what rule coverage
 * reports. A file may `extends:` another rule set and override any part.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "ruleset.h"
#include "util.h"
#include "yread.h"

/* ---- names ---------------------------------------------------------- */

static const char *const switch_names[SW_COUNT] = {
    "new_object",     "same_zone",     "wrong_owner",     "cannot_hold",
    "trigger_finds",  "then_finds",    "token_leaves",    "token_return",
    "phasing",        "phased_tokens", "keeps",           "history",
    "visibility",     "flip_step",     "no_properties",   "sub_cards",
    "zone_lifecycle", "clear",         "order_chooser",   "replace_chooser",
    "draw_empty",     "copies",        "abilities",       "ante",
    "stack_layers",   "macros",        "arena_default",   "look",
    "outside"};

static const char *const value_names[ZS_COUNT_] = {
    "none",           "yes",          "every_move",         "leave_arena",
    "no_move",        "redirect",     "cannot_hold",        "stays",
    "fail_or_clear",  "public_zone",  "public_object",      "at_state_check",
    "immediately",    "not_battlefield", "status",          "cease",
    "survive",        "spell_to_permanent", "kept",         "per_zone",
    "per_object",     "owner_graveyard", "owner",           "zone_controller",
    "controller_or_owner", "turn_player", "lose_at_state_check", "fails",
    "cease_off_stack", "stack_only",  "winner_owns",        "leave_arena_removed",
    "permanent_zone", "hand_owner",   "owner_not_deck",     "not_a_zone",
    "moved_to",       "zone",         "spell_characteristics", "cannot_move",
    "removed_is_outside"};

const char *zo_switch_name(zo_switch s) {
  return (unsigned)s < SW_COUNT ? switch_names[s] : "?";
}

const char *zo_switch_value_name(int v) {
  return v >= 0 && v < ZS_COUNT_ ? value_names[v] : "?";
}

static const char *const role_names[] = {"none",        "library", "hand",
                                         "graveyard",   "battlefield",
                                         "stack",       "exile",   "command",
                                         "ante",        "other",   "phased_out"};
#define NROLES ((int)(sizeof role_names / sizeof *role_names))

static const char *const hold_names[] = {"deck_cards", "cards", "permanents",
                                         "proxies",    "hero",  "equip",
                                         "no_instants"};

/* ---- type words -> bits ---------------------------------------------- */

/* The vocabulary (model.h): words with a meaning in the model (game.c),
 * the invariant checker (obs_check.c) or the fuzzers' palettes, and the
 * words of the built-in rule sets' equip:/keeps: lists. Constant: bit i is
 * vocab[i] in every process. Append only (fuzz corpora encode bits). */
static const char *const vocab[ZO_NVOCAB] = {
    /* the model's own (RULESETS.md, type words the model knows) */
    "instant", "sorcery", "token", "hero", "2h", "bow", "quiver",
    "action", "attack_reaction", "block", "defense_reaction", "mentor", "resource",
    "affliction", "ally", "ash", "aura", "construct", "figment", "invocation",
    "item", "landmark",
    /* equip: and keeps: of the built-in rule sets (FaB 3.x.2a, CR 400.4b) */
    "arms", "chest", "head", "legs", "weapon", "off-hand",
    "plane", "vanguard", "scheme", "conspiracy", "phenomenon",
    /* the fuzz decoder's palettes */
    "creature", "artifact", "enchantment", "land", "equipment", "1h"};

/* Vocabulary bit of word, or 0. Pure: reads the constant table only. */
uint64_t zo_type_bit(const char *word) {
  for (int i = 0; i < ZO_NVOCAB; i++)
    if (strcmp(vocab[i], word) == 0) return (uint64_t)1 << i;
  return 0;
}

const char *zo_type_word(int i) { return i >= 0 && i < ZO_NVOCAB ? vocab[i] : NULL; }

/* A file's own table of words (model.h): the vocabulary bit, the word's
 * bit in the table, a new bit appended (the table grows; the caller owns
 * it), or 0 when the table is full. */
uint64_t zo_type_intern(char ***words, int *n, const char *word) {
  uint64_t b = zo_type_bit(word);
  if (b) return b;
  for (int i = 0; i < *n; i++)
    if (strcmp((*words)[i], word) == 0) return (uint64_t)1 << (ZO_NVOCAB + i);
  if (*n >= ZO_MAX_XTYPES) return 0;
  *words = zo_xrealloc(*words, (size_t)(*n + 1) * sizeof **words);
  (*words)[*n] = zo_xstrdup(word);
  return (uint64_t)1 << (ZO_NVOCAB + (*n)++);
}

/* ---- lookup ---------------------------------------------------------- */

int zo_ruleset_zone(const zo_ruleset *rs, const char *name) {
  for (int i = 0; i < rs->nzones; i++)
    if (strcmp(rs->zones[i].name, name) == 0) return i;
  return -1;
}

int zo_ruleset_rule(const zo_ruleset *rs, const char *id) {
  for (int i = 0; i < rs->nrules; i++)
    if (strcmp(rs->rules[i].id, id) == 0) return i;
  return -1;
}

const char *zo_ruleset_id(const zo_ruleset *rs) { return rs->id; }
const char *zo_ruleset_title(const zo_ruleset *rs) { return rs->title; }
size_t zo_ruleset_rule_count(const zo_ruleset *rs) { return (size_t)rs->nrules; }
const char *zo_ruleset_rule_id(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].id;
}
const char *zo_ruleset_rule_text(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].text;
}
int zo_ruleset_rule_is_seed(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].seed;
}

void zo_ruleset_free(zo_ruleset *rs) {
  if (!rs) return;
  for (int i = 0; i < rs->nrules; i++) {
    free(rs->rules[i].id);
    free(rs->rules[i].text);
  }
  free(rs->rules);
  for (int i = 0; i < rs->nxtypes; i++) free(rs->xtypes[i]);
  free(rs->xtypes);
  free(rs->id);
  free(rs->title);
  free(rs->game);
  free(rs->extends);
  free(rs->file);
  free(rs);
}

/* ---- parsing ------------------------------------------------------- */

typedef struct {
  yr_reader r;
  zo_ruleset *rs;
  /* citations are resolved after `rules:` is read: remember them */
  struct pending {
    zo_cited *at;
    const yd_node *node;
  } *pend;
  int npend, cappend;
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

static zo_status cited_int(rparse *p, const yd_node *n, const char *what,
                           zo_cited *out) {
  const yd_node *v;
  zo_status st = cited(p, n, what, out, &v);
  if (st) return st;
  /* digits only: an empty value, a sign, spaces or a quoted number are
     not a whole number (strtol would read "" as 0) */
  int digits = v->kind == YD_SCALAR && v->plain && v->str[0];
  for (const char *c = digits ? v->str : ""; *c; c++)
    if (*c < '0' || *c > '9') digits = 0;
  long x = digits && strlen(v->str) <= 3 ? strtol(v->str, NULL, 10) : -1;
  if (x < 0 || x > 64)
    return bad(p, v, "expected a whole number 0..64 for %s", what);
  out->value = (int)x;
  return ZO_OK;
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
    uint64_t b = zo_type_intern(&p->rs->xtypes, &p->rs->nxtypes, w->str);
    if (!b)
      return bad(p, w, "type word '%s': a rule set may use at most %d type words the model "
                 "does not know (for %s)", w->str, ZO_MAX_XTYPES, what);
    *bits |= b;
  }
  return ZO_OK;
}

static const char *const zone_keys[] = {
    "role",  "per_player", "count",    "visibility",    "ordered",
    "arena", "controller", "capacity", "owner_only",    "holds",
    "equip", "reorder",    "same_zone_new", "keeps",    "face_down_new"};

static zo_status parse_zone(rparse *p, const yd_node *key, const yd_node *m) {
  zo_ruleset *rs = p->rs;
  zo_status st = yr_want(&p->r, m, YD_MAP, "a zone");
  if (st) return st;
  int zi = zo_ruleset_zone(rs, key->str);
  if (zi < 0) {
    if (rs->nzones == ZO_MAX_ZONE_TYPES)
      return bad(p, key, "more than %d zone types", ZO_MAX_ZONE_TYPES);
    if (strlen(key->str) >= ZO_NAME || strchr(key->str, '.'))
      return bad(p, key, "zone name '%s' must be a short word without '.'",
                 key->str);
    zi = rs->nzones++;
    memset(&rs->zones[zi], 0, sizeof rs->zones[zi]);
    snprintf(rs->zones[zi].name, ZO_NAME, "%s", key->str);
    rs->zones[zi].count.value = 1;
  }
  zo_zone_type *z = &rs->zones[zi];
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    const char *s = k->str;
    char what[80];
    snprintf(what, sizeof what, "zone %s, %s", z->name, s);
    const yd_node *val;
    if (!strcmp(s, "role")) {
      if ((st = want_str(p, v, what))) return st;
      int r = yr_index(v->str, role_names, (size_t)NROLES);
      if (r < 0) {
        const char *near = zo_nearest(v->str, role_names, NROLES);
        return bad(p, v, "unknown role '%s'%s%s%s", v->str,
                   near ? " (did you mean '" : "", near ? near : "",
                   near ? "'?)" : "");
      }
      z->role = (zo_zone_role)r;
    } else if (!strcmp(s, "per_player")) st = cited_bool(p, v, what, &z->per_player);
    else if (!strcmp(s, "count")) st = cited_int(p, v, what, &z->count);
    else if (!strcmp(s, "ordered")) st = cited_bool(p, v, what, &z->ordered);
    else if (!strcmp(s, "arena")) st = cited_bool(p, v, what, &z->arena);
    else if (!strcmp(s, "controller")) st = cited_bool(p, v, what, &z->controller);
    else if (!strcmp(s, "capacity")) st = cited_int(p, v, what, &z->capacity);
    else if (!strcmp(s, "owner_only")) st = cited_bool(p, v, what, &z->owner_only);
    else if (!strcmp(s, "reorder")) st = cited_bool(p, v, what, &z->reorder);
    else if (!strcmp(s, "same_zone_new")) st = cited_bool(p, v, what, &z->same_zone_new);
    else if (!strcmp(s, "face_down_new")) st = cited_bool(p, v, what, &z->face_down_new);
    else if (!strcmp(s, "visibility")) {
      if ((st = cited(p, v, what, &z->pub, &val))) return st;
      if (val->kind != YD_SCALAR ||
          (strcmp(val->str, "public") && strcmp(val->str, "hidden") &&
           strcmp(val->str, "private")))
        return bad(p, val, "expected public, hidden or private for %s", what);
      z->pub.value = strcmp(val->str, "public") == 0;
    } else if (!strcmp(s, "holds")) {
      if ((st = cited(p, v, what, &z->holds, &val))) return st;
      if (val->kind != YD_SEQ) return bad(p, val, "expected a list for %s", what);
      z->holds.value = 0;
      for (size_t j = 0; j < val->n; j++) {
        const yd_node *h = val->kids[j];
        if ((st = want_str(p, h, what))) return st;
        int b = yr_index(h->str, hold_names, (size_t)7);
        if (b < 0) {
          char list[200];
          zo_join(list, sizeof list, hold_names, 7);
          const char *near = zo_nearest(h->str, hold_names, 7);
          return bad(p, h, "unknown holds value '%s'%s%s%s (expected one of: "
                           "%s)", h->str, near ? " (did you mean '" : "",
                     near ? near : "", near ? "'?)" : "", list);
        }
        z->holds.value |= 1 << b;
      }
    } else if (!strcmp(s, "equip")) {
      /* the citation lives in the zone type: resolve_citations writes its
         rule indices later (a local here would be gone by then) */
      if ((st = cited(p, v, what, &z->equip, &val))) return st;
      st = type_list(p, val, what, &z->equip_types);
    } else if (!strcmp(s, "keeps")) {
      if ((st = cited(p, v, what, &z->keeps, &val))) return st;
      st = type_list(p, val, what, &z->keep_types);
      z->keeps.value = z->keep_types != 0;
    } else {
      return yr_unknown(&p->r, k, ZO_ERR_SCHEMA, "key", k->str, "a zone", zone_keys,
                        sizeof zone_keys / sizeof *zone_keys);
    }
    if (st) return st;
  }
  return ZO_OK;
}

/* The values each switch takes (oracle/rulesets/RULESETS.md, Switches; the
 * same lists as oracle/rulesets/schema.json), ended by -1. A switch left
 * out of a file is none, which for some switches reads as one of its
 * values; written, it must be one of these. */
static const signed char switch_values[SW_COUNT][5] = {
    [SW_NEW_OBJECT] = {ZS_EVERY_MOVE, ZS_LEAVE_ARENA, -1},
    [SW_SAME_ZONE] = {ZS_NO_MOVE, -1},
    [SW_WRONG_OWNER] = {ZS_REDIRECT, ZS_CANNOT_HOLD, -1},
    [SW_CANNOT_HOLD] = {ZS_STAYS, ZS_FAIL_OR_CLEAR, -1},
    [SW_TRIGGER_FINDS] = {ZS_NONE, ZS_MOVED_TO, ZS_PUBLIC_ZONE, ZS_PUBLIC_OBJECT, -1},
    [SW_THEN_FINDS] = {ZS_NONE, ZS_MOVED_TO, ZS_PUBLIC_ZONE, ZS_PUBLIC_OBJECT, -1},
    [SW_TOKEN_LEAVES] = {ZS_NONE, ZS_AT_STATE_CHECK, ZS_IMMEDIATELY, -1},
    [SW_TOKEN_RETURN] = {ZS_NONE, ZS_NOT_BATTLEFIELD, ZS_CANNOT_MOVE, -1},
    [SW_PHASING] = {ZS_NONE, ZS_STATUS, ZS_ZONE, -1},
    [SW_PHASED_TOKENS] = {ZS_NONE, ZS_CEASE, ZS_SURVIVE, -1},
    [SW_KEEPS] = {ZS_NONE, ZS_SPELL_CHARACTERISTICS, ZS_SPELL_TO_PERMANENT, -1},
    [SW_HISTORY] = {ZS_NONE, ZS_KEPT, -1},
    [SW_VISIBILITY] = {ZS_PER_ZONE, ZS_PER_OBJECT, -1},
    [SW_FLIP_STEP] = {ZS_NONE, ZS_YES, -1},
    [SW_NO_PROPERTIES] = {ZS_NONE, ZS_YES, -1},
    [SW_SUB_CARDS] = {ZS_NONE, ZS_YES, -1},
    [SW_ZONE_LIFECYCLE] = {ZS_NONE, ZS_YES, -1},
    [SW_CLEAR] = {ZS_NONE, ZS_OWNER_GRAVEYARD, -1},
    [SW_ORDER_CHOOSER] = {ZS_OWNER, ZS_ZONE_CONTROLLER, -1},
    [SW_REPLACE_CHOOSER] = {ZS_CONTROLLER_OR_OWNER, ZS_TURN_PLAYER, -1},
    [SW_DRAW_EMPTY] = {ZS_LOSE_AT_STATE_CHECK, ZS_FAILS, -1},
    [SW_COPIES] = {ZS_NONE, ZS_CEASE_OFF_STACK, -1},
    [SW_ABILITIES] = {ZS_STACK_ONLY, -1},
    [SW_ANTE] = {ZS_NONE, ZS_WINNER_OWNS, -1},
    [SW_STACK_LAYERS] = {ZS_NONE, ZS_YES, -1},
    [SW_MACROS] = {ZS_NONE, ZS_LEAVE_ARENA_REMOVED, -1},
    [SW_ARENA_DEFAULT] = {ZS_NONE, ZS_PERMANENT_ZONE, -1},
    [SW_LOOK] = {ZS_HAND_OWNER, ZS_OWNER_NOT_DECK, -1},
    [SW_OUTSIDE] = {ZS_NOT_A_ZONE, ZS_REMOVED_IS_OUTSIDE, -1}};

/* The value word of switch s named by node val, checked against the
 * switch's own values (switch_values): a word of another switch, or no
 * value word at all, is refused at val with the switch's list (and the
 * nearest of its words). Returns the ZS_* value in *out. */
static zo_status switch_value(rparse *p, int s, const yd_node *val, const char *what, int *out) {
  const char *mine[6];
  int n = 0;
  for (int i = 0; i < 5 && switch_values[s][i] >= 0; i++) {
    int v = switch_values[s][i];
    if (!strcmp(val->str, value_names[v])) {
      *out = v;
      return ZO_OK;
    }
    mine[n++] = value_names[v];
  }
  char list[200];
  zo_join(list, sizeof list, mine, (size_t)n);
  const char *near = zo_nearest(val->str, mine, (size_t)n);
  if (!strcmp(val->str, "none")) /* the unwritten value of this switch */
    return bad(p, val, "'none' is not a value of %s: leave the switch out for its default, or "
               "write one of: %s", what, list);
  if (yr_index(val->str, value_names, (size_t)ZS_COUNT_) >= 0)
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
    int s = yr_index(k->str, switch_names, (size_t)SW_COUNT);
    if (s < 0)
      return yr_unknown(&p->r, k, ZO_ERR_SCHEMA, "key", k->str, "switches", switch_names, SW_COUNT);
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

static zo_status parse_rule_list(rparse *p, const yd_node *seq, char *seen);

/* rules: a list of {id, text, seed}. An id of the base (extends:) gets
 * this file's text; an id listed twice in this file, or an empty one, is
 * refused at the second one. */
static zo_status parse_rules(rparse *p, const yd_node *seq) {
  zo_ruleset *rs = p->rs;
  if (!seq || seq->kind != YD_SEQ)
    return bad(p, seq, "expected a list of {id, text, seed} for rules");
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
    const yd_node *id = NULL, *text = NULL, *seed = NULL;
    for (size_t j = 0; j < r->n; j++) {
      const char *k = YD_KEY(r, j)->str;
      if (!strcmp(k, "id")) id = YD_VAL(r, j);
      else if (!strcmp(k, "text")) text = YD_VAL(r, j);
      else if (!strcmp(k, "seed")) seed = YD_VAL(r, j);
      else {
        static const char *const ks[] = {"id", "text", "seed"};
        return yr_unknown(&p->r, YD_KEY(r, j), ZO_ERR_SCHEMA, "key", YD_KEY(r, j)->str, "a rule", ks, 3);
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
    }
    rs->rules[at].text = zo_xstrdup(text->str);
    rs->rules[at].seed = isseed;
    seen[at] = 1;
  }
  return ZO_OK;
}

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

static const zo_ruleset *find_any(const char *id);

#define ZO_CITED_PER_ZONE 14 /* cited attributes of a zone type (all_cited) */

/* Every cited value of a rule set (zone attributes and switches). */
static int all_cited(zo_ruleset *rs, zo_cited **out, int cap) {
  int n = 0;
  for (int z = 0; z < rs->nzones; z++) {
    zo_zone_type *t = &rs->zones[z];
    zo_cited *f[] = {&t->per_player, &t->count,      &t->pub,      &t->ordered,
                     &t->arena,      &t->controller, &t->capacity, &t->owner_only,
                     &t->holds,      &t->reorder,    &t->same_zone_new, &t->keeps,
                     &t->face_down_new, &t->equip};
    for (size_t i = 0; i < sizeof f / sizeof *f && n < cap; i++) out[n++] = f[i];
  }
  for (int s = 0; s < SW_COUNT && n < cap; s++) out[n++] = &rs->sw[s];
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
  zo_cited *cited_all[ZO_MAX_ZONE_TYPES * ZO_CITED_PER_ZONE + SW_COUNT];
  int nc = all_cited(rs, cited_all, (int)(sizeof cited_all / sizeof *cited_all));
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

static const char *const top_keys[] = {"id",       "title", "game",
                                       "extends",  "zones", "switches",
                                       "rules",    "seed_rules", "drop_rules"};
#define NTOP ((int)(sizeof top_keys / sizeof *top_keys))

static zo_status parse_doc(const yd_doc *doc, zo_ruleset **out, zo_error *err) {
  rparse p = {.r = {.doc = doc, .err = err}};
  zo_ruleset *rs = zo_xcalloc(1, sizeof *rs);
  p.rs = rs;
  rs->file = zo_xstrdup(doc->file);
  zo_status st = ZO_OK;
  const yd_node *root = doc->root;
  if ((st = yr_want(&p.r, root, YD_MAP, "a rule set file"))) goto done;
  for (size_t i = 0; i < root->n; i++) {
    const yd_node *k = YD_KEY(root, i);
    if (yr_index(k->str, top_keys, (size_t)NTOP) < 0) {
      st = yr_unknown(&p.r, k, ZO_ERR_SCHEMA, "key", k->str, "a rule set", top_keys, (size_t)NTOP);
      goto done;
    }
  }
  const yd_node *ext = yd_get(root, "extends");
  if (ext) {
    if ((st = want_str(&p, ext, "extends"))) goto done;
    const zo_ruleset *base = find_any(ext->str);
    if (!base) {
      st = yr_fail(&p.r, ext, ZO_ERR_UNKNOWN, "extends unknown rule set '%s'", ext->str);
      goto done;
    }
    /* copy the base wholesale; rule indices stay valid as rules are only
       appended or re-texted */
    memcpy(rs->zones, base->zones, sizeof rs->zones);
    rs->nzones = base->nzones;
    memcpy(rs->sw, base->sw, sizeof rs->sw);
    rs->rules = zo_xcalloc((size_t)base->nrules + 1, sizeof *rs->rules);
    for (int i = 0; i < base->nrules; i++) {
      rs->rules[i].id = zo_xstrdup(base->rules[i].id);
      rs->rules[i].text = zo_xstrdup(base->rules[i].text);
      rs->rules[i].seed = base->rules[i].seed;
    }
    rs->nrules = base->nrules;
    /* the base's own type words, in its order: the copied zones' bits
       number them */
    for (int i = 0; i < base->nxtypes; i++)
      zo_type_intern(&rs->xtypes, &rs->nxtypes, base->xtypes[i]);
    rs->game = zo_xstrdup(base->game);
    rs->extends = zo_xstrdup(ext->str);
  }
  const yd_node *id = yd_get(root, "id"), *title = yd_get(root, "title"),
                *game = yd_get(root, "game");
  if (!id || !title) {
    st = bad(&p, root, "missing '%s' (every rule set has an id and a title)", !id ? "id" : "title");
    goto done;
  }
  if ((st = want_str(&p, id, "id"))) goto done;
  if (!id->str[0]) {
    st = bad(&p, id, "id must not be empty (cases name the rule set by it)");
    goto done;
  }
  if ((st = want_str(&p, title, "title"))) goto done;
  rs->id = zo_xstrdup(id->str);
  rs->id_line = id->line;
  rs->id_col = id->col;
  rs->title = zo_xstrdup(title->str);
  if (game) {
    /* the games the model knows: only fab changes it (FaB deck-cards) */
    static const char *const games[] = {"mtg", "fab"};
    if ((st = want_str(&p, game, "game"))) goto done;
    if (yr_index(game->str, games, 2) < 0) {
      st = yr_unknown(&p.r, game, ZO_ERR_SCHEMA, "game", game->str, NULL, games, 2);
      goto done;
    }
    free(rs->game);
    rs->game = zo_xstrdup(game->str);
  }
  if (!rs->game) {
    st = bad(&p, root, "missing 'game' (mtg or fab, or extends: a rule set)");
    goto done;
  }
  const yd_node *rules = yd_get(root, "rules");
  if (rules && (st = parse_rules(&p, rules))) goto done;
  /* seed_rules: exactly these rules are numbered in this rule set's seed
     text (an extending rule set names its own) */
  const yd_node *seeds = yd_get(root, "seed_rules");
  if (seeds) {
    if (seeds->kind != YD_SEQ) {
      st = bad(&p, seeds, "expected a list of rule numbers for seed_rules");
      goto done;
    }
    for (int i = 0; i < rs->nrules; i++) rs->rules[i].seed = 0;
    for (size_t i = 0; i < seeds->n; i++) {
      const yd_node *s = seeds->kids[i];
      int at = s->kind == YD_SCALAR ? zo_ruleset_rule(rs, s->str) : -1;
      if (at < 0) {
        st = bad(&p, s, "seed rule '%s' is not listed under rules:",
                 s->kind == YD_SCALAR ? s->str : "?");
        goto done;
      }
      rs->rules[at].seed = 1;
    }
  }
  const yd_node *zones = yd_get(root, "zones");
  if (zones) {
    if ((st = yr_want(&p.r, zones, YD_MAP, "zones"))) goto done;
    for (size_t i = 0; i < zones->n; i++)
      if ((st = parse_zone(&p, YD_KEY(zones, i), YD_VAL(zones, i)))) goto done;
  }
  const yd_node *sw = yd_get(root, "switches");
  if (sw && (st = parse_switches(&p, sw))) goto done;
  if ((st = resolve_citations(&p))) goto done;
  const yd_node *drops = yd_get(root, "drop_rules");
  if (drops && (st = drop_rules(&p, drops))) goto done;
  if (rs->nzones == 0) {
    st = bad(&p, root, "a rule set needs zones:");
    goto done;
  }
  {
    /* number every citation: a game counts hits per citation and turns
       them into rule hits only when asked (zo_game_hits) */
    zo_cited *all[ZO_MAX_ZONE_TYPES * ZO_CITED_PER_ZONE + SW_COUNT];
    int n = all_cited(rs, all, (int)(sizeof all / sizeof *all));
    for (int i = 0; i < n; i++) all[i]->slot = i;
    rs->nslots = n;
  }
done:
  free(p.pend);
  if (st) {
    zo_ruleset_free(rs);
    return st;
  }
  *out = rs;
  return ZO_OK;
}

/* ---- the embedded registry ------------------------------------------ */

extern const size_t zo_embedded_count;
extern const char *const zo_embedded_names[];
extern const char *const zo_embedded_texts[];
extern const size_t zo_embedded_lens[];

static zo_ruleset **registry;
static size_t nregistry;

static void registry_init(void) {
  if (registry) return;
  registry = zo_xcalloc(zo_embedded_count + 1, sizeof *registry);
  /* parse in dependency order: a file whose base is not loaded yet waits */
  int progress = 1;
  char *done = zo_xcalloc(zo_embedded_count + 1, 1);
  while (progress) {
    progress = 0;
    for (size_t i = 0; i < zo_embedded_count; i++) {
      if (done[i]) continue;
      yd_doc doc;
      zo_error err = {0};
      if (yd_parse(zo_embedded_names[i], zo_embedded_texts[i],
                   zo_embedded_lens[i], &doc, &err)) {
        fprintf(stderr, "zoneoracle: embedded %s:%d:%d: %s\n", err.file,
                err.line, err.column, err.message);
        abort();
      }
      const yd_node *ext = yd_get(doc.root, "extends");
      if (ext && ext->kind == YD_SCALAR && !find_any(ext->str)) {
        yd_free(&doc);
        continue;
      }
      zo_ruleset *rs;
      if (parse_doc(&doc, &rs, &err)) {
        fprintf(stderr, "zoneoracle: embedded %s:%d:%d: %s\n", err.file,
                err.line, err.column, err.message);
        abort();
      }
      yd_free(&doc);
      registry[nregistry++] = rs;
      done[i] = 1;
      progress = 1;
    }
  }
  free(done);
  if (nregistry != zo_embedded_count) {
    fprintf(stderr, "zoneoracle: an embedded rule set extends a missing one\n");
    abort();
  }
}

static const zo_ruleset *find_any(const char *id) {
  for (size_t i = 0; i < nregistry; i++)
    if (strcmp(registry[i]->id, id) == 0) return registry[i];
  return NULL;
}

size_t zo_ruleset_count(void) {
  registry_init();
  return nregistry;
}

const zo_ruleset *zo_ruleset_at(size_t i) {
  registry_init();
  return i < nregistry ? registry[i] : NULL;
}

const zo_ruleset *zo_ruleset_find(const char *id) {
  registry_init();
  return find_any(id);
}

/* Takes rs in every case: on ZO_ERR_USAGE (its id is taken) rs is freed,
 * with err at the file's `id:`. */
zo_status zo_ruleset_register(zo_ruleset *rs, zo_error *err) {
  registry_init();
  if (find_any(rs->id)) {
    zo_error_set(err, ZO_ERR_USAGE, rs->file, rs->id_line > 0 ? rs->id_line : 1,
                 rs->id_col > 0 ? rs->id_col : 1, "a rule set with id '%s' is already loaded",
                 rs->id);
    zo_ruleset_free(rs);
    return ZO_ERR_USAGE;
  }
  registry = zo_xrealloc(registry, (nregistry + 2) * sizeof *registry);
  registry[nregistry++] = rs;
  return ZO_OK;
}

zo_status zo_ruleset_load_mem(const char *name, const char *text, size_t len,
                              zo_ruleset **out, zo_error *err) {
  registry_init();
  yd_doc doc;
  zo_status st = yd_parse(name, text, len, &doc, err);
  if (st) return st;
  st = parse_doc(&doc, out, err);
  yd_free(&doc);
  return st;
}

zo_status zo_ruleset_load_file(const char *path, zo_ruleset **out,
                               zo_error *err) {
  registry_init();
  yd_doc doc;
  zo_status st = yd_parse_file(path, &doc, err);
  if (st) return st;
  st = parse_doc(&doc, out, err);
  yd_free(&doc);
  return st;
}

/* ---- mutants (zoneoracle mutants): one switch or attribute changed ---- */

int zo_ruleset_index(const zo_ruleset *rs) {
  for (size_t i = 0; i < nregistry; i++)
    if (registry[i] == rs) return (int)i;
  return -1;
}

/* Swap the registry entry at i for rs; returns the one it held (the caller
 * keeps both and swaps back). */
zo_ruleset *zo_ruleset_swap(int i, zo_ruleset *rs) {
  registry_init();
  zo_ruleset *old = registry[i];
  registry[i] = rs;
  return old;
}

/* A shallow copy that shares rule texts with its original (not to be freed
 * with zo_ruleset_free: free() it). */
zo_ruleset *zo_ruleset_clone_shallow(const zo_ruleset *rs) {
  zo_ruleset *m = zo_xmalloc(sizeof *m);
  *m = *rs;
  return m;
}

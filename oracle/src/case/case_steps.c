/* case_steps.c: a case's steps (cases/README.md, Steps): the `steps:` list
 * of a file, and one step appended later (`serve`, ci/protocol/PROTOCOL.md).
 * Every step kind is a row of ZO_STEP_KINDS (steps.def): its options, each
 * with a type (ZO_OPTION_TYPES, case.h), the field it fills and its flags.
 * parse_step checks what the row says (a map of those options, or none;
 * whether it may be a then:/do: step), reads every option by its type
 * (read_option), and runs the kind's check_<name> where the row has one,
 * for what no single option can say ("costs: needs cause: cast"). A new
 * step kind needs nothing here unless it has such a rule. */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_read.h"
#include "util.h"
#include "yjson.h"

/* ---- the table ------------------------------------------------------- */

typedef zo_status step_check(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                             zo_step *s);

#define UNPAREN(...) __VA_ARGS__
#define O(key, ...) #key,
#define OF(key, ...) #key,
#define ROW_KEYS(id, name, feature, nestable, generated, check, rule, opts) \
  static const char *const keys_##name[] = {UNPAREN opts NULL};
ZO_STEP_KINDS(ROW_KEYS)
#undef O
#undef OF
#define CHECK_0(name) NULL
#define CHECK_1(name) check_##name
#define DECLARE_0(name)
#define DECLARE_1(name) static step_check check_##name;
#define ROW_DECLARE(id, name, feature, nestable, generated, check, ...) DECLARE_##check(name)
ZO_STEP_KINDS(ROW_DECLARE)
#define ROW_KIND(id, name, feature, nestable, generated, check, rule, opts) \
  [id] = {keys_##name, CHECK_##check(name)},
/* Each kind's option words (NULL-terminated, for "expected one of") and
 * its check, or NULL. */
static const struct {
  const char *const *keys;
  step_check *check;
} kinds[ST_COUNT] = {ZO_STEP_KINDS(ROW_KIND)};
#undef ROW_KEYS
#undef ROW_DECLARE
#undef ROW_KIND

static size_t count_keys(const char *const *keys) {
  size_t n = 0;
  while (keys[n]) n++;
  return n;
}

static zo_status read_options(cr_parser *p, zo_step_kind kind, const yd_node *opts,
                              const yd_node *at, int nested, zo_step *s);

/* Step `kind` with options opts, written at key at, into s; nested: it is
 * a then:/do: step (acting on the moved or tracked object). */
static zo_status parse_step(cr_parser *p, zo_step_kind kind, const yd_node *opts,
                            const yd_node *at, int nested, zo_step *s) {
  zo_status st;
  const char *name = zo_step_kind_names[kind];
  size_t nkeys = count_keys(kinds[kind].keys);
  zo_step_defaults(s, kind);
  s->line = at->line;
  s->col = at->col;
  if (nkeys == 0) {
    if (!yd_is_null(opts) && !(opts->kind == YD_MAP && opts->n == 0))
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s takes no options (write '- %s: {}')", name,
                     name);
  } else {
    if (opts->kind != YD_MAP)
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "expected a map of options for %s", name);
    if ((st = yr_keys(&p->r, opts, ZO_ERR_UNKNOWN, kinds[kind].keys, nkeys, name))) return st;
  }
  if (nested && !zo_step_kind_nestable(kind))
    return yr_fail(&p->r, at, ZO_ERR_SCHEMA, "%s can't be a then:/do: step", name);
  if (nkeys && (st = read_options(p, kind, opts, at, nested, s))) return st;
  return kinds[kind].check ? kinds[kind].check(p, opts, at, nested, s) : ZO_OK;
}

/* The one step of a then: or do: map v (`key` names it) into a new *out. */
static zo_status nested_step(cr_parser *p, const yd_node *v, const char *key, zo_step **out) {
  char what[32];
  snprintf(what, sizeof what, "%s (one step)", key);
  zo_status st = yr_want(&p->r, v, YD_MAP, what);
  if (st) return st;
  if (v->n != 1) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s: holds exactly one step", key);
  const yd_node *tk = YD_KEY(v, 0);
  int kk = zo_step_kind_parse(tk->str);
  if (kk < 0)
    return yr_unknown(&p->r, tk, ZO_ERR_UNKNOWN, "step", tk->str, NULL, zo_step_kind_names,
                      ST_COUNT);
  *out = zo_xcalloc(1, sizeof **out);
  return parse_step(p, (zo_step_kind)kk, YD_VAL(v, 0), tk, 1, *out);
}

/* A list of steps (sequence v) into s->costs: each a step of a nestable
 * kind naming its own object, without expect: and without a list of its
 * own; `key` names the list in errors (costs, instead, steps). */
static zo_status step_list(cr_parser *p, const yd_node *v, const char *key, zo_step *s) {
  zo_status st;
  s->costs = zo_xcalloc(v->n ? v->n : 1, sizeof *s->costs);
  for (size_t i = 0; i < v->n; i++) {
    const yd_node *m = v->kids[i];
    if ((st = yr_want(&p->r, m, YD_MAP, "a step"))) return st;
    if (m->n != 1) return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "a step of %s: is a map of one step", key);
    const yd_node *tk = YD_KEY(m, 0);
    int kk = zo_step_kind_parse(tk->str);
    if (kk < 0)
      return yr_unknown(&p->r, tk, ZO_ERR_UNKNOWN, "step", tk->str, NULL, zo_step_kind_names,
                        ST_COUNT);
    if (!zo_step_kind_nestable((zo_step_kind)kk))
      return yr_fail(&p->r, tk, ZO_ERR_SCHEMA, "%s can't be a step of %s:", tk->str, key);
    s->ncosts++; /* counted first so a half-parsed step is freed too */
    if ((st = parse_step(p, (zo_step_kind)kk, YD_VAL(m, 0), tk, 0, &s->costs[i]))) return st;
    if (s->costs[i].ncosts)
      return yr_fail(&p->r, tk, ZO_ERR_SCHEMA, "%s: can't hold a move with costs: of its own", key);
  }
  return ZO_OK;
}

/* A move inside another step (map m, at node at) into s: its keys are a
 * move's, without costs: (moves: of move_together, nested 0; instead: of
 * replace, nested 1). */
static zo_status inner_move(cr_parser *p, const yd_node *m, const yd_node *at, int nested,
                            zo_step *s) {
  zo_step_defaults(s, ST_MOVE);
  s->line = at->line;
  s->col = at->col;
  zo_status st = yr_keys(&p->r, m, ZO_ERR_UNKNOWN, keys_move, count_keys(keys_move), "move");
  if (st) return st;
  const yd_node *c = yd_get(m, "costs");
  if (c) return yr_fail(&p->r, c, ZO_ERR_SCHEMA, "costs: is for a move step, not inside "
                        "moves: or instead:");
  return read_options(p, ST_MOVE, m, at, nested, s);
}

/* ---- reading one option by its type ------------------------------------ */

/* The object of a step: card: or ref:, one of them unless nested, where
 * the step acts on the moved or tracked object and names none. */
static zo_status object_pair(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                             zo_step *s) {
  const yd_node *c = yd_get(opts, "card"), *r = yd_get(opts, "ref");
  if (c && r) return yr_fail(&p->r, r, ZO_ERR_SCHEMA, "give card: or ref:, not both");
  if (nested) {
    if (c || r)
      return yr_fail(&p->r, c ? c : r, ZO_ERR_SCHEMA, "a then:/do: step acts on the moved or "
                     "tracked object: leave out card: and ref:");
    return ZO_OK;
  }
  if (c) return cr_handle(p, c, "card", &s->card);
  if (r) return cr_named(p, r, "reference", p->c->refs, p->c->nrefs, &s->ref);
  return yr_fail(&p->r, at, ZO_ERR_SCHEMA, "%s needs card: (a handle) or ref: (a remembered "
                 "reference)", zo_step_kind_name(s->kind));
}

/* A word of words[0..n) into *out, else an unknown-word error naming what. */
static zo_status one_of(cr_parser *p, const yd_node *v, const char *key, const char *what,
                        const char *const *words, int n, int *out) {
  zo_status st = yr_want(&p->r, v, YD_SCALAR, key);
  if (st) return st;
  int k = yr_index(v->str, words, (size_t)n);
  if (k < 0) return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, what, v->str, NULL, words, (size_t)n);
  *out = k;
  return ZO_OK;
}

/* One of two words for key: the second sets *out to 1, the first to 0. */
static zo_status two_words(cr_parser *p, const yd_node *v, const char *key, const char *w0,
                           const char *w1, int *out) {
  zo_status st = yr_want(&p->r, v, YD_SCALAR, key);
  if (st) return st;
  if (!strcmp(v->str, w1)) *out = 1;
  else if (!strcmp(v->str, w0)) *out = 0;
  else return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "expected %s or %s for %s", w0, w1, key);
  return ZO_OK;
}

/* A list of handles (a list key) into s's list, each once where unique
 * (and not card:), at least one where nonempty. */
static zo_status handles_of(cr_parser *p, const yd_node *v, const zo_step_option *o, zo_step *s) {
  zo_status st = cr_handle_list(p, v, o->key, &s->order_zone_handles, &s->norder);
  if (st) return st;
  if ((o->flags & OPT_NONEMPTY) && !s->norder)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s: needs at least one handle", o->key);
  if (o->flags & OPT_UNIQUE)
    for (int i = 0; i < s->norder; i++) {
      if (s->order_zone_handles[i] == s->card)
        return yr_fail(&p->r, v->kids[i], ZO_ERR_SCHEMA, "%s: names other objects than card:",
                       o->key);
      for (int j = 0; j < i; j++)
        if (s->order_zone_handles[j] == s->order_zone_handles[i])
          return yr_fail(&p->r, v->kids[i], ZO_ERR_SCHEMA, "'%s' is named twice in %s:",
                         v->kids[i]->str, o->key);
    }
  return ZO_OK;
}

/* move_together's moves: a list of moves, each with card: (no ref:, then:
 * or player:), each card once. */
static zo_status moves_of(cr_parser *p, const yd_node *v, zo_step *s) {
  zo_status st = yr_want(&p->r, v, YD_SEQ, "moves");
  if (st) return st;
  if (v->n == 0) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "moves: needs at least one move");
  s->moves = zo_xcalloc(v->n, sizeof *s->moves);
  for (size_t i = 0; i < v->n; i++) {
    const yd_node *m = v->kids[i];
    zo_step *mv = &s->moves[i];
    if ((st = yr_want(&p->r, m, YD_MAP, "a move"))) return st;
    s->nmoves++; /* counted first so a half-parsed move is freed too */
    if ((st = inner_move(p, m, m, 0, mv))) return st;
    if (mv->player >= 0)
      return yr_fail(&p->r, yd_get(m, "player"), ZO_ERR_SCHEMA, "player: names who performs "
                     "the whole event: write it beside moves:, not in one move");
    if (mv->then) return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "then: is not allowed inside move_together");
    if (mv->card < 0) return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "moves inside move_together name card:");
    for (size_t j = 0; j < i; j++)
      if (s->moves[j].card == mv->card)
        return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "card '%s' moves twice in one event",
                       p->c->handles[mv->card]);
  }
  return ZO_OK;
}

/* when: {to, from, cause}: the moves a replace or cant applies to (any
 * zone by default). */
static zo_status when_of(cr_parser *p, const yd_node *w, zo_step *s) {
  static const char *const ks[] = {"to", "from", "cause"};
  const yd_node *v;
  zo_status st;
  if ((st = yr_want(&p->r, w, YD_MAP, "when"))) return st;
  if ((st = yr_keys(&p->r, w, ZO_ERR_UNKNOWN, ks, 3, "when"))) return st;
  if ((v = yd_get(w, "to")) && (st = cr_zone(p, v, "to", CR_OUTSIDE | CR_ANY, &s->when_to))) return st;
  if ((v = yd_get(w, "from")) && (st = cr_zone(p, v, "from", CR_OUTSIDE | CR_ANY, &s->when_from)))
    return st;
  if ((v = yd_get(w, "cause")) &&
      (st = yr_name(&p->r, v, "cause", s->when_cause, sizeof s->when_cause)))
    return st;
  return ZO_OK;
}

/* Option o of a step, written v, into s (its key is known, its presence
 * and nesting checked). */
static zo_status read_option(cr_parser *p, const zo_step_option *o, const yd_node *v,
                             zo_step *s) {
  static const char *const until_words[] = {"end_of_turn", "next_turn"}; /* ZO_UNTIL_* - 1 */
  void *field = (char *)s + o->offset;
  int *ip = field, k = 0;
  zo_case *c = p->c;
  zo_status st;
  switch (o->type) {
  case OT_CARD:
  case OT_HANDLE: return cr_handle(p, v, o->key, ip);
  case OT_REF: return cr_named(p, v, "reference", c->refs, c->nrefs, ip);
  case OT_CARD_OR_ANY:
    if (v->kind == YD_SCALAR && !strcmp(v->str, "any")) {
      s->replace_any = 1;
      return ZO_OK;
    }
    return cr_handle(p, v, o->key, ip);
  case OT_HANDLES: return handles_of(p, v, o, s);
  case OT_PLAYER: return cr_player(p, v, o->key, ip);
  case OT_ZONE:
    return cr_zone(p, v, o->key,
                   (o->flags & OPT_OUTSIDE ? CR_OUTSIDE : 0) | (o->flags & OPT_ANY ? CR_ANY : 0) |
                       (o->flags & OPT_ARENA ? CR_ARENA : 0),
                   field);
  case OT_POSITION:
    if ((st = yr_want(&p->r, v, YD_SCALAR, o->key))) return st;
    if (!strcmp(v->str, "top")) *ip = ZO_POS_TOP;
    else if (!strcmp(v->str, "bottom")) *ip = ZO_POS_BOTTOM;
    else return yr_int(&p->r, v, "position (top, bottom or an index from the top)", 0, 10000, ip);
    return ZO_OK;
  case OT_FACE: return cr_face(p, v, ip);
  case OT_BOOL: return yr_bool(&p->r, v, o->key, ip);
  case OT_CHOOSE: return yr_int(&p->r, v, o->key, 1, 16, ip);
  case OT_AMOUNT: return yr_int(&p->r, v, o->key, 0, 1000, ip);
  case OT_SEED:
    st = yr_int(&p->r, v, o->key, 0, 2147483647, &k);
    *(uint64_t *)field = (uint64_t)k;
    return st;
  case OT_CAUSE: return yr_name(&p->r, v, o->key, field, ZO_NAME);
  case OT_TYPES: return cr_types(p, v, o->key, field);
  case OT_KIND: return cr_kind(p, v, field);
  case OT_MARK_KIND:
    if ((st = one_of(p, v, o->key, "mark kind", zo_mark_kind_names, MK_COUNT, &k))) return st;
    *(zo_mark_kind *)field = (zo_mark_kind)k;
    return ZO_OK;
  case OT_CATEGORY:
    if ((st = one_of(p, v, o->key, "replacement category", zo_repl_category_names, RC_COUNT, &k)))
      return st;
    *(zo_repl_category *)field = (zo_repl_category)k;
    return ZO_OK;
  case OT_UNTIL:
    if ((st = one_of(p, v, o->key, "duration", until_words, 2, &k))) return st;
    *ip = k + 1;
    return ZO_OK;
  case OT_NEW_HANDLE: return cr_new_name(p, v, "handle", &c->handles, &c->nhandles, ip);
  case OT_NEW_TRIGGER: return cr_new_name(p, v, "trigger", &c->triggers, &c->ntriggers, ip);
  case OT_NEW_REF: return cr_new_name(p, v, "reference", &c->refs, &c->nrefs, ip);
  case OT_NEW_REPLACEMENT:
    return cr_new_name(p, v, "replacement", &c->replacements, &c->nreplacements, ip);
  case OT_NEW_MARK: return cr_new_name(p, v, "mark", &c->marknames, &c->nmarknames, ip);
  case OT_TRIGGER: return cr_named(p, v, "trigger", c->triggers, c->ntriggers, ip);
  case OT_REPLACEMENTS:
    if ((st = yr_want(&p->r, v, YD_SEQ, o->key))) return st;
    s->order_zone_handles = zo_xcalloc(v->n ? v->n : 1, sizeof(int));
    for (size_t i = 0; i < v->n; i++, s->norder++)
      if ((st = cr_named(p, v->kids[i], "replacement", c->replacements, c->nreplacements,
                         &s->order_zone_handles[i])))
        return st;
    return ZO_OK;
  case OT_BY_RULE: return two_words(p, v, o->key, "effect", "rule", ip);
  case OT_BY_EFFECT: return two_words(p, v, o->key, "player", "effect", ip);
  case OT_SHUFFLE:
    if (v->kind == YD_SEQ) { /* the result, top first */
      *ip = ZO_SHUFFLE_ORDER;
      return cr_handle_list(p, v, o->key, &s->order_zone_handles, &s->norder);
    }
    return yr_bool(&p->r, v, "shuffle (true, false or the resulting order)", ip);
  case OT_PHASE_OUT:
    if ((st = yr_want(&p->r, v, YD_SCALAR, o->key))) return st;
    if (strcmp(v->str, "out"))
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s: takes out (a trigger on phasing out), got "
                     "'%s'", o->key, v->str);
    *ip = 1;
    return ZO_OK;
  case OT_STEP: return nested_step(p, v, o->key, field);
  case OT_STEPS: {
    char what[48];
    snprintf(what, sizeof what, "%s (a list of steps)", o->key);
    if ((st = yr_want(&p->r, v, YD_SEQ, what))) return st;
    if ((o->flags & OPT_NONEMPTY) && v->n == 0)
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s: needs at least one step", o->key);
    return step_list(p, v, o->key, s);
  }
  case OT_MOVES: return moves_of(p, v, s);
  case OT_ORDER:
    if ((st = yr_want(&p->r, v, YD_MAP, o->key))) return st;
    if (v->n != 1) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "order: names one destination zone");
    if ((st = cr_zone(p, YD_KEY(v, 0), "order zone", 0, field))) return st;
    return cr_handle_list(p, YD_VAL(v, 0), o->key, &s->order_zone_handles, &s->norder);
  case OT_WHEN: return when_of(p, v, s);
  case OT_INSTEAD:
    if ((st = yr_want(&p->r, v, YD_MAP, "instead (move options)"))) return st;
    s->then = zo_xcalloc(1, sizeof *s->then);
    if ((st = inner_move(p, v, v, 1, s->then))) return st;
    if (s->then->then) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "then: is not allowed in instead:");
    return ZO_OK;
  default: break;
  }
  return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s: an option of no known type", o->key);
}

/* Every option of kind's row written in opts (a map whose keys are
 * checked), in the row's order, into s: a required one missing, or one
 * not allowed in a then:/do: step given there, is an error. */
static zo_status read_options(cr_parser *p, zo_step_kind kind, const yd_node *opts,
                              const yd_node *at, int nested, zo_step *s) {
  size_t n;
  const zo_step_option *o = zo_step_options(kind, &n);
  const char *name = zo_step_kind_name(kind);
  zo_status st;
  for (size_t i = 0; i < n; i++) {
    if (o[i].flags & OPT_OBJECT) { /* card: with ref:, the step's object */
      if ((st = object_pair(p, opts, at, nested, s))) return st;
      continue;
    }
    const yd_node *v = yd_get(opts, o[i].key);
    if (o[i].type == OT_REF && o[i].offset == offsetof(zo_step, ref) &&
        zo_step_option_find(kind, "card") &&
        (zo_step_option_find(kind, "card")->flags & OPT_OBJECT))
      continue; /* read with its card: */
    if (!v) {
      if (o[i].flags & OPT_REQ)
        return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s needs %s:%s", name, o[i].key, o[i].hint);
      continue;
    }
    if (nested && (o[i].flags & OPT_TOP))
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s: is for a %s step itself: write it on the "
                     "step, not in then:, do:, instead: or moves:", o[i].key, name);
    if ((st = read_option(p, &o[i], v, s))) return st;
  }
  return ZO_OK;
}

/* ---- the checks of a kind's options together ------------------------------ */

/* move: costs: (CR 601.2a-h, 401.5) are paid while a spell is cast; it
 * enters attached to a permanent (attached_to:) or a player
 * (attached_to_player:, CR 303.4f), not both. */
static zo_status check_move(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  const yd_node *v = yd_get(opts, "costs");
  if (yd_get(opts, "attached_to") && yd_get(opts, "attached_to_player"))
    return yr_fail(&p->r, yd_get(opts, "attached_to_player"), ZO_ERR_SCHEMA,
                   "give attached_to: or attached_to_player:, not both");
  if (v && strcmp(s->cause, "cast"))
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "costs: are paid while a spell is cast: write "
                   "cause: cast on this move");
  return ZO_OK;
}

/* move_together: order_by: names who chose order: (issue 12, G3). */
static zo_status check_move_together(cr_parser *p, const yd_node *opts, const yd_node *at,
                                     int nested, zo_step *s) {
  if (s->order_by >= 0 && !yd_get(opts, "order"))
    return yr_fail(&p->r, yd_get(opts, "order_by"), ZO_ERR_SCHEMA,
                   "order_by: names who chose order:; write order: too");
  return ZO_OK;
}

/* create: what a kind of object may be made with. */
static zo_status check_create(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                              zo_step *s) {
  const yd_node *v;
  /* CR 707.13: only a copy of a card is made outside the game */
  if (s->zone.type == ZO_ZT_OUTSIDE && s->kind_of != ZK_COPY)
    return yr_fail(&p->r, yd_get(opts, "zone"), ZO_ERR_SCHEMA, "only kind: copy can be created "
                   "outside the game (CR 707.13: a copy of a card named by an effect, made to be "
                   "cast)");
  /* CR 111.12: a token copy of a remembered object; lki: the effect uses
     its last known information */
  if ((v = yd_get(opts, "copy_of")) && s->kind_of != ZK_TOKEN)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "copy_of: makes a token (kind: token): CR 111.12");
  if ((v = yd_get(opts, "lki")) && s->copy_of < 0)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "lki: says how copy_of: finds its object; write "
                   "copy_of: too");
  return ZO_OK;
}

/* phase: with: the other permanents phasing out in the same event (CR
 * 702.26h): phasing out only. */
static zo_status check_phase(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                             zo_step *s) {
  const yd_node *v = yd_get(opts, "with");
  if (v && !s->out)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "with: phases several permanents out at once: "
                   "not with out: false");
  return ZO_OK;
}

/* shuffle: order: the result, top first, so that no engine needs our
 * generator. */
static zo_status check_shuffle(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                               zo_step *s) {
  if (yd_get(opts, "order")) s->shuffle = ZO_SHUFFLE_ORDER;
  return ZO_OK;
}

/* zone_create and zone_remove: a player's zone (FaB 3.0.10). */
static zo_status player_zone(cr_parser *p, const yd_node *opts, zo_step *s) {
  if (s->zone.player < 0)
    return yr_fail(&p->r, yd_get(opts, "zone"), ZO_ERR_SCHEMA, "%s names a player's zone, e.g. "
                   "alice.arsenal", zo_step_kind_name(s->kind));
  return ZO_OK;
}
static zo_status check_zone_create(cr_parser *p, const yd_node *opts, const yd_node *at,
                                   int nested, zo_step *s) {
  return player_zone(p, opts, s);
}
static zo_status check_zone_remove(cr_parser *p, const yd_node *opts, const yd_node *at,
                                   int nested, zo_step *s) {
  return player_zone(p, opts, s);
}

/* watch: phase: out is a trigger on phasing out (CR 603.10b), not on a
 * zone change. */
static zo_status check_watch(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                             zo_step *s) {
  static const char *const zonal[] = {"from", "to", "cause", "aura"};
  if (!s->on_phase) return ZO_OK;
  for (size_t k = 0; k < sizeof zonal / sizeof *zonal; k++)
    if (yd_get(opts, zonal[k]))
      return yr_fail(&p->r, yd_get(opts, zonal[k]), ZO_ERR_SCHEMA, "%s: is for a trigger on a "
                     "zone change, not with phase: out", zonal[k]);
  return ZO_OK;
}

/* mark: until: only an effect has a duration. */
/* until: next_turn and turn_of: come together: whose next turn ends the
 * effect (CR 800.4m, 611.2a). */
static zo_status check_next_turn(cr_parser *p, const yd_node *opts, const zo_step *s) {
  if (s->until == ZO_UNTIL_NEXT_TURN && s->turn_of < 0)
    return yr_fail(&p->r, yd_get(opts, "until"), ZO_ERR_SCHEMA,
                   "until: next_turn needs turn_of: (the player whose next turn ends it)");
  if (s->turn_of >= 0 && s->until != ZO_UNTIL_NEXT_TURN)
    return yr_fail(&p->r, yd_get(opts, "turn_of"), ZO_ERR_SCHEMA,
                   "turn_of: is for until: next_turn (whose next turn ends the effect)");
  return ZO_OK;
}

static zo_status check_mark(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  if (s->until && s->mark_kind != MK_EFFECT)
    return yr_fail(&p->r, yd_get(opts, "until"), ZO_ERR_SCHEMA,
                   "until: is for a mark of kind effect (a %s has no duration)",
                   zo_mark_kind_names[s->mark_kind]);
  return check_next_turn(p, opts, s);
}

/* control: until: next_turn names whose turn (turn_of:). */
static zo_status check_control(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                               zo_step *s) {
  (void)at;
  (void)nested;
  return check_next_turn(p, opts, s);
}

/* attach: to: a permanent (CR 701.3a) or to_player: a player (303.4b):
 * exactly one of the two. */
static zo_status check_attach(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                              zo_step *s) {
  const yd_node *t = yd_get(opts, "to"), *pl = yd_get(opts, "to_player");
  if (t && pl) return yr_fail(&p->r, pl, ZO_ERR_SCHEMA, "give to: or to_player:, not both");
  if (!t && !pl)
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "attach needs to: (a handle) or to_player: (a "
                   "player)");
  return ZO_OK;
}

/* cant: a "can't" effect on the moves of card: (CR 614.17), or on a
 * player's draws (draw:, CR 121.3): one of the two. */
static zo_status check_cant(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  const yd_node *c = yd_get(opts, "card"), *d = yd_get(opts, "draw");
  if (c && d) return yr_fail(&p->r, d, ZO_ERR_SCHEMA, "give card: or draw:, not both");
  if (!c && !d)
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "cant needs card: (a handle or any) or draw: (a "
                   "player who can't draw)");
  if (d && (yd_get(opts, "when") || yd_get(opts, "types")))
    return yr_fail(&p->r, yd_get(opts, "when") ? yd_get(opts, "when") : yd_get(opts, "types"),
                   ZO_ERR_SCHEMA, "when: and types: are for card:, not draw: (a player can't "
                   "draw at all)");
  return ZO_OK;
}

/* reveal: {card|ref, end}: the object is shown to every player (CR
 * 701.20a, 217.2e); or reveal: {top_of: PLAYER, end}: that player plays
 * with the top card of their library revealed (401.5, 401.6). */
static zo_status check_reveal(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                              zo_step *s) {
  const yd_node *c = yd_get(opts, "card"), *r = yd_get(opts, "ref");
  if (yd_get(opts, "top_of")) {
    if (c || r)
      return yr_fail(&p->r, c ? c : r, ZO_ERR_SCHEMA, "give card:/ref: or top_of:, not both");
    return ZO_OK;
  }
  s->card = s->ref = -1; /* read again as the object of the step */
  return object_pair(p, opts, at, nested, s);
}

/* ---- a case's steps, and one more ----------------------------------------- */

/* List item m of steps: its one step key (and options) and its expect:. */
static zo_status step_item(cr_parser *p, const yd_node *m, const yd_node **kind_key,
                           const yd_node **opts, const yd_node **exp) {
  if (m->kind != YD_MAP || m->n == 0)
    return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "expected a step: a map with one step name (move, "
                   "watch, ...) and optionally expect:");
  *kind_key = *opts = *exp = NULL;
  for (size_t j = 0; j < m->n; j++) {
    const yd_node *k = YD_KEY(m, j);
    if (!strcmp(k->str, "expect")) {
      *exp = YD_VAL(m, j);
      continue;
    }
    if (zo_step_kind_parse(k->str) < 0)
      return yr_unknown(&p->r, k, ZO_ERR_UNKNOWN, "step", k->str, NULL, zo_step_kind_names,
                        ST_COUNT);
    if (*kind_key)
      return yr_fail(&p->r, k, ZO_ERR_SCHEMA, "one step per list item: '%s' and '%s' (start a "
                     "new item with '- ')", (*kind_key)->str, k->str);
    *kind_key = k;
    *opts = YD_VAL(m, j);
  }
  if (!*kind_key) return yr_fail(&p->r, m, ZO_ERR_SCHEMA, "expect: without a step");
  return ZO_OK;
}

zo_status cr_steps(cr_parser *p, const yd_node *seq) {
  zo_case *c = p->c;
  zo_status st = yr_want(&p->r, seq, YD_SEQ, "steps");
  if (st) return st;
  size_t cap = 1; /* a power of two: zo_case_append_step grows it so */
  while (cap < seq->n) cap *= 2;
  c->steps = zo_xcalloc(cap, sizeof *c->steps);
  for (size_t i = 0; i < seq->n; i++) {
    const yd_node *kind_key = NULL, *opts = NULL, *exp = NULL;
    snprintf(p->r.note, sizeof p->r.note, "while reading step %zu", i + 1);
    if ((st = step_item(p, seq->kids[i], &kind_key, &opts, &exp))) return st;
    c->nsteps++; /* counted first so a half-parsed step is freed too */
    zo_step_kind kind = (zo_step_kind)zo_step_kind_parse(kind_key->str);
    if ((st = parse_step(p, kind, opts, kind_key, 0, &c->steps[i]))) return st;
    /* the step as written (without expect), for engines over the protocol */
    if (!p->no_json) {
      json_t *js = json_object();
      json_object_set_new(js, kind_key->str, yd_to_json(opts));
      c->steps[i].json = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
      json_decref(js);
    }
    if (exp && (st = cr_expect(p, exp, &c->steps[i].expect))) return st;
  }
  p->r.note[0] = 0;
  return ZO_OK;
}

/* The one step of document doc (which this frees) appended to c. */
static zo_status append_step_doc(zo_case *c, yd_doc *doc, zo_error *err) {
  zo_status st = ZO_OK;
  cr_parser p = {.r = {.doc = doc, .err = err}, .c = c};
  for (int r = 0; r < c->nrulesets && r < ZO_MAX_CASE_RULESETS; r++) {
    const zo_ruleset *rs = zo_ruleset_find(c->rulesets[r]);
    if (rs) p.rs[p.nrs++] = rs;
  }
  const yd_node *m = doc->root;
  int kk = -1;
  if (m->kind != YD_MAP || m->n != 1)
    st = yr_fail(&p.r, m, ZO_ERR_SCHEMA, "expected one step: a map with one step name");
  else if ((kk = zo_step_kind_parse(YD_KEY(m, 0)->str)) < 0)
    st = yr_unknown(&p.r, YD_KEY(m, 0), ZO_ERR_UNKNOWN, "step", YD_KEY(m, 0)->str, NULL,
                    zo_step_kind_names, ST_COUNT);
  if (!st) {
    if ((c->nsteps & (c->nsteps - 1)) == 0) /* capacity: powers of two */
      c->steps = zo_xrealloc(c->steps, (size_t)(c->nsteps ? 2 * c->nsteps : 1) * sizeof *c->steps);
    memset(&c->steps[c->nsteps], 0, sizeof *c->steps);
    c->nsteps++;
    st = parse_step(&p, (zo_step_kind)kk, YD_VAL(m, 0), YD_KEY(m, 0), 0, &c->steps[c->nsteps - 1]);
    if (st) cr_step_free(&c->steps[--c->nsteps]);
  }
  yd_free(doc);
  return st;
}

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

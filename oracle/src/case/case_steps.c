/* case_steps.c: a case's steps (cases/README.md, Steps): the `steps:` list
 * of a file, and one step appended later (`serve`, ci/protocol/PROTOCOL.md).
 * Every step kind is a row of ZO_STEP_KINDS (steps.def) with its options;
 * parse_step checks what the row says (a map of those options, or none;
 * whether it may be a then:/do: step) and calls the kind's parse_<name>,
 * which reads the options into a zo_step (case.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_read.h"
#include "util.h"
#include "yjson.h"

/* ---- the table ------------------------------------------------------- */

typedef zo_status step_parser(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                              zo_step *s);

#define UNPAREN(...) __VA_ARGS__
#define ROW_KEYS(id, name, feature, nestable, keys) \
  static const char *const keys_##name[] = {UNPAREN keys, NULL};
#define ROW_PARSER(id, name, ...) static step_parser parse_##name;
#define ROW_KIND(id, name, feature, nestable, keys) [id] = {keys_##name, nestable, parse_##name},
ZO_STEP_KINDS(ROW_KEYS)
ZO_STEP_KINDS(ROW_PARSER)
/* Each kind's options (NULL-terminated), whether it may be nested, and its
 * parser. */
static const struct {
  const char *const *keys;
  int nestable;
  step_parser *parse;
} kinds[ST_COUNT] = {ZO_STEP_KINDS(ROW_KIND)};
#undef ROW_KEYS
#undef ROW_PARSER
#undef ROW_KIND

static size_t count_keys(const char *const *keys) {
  size_t n = 0;
  while (keys[n]) n++;
  return n;
}

/* Step `kind` with options opts, written at key at, into s; nested: it is
 * a then:/do: step (acting on the moved or tracked object). */
static zo_status parse_step(cr_parser *p, zo_step_kind kind, const yd_node *opts,
                            const yd_node *at, int nested, zo_step *s) {
  zo_status st;
  const char *name = zo_step_kind_names[kind];
  size_t nkeys = count_keys(kinds[kind].keys);
  zo_step_init(s);
  s->kind = kind;
  s->line = at->line;
  s->col = at->col;
  if (nkeys == 0) {
    if (!yd_is_null(opts) && !(opts->kind == YD_MAP && opts->n == 0))
      return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s takes no options (write '- %s: {}')", name,
                     name);
    return kinds[kind].parse(p, opts, at, nested, s);
  }
  if (opts->kind != YD_MAP)
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "expected a map of options for %s", name);
  if ((st = yr_keys(&p->r, opts, ZO_ERR_UNKNOWN, kinds[kind].keys, nkeys, name))) return st;
  if (nested && !kinds[kind].nestable)
    return yr_fail(&p->r, at, ZO_ERR_SCHEMA, "%s can't be a then:/do: step", name);
  return kinds[kind].parse(p, opts, at, nested, s);
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

/* ---- options several kinds share ---------------------------------------- */

/* The object of a step: card: or ref: (one of them unless nested). */
static zo_status object_of(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
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

/* position: top, bottom or an index from the top. */
static zo_status position_of(cr_parser *p, const yd_node *v, zo_step *s) {
  zo_status st = yr_want(&p->r, v, YD_SCALAR, "position");
  if (st) return st;
  if (!strcmp(v->str, "top")) s->position = ZO_POS_TOP;
  else if (!strcmp(v->str, "bottom")) s->position = ZO_POS_BOTTOM;
  else return yr_int(&p->r, v, "position (top, bottom or an index from the top)", 0, 10000,
                     &s->position);
  return ZO_OK;
}

/* seed: a whole number 0..2^31-1. */
static zo_status seed_of(cr_parser *p, const yd_node *v, zo_step *s) {
  int x = 0;
  zo_status st = yr_int(&p->r, v, "seed", 0, 2147483647, &x);
  s->seed = (uint64_t)x;
  return st;
}

/* The options of a move (its keys already checked) into s: a move step, a
 * move of move_together (nested 0) or replace's instead: (nested 1). */
static zo_status parse_move_opts(cr_parser *p, const yd_node *opts, const yd_node *at,
                                 int nested, zo_step *s) {
  zo_status st;
  if ((st = object_of(p, opts, at, nested, s))) return st;
  for (size_t i = 0; i < opts->n; i++) {
    const char *k = YD_KEY(opts, i)->str;
    const yd_node *v = YD_VAL(opts, i);
    if (!strcmp(k, "to")) st = cr_zone(p, v, "to", CR_OUTSIDE | CR_ARENA, &s->to);
    else if (!strcmp(k, "from")) st = cr_zone(p, v, "from", CR_OUTSIDE, &s->from);
    else if (!strcmp(k, "position")) st = position_of(p, v, s);
    else if (!strcmp(k, "face")) st = cr_face(p, v, &s->face);
    else if (!strcmp(k, "by")) {
      if ((st = yr_want(&p->r, v, YD_SCALAR, "by"))) return st;
      if (!strcmp(v->str, "rule")) s->by_rule = 1;
      else if (!strcmp(v->str, "effect")) s->by_rule = 0;
      else st = yr_fail(&p->r, v, ZO_ERR_SCHEMA, "expected effect or rule for by");
    } else if (!strcmp(k, "cause")) st = yr_name(&p->r, v, "cause", s->cause, sizeof s->cause);
    else if (!strcmp(k, "choose")) st = yr_int(&p->r, v, "choose", 1, 16, &s->choose);
    else if (!strcmp(k, "shuffle") && v->kind == YD_SEQ) { /* the result, top first */
      st = cr_handle_list(p, v, "shuffle", &s->order_zone_handles, &s->norder);
      s->shuffle = ZO_SHUFFLE_ORDER;
    } else if (!strcmp(k, "shuffle")) st = yr_bool(&p->r, v, "shuffle (true, false or the resulting order)", &s->shuffle);
    else if (!strcmp(k, "seed")) st = seed_of(p, v, s);
    else if (!strcmp(k, "player")) { /* issue 12, G3: who performs it */
      if (nested) st = yr_fail(&p->r, v, ZO_ERR_SCHEMA, "player: names who performs a step: "
                               "write it on the step, not in then:, do:, instead: or moves:");
      else st = cr_player(p, v, "player", &s->player);
    } else if (!strcmp(k, "then")) {
      if (nested > 0) st = yr_fail(&p->r, v, ZO_ERR_SCHEMA, "then: can't be nested in then:/do:");
      else st = nested_step(p, v, "then", &s->then);
    }
    if (st) return st;
  }
  if (s->to.type == ZO_ZT_UNSET) return yr_fail(&p->r, at, ZO_ERR_SCHEMA, "move needs to: (a zone)");
  return ZO_OK;
}

/* A move inside another step (map m, at node at) into s: its keys are a
 * move's. */
static zo_status inner_move(cr_parser *p, const yd_node *m, const yd_node *at, int nested,
                            zo_step *s) {
  zo_step_init(s);
  s->kind = ST_MOVE;
  s->line = at->line;
  s->col = at->col;
  zo_status st = yr_keys(&p->r, m, ZO_ERR_UNKNOWN, keys_move, count_keys(keys_move), "move");
  if (st) return st;
  const yd_node *c = yd_get(m, "costs");
  if (c) return yr_fail(&p->r, c, ZO_ERR_SCHEMA, "costs: is for a move step, not inside "
                        "moves: or instead:");
  return parse_move_opts(p, m, at, nested, s);
}

/* ---- one parser per step kind (steps.def) ------------------------------- */

/* A list of steps (sequence v) into s->costs: each a step of a nestable
 * kind naming its own object, without expect: and without a list of its
 * own; `key` names the list in errors (costs, instead). */
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
    if (!kinds[kk].nestable)
      return yr_fail(&p->r, tk, ZO_ERR_SCHEMA, "%s can't be a step of %s:", tk->str, key);
    s->ncosts++; /* counted first so a half-parsed step is freed too */
    if ((st = parse_step(p, (zo_step_kind)kk, YD_VAL(m, 0), tk, 0, &s->costs[i]))) return st;
    if (s->costs[i].ncosts)
      return yr_fail(&p->r, tk, ZO_ERR_SCHEMA, "%s: can't hold a move with costs: of its own", key);
  }
  return ZO_OK;
}

/* costs: (CR 601.2a-h, 401.5): the steps done while the card is being cast. */
static zo_status parse_costs(cr_parser *p, const yd_node *v, zo_step *s) {
  zo_status st = yr_want(&p->r, v, YD_SEQ, "costs (a list of steps)");
  if (st) return st;
  if (strcmp(s->cause, "cast"))
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "costs: are paid while a spell is cast: write "
                   "cause: cast on this move");
  if (v->n == 0) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "costs: needs at least one step");
  return step_list(p, v, "costs", s);
}

static zo_status parse_move(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  zo_status st = parse_move_opts(p, opts, at, nested, s);
  const yd_node *v = yd_get(opts, "costs");
  if (st || !v) return st;
  if (nested) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "costs: is for a move step, not a then:/do: step");
  return parse_costs(p, v, s);
}

static zo_status parse_move_together(cr_parser *p, const yd_node *opts, const yd_node *at,
                                     int nested, zo_step *s) {
  const yd_node *v = yd_get(opts, "moves");
  if (!v) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "move_together needs moves: (a list of moves)");
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
  /* issue 12, G3: who performs it, and who arranged order: */
  if ((v = yd_get(opts, "player")) && (st = cr_player(p, v, "player", &s->player))) return st;
  if ((v = yd_get(opts, "order_by")) && (st = cr_player(p, v, "order_by", &s->order_by)))
    return st;
  if (!(v = yd_get(opts, "order"))) {
    if (s->order_by >= 0)
      return yr_fail(&p->r, yd_get(opts, "order_by"), ZO_ERR_SCHEMA,
                     "order_by: names who chose order:; write order: too");
    return ZO_OK;
  }
  if ((st = yr_want(&p->r, v, YD_MAP, "order"))) return st;
  if (v->n != 1) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "order: names one destination zone");
  if ((st = cr_zone(p, YD_KEY(v, 0), "order zone", 0, &s->order_zone))) return st;
  return cr_handle_list(p, YD_VAL(v, 0), "order", &s->order_zone_handles, &s->norder);
}

static zo_status parse_create(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                              zo_step *s) {
  const yd_node *v;
  zo_status st;
  s->kind_of = ZK_TOKEN;
  if ((v = yd_get(opts, "kind")) && (st = cr_kind(p, v, &s->kind_of))) return st;
  if (!(v = yd_get(opts, "owner"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "create needs owner:");
  if ((st = cr_player(p, v, "owner", &s->owner))) return st;
  if (!(v = yd_get(opts, "zone"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "create needs zone:");
  if ((st = cr_zone(p, v, "zone", CR_ARENA | CR_OUTSIDE, &s->zone))) return st;
  /* CR 707.13: only a copy of a card is made outside the game */
  if (s->zone.type == ZO_ZT_OUTSIDE && s->kind_of != ZK_COPY)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "only kind: copy can be created outside the game "
                   "(CR 707.13: a copy of a card named by an effect, made to be cast)");
  /* CR 111.12: a token copy of a remembered object; lki: the effect uses
     its last known information */
  if ((v = yd_get(opts, "copy_of"))) {
    if (s->kind_of != ZK_TOKEN)
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "copy_of: makes a token (kind: token): CR 111.12");
    if ((st = cr_named(p, v, "reference", p->c->refs, p->c->nrefs, &s->copy_of))) return st;
  }
  if ((v = yd_get(opts, "lki"))) {
    if (s->copy_of < 0)
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "lki: says how copy_of: finds its object; write "
                     "copy_of: too");
    if ((st = yr_bool(&p->r, v, "lki", &s->lki))) return st;
  }
  if ((v = yd_get(opts, "types")) && (st = cr_types(p, v, "types", &s->types))) return st;
  if ((v = yd_get(opts, "subtypes")) && (st = cr_types(p, v, "subtypes", &s->types))) return st;
  if ((v = yd_get(opts, "controller")) && (st = cr_player(p, v, "controller", &s->controller)))
    return st;
  if ((v = yd_get(opts, "face")) && (st = cr_face(p, v, &s->face))) return st;
  if (!(v = yd_get(opts, "as")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "create needs as: (the new handle)");
  return cr_new_name(p, v, "handle", &p->c->handles, &p->c->nhandles, &s->as);
}

static zo_status parse_until(cr_parser *p, const yd_node *opts, zo_step *s);

static zo_status parse_control(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                               zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if (!(v = yd_get(opts, "player"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "control needs player:");
  if ((st = cr_player(p, v, "player", &s->player))) return st;
  return parse_until(p, opts, s);
}

static zo_status parse_phase(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                             zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if ((v = yd_get(opts, "out")) && (st = yr_bool(&p->r, v, "out", &s->out))) return st;
  /* with: the other permanents phasing out in the same event (CR 702.26h) */
  if (!(v = yd_get(opts, "with"))) return ZO_OK;
  if (nested) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "with: is for a phase step, not a then:/do: step");
  if (!s->out)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "with: phases several permanents out at once: "
                   "not with out: false");
  if ((st = cr_handle_list(p, v, "with", &s->order_zone_handles, &s->norder))) return st;
  if (!s->norder) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "with: needs at least one handle");
  for (int i = 0; i < s->norder; i++)
    for (int j = -1; j < i; j++)
      if (s->order_zone_handles[i] == (j < 0 ? s->card : s->order_zone_handles[j]))
        return yr_fail(&p->r, v->kids[i], ZO_ERR_SCHEMA, "with: names each permanent once, and "
                       "not the one card: names");
  return ZO_OK;
}

static zo_status parse_turn_face(cr_parser *p, const yd_node *opts, const yd_node *at,
                                 int nested, zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if (!(v = yd_get(opts, "face"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "turn_face needs face:");
  return cr_face(p, v, &s->face);
}

static zo_status parse_reorder(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                               zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "zone"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "reorder needs zone:");
  if ((st = cr_zone(p, v, "zone", 0, &s->zone))) return st;
  if ((v = yd_get(opts, "by"))) { /* CR 400.5: a player, or an effect */
    if ((st = yr_want(&p->r, v, YD_SCALAR, "by"))) return st;
    if (!strcmp(v->str, "effect")) s->by_effect = 1;
    else if (strcmp(v->str, "player"))
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "expected player or effect for by");
  }
  /* issue 12, G3: the player who arranges it */
  if ((v = yd_get(opts, "player")) && (st = cr_player(p, v, "player", &s->player))) return st;
  if (!(v = yd_get(opts, "order")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "reorder needs order: (handles top first)");
  return cr_handle_list(p, v, "order", &s->order_zone_handles, &s->norder);
}

static zo_status parse_shuffle(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                               zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "zone"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "shuffle needs zone:");
  if ((st = cr_zone(p, v, "zone", 0, &s->zone))) return st;
  /* order: the result, top first, so that no engine needs our generator */
  if ((v = yd_get(opts, "order"))) {
    if ((st = cr_handle_list(p, v, "order", &s->order_zone_handles, &s->norder))) return st;
    s->shuffle = ZO_SHUFFLE_ORDER;
  }
  if ((v = yd_get(opts, "seed"))) return seed_of(p, v, s);
  return ZO_OK;
}

/* draw and mill: player:, count:, and (mill) to:. */
static zo_status draw_or_mill(cr_parser *p, const yd_node *opts, zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "player")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s needs player:", zo_step_kind_name(s->kind));
  if ((st = cr_player(p, v, "player", &s->player))) return st;
  if ((v = yd_get(opts, "count")) && (st = yr_int(&p->r, v, "count", 0, 1000, &s->count))) return st;
  if (s->kind == ST_MILL && (v = yd_get(opts, "to"))) return cr_zone(p, v, "to", CR_OUTSIDE, &s->to);
  return ZO_OK;
}

/* draw: then: one step done to each card the draw itself puts into the
 * hand (an instruction to draw and then act on the card drawn), never to
 * what a replacement of the draw brings (CR 614.11b). */
static zo_status parse_draw(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  zo_status st = draw_or_mill(p, opts, s);
  const yd_node *v = yd_get(opts, "then");
  if (st || !v) return st;
  if (nested) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "a then:/do: step has no then: of its own");
  return nested_step(p, v, "then", &s->then);
}

static zo_status parse_mill(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  return draw_or_mill(p, opts, s);
}

static zo_status parse_put_under(cr_parser *p, const yd_node *opts, const yd_node *at,
                                 int nested, zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if (!(v = yd_get(opts, "under")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "put_under needs under: (a handle)");
  return cr_handle(p, v, "under", &s->under);
}

/* attach (CR 301.5, 303.4; 217.1b; Z.5.1): card:/ref: and to: (the handle
 * of the permanent it becomes attached to). */
static zo_status parse_attach(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                              zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if (!(v = yd_get(opts, "to")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "attach needs to: (a handle)");
  return cr_handle(p, v, "to", &s->attach_to);
}

/* zone_create and zone_remove: a player's zone, and (remove) choose:. */
static zo_status zone_step(cr_parser *p, const yd_node *opts, zo_step *s) {
  const char *name = zo_step_kind_name(s->kind);
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "zone"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s needs zone:", name);
  if ((st = cr_zone(p, v, "zone", 0, &s->zone))) return st;
  if (s->zone.player < 0)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "%s names a player's zone, e.g. alice.arsenal", name);
  if ((v = yd_get(opts, "choose"))) return yr_int(&p->r, v, "choose", 1, 16, &s->choose);
  return ZO_OK;
}

static zo_status parse_zone_create(cr_parser *p, const yd_node *opts, const yd_node *at,
                                   int nested, zo_step *s) {
  return zone_step(p, opts, s);
}

static zo_status parse_zone_remove(cr_parser *p, const yd_node *opts, const yd_node *at,
                                   int nested, zo_step *s) {
  return zone_step(p, opts, s);
}

static zo_status parse_state_check(cr_parser *p, const yd_node *opts, const yd_node *at,
                                   int nested, zo_step *s) {
  return ZO_OK; /* no options */
}

static zo_status parse_end_game(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                                zo_step *s) {
  const yd_node *v = yd_get(opts, "winner");
  if (!v) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "end_game needs winner:");
  return cr_player(p, v, "winner", &s->winner);
}

static zo_status parse_watch(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                             zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "card"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "watch needs card:");
  if ((st = cr_handle(p, v, "card", &s->card))) return st;
  s->from.type = s->to.type = ZO_ZT_ANY;
  if ((v = yd_get(opts, "from")) && (st = cr_zone(p, v, "from", CR_OUTSIDE | CR_ANY, &s->from)))
    return st;
  if ((v = yd_get(opts, "to")) && (st = cr_zone(p, v, "to", CR_OUTSIDE | CR_ANY, &s->to))) return st;
  if ((v = yd_get(opts, "types")) && (st = cr_types(p, v, "types", &s->types))) return st;
  /* G8: the event's cause (a destroy, 701.8a; not a sacrifice, 701.21a) */
  if ((v = yd_get(opts, "cause")) && (st = yr_name(&p->r, v, "cause", s->cause, sizeof s->cause)))
    return st;
  /* the Aura whose trigger this is (CR 400.7f, 603.6e) */
  if ((v = yd_get(opts, "aura")) && (st = cr_handle(p, v, "aura", &s->aura))) return st;
  /* a trigger on phasing out (CR 603.10b), not on a zone change */
  if ((v = yd_get(opts, "phase"))) {
    if ((st = yr_want(&p->r, v, YD_SCALAR, "phase"))) return st;
    if (strcmp(v->str, "out"))
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "phase: takes out (a trigger on phasing out), "
                     "got '%s'", v->str);
    static const char *const zonal[] = {"from", "to", "cause", "aura"};
    for (size_t k = 0; k < sizeof zonal / sizeof *zonal; k++)
      if (yd_get(opts, zonal[k]))
        return yr_fail(&p->r, yd_get(opts, zonal[k]), ZO_ERR_SCHEMA, "%s: is for a trigger on a "
                       "zone change, not with phase: out", zonal[k]);
    s->on_phase = 1;
  }
  if (!(v = yd_get(opts, "as")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "watch needs as: (the trigger's name)");
  return cr_new_name(p, v, "trigger", &p->c->triggers, &p->c->ntriggers, &s->as);
}

static zo_status parse_resolve(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                               zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "trigger"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "resolve needs trigger:");
  if ((st = cr_named(p, v, "trigger", p->c->triggers, p->c->ntriggers, &s->trigger))) return st;
  if (!(v = yd_get(opts, "do"))) return ZO_OK;
  return nested_step(p, v, "do", &s->then);
}

static zo_status parse_remember(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                                zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if (!(v = yd_get(opts, "as"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "remember needs as:");
  return cr_new_name(p, v, "reference", &p->c->refs, &p->c->nrefs, &s->as);
}

/* card: of replace and cant (step `what`): a handle, or any (any object). */
static zo_status card_or_any(cr_parser *p, const yd_node *opts, const char *what, zo_step *s) {
  const yd_node *v = yd_get(opts, "card");
  if (!v) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "%s needs card: (a handle or any)", what);
  if (v->kind == YD_SCALAR && !strcmp(v->str, "any")) {
    s->replace_any = 1;
    return ZO_OK;
  }
  return cr_handle(p, v, "card", &s->card);
}

/* replace's when: {to, from, cause}: the moves it replaces (any zone by
 * default). */
static zo_status replace_when(cr_parser *p, const yd_node *w, zo_step *s) {
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

/* replace: category: one of ZO_REPL_CATEGORIES (CR 616.1a-c; FaB 6.5). */
static zo_status replace_category(cr_parser *p, const yd_node *v, zo_step *s) {
  zo_status st;
  if ((st = yr_want(&p->r, v, YD_SCALAR, "category"))) return st;
  int k = yr_index(v->str, zo_repl_category_names, RC_COUNT);
  if (k < 0)
    return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "replacement category", v->str, NULL,
                      zo_repl_category_names, RC_COUNT);
  s->repl_category = (zo_repl_category)k;
  return ZO_OK;
}

static zo_status parse_replace(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                               zo_step *s) {
  const yd_node *v, *w, *ins;
  zo_status st;
  if ((st = card_or_any(p, opts, "replace", s))) return st;
  if ((v = yd_get(opts, "controller")) && (st = cr_player(p, v, "controller", &s->controller)))
    return st;
  if ((v = yd_get(opts, "category")) && (st = replace_category(p, v, s))) return st;
  s->when_to.type = s->when_from.type = ZO_ZT_ANY;
  if ((w = yd_get(opts, "when")) && (st = replace_when(p, w, s))) return st;
  if (!(ins = yd_get(opts, "instead")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace needs instead: (move options)");
  if ((st = yr_want(&p->r, ins, YD_MAP, "instead (move options)"))) return st;
  s->then = zo_xcalloc(1, sizeof *s->then);
  if ((st = inner_move(p, ins, ins, 1, s->then))) return st;
  if (s->then->then) return yr_fail(&p->r, ins, ZO_ERR_SCHEMA, "then: is not allowed in instead:");
  if (!(v = yd_get(opts, "as"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace needs as: (its name)");
  return cr_new_name(p, v, "replacement", &p->c->replacements, &p->c->nreplacements, &s->as);
}

static zo_status parse_choose_replacement(cr_parser *p, const yd_node *opts, const yd_node *at,
                                          int nested, zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "order")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "choose_replacement needs order:");
  if ((st = yr_want(&p->r, v, YD_SEQ, "order"))) return st;
  s->order_zone_handles = zo_xcalloc(v->n ? v->n : 1, sizeof(int));
  for (size_t i = 0; i < v->n; i++) {
    if ((st = cr_named(p, v->kids[i], "replacement", p->c->replacements, p->c->nreplacements,
                       &s->order_zone_handles[i])))
      return st;
    s->norder++;
  }
  if ((v = yd_get(opts, "player")) && (st = cr_player(p, v, "player", &s->player))) return st;
  if ((v = yd_get(opts, "card")) && (st = cr_handle(p, v, "card", &s->card))) return st;
  return ZO_OK;
}

static zo_status parse_mark(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if (!(v = yd_get(opts, "kind"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "mark needs kind:");
  if ((st = yr_want(&p->r, v, YD_SCALAR, "kind"))) return st;
  int k = yr_index(v->str, zo_mark_kind_names, MK_COUNT);
  if (k < 0)
    return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "mark kind", v->str, NULL, zo_mark_kind_names,
                      MK_COUNT);
  s->mark_kind = (zo_mark_kind)k;
  if ((st = parse_until(p, opts, s))) return st;
  if (s->until && s->mark_kind != MK_EFFECT)
    return yr_fail(&p->r, yd_get(opts, "until"), ZO_ERR_SCHEMA,
                   "until: is for a mark of kind effect (a %s has no duration)", zo_mark_kind_names[k]);
  if (!(v = yd_get(opts, "as"))) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "mark needs as: (its name)");
  return cr_new_name(p, v, "mark", &p->c->marknames, &p->c->nmarknames, &s->as);
}

/* ---- issue 12: G5 permission to look, G7 a revealed card ------------------ */

/* look: {card|ref, player}: an instruction lets player look at the object
 * (CR 406.3, 217.7b; FaB 3.7.4). */
static zo_status parse_look(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  const yd_node *v;
  zo_status st = object_of(p, opts, at, nested, s);
  if (st) return st;
  if (!(v = yd_get(opts, "player")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "look needs player: (who may look)");
  return cr_player(p, v, "player", &s->player);
}

/* reveal: {card|ref, end}: the object is shown to every player until it
 * leaves its zone or a reveal with end: true (CR 701.20a, 217.2e); or
 * reveal: {top_of: PLAYER, end}: that player plays with the top card of
 * their library revealed (401.5, 401.6), kept in s->player. */
static zo_status parse_reveal(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                              zo_step *s) {
  const yd_node *v, *top = yd_get(opts, "top_of");
  zo_status st;
  if (top) {
    const yd_node *c = yd_get(opts, "card"), *r = yd_get(opts, "ref");
    if (c || r)
      return yr_fail(&p->r, c ? c : r, ZO_ERR_SCHEMA, "give card:/ref: or top_of:, not both");
    if (nested)
      return yr_fail(&p->r, top, ZO_ERR_SCHEMA, "top_of: is not for a then:/do: step");
    if ((st = cr_player(p, top, "top_of", &s->player))) return st;
  } else if ((st = object_of(p, opts, at, nested, s))) {
    return st;
  }
  if ((v = yd_get(opts, "end"))) return yr_bool(&p->r, v, "end", &s->end);
  return ZO_OK;
}

/* ---- durations (G4 of issue 12) ------------------------------------------ */

/* until: of a mark or control: end_of_turn (CR 514.2; 314.2 of 2004/2008,
 * 314.1b of 1999); left out, the effect has no duration (CR 611.2a). */
static zo_status parse_until(cr_parser *p, const yd_node *opts, zo_step *s) {
  static const char *const words[] = {"end_of_turn"};
  const yd_node *v = yd_get(opts, "until");
  zo_status st;
  if (!v) return ZO_OK;
  if ((st = yr_want(&p->r, v, YD_SCALAR, "until"))) return st;
  if (strcmp(v->str, words[0]))
    return yr_unknown(&p->r, v, ZO_ERR_UNKNOWN, "duration", v->str, NULL, words, 1);
  s->until = ZO_UNTIL_END_OF_TURN;
  return ZO_OK;
}

/* end_turn: the cleanup's end of "until end of turn" effects. */
static zo_status parse_end_turn(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                                zo_step *s) {
  return ZO_OK; /* no options */
}

/* cant: {card, when, types}: a "can't" effect on moves, in force from
 * this step on (CR 614.17, 614.17a): card: a handle or any; when: the
 * moves it forbids, written as replace's; types: only objects with every
 * one of these types, judged as they would be in the destination (614.17d). */
static zo_status parse_cant(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                            zo_step *s) {
  const yd_node *v, *w;
  zo_status st;
  if ((st = card_or_any(p, opts, "cant", s))) return st;
  s->when_to.type = s->when_from.type = ZO_ZT_ANY;
  if ((w = yd_get(opts, "when")) && (st = replace_when(p, w, s))) return st;
  if ((v = yd_get(opts, "types")) && (st = cr_types(p, v, "types", &s->types))) return st;
  return ZO_OK;
}

/* replace_draw: {as, player, instead, once}: an effect replacing the
 * player's draws from now on (CR 614.11): instead: the steps done instead
 * of each (a list, maybe empty: the draw replaced by nothing); once: only
 * the next draw. Its name is a replacement's (choose_replacement). */
static zo_status parse_replace_draw(cr_parser *p, const yd_node *opts, const yd_node *at,
                                    int nested, zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "player")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace_draw needs player: (whose draws it replaces)");
  if ((st = cr_player(p, v, "player", &s->player))) return st;
  if ((v = yd_get(opts, "once")) && (st = yr_bool(&p->r, v, "once", &s->once))) return st;
  if (!(v = yd_get(opts, "instead")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace_draw needs instead: (a list of steps, "
                   "[] for none)");
  if ((st = yr_want(&p->r, v, YD_SEQ, "instead (a list of steps)"))) return st;
  if ((st = step_list(p, v, "instead", s))) return st;
  if (!(v = yd_get(opts, "as")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "replace_draw needs as: (its name)");
  return cr_new_name(p, v, "replacement", &p->c->replacements, &p->c->nreplacements, &s->as);
}

/* untap: {player, phasing}: the player's untap step (CR 702.26a): phasing:
 * the handles of the permanents that have phasing, each once. */
static zo_status parse_untap(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                             zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "player")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "untap needs player: (whose untap step it is)");
  if ((st = cr_player(p, v, "player", &s->player))) return st;
  if (!(v = yd_get(opts, "phasing"))) return ZO_OK;
  if ((st = yr_want(&p->r, v, YD_SEQ, "phasing (the handles of permanents with phasing)"))) return st;
  s->order_zone_handles = zo_xcalloc(v->n ? v->n : 1, sizeof(int));
  for (size_t i = 0; i < v->n; i++) {
    int h;
    if ((st = cr_handle(p, v->kids[i], "phasing", &h))) return st;
    for (int j = 0; j < s->norder; j++)
      if (s->order_zone_handles[j] == h)
        return yr_fail(&p->r, v->kids[i], ZO_ERR_SCHEMA, "'%s' is named twice in phasing:",
                       v->kids[i]->str);
    s->order_zone_handles[s->norder++] = h;
  }
  return ZO_OK;
}

/* as_enters: {card, steps}: a replacement effect of the card's own that
 * modifies how it enters the battlefield and moves other objects first
 * (CR 614.13): steps: at least one step, each naming its own object. */
static zo_status parse_as_enters(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                                 zo_step *s) {
  const yd_node *v;
  zo_status st;
  if (!(v = yd_get(opts, "card")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "as_enters needs card: (the permanent entering)");
  if ((st = cr_handle(p, v, "card", &s->card))) return st;
  if (!(v = yd_get(opts, "steps")))
    return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "as_enters needs steps: (a list of steps)");
  if ((st = yr_want(&p->r, v, YD_SEQ, "steps (a list of steps)"))) return st;
  if (v->n == 0) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "steps: needs at least one step");
  return step_list(p, v, "steps", s);
}

/* leave_game: {player}: the player leaves the game (CR 800.4a). */
static zo_status parse_leave_game(cr_parser *p, const yd_node *opts, const yd_node *at, int nested,
                                  zo_step *s) {
  const yd_node *v = yd_get(opts, "player");
  if (!v) return yr_fail(&p->r, opts, ZO_ERR_SCHEMA, "leave_game needs player: (who leaves)");
  return cr_player(p, v, "player", &s->player);
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

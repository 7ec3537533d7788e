/* shrink.c: a decoded game copied, played again and made smaller, for
 * minimizing a differential finding (diff.c) over the game itself rather
 * than over its bytes: drop a setup card and every step acting on it, drop
 * a step and the steps that depend on it, set an optional field of a step
 * or a card back to its default (decoder.h). Each operation leaves a case
 * the loader would accept and the model can play: handles stay dense
 * (c1..cN as declared, then the created tokens), names keep their words.
 */
#include <stdlib.h>
#include <string.h>

#include "decoder.h"
#include "util.h"

/* ---- copy and replay -------------------------------------------------- */

static void copy_step(zo_step *dst, const zo_step *src) {
  *dst = *src;
  dst->json = NULL;
  dst->expect = NULL;
  if (src->then) {
    dst->then = zo_xmalloc(sizeof *dst->then);
    copy_step(dst->then, src->then);
  }
  if (src->moves) {
    dst->moves = zo_xcalloc((size_t)(src->nmoves ? src->nmoves : 1), sizeof *dst->moves);
    for (int i = 0; i < src->nmoves; i++) copy_step(&dst->moves[i], &src->moves[i]);
  }
  if (src->order_zone_handles) {
    size_t n = (size_t)(src->norder ? src->norder : 1);
    dst->order_zone_handles = zo_xmalloc(n * sizeof(int));
    memcpy(dst->order_zone_handles, src->order_zone_handles, n * sizeof(int));
  }
}

void zo_fuzz_copy(zo_fuzz *dst, const zo_fuzz *src) {
  memcpy(dst, src, sizeof *dst);
  zo_case *c = &dst->kase;
  dst->c = c;
  dst->g = NULL;
  dst->data = NULL;
  dst->size = dst->at = 0;
  c->handles = dst->handles;
  c->ztypes = dst->ztypes;
  c->rulesets = dst->rs_name;
  c->rules = dst->rule;
  c->cards = dst->cards;
  c->steps = dst->steps;
  c->cards_json = NULL;
  c->cards_json_placed = 0;
  for (int i = 0; i < c->nsteps; i++) copy_step(&dst->steps[i], &src->kase.steps[i]);
  dst->given = c->nsteps;
}

zo_status zo_fuzz_replay(zo_fuzz *f, zo_outcome *outcomes, zo_step_error *errors, zo_error *err) {
  zo_game_free(f->g);
  f->g = NULL;
  zo_status st = zo_game_new(f->rs, f->c, &f->g, err);
  if (st) return st;
  zo_step_result r = {0};
  for (int i = 0; i < f->c->nsteps; i++) {
    zo_game_apply_again(f->g, &f->c->steps[i], &r);
    if (outcomes) outcomes[i] = r.outcome;
    if (errors) errors[i] = r.error;
  }
  zo_step_result_free(&r);
  return ZO_OK;
}

/* ---- dropping steps ------------------------------------------------------ */

static void free_step(zo_step *s) {
  if (s->then) {
    free_step(s->then);
    free(s->then);
    s->then = NULL;
  }
  for (int i = 0; i < s->nmoves; i++) free_step(&s->moves[i]);
  free(s->moves);
  s->moves = NULL;
  s->nmoves = 0;
  free(s->order_zone_handles);
  s->order_zone_handles = NULL;
  free(s->json);
  s->json = NULL;
}

/* Remove entry k of a list of n ints. */
static void list_remove(int *v, int *n, int k) {
  memmove(v + k, v + k + 1, (size_t)(*n - k - 1) * sizeof *v);
  (*n)--;
}

/* Remove every x from a list; the count removed. */
static int list_remove_all(int *v, int *n, int x) {
  int removed = 0;
  for (int k = *n - 1; k >= 0; k--)
    if (v[k] == x) list_remove(v, n, k), removed++;
  return removed;
}

/* Remove the marked steps (drop[i]), keeping the others in order. */
static void compact(zo_fuzz *f, const unsigned char *drop) {
  zo_case *c = f->c;
  int k = 0;
  for (int i = 0; i < c->nsteps; i++) {
    if (drop[i]) {
      free_step(&c->steps[i]);
      continue;
    }
    if (k != i) c->steps[k] = c->steps[i];
    k++;
  }
  c->nsteps = k;
  f->given = k;
}

/* Does step s of a generated kind (steps.def) act on h: a required handle
 * option names it? An optional one that does is left out instead. */
static int generic_acts_on(zo_step *s, int h) {
  size_t n;
  const zo_step_option *o = zo_step_options(s->kind, &n);
  int acts = 0;
  for (size_t i = 0; i < n; i++) {
    int *ip = (int *)((char *)s + o[i].offset);
    if ((o[i].type != OT_CARD && o[i].type != OT_HANDLE) || *ip != h) continue;
    if (o[i].flags & (OPT_REQ | OPT_OBJECT)) acts = 1;
    else *ip = -1;
  }
  return acts;
}

/* Does step s act on handle h (as its object, its top-card, the token it
 * names), so that it must go when h goes? Lists (move_together's moves, a
 * reorder's order, choose_replacement's card) only lose h instead. */
static int acts_on(zo_step *s, int h) {
  switch (s->kind) {
  case ST_CREATE: return s->as == h;
  case ST_PUT_UNDER: return s->card == h || s->under == h;
  case ST_ATTACH: return s->card == h || s->attach_to == h;
  case ST_REPLACE: return !s->replace_any && s->card == h;
  case ST_CANT: return !s->replace_any && s->card == h;
  case ST_UNTAP: list_remove_all(s->order_zone_handles, &s->norder, h); return 0;
  case ST_MOVE_TOGETHER:
    for (int i = s->nmoves - 1; i >= 0; i--)
      if (s->moves[i].card == h) {
        free_step(&s->moves[i]);
        memmove(s->moves + i, s->moves + i + 1, (size_t)(s->nmoves - i - 1) * sizeof *s->moves);
        s->nmoves--;
      }
    return s->nmoves == 0;
  case ST_REORDER:
  case ST_SHUFFLE: list_remove_all(s->order_zone_handles, &s->norder, h); return 0;
  case ST_CHOOSE_REPLACEMENT:
    if (s->card == h) s->card = -1, s->player = -1;
    return 0;
  default:
    if (zo_step_kind_generated(s->kind)) return generic_acts_on(s, h);
    return s->card == h;
  }
}

/* Mark step i and, transitively, the later steps that depend on it: uses
 * of the token it creates, resolves of its watch; a replacement leaves the
 * orders that list it (a choose_replacement left with none goes too). */
static void mark_dependents(zo_fuzz *f, int i, unsigned char *drop) {
  zo_case *c = f->c;
  zo_step *s = &c->steps[i];
  drop[i] = 1;
  for (int j = i + 1; j < c->nsteps; j++) {
    zo_step *t = &c->steps[j];
    if (drop[j]) continue;
    int dep = 0;
    if (s->kind == ST_CREATE) dep = acts_on(t, s->as);
    else if (s->kind == ST_WATCH) dep = t->kind == ST_RESOLVE && t->trigger == s->as;
    else if (s->kind == ST_REPLACE && t->kind == ST_CHOOSE_REPLACEMENT)
      dep = list_remove_all(t->order_zone_handles, &t->norder, s->as) && t->norder == 0;
    if (dep) mark_dependents(f, j, drop);
  }
}

int zo_fuzz_drop_step(zo_fuzz *f, int i) {
  if (i < 0 || i >= f->c->nsteps) return 0;
  unsigned char drop[ZO_FUZZ_MAX_STEPS] = {0};
  mark_dependents(f, i, drop);
  compact(f, drop);
  return 1;
}

/* ---- dropping cards ------------------------------------------------------ */

/* Handles above h move down by one (h is gone): every option of s naming
 * a handle, by its type (steps.def), and the steps s holds. */
static void renumber(zo_step *s, int h) {
  size_t n;
  const zo_step_option *o = zo_step_options(s->kind, &n);
  for (size_t i = 0; i < n; i++) {
    int *ip = (int *)((char *)s + o[i].offset);
    switch (o[i].type) {
    case OT_CARD:
    case OT_HANDLE:
    case OT_CARD_OR_ANY:
    case OT_NEW_HANDLE:
      if (*ip > h) (*ip)--;
      break;
    case OT_HANDLES:
    case OT_SHUFFLE:
    case OT_ORDER:
      for (int k = 0; k < s->norder; k++)
        if (s->order_zone_handles[k] > h) s->order_zone_handles[k]--;
      break;
    case OT_STEP:
    case OT_INSTEAD:
      if (s->then) renumber(s->then, h);
      break;
    case OT_MOVES:
      for (int k = 0; k < s->nmoves; k++) renumber(&s->moves[k], h);
      break;
    case OT_STEPS:
      for (int k = 0; k < s->ncosts; k++) renumber(&s->costs[k], h);
      break;
    default: break;
    }
  }
}

int zo_fuzz_drop_card(zo_fuzz *f, int card) {
  zo_case *c = f->c;
  if (card < 0 || card >= c->ncards || c->ncards <= 1) return 0; /* a case keeps one card */
  int h = c->cards[card].handle;
  unsigned char drop[ZO_FUZZ_MAX_STEPS] = {0};
  for (int i = 0; i < c->nsteps; i++)
    if (!drop[i] && acts_on(&c->steps[i], h)) mark_dependents(f, i, drop);
  compact(f, drop);
  for (int i = 0; i < c->nsteps; i++) renumber(&c->steps[i], h);
  memmove(c->cards + card, c->cards + card + 1, (size_t)(c->ncards - card - 1) * sizeof *c->cards);
  c->ncards--;
  for (int i = 0; i < c->ncards; i++)
    if (c->cards[i].handle > h) c->cards[i].handle--;
  memmove(f->handles + h, f->handles + h + 1, (size_t)(c->nhandles - h - 1) * sizeof *f->handles);
  c->nhandles--;
  c->nsetup--;
  return 1;
}

/* ---- dropping fields ------------------------------------------------------ */

/* The optional fields of a move not at their default, in a fixed order:
 * reset the k-th (returns 1) or say there are fewer (0); with k < 0, their
 * count. */
static int move_field(zo_step *s, int k) {
  int n = 0;
#define FIELD(cond, reset) \
  if (cond) {              \
    if (n == k) {          \
      reset;               \
      return 1;            \
    }                      \
    n++;                   \
  }
  FIELD(s->then != NULL, free_step(s->then); free(s->then); s->then = NULL)
  FIELD(s->from.type != ZO_ZT_UNSET, s->from.type = ZO_ZT_UNSET)
  FIELD(s->to.player >= 0, s->to.player = -1)
  FIELD(s->position != ZO_POS_TOP, s->position = ZO_POS_TOP)
  FIELD(s->face >= 0, s->face = -1)
  FIELD(s->by_rule, s->by_rule = 0)
  FIELD(s->cause[0], s->cause[0] = 0)
  FIELD(s->choose, s->choose = 0)
  return k < 0 ? n : 0;
}

/* The optional options of a step of a generated kind (steps.def) of one
 * int (or a zone) not at their default, in the row's order: reset the k-th
 * to its default (1) or say there are fewer (0). */
static int generic_field(zo_step *s, int k) {
  size_t n;
  const zo_step_option *o = zo_step_options(s->kind, &n);
  zo_step d;
  zo_step_defaults(&d, s->kind);
  for (size_t i = 0; i < n; i++) {
    size_t size = o[i].type == OT_ZONE ? sizeof(zo_zone_spec) : sizeof(int);
    char *field = (char *)s + o[i].offset, *dfield = (char *)&d + o[i].offset;
    if (o[i].flags & (OPT_REQ | OPT_OBJECT) || o[i].type == OT_REF) continue;
    if (o[i].type != OT_ZONE && o[i].type != OT_HANDLE && o[i].type != OT_PLAYER &&
        o[i].type != OT_BOOL && o[i].type != OT_FACE && o[i].type != OT_AMOUNT &&
        o[i].type != OT_CHOOSE)
      continue;
    if (!memcmp(field, dfield, size)) continue;
    if (k-- == 0) {
      memcpy(field, dfield, size);
      return 1;
    }
  }
  return 0;
}

int zo_fuzz_drop_field(zo_fuzz *f, int i, int k) {
  if (i < 0 || i >= f->c->nsteps || k < 0) return 0;
  zo_step *s = &f->c->steps[i];
  int n = 0;
  switch (s->kind) {
  case ST_MOVE: return move_field(s, k);
  case ST_MOVE_TOGETHER:
    if (s->nmoves > 1 && k < s->nmoves) { /* a member, then the members' fields */
      free_step(&s->moves[k]);
      memmove(s->moves + k, s->moves + k + 1, (size_t)(s->nmoves - k - 1) * sizeof *s->moves);
      s->nmoves--;
      return 1;
    }
    k -= s->nmoves > 1 ? s->nmoves : 0;
    for (int m = 0; m < s->nmoves; m++) {
      int have = move_field(&s->moves[m], -1);
      if (k < have) return move_field(&s->moves[m], k);
      k -= have;
    }
    return 0;
  case ST_RESOLVE:
    FIELD(s->then != NULL, free_step(s->then); free(s->then); s->then = NULL)
    return 0;
  case ST_REPLACE:
    FIELD(s->when_to.type != ZO_ZT_ANY, s->when_to.type = ZO_ZT_ANY; s->when_to.player = -1)
    return move_field(s->then, k - n);
  case ST_CHOOSE_REPLACEMENT:
    FIELD(s->card >= 0, s->card = -1)
    FIELD(s->player >= 0, s->player = -1)
    return 0;
  case ST_UNTAP: /* CR 702.26a */
    FIELD(s->norder > 0, s->norder = 0)
    return 0;
  case ST_CANT: /* CR 614.17 */
    FIELD(s->when_to.type != ZO_ZT_ANY, s->when_to.type = ZO_ZT_ANY; s->when_to.player = -1)
    FIELD(s->when_from.type != ZO_ZT_ANY, s->when_from.type = ZO_ZT_ANY; s->when_from.player = -1)
    FIELD(s->types != 0, s->types = 0)
    return 0;
  case ST_WATCH:
    FIELD(s->from.type != ZO_ZT_ANY, s->from.type = ZO_ZT_ANY)
    FIELD(s->to.type != ZO_ZT_ANY, s->to.type = ZO_ZT_ANY)
    FIELD(s->types != 0, s->types = 0)
    return 0;
  case ST_CREATE:
    FIELD(s->types != 0, s->types = 0)
    return 0;
  case ST_DRAW:
  case ST_MILL:
    FIELD(s->count != 1, s->count = 1)
    return 0;
  case ST_ZONE_REMOVE:
    FIELD(s->choose, s->choose = 0)
    return 0;
  default: return zo_step_kind_generated(s->kind) ? generic_field(s, k) : 0;
  }
}

int zo_fuzz_drop_card_field(zo_fuzz *f, int card, int k) {
  if (card < 0 || card >= f->c->ncards || k < 0) return 0;
  zo_card_setup *cs = &f->c->cards[card];
  int n = 0;
  FIELD(cs->types != 0, cs->types = 0)
  FIELD(cs->face_down, cs->face_down = 0)
  return 0;
#undef FIELD
}

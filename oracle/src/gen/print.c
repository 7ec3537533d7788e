/* print.c: a decoded fuzz input printed as a YAML case (zoneoracle replay,
 * the findings of fuzz_diff and gate --fuzz), and as the JSON an engine is
 * sent for it (zo_fuzz_jsonify).
 *
 * The case has the rule set, players and starting position the decoder
 * chose, every step it decoded with the outcome the oracle gave as that
 * step's expectation, and a final expect of every object's zone, so a
 * person can read what happened and the suite can keep it as a regression.
 * It uses only the case language, so `zoneoracle check` accepts it. One
 * printer writes both forms: a step's YAML flow mapping and its zcp/1 JSON
 * differ only in quotes and spaces (the JSON is compact), so the case a
 * finding writes says exactly what the engine was sent.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "decoder.h"
#include "util.h"

/* Text being written: YAML flow style (plain words) or JSON (quoted). */
typedef struct {
  char *p;
  size_t n, cap;
  int json;
} emit;

static void put(emit *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(emit *e, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(e->p ? e->p + e->n : NULL, e->p ? e->cap - e->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (e->p && e->n + (size_t)k < e->cap) {
      e->n += (size_t)k;
      return;
    }
    e->cap = (e->cap ? e->cap : 256) * 2 + (size_t)k;
    e->p = zo_xrealloc(e->p, e->cap);
  }
}

/* Append text as it is (the printer's inner loop: no formatting). */
static void text(emit *e, const char *t) {
  size_t n = strlen(t);
  if (e->n + n + 1 > e->cap) {
    e->cap = (e->cap ? e->cap : 256) * 2 + n;
    e->p = zo_xrealloc(e->p, e->cap);
  }
  memcpy(e->p + e->n, t, n + 1);
  e->n += n;
}

/* Between two items of a list or map: ", " in YAML, "," in JSON (compact,
 * as an engine is sent it: no byte it need not parse). */
static void sep(emit *e) { text(e, e->json ? "," : ", "); }

/* A map key, after a separator unless it is the map's first. */
static void key(emit *e, int *first, const char *k) {
  if (!*first) sep(e);
  if (e->json) text(e, "\"");
  text(e, k);
  text(e, e->json ? "\":" : ": ");
  *first = 0;
}

/* A word (quoted in JSON) and a number or boolean (never quoted). */
static void word(emit *e, const char *w) {
  if (e->json) text(e, "\"");
  text(e, w);
  if (e->json) text(e, "\"");
}
static void kw(emit *e, int *first, const char *k, const char *w) {
  key(e, first, k);
  word(e, w);
}
static void kraw(emit *e, int *first, const char *k, const char *v) {
  key(e, first, k);
  text(e, v);
}
static void kint(emit *e, int *first, const char *k, long long v) {
  key(e, first, k);
  put(e, "%lld", v);
}

static const char *zname(const zo_fuzz *f, const zo_zone_spec *z, char *buf, size_t cap) {
  if (z->type == ZO_ZT_OUTSIDE) return "outside";
  if (z->type == ZO_ZT_ANY) return "any";
  if (z->type == ZO_ZT_ARENA) return "arena";
  if (z->type < 0) return "?";
  const char *t = f->c->ztypes[z->type];
  if (z->player >= 0 && z->index) snprintf(buf, cap, "%s.%s.%d", f->c->players[z->player], t, z->index);
  else if (z->player >= 0) snprintf(buf, cap, "%s.%s", f->c->players[z->player], t);
  else snprintf(buf, cap, "%s", t);
  return buf;
}

static void kzone(emit *e, int *first, const char *k, const zo_fuzz *f, const zo_zone_spec *z) {
  char b[96];
  kw(e, first, k, zname(f, z, b, sizeof b));
}

static const char *H(const zo_fuzz *f, int h) { return f->c->handles[h]; }

static void types(emit *e, uint64_t bits) {
  text(e, "[");
  int first = 1;
  for (int i = 0; i < 64; i++)
    if (bits & ((uint64_t)1 << i) && zo_type_word(i)) {
      if (!first) sep(e);
      word(e, zo_type_word(i));
      first = 0;
    }
  text(e, "]");
}

/* A list of names: handles (names NULL) or of names[]. */
static void names(emit *e, const zo_fuzz *f, char *const *list, const int *v, int n) {
  text(e, "[");
  for (int i = 0; i < n; i++) {
    if (i) sep(e);
    word(e, list ? list[v[i]] : H(f, v[i]));
  }
  text(e, "]");
}

/* `{mark: {as: m1, kind: effect}}`: the then: of a move. */
static void mark_then(emit *e, const zo_fuzz *f, const zo_step *t) {
  int first = 1, inner = 1;
  text(e, "{");
  key(e, &first, "mark");
  text(e, "{");
  kw(e, &inner, "as", f->c->marknames[t->as]);
  kw(e, &inner, "kind", zo_mark_kind_names[t->mark_kind]);
  text(e, "}}");
}

static void move_body(emit *e, const zo_fuzz *f, const zo_step *s, int with_card) {
  int first = 1;
  text(e, "{");
  if (with_card) kw(e, &first, "card", H(f, s->card));
  if (s->from.type != ZO_ZT_UNSET) kzone(e, &first, "from", f, &s->from);
  kzone(e, &first, "to", f, &s->to);
  if (s->position == ZO_POS_BOTTOM) kw(e, &first, "position", "bottom");
  else if (s->position >= 0) kint(e, &first, "position", s->position);
  if (s->face >= 0) kw(e, &first, "face", s->face ? "down" : "up");
  if (s->by_rule) kw(e, &first, "by", "rule");
  if (s->cause[0]) kw(e, &first, "cause", s->cause);
  if (s->choose) kint(e, &first, "choose", s->choose);
  if (s->then) {
    key(e, &first, "then");
    mark_then(e, f, s->then);
  }
  if (s->player >= 0 && with_card) kw(e, &first, "player", f->c->players[s->player]);
  text(e, "}");
}

/* The body of steps that name one card and one more option. */
static void card_and(emit *e, const zo_fuzz *f, const zo_step *s, const char *k, const char *v, int raw) {
  int first = 1;
  text(e, "{");
  kw(e, &first, "card", H(f, s->card));
  if (raw) kraw(e, &first, k, v);
  else kw(e, &first, k, v);
  text(e, "}");
}

static void step_body(emit *e, const zo_fuzz *f, const zo_step *s) {
  const zo_case *c = f->c;
  int first = 1;
  switch (s->kind) {
  case ST_MOVE: move_body(e, f, s, 1); return;
  case ST_MOVE_TOGETHER:
    text(e, "{");
    key(e, &first, "moves");
    text(e, "[");
    for (int i = 0; i < s->nmoves; i++) {
      if (i) sep(e);
      move_body(e, f, &s->moves[i], 1);
    }
    text(e, "]");
    if (s->norder) { /* issue 12, G3 */
      int inner = 1;
      char b[96];
      key(e, &first, "order");
      text(e, "{");
      key(e, &inner, zname(f, &s->order_zone, b, sizeof b));
      names(e, f, NULL, s->order_zone_handles, s->norder);
      text(e, "}");
    }
    if (s->player >= 0) kw(e, &first, "player", c->players[s->player]);
    if (s->order_by >= 0) kw(e, &first, "order_by", c->players[s->order_by]);
    text(e, "}");
    return;
  case ST_CREATE:
    text(e, "{");
    kw(e, &first, "as", H(f, s->as));
    kw(e, &first, "kind", zo_kind_name(s->kind_of));
    kw(e, &first, "owner", c->players[s->owner]);
    kzone(e, &first, "zone", f, &s->zone);
    if (s->types) {
      key(e, &first, "types");
      types(e, s->types);
    }
    text(e, "}");
    return;
  case ST_CONTROL:
    text(e, "{");
    kw(e, &first, "card", H(f, s->card));
    kw(e, &first, "player", c->players[s->player]);
    if (s->until) kw(e, &first, "until", "end_of_turn"); /* G4 */
    text(e, "}");
    return;
  case ST_PHASE: card_and(e, f, s, "out", s->out ? "true" : "false", 1); return;
  case ST_TURN_FACE: card_and(e, f, s, "face", s->face ? "down" : "up", 0); return;
  case ST_PUT_UNDER: card_and(e, f, s, "under", H(f, s->under), 0); return;
  case ST_ATTACH: card_and(e, f, s, "to", H(f, s->attach_to), 0); return;
  case ST_REORDER:
  case ST_SHUFFLE:
  case ST_ZONE_CREATE:
  case ST_ZONE_REMOVE:
    text(e, "{");
    kzone(e, &first, "zone", f, &s->zone);
    if (s->kind == ST_REORDER || (s->kind == ST_SHUFFLE && s->shuffle == ZO_SHUFFLE_ORDER)) {
      key(e, &first, "order");
      names(e, f, NULL, s->order_zone_handles, s->norder);
    }
    if (s->kind == ST_REORDER && s->by_effect) kw(e, &first, "by", "effect");
    if (s->kind == ST_SHUFFLE) kint(e, &first, "seed", (long long)s->seed);
    if (s->choose) kint(e, &first, "choose", s->choose);
    text(e, "}");
    return;
  case ST_DRAW:
  case ST_MILL:
    text(e, "{");
    kw(e, &first, "player", c->players[s->player]);
    kint(e, &first, "count", s->count);
    text(e, "}");
    return;
  case ST_END_GAME:
    text(e, "{");
    kw(e, &first, "winner", c->players[s->winner]);
    text(e, "}");
    return;
  case ST_WATCH:
    text(e, "{");
    kw(e, &first, "as", c->triggers[s->as]);
    kw(e, &first, "card", H(f, s->card));
    if (s->on_phase) kw(e, &first, "phase", "out"); /* CR 603.10b */
    if (s->from.type != ZO_ZT_UNSET && s->from.type != ZO_ZT_ANY) kzone(e, &first, "from", f, &s->from);
    if (s->to.type != ZO_ZT_UNSET && s->to.type != ZO_ZT_ANY) kzone(e, &first, "to", f, &s->to);
    if (s->types) {
      key(e, &first, "types");
      types(e, s->types);
    }
    if (s->cause[0]) kw(e, &first, "cause", s->cause); /* G8 */
    if (s->aura >= 0) kw(e, &first, "aura", H(f, s->aura)); /* CR 400.7f */
    text(e, "}");
    return;
  case ST_RESOLVE:
    text(e, "{");
    kw(e, &first, "trigger", c->triggers[s->trigger]);
    if (s->then) {
      int inner = 1;
      key(e, &first, "do");
      text(e, "{");
      key(e, &inner, "move");
      move_body(e, f, s->then, 0);
      text(e, "}");
    }
    text(e, "}");
    return;
  case ST_REMEMBER:
    text(e, "{");
    kw(e, &first, "as", c->refs[s->as]);
    kw(e, &first, "card", H(f, s->card));
    text(e, "}");
    return;
  case ST_REPLACE: {
    int inner = 1;
    text(e, "{");
    kw(e, &first, "as", c->replacements[s->as]);
    kw(e, &first, "card", s->replace_any ? "any" : H(f, s->card));
    if (s->repl_category != RC_OTHER)
      kw(e, &first, "category", zo_repl_category_names[s->repl_category]);
    key(e, &first, "when");
    text(e, "{");
    kzone(e, &inner, "to", f, &s->when_to);
    text(e, "}");
    key(e, &first, "instead");
    move_body(e, f, s->then, 0);
    text(e, "}");
    return;
  }
  case ST_CHOOSE_REPLACEMENT:
    text(e, "{");
    key(e, &first, "order");
    names(e, f, c->replacements, s->order_zone_handles, s->norder);
    if (s->player >= 0) kw(e, &first, "player", c->players[s->player]);
    if (s->player >= 0 && s->card >= 0) kw(e, &first, "card", H(f, s->card));
    text(e, "}");
    return;
  case ST_LOOK: card_and(e, f, s, "player", c->players[s->player], 0); return; /* issue 12 */
  case ST_REVEAL:
    if (zo_reveal_top_of(s) >= 0) { /* top_of: (CR 401.5) */
      text(e, "{");
      kw(e, &first, "top_of", c->players[s->player]);
      kraw(e, &first, "end", s->end ? "true" : "false");
      text(e, "}");
      return;
    }
    card_and(e, f, s, "end", s->end ? "true" : "false", 1);
    return;
  case ST_MARK:
    text(e, "{");
    kw(e, &first, "card", H(f, s->card));
    kw(e, &first, "as", c->marknames[s->as]);
    kw(e, &first, "kind", zo_mark_kind_names[s->mark_kind]);
    if (s->until) kw(e, &first, "until", "end_of_turn"); /* G4 */
    text(e, "}");
    return;
  case ST_UNTAP: /* CR 702.26a */
    text(e, "{");
    kw(e, &first, "player", c->players[s->player]);
    if (s->norder) {
      key(e, &first, "phasing");
      names(e, f, NULL, s->order_zone_handles, s->norder);
    }
    text(e, "}");
    return;
  case ST_LEAVE_GAME: /* CR 800.4a */
    text(e, "{");
    kw(e, &first, "player", c->players[s->player]);
    text(e, "}");
    return;
  case ST_CANT: { /* CR 614.17 */
    int inner = 1;
    text(e, "{");
    kw(e, &first, "card", s->replace_any ? "any" : H(f, s->card));
    if (s->when_to.type != ZO_ZT_ANY || s->when_from.type != ZO_ZT_ANY) {
      key(e, &first, "when");
      text(e, "{");
      if (s->when_to.type != ZO_ZT_ANY) kzone(e, &inner, "to", f, &s->when_to);
      if (s->when_from.type != ZO_ZT_ANY) kzone(e, &inner, "from", f, &s->when_from);
      text(e, "}");
    }
    if (s->types) {
      key(e, &first, "types");
      types(e, s->types);
    }
    text(e, "}");
    return;
  }
  default: text(e, "{}"); /* state_check, end_turn */
  }
}

/* `kind: {...}`: one step in the case language (JSON: an object). */
static void step(emit *e, const zo_fuzz *f, const zo_step *s) {
  if (e->json) text(e, "{");
  int first = 1;
  key(e, &first, zo_step_kind_name(s->kind));
  step_body(e, f, s);
  if (e->json) text(e, "}");
}

/* A setup card's options: `{owner: alice, zone: hand, ...}`; position >= 0:
 * its position in an ordered zone, given. */
static void card(emit *e, const zo_fuzz *f, const zo_card_setup *cs, int position) {
  int first = 1;
  text(e, "{");
  kw(e, &first, "owner", f->c->players[cs->owner]);
  kzone(e, &first, "zone", f, &cs->zone);
  if (position >= 0) kint(e, &first, "position", position);
  if (cs->kind != ZK_CARD) kw(e, &first, "kind", zo_kind_name(cs->kind));
  if (cs->types) {
    key(e, &first, "types");
    types(e, cs->types);
  }
  if (cs->face_down) kw(e, &first, "face", "down");
  text(e, "}");
}

void zo_fuzz_print_step(const zo_fuzz *f, const zo_step *s, FILE *out) {
  emit e = {0};
  step(&e, f, s);
  if (e.p) fputs(e.p, out);
  free(e.p);
}

void zo_fuzz_jsonify(zo_fuzz *f, const zo_observation *start) {
  zo_case *c = f->c;
  emit e = {.json = 1};
  text(&e, "{");
  for (int i = 0; i < c->ncards; i++) {
    const zo_card_setup *cs = &c->cards[i];
    int h = cs->handle, at = -1;
    if (start && h < start->nhandles && cs->under < 0) at = start->objs[h].position;
    put(&e, "%s\"%s\":", i ? "," : "", H(f, h));
    card(&e, f, cs, at);
  }
  text(&e, "}");
  free(c->cards_json);
  c->cards_json = zo_xstrdup(e.p);
  c->cards_json_placed = start != NULL;
  for (int i = 0; i < c->nsteps; i++) {
    e.n = 0;
    step(&e, f, &c->steps[i]);
    free(c->steps[i].json);
    c->steps[i].json = zo_xstrdup(e.p);
  }
  free(e.p);
}

int zo_fuzz_print_yaml(const zo_fuzz *f, const zo_outcome *outcomes,
                       const zo_step_error *errors, const char *id,
                       const char *rule, const char *note, FILE *out) {
  return zo_fuzz_print_yaml_ex(f, outcomes, errors, id, rule, note, NULL, 0, NULL, out);
}

/* Is d a property of one object that the final expect does not already
   show (its zone, or that it no longer exists)? */
static int object_extra(const zo_obs_difference *d) {
  return d && d->expect[0] && d->handle >= 0 && strcmp(d->what, "zone") &&
         strcmp(d->what, "exists") && strcmp(d->what, "visible");
}

/* The final expect: where the oracle has every object at the end, and d's
   value when it shows there (dstep 0). Returns the lines written. */
static int final_expect(const zo_fuzz *f, const zo_obs_difference *d, int dstep, FILE *out) {
  const zo_case *c = f->c;
  char b[96];
  int any = 0;
  fputs("expect:\n", out);
  for (int h = 0; h < c->nhandles; h++) {
    int exists = zo_game_obj_exists(f->g, h);
    if (h >= c->nsetup && !exists && zo_game_obj_identity(f->g, h) == 0) continue; /* never created */
    any++;
    if (!exists) {
      fprintf(out, "  %s: {exists: false}\n", H(f, h));
      continue;
    }
    zo_game_zone_name(f->g, zo_game_obj_zone(f->g, h), b, sizeof b);
    if (dstep == 0 && object_extra(d) && d->handle == h)
      fprintf(out, "  %s: {zone: %s, %s: %s}\n", H(f, h), b, d->what, d->oracle);
    else fprintf(out, "  %s: {zone: %s}\n", H(f, h), b);
  }
  if (dstep == 0 && d && d->expect[0] && (d->handle < 0 || !strcmp(d->what, "visible")) &&
      strcmp(d->what, "outcome") && strcmp(d->what, "error")) {
    fprintf(out, "  %s\n", d->expect);
    any++;
  }
  if (!any) fputs("  {}\n", out);
  return 1 + (any ? any : 1);
}

int zo_fuzz_print_yaml_ex(const zo_fuzz *f, const zo_outcome *outcomes,
                          const zo_step_error *errors, const char *id, const char *rule,
                          const char *note, const zo_obs_difference *d, int dstep,
                          int *lines, FILE *out) {
  const zo_case *c = f->c;
  emit e = {0};
  fprintf(out, "id: %s\n", id);
  fprintf(out, "title: \"%s\"\n", note ? note : "decoded fuzz input");
  fprintf(out, "rulesets: [%s]\n", f->rs->id);
  fprintf(out, "rules: [\"%s\"]\n", rule ? rule : c->rules[0]);
  fprintf(out, "source: \"%s\"\n", note ? note : "zoneoracle replay");
  fputs("players: [", out);
  for (int p = 0; p < c->nplayers; p++) fprintf(out, "%s%s", p ? ", " : "", c->players[p]);
  fputs("]\ncards:\n", out);
  int line = 8; /* the next line's number */
  if (!c->ncards) fputs("  {}\n", out), line++;
  for (int i = 0; i < c->ncards; i++, line++) {
    e.n = 0;
    card(&e, f, &c->cards[i], -1); /* where the file order puts it */
    fprintf(out, "  %s: %s\n", H(f, c->cards[i].handle), e.p);
  }
  fputs("steps:\n", out);
  line++;
  if (!c->nsteps) fputs("  []\n", out), line++;
  for (int i = 0; i < c->nsteps; i++) {
    e.n = 0;
    step(&e, f, &c->steps[i]);
    fprintf(out, "  - %s\n", e.p);
    if (lines) lines[i] = line;
    line++;
    int extra = d && d->expect[0] && dstep == i + 1 && strcmp(d->what, "outcome") &&
                strcmp(d->what, "error");
    if (outcomes && outcomes[i] != ZO_OUTCOME_NONE) {
      fprintf(out, "    expect: {outcome: %s", zo_outcome_name(outcomes[i]));
      if (errors && errors[i]) fprintf(out, ", error: %s", zo_step_error_name(errors[i]));
      if (extra) fprintf(out, ", %s", d->expect);
      fputs("}\n", out);
      line++;
    } else if (extra) {
      fprintf(out, "    expect: {%s}\n", d->expect);
      line++;
    }
  }
  free(e.p);
  /* what the oracle observes at the end */
  line += final_expect(f, d, dstep, out);
  if (lines) lines[c->nsteps] = line; /* one past the end */
  return ferror(out) ? -1 : 0;
}

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

/* A list of type words: the vocabulary's, then the case's own (c->xtypes). */
static void types(emit *e, const zo_case *c, uint64_t bits) {
  text(e, "[");
  int first = 1;
  for (int i = 0; i < 64; i++) {
    if (!(bits & ((uint64_t)1 << i))) continue;
    const char *w = i < ZO_NVOCAB ? zo_type_word(i)
                    : i - ZO_NVOCAB < c->nxtypes ? c->xtypes[i - ZO_NVOCAB] : NULL;
    if (!w) continue;
    if (!first) sep(e);
    word(e, w);
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

static void body(emit *e, const zo_fuzz *f, const zo_step *s);

/* `{kind: {...}}`: a step inside another's options (then:, do:, a list of
 * steps), braced in YAML too. */
static void inner_step(emit *e, const zo_fuzz *f, const zo_step *s) {
  int first = 1;
  text(e, "{");
  key(e, &first, zo_step_kind_name(s->kind));
  body(e, f, s);
  text(e, "}");
}

/* A zone option worth writing: given, and not its default. */
static int zone_given(const zo_zone_spec *z, const zo_zone_spec *def) {
  return z->type != ZO_ZT_UNSET && z->type != def->type;
}

/* Option o of s, when it differs from its default (in d) or is required:
 * `key: value` after the others (first: none yet). The option types of
 * case.h, written as the loader reads them back. */
static void option(emit *e, const zo_fuzz *f, const zo_step *s, const zo_step *d,
                   const zo_step_option *o, int *first) {
  const zo_case *c = f->c;
  const void *field = (const char *)s + o->offset, *dfield = (const char *)d + o->offset;
  int req = o->flags & OPT_REQ;
  /* the value of an option of one int (or enum); the other types read
     their own fields below */
  int one_int = o->type != OT_ZONE && o->type != OT_SEED && o->type != OT_CAUSE &&
                o->type != OT_TYPES && o->type != OT_STEP && o->type != OT_INSTEAD &&
                o->type != OT_STEPS && o->type != OT_MOVES && o->type != OT_ORDER &&
                o->type != OT_WHEN && o->type != OT_HANDLES && o->type != OT_REPLACEMENTS;
  int v = one_int ? *(const int *)field : 0, dv = one_int ? *(const int *)dfield : 0;
  char b[96];
  switch (o->type) {
  case OT_CARD:
  case OT_HANDLE:
  case OT_NEW_HANDLE:
    if (v >= 0) kw(e, first, o->key, H(f, v));
    return;
  case OT_CARD_OR_ANY:
    if (s->replace_any) kw(e, first, o->key, "any");
    else if (v >= 0) kw(e, first, o->key, H(f, v));
    return;
  case OT_REF:
  case OT_NEW_REF:
    if (v >= 0) kw(e, first, o->key, c->refs[v]);
    return;
  case OT_NEW_TRIGGER:
  case OT_TRIGGER:
    if (v >= 0) kw(e, first, o->key, c->triggers[v]);
    return;
  case OT_NEW_REPLACEMENT:
    if (v >= 0) kw(e, first, o->key, c->replacements[v]);
    return;
  case OT_NEW_MARK:
    if (v >= 0) kw(e, first, o->key, c->marknames[v]);
    return;
  case OT_PLAYER:
    if (v >= 0) kw(e, first, o->key, c->players[v]);
    return;
  case OT_HANDLES:
    if (s->norder || req) {
      key(e, first, o->key);
      names(e, f, NULL, s->order_zone_handles, s->norder);
    }
    return;
  case OT_REPLACEMENTS:
    key(e, first, o->key);
    names(e, f, c->replacements, s->order_zone_handles, s->norder);
    return;
  case OT_ZONE:
    if (zone_given(field, dfield)) kw(e, first, o->key, zname(f, field, b, sizeof b));
    return;
  case OT_POSITION:
    if (v == ZO_POS_BOTTOM) kw(e, first, o->key, "bottom");
    else if (v >= 0) kint(e, first, o->key, v);
    return;
  case OT_FACE:
    if (v >= 0) kw(e, first, o->key, v ? "down" : "up");
    return;
  case OT_BOOL:
    if (v != dv || req) kraw(e, first, o->key, v ? "true" : "false");
    return;
  case OT_CHOOSE:
  case OT_AMOUNT:
    if (v != dv || req) kint(e, first, o->key, v);
    return;
  case OT_SEED:
    if (*(const uint64_t *)field) kint(e, first, o->key, (long long)*(const uint64_t *)field);
    return;
  case OT_CAUSE:
    if (*(const char *)field) kw(e, first, o->key, field);
    return;
  case OT_TYPES:
    if (*(const uint64_t *)field) {
      key(e, first, o->key);
      types(e, c, *(const uint64_t *)field);
    }
    return;
  case OT_KIND: kw(e, first, o->key, zo_kind_name((zo_kind)v)); return;
  case OT_MARK_KIND: kw(e, first, o->key, zo_mark_kind_names[v]); return;
  case OT_CATEGORY:
    if (v != dv) kw(e, first, o->key, zo_repl_category_names[v]);
    return;
  case OT_UNTIL:
    if (v) kw(e, first, o->key, v == ZO_UNTIL_NEXT_TURN ? "next_turn" : "end_of_turn"); /* G4 */
    return;
  case OT_BY_RULE:
    if (v) kw(e, first, o->key, "rule");
    return;
  case OT_BY_EFFECT:
    if (v) kw(e, first, o->key, "effect");
    return;
  case OT_PHASE_OUT:
    if (v) kw(e, first, o->key, "out"); /* CR 603.10b */
    return;
  case OT_SHUFFLE:
    if (v == ZO_SHUFFLE_ORDER) {
      key(e, first, o->key);
      names(e, f, NULL, s->order_zone_handles, s->norder);
    } else if (v) {
      kraw(e, first, o->key, "true");
    }
    return;
  case OT_STEP:
  case OT_INSTEAD: {
    const zo_step *t = *(zo_step *const *)field;
    if (!t) return;
    key(e, first, o->key);
    if (o->type == OT_INSTEAD) body(e, f, t);
    else inner_step(e, f, t);
    return;
  }
  case OT_STEPS:
  case OT_MOVES: {
    const zo_step *list = o->type == OT_MOVES ? s->moves : s->costs;
    int n = o->type == OT_MOVES ? s->nmoves : s->ncosts;
    if (!n && !req) return;
    key(e, first, o->key);
    text(e, "[");
    for (int i = 0; i < n; i++) {
      if (i) sep(e);
      if (o->type == OT_MOVES) body(e, f, &list[i]);
      else inner_step(e, f, &list[i]);
    }
    text(e, "]");
    return;
  }
  case OT_ORDER:
    if (s->norder) { /* issue 12, G3 */
      int inner = 1;
      key(e, first, o->key);
      text(e, "{");
      key(e, &inner, zname(f, field, b, sizeof b));
      names(e, f, NULL, s->order_zone_handles, s->norder);
      text(e, "}");
    }
    return;
  case OT_WHEN: {
    int given_to = zone_given(&s->when_to, &d->when_to),
        given_from = zone_given(&s->when_from, &d->when_from), inner = 1;
    if (!given_to && !given_from && !s->when_cause[0]) return;
    key(e, first, o->key);
    text(e, "{");
    if (given_to) kw(e, &inner, "to", zname(f, &s->when_to, b, sizeof b));
    if (given_from) kw(e, &inner, "from", zname(f, &s->when_from, b, sizeof b));
    if (s->when_cause[0]) kw(e, &inner, "cause", s->when_cause);
    text(e, "}");
    return;
  }
  default: return;
  }
}

/* `{...}`: the options of step s, in its row's order (steps.def), each
 * written once: an option filling the field an earlier one filled (create's
 * subtypes: with types:) is that one. */
static void body(emit *e, const zo_fuzz *f, const zo_step *s) {
  size_t n;
  const zo_step_option *o = zo_step_options(s->kind, &n);
  zo_step d;
  zo_step_defaults(&d, s->kind);
  int first = 1;
  text(e, "{");
  for (size_t i = 0; i < n; i++) {
    int again = 0;
    for (size_t j = 0; j < i; j++) again |= o[j].offset == o[i].offset;
    if (!again) option(e, f, s, &d, &o[i], &first);
  }
  text(e, "}");
}

/* `kind: {...}`: one step in the case language (JSON: an object). */
static void step(emit *e, const zo_fuzz *f, const zo_step *s) {
  if (e->json) text(e, "{");
  int first = 1;
  key(e, &first, zo_step_kind_name(s->kind));
  body(e, f, s);
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
    types(e, f->c, cs->types);
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

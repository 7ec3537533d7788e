/* case.c: a parsed case (case.h) outside its parser: the words of its
 * vocabularies (statuses, outcomes, step error codes, object kinds, step
 * kinds, features, marks; cases/README.md), a step's defaults and the
 * feature it needs, type words as the case's bits, and freeing. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_read.h"
#include "util.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- words ---------------------------------------------------------- */

static const char *const outcome_names[] = {
    "none",     "moved",  "no_move", "new_object_in_place", "redirected",
    "stayed",   "replaced", "failed", "cleared", "ceased", "rejected", "not_found"};
_Static_assert(COUNT(outcome_names) == ZO_OUTCOME_COUNT, "a word for every zo_outcome (zo.h)");

const char *zo_outcome_name(zo_outcome o) {
  return (unsigned)o < ZO_OUTCOME_COUNT ? outcome_names[o] : "?";
}

int zo_outcome_parse(const char *name) {
  for (int i = 1; i < ZO_OUTCOME_COUNT; i++)
    if (strcmp(name, outcome_names[i]) == 0) return i;
  return -1;
}

static const char *const error_names[] = {
    "none",  "capacity", "no_zone",  "cannot_hold", "token_left",
    "not_in_zone", "no_controller", "already", "empty", "ordered",
    "wrong_player", "unsupported", "phased_out", "not_found", "not_fired", "forbidden", "cannot_choose"};
_Static_assert(COUNT(error_names) == ZO_E_COUNT, "a word for every zo_step_error (zo.h)");

const char *zo_step_error_name(zo_step_error e) {
  return (unsigned)e < ZO_E_COUNT ? error_names[e] : "?";
}

int zo_step_error_parse(const char *name) {
  for (int i = 1; i < ZO_E_COUNT; i++)
    if (strcmp(name, error_names[i]) == 0) return i;
  return -1;
}

#define ROW_NAME(id, name, ...) name,
#define ROW_SINCE(id, name, since) since,
#define ROW_WORD(id, name, ...) #name,
#define ROW_FEATURE(id, name, feature, ...) feature,
const char *const zo_kind_names[ZK_COUNT] = {ZO_OBJECT_KINDS(ROW_NAME)};
const char *const zo_feature_names[FT_COUNT] = {ZO_FEATURES(ROW_NAME)};
static const int feature_since[FT_COUNT] = {ZO_FEATURES(ROW_SINCE)};
const char *const zo_mark_kind_names[MK_COUNT] = {ZO_MARK_KINDS(ROW_NAME)};
const char *const zo_repl_category_names[RC_COUNT] = {ZO_REPL_CATEGORIES(ROW_NAME)};
const char *const zo_obj_expect_keys[OX_COUNT] = {ZO_OBJ_EXPECT_KEYS(ROW_NAME)};
const char *const zo_step_kind_names[ST_COUNT] = {ZO_STEP_KINDS(ROW_WORD)};
static const zo_feature step_features[ST_COUNT] = {ZO_STEP_KINDS(ROW_FEATURE)};
const char *const zo_option_type_names[OT_COUNT] = {ZO_OPTION_TYPES(ROW_NAME)};
#undef ROW_NAME
#undef ROW_SINCE
#undef ROW_WORD
#undef ROW_FEATURE

/* ---- the step table (steps.def) --------------------------------------- */

#define UNPAREN(...) __VA_ARGS__
#define OF(key, type, field, flags, feature, hint) \
  {#key, OT_##type, offsetof(zo_step, field), flags, hint, feature},
#define O(key, type, field, flags, hint) OF(key, type, field, flags, FT_NONE, hint)
#define ROW_OPTIONS(id, name, feature, nestable, generated, check, rule, opts) \
  static const zo_step_option options_##name[] = {UNPAREN opts{NULL, OT_COUNT, 0, 0, NULL, FT_NONE}};
ZO_STEP_KINDS(ROW_OPTIONS)
#define ROW_KIND(id, name, feature, nestable, generated, check, rule, opts) \
  [id] = {options_##name, sizeof options_##name / sizeof *options_##name - 1, nestable, \
          generated, rule},
/* Each kind's row. */
static const struct {
  const zo_step_option *options;
  size_t noptions;
  int nestable, generated;
  const char *rule;
} step_rows[ST_COUNT] = {ZO_STEP_KINDS(ROW_KIND)};
#undef O
#undef OF
#undef ROW_OPTIONS
#undef ROW_KIND

const zo_step_option *zo_step_options(zo_step_kind k, size_t *n) {
  if ((unsigned)k >= ST_COUNT) {
    *n = 0;
    return NULL;
  }
  *n = step_rows[k].noptions;
  return step_rows[k].options;
}

const zo_step_option *zo_step_option_find(zo_step_kind k, const char *key) {
  size_t n;
  const zo_step_option *o = zo_step_options(k, &n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(o[i].key, key)) return &o[i];
  return NULL;
}

int zo_step_option_given(const zo_step *s, const zo_step *d, const zo_step_option *o) {
  const char *f = (const char *)s + o->offset, *df = (const char *)d + o->offset;
  switch (o->type) {
  case OT_HANDLES:
  case OT_REPLACEMENTS:
  case OT_ORDER: return s->norder > 0;
  case OT_STEPS: return s->ncosts > 0;
  case OT_MOVES: return s->nmoves > 0;
  case OT_STEP:
  case OT_INSTEAD: return *(zo_step *const *)f != NULL;
  case OT_ZONE: return memcmp(f, df, sizeof(zo_zone_spec)) != 0;
  case OT_SEED:
  case OT_TYPES: return *(const uint64_t *)f != *(const uint64_t *)df;
  case OT_CAUSE: return *f != 0;
  case OT_WHEN:
    return s->when_to.type != d->when_to.type || s->when_from.type != d->when_from.type ||
           s->when_cause[0];
  case OT_CARD_OR_ANY: return s->replace_any || *(const int *)f != *(const int *)df;
  default: return *(const int *)f != *(const int *)df; /* one int (or enum) */
  }
}

int zo_step_kind_nestable(zo_step_kind k) {
  return (unsigned)k < ST_COUNT && step_rows[k].nestable;
}

const char *zo_step_kind_rule(zo_step_kind k) {
  return (unsigned)k < ST_COUNT ? step_rows[k].rule : "?";
}

int zo_step_kind_generated(zo_step_kind k) {
  return (unsigned)k < ST_COUNT && step_rows[k].generated;
}

const char *zo_kind_name(zo_kind k) {
  return (unsigned)k < ZK_COUNT ? zo_kind_names[k] : "?";
}

const char *zo_feature_name(zo_feature f) {
  return (unsigned)f < FT_COUNT ? zo_feature_names[f] : "?";
}

zo_feature zo_feature_parse(const char *name) {
  int i = yr_index(name, zo_feature_names, FT_COUNT);
  return i < 0 ? FT_NONE : (zo_feature)i;
}

const char *zo_step_kind_name(zo_step_kind k) {
  return (unsigned)k < ST_COUNT ? zo_step_kind_names[k] : "?";
}

int zo_step_kind_parse(const char *name) {
  return yr_index(name, zo_step_kind_names, ST_COUNT);
}

zo_feature zo_step_kind_feature(zo_step_kind k) {
  return (unsigned)k < ST_COUNT ? step_features[k] : FT_NONE;
}

zo_feature zo_feature_whole(zo_feature f) {
  const char *name = zo_feature_name(f), *dot = strchr(name, '.');
  if (!dot) return FT_NONE;
  for (int i = 0; i < FT_COUNT; i++)
    if (strlen(zo_feature_names[i]) == (size_t)(dot - name) && !strncmp(zo_feature_names[i], name, (size_t)(dot - name)))
      return (zo_feature)i;
  return FT_NONE;
}

int zo_feature_since(zo_feature f) {
  return (unsigned)f < FT_COUNT ? feature_since[f] : 1;
}

#define BIT(f) ((uint64_t)1 << (f))

uint64_t zo_features_declared(int (*has)(void *self, const char *what, int ruleset), void *self,
                              int protocol) {
  uint64_t d = 0;
  for (int f = 0; f < FT_COUNT; f++) {
    zo_feature whole = zo_feature_whole((zo_feature)f);
    if (!has || has(self, zo_feature_names[f], 0) ||
        (whole != FT_NONE && feature_since[f] <= protocol && has(self, zo_feature_names[whole], 0)))
      d |= BIT(f);
  }
  return d;
}

/* Whether case c has an object of kind k, at the start or created. */
static int has_kind(const zo_case *c, zo_kind k) {
  for (int i = 0; i < c->ncards; i++)
    if (c->cards[i].kind == k) return 1;
  for (int i = 0; i < c->nsteps; i++)
    if (c->steps[i].kind == ST_CREATE && c->steps[i].kind_of == k) return 1;
  return 0;
}

/* The kind of the object handle h names (a card's, or the create step's
 * that introduces it), or -1. */
static int kind_of_handle(const zo_case *c, int h) {
  for (int i = 0; h >= 0 && i < c->ncards; i++)
    if (c->cards[i].handle == h) return (int)c->cards[i].kind;
  for (int i = 0; h >= 0 && i < c->nsteps; i++)
    if (c->steps[i].kind == ST_CREATE && c->steps[i].as == h) return (int)c->steps[i].kind_of;
  return -1;
}

/* The parts of state_check case c can call on: tokens and copies that may
 * cease (CR 704.5d, 704.5e), a draw that may find an empty library
 * (CR 704.5b). */
static uint64_t state_check_parts(const zo_case *c) {
  uint64_t f = 0;
  if (has_kind(c, ZK_TOKEN)) f |= BIT(FT_STATE_CHECK_TOKENS);
  if (has_kind(c, ZK_COPY)) f |= BIT(FT_STATE_CHECK_COPIES);
  for (int i = 0; i < c->nsteps; i++)
    if (c->steps[i].kind == ST_DRAW) f |= BIT(FT_STATE_CHECK_DRAW_EMPTY);
  return f ? f : BIT(FT_STATE_CHECK);
}

/* The features of step s's kind and options, without its expectations. */
static uint64_t kind_features(const zo_case *c, const zo_step *s) {
  uint64_t f = 0;
  zo_feature k = zo_step_kind_feature(s->kind);
  if (s->kind == ST_MARK) {
    static const zo_feature part[MK_COUNT] = {FT_MARKS_COUNTER,    FT_MARKS_EFFECT,
                                              FT_MARKS_CHARACTERISTIC, FT_MARKS_PREVENTION,
                                              FT_KEPT_MARKS,       FT_KEPT_MARKS,
                                              FT_KEPT_MARKS};
    f |= BIT((unsigned)s->mark_kind < MK_COUNT ? part[s->mark_kind] : FT_MARKS);
  } else if (s->kind == ST_PHASE) {
    f |= BIT(kind_of_handle(c, s->card) == ZK_TOKEN ? FT_PHASING_TOKENS : FT_PHASING_PERMANENTS);
  } else if (s->kind == ST_STATE_CHECK) {
    f |= state_check_parts(c);
  } else if (k != FT_NONE) {
    f |= BIT(k);
  }
  if (s->face == 1) f |= BIT(FT_FACE_DOWN);
  /* the options a feature of their own gives (steps.def, OF): issue 12's
     performer (G3), durations (G4) and a watch's cause (G8); CR 400.7f,
     111.12, 401.5, 702.26h, 603.10b, 400.5, 614.11b, 616.1a, 406.3 */
  size_t n;
  const zo_step_option *o = zo_step_options(s->kind, &n);
  zo_step d;
  int have_d = 0;
  for (size_t i = 0; i < n; i++) {
    if (o[i].feature == FT_NONE) continue;
    if (!have_d) zo_step_defaults(&d, s->kind), have_d = 1;
    if (zo_step_option_given(s, &d, &o[i])) f |= BIT(o[i].feature);
  }
  /* what a value, not an option, says: CR 400.7k, 707.13, a shuffle's
     given result */
  if (s->kind == ST_MOVE && !strcmp(s->cause, "madness")) f |= BIT(FT_MADNESS);
  if (s->kind == ST_CREATE && s->zone.type == ZO_ZT_OUTSIDE) f |= BIT(FT_COPIES);
  if (s->shuffle == ZO_SHUFFLE_ORDER) f |= BIT(FT_SHUFFLE_ORDER);
  for (int i = 0; i < s->ncosts; i++) f |= kind_features(c, &s->costs[i]);
  for (int i = 0; i < s->nmoves; i++) f |= kind_features(c, &s->moves[i]);
  if (s->then) f |= kind_features(c, s->then);
  return f;
}

uint64_t zo_case_step_features(const zo_case *c, const zo_step *s) {
  uint64_t f = kind_features(c, s);
  const zo_expect *x = s->expect;
  if (x && x->nvisible) f |= BIT(FT_VISIBILITY);
  for (int i = 0; x && i < x->nobjs; i++)
    if (x->objs[i].mask & OX_LAYER) f |= BIT(FT_STACK_LAYERS);
  for (int i = 0; x && i < x->nobjs; i++) /* what an object is attached to */
    if (x->objs[i].mask & OX_ATTACHED_TO) f |= BIT(FT_ATTACHMENTS);
  for (int i = 0; x && i < x->nobjs; i++) /* the player an Aura enchants */
    if (x->objs[i].mask & OX_ATTACHED_TO_PLAYER) f |= BIT(FT_ATTACH_PLAYER);
  return f;
}

/* ---- what an engine's game can hold (capabilities) ------------------- */

int zo_capabilities_zone(const zo_capabilities *cap, const char *name) {
  if (!cap || !cap->zones) return 1;
  for (int i = 0; i < cap->nzones; i++)
    if (!strcmp(cap->zones[i], name)) return 1;
  return 0;
}

int zo_capabilities_face_down(const zo_capabilities *cap, const char *name) {
  if (!cap || !cap->face_down) return 1;
  for (int i = 0; i < cap->nface_down; i++)
    if (!strcmp(cap->face_down[i], name)) return 1;
  return 0;
}

/* The first zone type step s (its nested steps and members included)
 * moves or creates something face down into that cap keeps nothing face
 * down in, or NULL. */
static const char *face_down_gap(const zo_case *c, const zo_step *s, const zo_capabilities *cap) {
  if (s->face == 1) {
    const zo_zone_spec *z = s->kind == ST_CREATE ? &s->zone : &s->to;
    if (z->type >= 0 && z->type < c->nztypes && !zo_capabilities_face_down(cap, c->ztypes[z->type]))
      return c->ztypes[z->type];
  }
  const char *t = s->then ? face_down_gap(c, s->then, cap) : NULL;
  for (int i = 0; !t && i < s->nmoves; i++) t = face_down_gap(c, &s->moves[i], cap);
  for (int i = 0; !t && i < s->ncosts; i++) t = face_down_gap(c, &s->costs[i], cap);
  return t;
}

/* Whether step s (its nested steps, members and costs included) puts or
 * names something outside the game (CR 400.11: not a zone). */
static int step_outside(const zo_step *s) {
  if (s->to.type == ZO_ZT_OUTSIDE || s->from.type == ZO_ZT_OUTSIDE || s->zone.type == ZO_ZT_OUTSIDE ||
      s->when_to.type == ZO_ZT_OUTSIDE || s->when_from.type == ZO_ZT_OUTSIDE)
    return 1;
  if (s->then && step_outside(s->then)) return 1;
  for (int i = 0; i < s->nmoves; i++)
    if (step_outside(&s->moves[i])) return 1;
  for (int i = 0; i < s->ncosts; i++)
    if (step_outside(&s->costs[i])) return 1;
  return 0;
}

const char *zo_case_capability_gap(const zo_case *c, const zo_capabilities *cap, char *buf, size_t n) {
  if (!cap) return NULL;
  if (cap->players && (c->nplayers >= 32 || !(cap->players >> c->nplayers & 1u))) {
    snprintf(buf, n, "the case has %d players, a number the engine's game does not hold", c->nplayers);
    return buf;
  }
  for (int t = 0; t < c->nztypes; t++)
    if (!zo_capabilities_zone(cap, c->ztypes[t])) {
      snprintf(buf, n, "the case uses zone type %s, which the engine's game does not have", c->ztypes[t]);
      return buf;
    }
  int outside = 0;
  for (int i = 0; i < c->ncards; i++) outside |= c->cards[i].zone.type == ZO_ZT_OUTSIDE;
  for (int i = 0; i < c->nsteps; i++) outside |= step_outside(&c->steps[i]);
  if (outside && !zo_capabilities_zone(cap, "outside")) {
    snprintf(buf, n, "the case has an object outside the game, which the engine's game does not hold");
    return buf;
  }
  for (int i = 0; cap->face_down && i < c->ncards; i++) {
    const zo_zone_spec *z = &c->cards[i].zone;
    if (c->cards[i].face_down && z->type >= 0 && z->type < c->nztypes &&
        !zo_capabilities_face_down(cap, c->ztypes[z->type])) {
      snprintf(buf, n, "the case has a face-down card in zone type %s, where the engine keeps none",
               c->ztypes[z->type]);
      return buf;
    }
  }
  for (int i = 0; cap->face_down && i < c->nsteps; i++) {
    const char *t = face_down_gap(c, &c->steps[i], cap);
    if (t) {
      snprintf(buf, n, "the case puts a card face down into zone type %s, where the engine keeps none", t);
      return buf;
    }
  }
  if (cap->kinds) {
    for (int i = 0; i < c->ncards; i++)
      if (!(cap->kinds >> c->cards[i].kind & 1u)) {
        snprintf(buf, n, "the case has an object of kind %s, which the engine does not represent",
                 zo_kind_name(c->cards[i].kind));
        return buf;
      }
    for (int i = 0; i < c->nsteps; i++)
      if (c->steps[i].kind == ST_CREATE && !(cap->kinds >> c->steps[i].kind_of & 1u)) {
        snprintf(buf, n, "the case creates an object of kind %s, which the engine does not represent",
                 zo_kind_name(c->steps[i].kind_of));
        return buf;
      }
  }
  return NULL;
}

/* A step with every field at its "not given" value (case.h). */
void zo_step_init(zo_step *s) {
  memset(s, 0, sizeof *s);
  s->card = s->ref = s->as = s->trigger = -1;
  s->attach_to = s->aura = s->copy_of = s->attach_player = -1;
  s->owner = s->controller = s->player = s->winner = -1;
  s->order_by = s->turn_of = -1;
  s->position = ZO_POS_TOP;
  s->face = -1;
  s->count = 1;
  s->out = 1;
  s->to.type = s->from.type = s->zone.type = ZO_ZT_UNSET;
  s->when_to.type = s->when_from.type = ZO_ZT_UNSET;
  s->order_zone.type = ZO_ZT_UNSET;
  s->kind_of = ZK_TOKEN;
}

void zo_step_defaults(zo_step *s, zo_step_kind k) {
  size_t n;
  const zo_step_option *o = zo_step_options(k, &n);
  zo_step_init(s);
  s->kind = k;
  for (size_t i = 0; i < n; i++) {
    if (o[i].type == OT_WHEN) s->when_to.type = s->when_from.type = ZO_ZT_ANY;
    if (o[i].type == OT_ZONE && (o[i].flags & OPT_ANY))
      ((zo_zone_spec *)((char *)s + o[i].offset))->type = ZO_ZT_ANY;
  }
}

/* ---- names and type words of a case ---------------------------------- */

int cr_index(const char *s, char *const *names, int n) {
  return yr_index(s, (const char *const *)names, (size_t)n);
}

int cr_add_name(char ***names, int *n, const char *s) {
  *names = zo_xrealloc(*names, (size_t)(*n + 1) * sizeof **names);
  (*names)[*n] = zo_xstrdup(s);
  return (*n)++;
}

int cr_ztype(zo_case *c, const char *name) {
  int i = cr_index(name, c->ztypes, c->nztypes);
  return i >= 0 ? i : cr_add_name(&c->ztypes, &c->nztypes, name);
}

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

/* Intern every zone type of rs into c, so steps parsed later (serve) never
 * add a zone type after the game is built. */
void zo_case_add_zone_types(zo_case *c, const zo_ruleset *rs) {
  for (int z = 0; z < rs->nzones; z++) cr_ztype(c, rs->zones[z].name);
  /* and the rule set's own type words (equip:, keeps:), so an object a later
     step creates with one of them has the bit the game matches (a full
     table leaves the word out: a step naming it is then refused) */
  for (int i = 0; i < rs->nxtypes; i++) zo_type_intern(&c->xtypes, &c->nxtypes, rs->xtypes[i]);
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

void cr_step_free(zo_step *s) {
  if (s->then) {
    cr_step_free(s->then);
    free(s->then);
  }
  for (int i = 0; i < s->nmoves; i++) cr_step_free(&s->moves[i]);
  free(s->moves);
  for (int i = 0; i < s->ncosts; i++) cr_step_free(&s->costs[i]);
  free(s->costs);
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
    for (int i = 0; i < c->nsteps; i++) cr_step_free(&c->steps[i]);
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

/* decoder.c: bytes -> a game of the case language (see decoder.h and the
 * layout in fuzz/README.md): the header bytes (the setup), the profiles
 * (what an engine's game may use), what a step must hold to fit the
 * profile, and the type palettes. The lowest of the decoder's files: the
 * generators (decoder_gen.c, one per opcode), the sequences
 * (decoder_seq.c, on one object) and the dispatch above them
 * (decoder_dispatch.c: an opcode byte to its generator) call down into
 * it, never the other way; what they share is internal/decoder_int.h.
 *
 * Header: [rule set] [players] [card count] then 3 bytes a card
 * (kind+owner, zone, types+face). Steps: one opcode byte, then the step's
 * parameter bytes; a missing byte reads as 0. Names a step introduces
 * (created tokens, watches, references, replacements, marks) come from a
 * fixed reserve declared in the case, so the game can size its tables once.
 */
#include "decoder_int.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const player_names[] = {"alice", "bob", "carol", "dave"};

#define mtg_types zo_fuzz_mtg_types
#define fab_types zo_fuzz_fab_types
#define NMTG ZO_FUZZ_NMTG
#define NFAB ZO_FUZZ_NFAB

/* Type palettes: what a decoded object may be, per game. */
const char *const zo_fuzz_mtg_types[ZO_FUZZ_NMTG][3] = {
    {"creature"}, {"instant"}, {"sorcery"}, {"artifact"}, {"enchantment", "aura"},
    {"land"}, {"plane"}, {"artifact", "creature"}};
const char *const zo_fuzz_fab_types[ZO_FUZZ_NFAB][3] = {
    {"action"}, {"instant"}, {"attack_reaction"}, {"action", "aura"}, {"action", "item"},
    {"action", "ally"}, {"weapon", "1h"}, {"weapon", "2h", "bow"}, {"equipment", "quiver"},
    {"equipment", "off-hand"}, {"equipment", "head"}, {"equipment", "chest"},
    {"equipment", "arms"}, {"equipment", "legs"}, {"hero"}, {"resource"}};

const char *const zo_fuzz_causes[ZO_FUZZ_NCAUSES] = {"", "destroy", "discard", "exile", "draw",
                                                     "resolve", "sacrifice", "counter", "banish", "play",
                                                     "madness"};
_Static_assert(ZO_FUZZ_NCAUSES <= 16, "a cause is read from 4 bits");

/* Type bits of palette row i, looked up once per process. */
uint64_t zo_fuzz_palette(const zo_fuzz *f, int i) {
  static uint64_t mtg_bits[NMTG], fab_bits[NFAB];
  static int ready;
  if (!ready) {
    for (int r = 0; r < NMTG; r++)
      for (int k = 0; k < 3 && mtg_types[r][k]; k++) mtg_bits[r] |= zo_type_bit(mtg_types[r][k]);
    for (int r = 0; r < NFAB; r++)
      for (int k = 0; k < 3 && fab_types[r][k]; k++) fab_bits[r] |= zo_type_bit(fab_types[r][k]);
    ready = 1;
  }
  /* after the game's rows, one row per own type word of the rule set (a
     user's game: limits:, instead:, holds words), so its zone rules are
     reached; the case numbers them as the rule set does (zo_fuzz_start_in) */
  int base = is_fab(f) ? NFAB : NMTG, rows = base + f->rs->nxtypes;
  int r = i % rows;
  if (r >= base) return (uint64_t)1 << (ZO_NVOCAB + (r - base));
  return is_fab(f) ? fab_bits[r] : mtg_bits[r];
}

/* Names never change: the decoded case points at these (nothing to copy
 * or free per input). */
static char *handle_names[] = {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8",
                               "c9", "c10", "c11", "c12", "t1", "t2", "t3", "t4"};
static char *created_names[] = {"t1", "t2", "t3", "t4"};
static char *watch_names[] = {"w1", "w2", "w3", "w4"};
static char *ref_names[] = {"r1", "r2", "r3", "r4"};
static char *repl_names[] = {"p1", "p2", "p3", "p4"};
static char *mark_names[] = {"m1", "m2", "m3", "m4"};

void zo_fuzz_start(zo_fuzz *f, const uint8_t *data, size_t size) {
  static zo_fuzz_profile all;
  if (!all.all) zo_fuzz_profile_all(&all);
  zo_fuzz_start_in(f, &all, data, size);
}

/* The zone type byte z chooses among those the profile allows in f's rule
 * set (z % the rule set's zone types when every one is). */
static int allowed_zone(const zo_fuzz *f, uint8_t z) {
  uint32_t ok = f->prof->zones[f->prof_rs];
  int n = 0;
  for (int t = 0; t < f->rs->nzones; t++) n += (int)(ok >> t & 1u);
  if (!n || n == f->rs->nzones) return z % f->rs->nzones;
  int k = z % n;
  for (int t = 0; t < f->rs->nzones; t++)
    if ((ok >> t & 1u) && k-- == 0) return t;
  return 0;
}

void zo_fuzz_start_in(zo_fuzz *f, const zo_fuzz_profile *p, const uint8_t *data, size_t size) {
  /* only the scalars: the tables are filled as far as they are used */
  f->at = 0;
  f->c = NULL;
  f->g = NULL;
  f->created = f->watches = f->refs = f->repls = f->marks = 0;
  f->given = 0;
  f->prof = p;
  f->data = data;
  f->size = size;
  f->prof_rs = next(f) % p->nrulesets;
  f->rs = zo_ruleset_at((size_t)p->rulesets[f->prof_rs]);
  zo_case *c = &f->kase;
  memset(c, 0, sizeof *c);
  f->c = c;
  c->file = "fuzz-input";
  c->id = "fuzz/decoded";
  c->title = "decoded fuzz input";
  f->rs_name[0] = (char *)f->rs->id;
  c->rulesets = f->rs_name;
  c->nrulesets = 1;
  c->nplayers = p->player_counts[next(f) % p->nplayer_counts]; /* 2 + byte % 3 for every count */
  for (int i = 0; i < c->nplayers; i++) c->players[i] = (char *)player_names[i];
  /* zone types: the case names every zone of the rule set, in order */
  c->nztypes = f->rs->nzones;
  for (int z = 0; z < c->nztypes; z++) f->ztypes[z] = (char *)f->rs->zones[z].name;
  c->ztypes = f->ztypes;
  /* the rule set's own type words, numbered as the rule set does (shared,
     never freed with the case): a palette row each (zo_fuzz_palette) */
  c->xtypes = f->rs->xtypes;
  c->nxtypes = f->rs->nxtypes;
  int n = 1 + next(f) % NCARDS_MAX;
  c->nsetup = n;
  c->nhandles = n + RESERVE;
  for (int i = 0; i < n; i++) f->handles[i] = handle_names[i];
  for (int i = 0; i < RESERVE; i++) f->handles[n + i] = created_names[i];
  c->handles = f->handles;
  c->triggers = watch_names;
  c->ntriggers = RESERVE;
  c->refs = ref_names;
  c->nrefs = RESERVE;
  c->replacements = repl_names;
  c->nreplacements = RESERVE;
  c->marknames = mark_names;
  c->nmarknames = RESERVE;
  c->cards = f->cards;
  c->ncards = n;
  int fab = is_fab(f);
  for (int i = 0; i < n; i++) {
    zo_card_setup *cs = &c->cards[i];
    uint8_t k = next(f), z = next(f), t = next(f);
    cs->handle = i;
    cs->owner = (k >> 3) % c->nplayers;
    int kk = k & 7;
    cs->kind = kk == 5 ? ZK_TOKEN
               : kk == 6 ? (fab ? ((k & 0x40) ? ZK_MACRO : ZK_ABILITY)
                                : ((k & 0x40) ? ZK_COPY : ZK_ABILITY))
                         : ZK_CARD;
    if (!(p->kinds >> cs->kind & 1u)) cs->kind = ZK_CARD; /* a kind the engine lacks */
    cs->zone.type = allowed_zone(f, z);
    cs->zone.player = -1;
    cs->zone.index = 0;
    cs->types = zo_fuzz_palette(f, t & 0x7f);
    cs->face_down = (t & 0x80) != 0 && allowed(f, FT_FACE_DOWN) &&
                    (p->face_down[f->prof_rs] >> cs->zone.type & 1u);
    cs->controller = -1;
    cs->visibility = -1;
    cs->position = -1;
    cs->under = -1;
    cs->line = i + 1; /* a setup error names the card by its line */
    cs->col = 1;
  }
  /* place: an impossible card falls back to a zone that holds it (one
     pass; the case's card is rewritten so a printed case matches) */
  if (zo_game_new_lenient(f->rs, c, &f->g)) abort(); /* fallbacks always hold */
  /* the case cites the rule set's first rule of the identity switch */
  const zo_cited *nw = &f->rs->sw[SW_NEW_OBJECT];
  f->rule[0] = f->rs->rules[nw->nrules ? nw->rules[0] : 0].id;
  c->rules = f->rule;
  c->nrules = 1;
  c->steps = f->steps;
}

/* The step kind each opcode makes (its feature is the opcode's). */
static const zo_step_kind op_kind[OP_COUNT] = {
    ST_MOVE, ST_MOVE, ST_MOVE, ST_MOVE, ST_MOVE_TOGETHER, ST_CREATE, ST_CONTROL, ST_PHASE,
    ST_TURN_FACE, ST_REORDER, ST_SHUFFLE, ST_DRAW, ST_MILL, ST_PUT_UNDER, ST_ZONE_CREATE,
    ST_ZONE_REMOVE, ST_STATE_CHECK, ST_STATE_CHECK, ST_END_GAME, ST_WATCH, ST_RESOLVE,
    ST_REMEMBER, ST_REPLACE, ST_CHOOSE_REPLACEMENT, ST_MARK,
    ST_WATCH, ST_REPLACE, ST_MOVE, ST_MARK, ST_MOVE,
    ST_MOVE, ST_MOVE_TOGETHER, ST_LOOK, ST_REVEAL, ST_ATTACH,
    ST_END_TURN, ST_WATCH, ST_MARK, ST_WATCH, ST_WATCH, ST_CANT,
    ST_UNTAP, ST_LEAVE_GAME, ST_WATCH, ST_COUNT /* OP_GENERIC: by its kind */};
_Static_assert(OP_COUNT <= ZO_FUZZ_MAX_OPS, "zo_fuzz_profile.ops holds every opcode");

/* ---- profiles --------------------------------------------------------- */

static void profile_ops(zo_fuzz_profile *p) {
  p->nops = 0;
  for (int op = 0; op < OP_COUNT; op++) {
    if (op == OP_GENERIC) { /* when the profile allows one of its kinds */
      for (int k = 0; k < ST_COUNT; k++) {
        zo_feature gft = zo_step_kind_feature((zo_step_kind)k);
        if (zo_step_kind_generated((zo_step_kind)k) &&
            (gft == FT_NONE || ((p->features >> gft) & 1u))) {
          p->ops[p->nops++] = (uint8_t)op;
          break;
        }
      }
      continue;
    }
    zo_feature ft = zo_step_kind_feature(op_kind[op]);
    if (op == OP_MOVE_BY || op == OP_TOGETHER_BY) ft = FT_PERFORMER; /* player:, order_by: */
    if (op == OP_WATCH_CAUSE) ft = FT_TRIGGERS_CAUSE; /* G8: a part of triggers */
    if (op == OP_WATCH_AURA) ft = FT_AURA_TRIGGERS;   /* CR 400.7f */
    if (op == OP_SEQ_MADNESS) ft = FT_MADNESS;        /* CR 400.7k */
    if (op == OP_WATCH_PHASE) ft = FT_PHASING_TRIGGERS; /* CR 603.10b */
    if (op == OP_SHUFFLE) ft = FT_SHUFFLE_ORDER;        /* its result given (PROTOCOL.md 9) */
    if (ft == FT_NONE || ((p->features >> ft) & 1u)) p->ops[p->nops++] = (uint8_t)op;
  }
}

void zo_fuzz_profile_all(zo_fuzz_profile *p) {
  zo_fuzz_profile_make(p, NULL, NULL, ~(uint64_t)0, NULL);
}

_Static_assert(FT_COUNT <= 64, "a profile holds the features as bits of a uint64_t");

void zo_fuzz_profile_make(zo_fuzz_profile *p, int (*has)(void *self, const char *what, int ruleset),
                          void *self, uint64_t features, const zo_capabilities *cap) {
  memset(p, 0, sizeof *p);
  size_t nrs = zo_ruleset_count();
  for (size_t i = 0; i < nrs && p->nrulesets < ZO_FUZZ_MAX_RULESETS; i++)
    if (!has || has(self, zo_ruleset_at(i)->id, 1)) p->rulesets[p->nrulesets++] = (int)i;
  if (!p->nrulesets) /* none declared: every game is skipped anyway */
    for (size_t i = 0; i < nrs && p->nrulesets < ZO_FUZZ_MAX_RULESETS; i++) p->rulesets[p->nrulesets++] = (int)i;
  p->features = features & ((UINT64_C(1) << FT_COUNT) - 1);
  for (int n = 2; n <= 4; n++)
    if (!cap || !cap->players || (cap->players >> n & 1u)) p->player_counts[p->nplayer_counts++] = (uint8_t)n;
  if (!p->nplayer_counts) /* none the decoder makes: every game is refused anyway */
    for (int n = 2; n <= 4; n++) p->player_counts[p->nplayer_counts++] = (uint8_t)n;
  int every_zone = 1;
  for (int i = 0; i < p->nrulesets; i++) {
    const zo_ruleset *rs = zo_ruleset_at((size_t)p->rulesets[i]);
    for (int z = 0; z < rs->nzones; z++) {
      if (zo_capabilities_zone(cap, rs->zones[z].name)) p->zones[i] |= UINT32_C(1) << z;
      else every_zone = 0;
      if (zo_capabilities_face_down(cap, rs->zones[z].name)) p->face_down[i] |= UINT32_C(1) << z;
      else every_zone = 0;
    }
  }
  p->outside = zo_capabilities_zone(cap, "outside");
  p->kinds = cap && cap->kinds ? cap->kinds | 1u << ZK_CARD : ~0u;
  p->all = (!has || (p->nrulesets == (int)nrs && p->features == (UINT64_C(1) << FT_COUNT) - 1)) &&
           p->nplayer_counts == 3 && every_zone && p->outside && p->kinds == ~0u;
  profile_ops(p);
}

int zo_fuzz_profile_only(zo_fuzz_profile *p, const char *id) {
  for (int i = 0; i < p->nrulesets; i++)
    if (!strcmp(zo_ruleset_at((size_t)p->rulesets[i])->id, id)) {
      p->rulesets[0] = p->rulesets[i];
      p->zones[0] = p->zones[i];
      p->face_down[0] = p->face_down[i];
      p->nrulesets = 1;
      p->all = 0; /* a rule set byte no longer chooses among all */
      return 0;
    }
  return -1;
}

#define BIT64(ft) (UINT64_C(1) << (ft))

uint64_t zo_fuzz_step_features(const zo_step *s) {
  uint64_t m = 0;
  zo_feature ft = zo_step_kind_feature(s->kind); /* the whole: a generated step may use any part */
  if (ft != FT_NONE) m |= BIT64(ft);
  if (s->expect && s->expect->nvisible) m |= BIT64(FT_VISIBILITY);
  if (s->face == 1) m |= BIT64(FT_FACE_DOWN);
  if (s->kind == ST_REPLACE && s->repl_category != RC_OTHER) m |= BIT64(FT_REPLACEMENT_CATEGORY);
  if ((s->kind == ST_MOVE || s->kind == ST_MOVE_TOGETHER || s->kind == ST_REORDER) &&
      (s->player >= 0 || s->order_by >= 0))
    m |= BIT64(FT_PERFORMER);
  if (s->until) m |= BIT64(FT_DURATIONS);                          /* G4 */
  if (s->kind == ST_MARK && s->mark_kind >= MK_STICKER) m |= BIT64(FT_KEPT_MARKS);
  if (s->kind == ST_WATCH && s->cause[0]) m |= BIT64(FT_TRIGGERS_CAUSE); /* G8 */
  if (s->kind == ST_WATCH && s->aura >= 0) m |= BIT64(FT_AURA_TRIGGERS);  /* 400.7f */
  if ((s->kind == ST_ATTACH && s->attach_to < 0 && s->player >= 0) || s->attach_player >= 0)
    m |= BIT64(FT_ATTACH_PLAYER); /* 303.4b, 303.4f: never generated */
  if (s->kind == ST_MOVE && !strcmp(s->cause, "madness")) m |= BIT64(FT_MADNESS); /* 400.7k */
  if (s->kind == ST_CREATE && (s->copy_of >= 0 || s->zone.type == ZO_ZT_OUTSIDE))
    m |= BIT64(FT_COPIES); /* 111.12, 707.13 */
  if (s->kind == ST_MOVE && s->ncosts) m |= BIT64(FT_CASTING); /* 401.5 */
  if (s->kind == ST_PHASE && s->norder) m |= BIT64(FT_PHASING_TOGETHER); /* 702.26h */
  if (s->kind == ST_WATCH && s->on_phase) m |= BIT64(FT_PHASING_TRIGGERS); /* 603.10b */
  if (s->kind == ST_REORDER && s->by_effect) m |= BIT64(FT_REORDER_EFFECT);  /* 400.5 */
  if (s->shuffle == ZO_SHUFFLE_ORDER) m |= BIT64(FT_SHUFFLE_ORDER);
  if (s->kind == ST_DRAW && s->then) m |= BIT64(FT_DRAW_THEN);             /* 614.11b */
  for (int i = 0; i < s->ncosts; i++) m |= zo_fuzz_step_features(&s->costs[i]);
  if (s->then) m |= zo_fuzz_step_features(s->then);
  for (int i = 0; i < s->nmoves; i++) m |= zo_fuzz_step_features(&s->moves[i]);
  return m;
}

/* ---- what the dispatch (decoder_dispatch.c) checks each step against ---- */

void zo_fuzz_free_step(zo_step *s) {
  if (s->then) {
    zo_fuzz_free_step(s->then);
    free(s->then);
    s->then = NULL;
  }
  free(s->moves);
  s->moves = NULL;
  free(s->order_zone_handles);
  s->order_zone_handles = NULL;
  free(s->json);
  s->json = NULL;
}

static void strip_face(zo_step *s) {
  if (s->face == 1) s->face = -1;
  if (s->then) strip_face(s->then);
  for (int i = 0; i < s->nmoves; i++) strip_face(&s->moves[i]);
}

/* Whether zone spec z names a zone the profile allows (a type of the rule
 * set, or outside the game); any other spec (unset, any, the arena) does. */
static int zone_ok(const zo_fuzz *f, const zo_zone_spec *z) {
  if (z->type == ZO_ZT_OUTSIDE) return f->prof->outside;
  return z->type < 0 || (f->prof->zones[f->prof_rs] >> z->type & 1u);
}

/* Whether zone spec z is a zone where the profile may keep objects face
 * down (any spec that names no type of the rule set may). */
static int face_down_ok(const zo_fuzz *f, const zo_zone_spec *z) {
  return z->type < 0 || (f->prof->face_down[f->prof_rs] >> z->type & 1u);
}

/* s and its nested steps and members without face: down where the
 * profile keeps nothing face down (the move is made face up instead). */
static void face_down_where_kept(const zo_fuzz *f, zo_step *s) {
  if (s->face == 1 && !face_down_ok(f, s->kind == ST_CREATE ? &s->zone : &s->to)) s->face = -1;
  if (s->then) face_down_where_kept(f, s->then);
  for (int i = 0; i < s->nmoves; i++) face_down_where_kept(f, &s->moves[i]);
  for (int i = 0; i < s->ncosts; i++) face_down_where_kept(f, &s->costs[i]);
}

/* Whether step s, its nested steps, members and costs included, names
 * only zones the profile allows and creates only kinds it allows. */
static int holds(const zo_fuzz *f, const zo_step *s) {
  if (!zone_ok(f, &s->to) || !zone_ok(f, &s->from) || !zone_ok(f, &s->zone) || !zone_ok(f, &s->when_to) ||
      !zone_ok(f, &s->when_from) || (s->norder && !zone_ok(f, &s->order_zone)))
    return 0;
  if (s->kind == ST_CREATE && !(f->prof->kinds >> s->kind_of & 1u)) return 0;
  if (s->then && !holds(f, s->then)) return 0;
  for (int i = 0; i < s->nmoves; i++)
    if (!holds(f, &s->moves[i])) return 0;
  for (int i = 0; i < s->ncosts; i++)
    if (!holds(f, &s->costs[i])) return 0;
  return 1;
}

/* Whether step s fits the profile, after leaving out what it may go
 * without: face: down without face_down, a shuffle's given order without
 * shuffle_order, a then:/do: needing a feature the profile lacks (an
 * instead: is required, so it stays), a draw's then: without draw_then;
 * and whether it names only zones and kinds the profile allows. */
int zo_fuzz_fit(zo_fuzz *f, zo_step *s) {
  uint64_t have = f->prof->features;
  if (!holds(f, s)) return 0;
  face_down_where_kept(f, s);
  if (s->kind == ST_TURN_FACE && s->card >= 0) { /* only where objects are kept face down */
    int t = zone_type_of(f, s->card);
    if (t >= 0 && !(f->prof->face_down[f->prof_rs] >> t & 1u)) return 0;
  }
  if (!(zo_fuzz_step_features(s) & ~have)) return 1;
  if (!allowed(f, FT_FACE_DOWN)) strip_face(s);
  if (!allowed(f, FT_REPLACEMENT_CATEGORY)) s->repl_category = RC_OTHER;
  if (!allowed(f, FT_SHUFFLE_ORDER) && s->kind == ST_MOVE && s->shuffle == ZO_SHUFFLE_ORDER) {
    s->shuffle = 0; /* a shuffle nobody can repeat is no game to compare */
    free(s->order_zone_handles);
    s->order_zone_handles = NULL;
    s->norder = 0;
  }
  if (!allowed(f, FT_REORDER_EFFECT)) s->by_effect = 0; /* a player's rearranging instead */
  if (!allowed(f, FT_DRAW_THEN) && s->kind == ST_DRAW && s->then) {
    zo_fuzz_free_step(s->then);
    free(s->then);
    s->then = NULL;
  }
  if (s->then && s->kind != ST_REPLACE && (zo_fuzz_step_features(s->then) & ~have)) {
    zo_fuzz_free_step(s->then);
    free(s->then);
    s->then = NULL;
  }
  return !(zo_fuzz_step_features(s) & ~have);
}

int zo_fuzz_setup_fits(const zo_fuzz *f) {
  for (int i = 0; i < f->c->ncards; i++)
    if (!zone_ok(f, &f->c->cards[i].zone) || (f->c->cards[i].face_down && !face_down_ok(f, &f->c->cards[i].zone)))
      return 0;
  return 1;
}

void zo_fuzz_truncate(zo_fuzz *f, int n) {
  zo_case *c = f->c;
  for (int i = n; i < c->nsteps; i++) zo_fuzz_free_step(&c->steps[i]);
  if (n < c->nsteps) c->nsteps = n;
  if (f->given > c->nsteps) f->given = c->nsteps;
  f->at = f->size; /* nothing more is decoded */
}

void zo_fuzz_free(zo_fuzz *f) {
  if (!f->c) return;
  zo_game_free(f->g);
  for (int i = 0; i < f->c->nsteps; i++) zo_fuzz_free_step(&f->c->steps[i]);
  free(f->c->cards_json);
  f->c->cards_json = NULL;
  f->c->cards_json_placed = 0;
  f->c = NULL;
  f->g = NULL;
}

/* decoder.c: bytes -> a game of the case language (see decoder.h and the
 * layout in fuzz/README.md).
 *
 * Header: [rule set] [players] [card count] then 3 bytes a card
 * (kind+owner, zone, types+face). Steps: one opcode byte, then the step's
 * parameter bytes; a missing byte reads as 0. Names a step introduces
 * (created tokens, watches, references, replacements, marks) come from a
 * fixed reserve declared in the case, so the game can size its tables once.
 */
#include "decoder.h"
#include "layout.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define NCARDS_MAX ZO_FUZZ_MAX_CARDS
#define RESERVE ZO_FUZZ_RESERVE /* created handles, watches, refs, replacements, marks */

static const char *const player_names[] = {"alice", "bob", "carol", "dave"};

#define mtg_types zo_fuzz_mtg_types
#define fab_types zo_fuzz_fab_types
#define causes zo_fuzz_causes
#define NMTG ZO_FUZZ_NMTG
#define NFAB ZO_FUZZ_NFAB
#define NCAUSES ZO_FUZZ_NCAUSES

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
                                                     "resolve", "sacrifice", "counter", "banish"};

static int is_fab(const zo_fuzz *f) { return strcmp(f->rs->game, "fab") == 0; }

/* May the game use feature ft? */
static int allowed(const zo_fuzz *f, zo_feature ft) {
  return (f->prof->features >> ft) & 1u;
}

/* Type bits of palette row i, looked up once per process. */
static uint64_t palette(const zo_fuzz *f, int i) {
  static uint64_t mtg_bits[NMTG], fab_bits[NFAB];
  static int ready;
  if (!ready) {
    for (int r = 0; r < NMTG; r++)
      for (int k = 0; k < 3 && mtg_types[r][k]; k++) mtg_bits[r] |= zo_type_bit(mtg_types[r][k]);
    for (int r = 0; r < NFAB; r++)
      for (int k = 0; k < 3 && fab_types[r][k]; k++) fab_bits[r] |= zo_type_bit(fab_types[r][k]);
    ready = 1;
  }
  return is_fab(f) ? fab_bits[i % NFAB] : mtg_bits[i % NMTG];
}

static uint8_t next(zo_fuzz *f) { return f->at < f->size ? f->data[f->at++] : 0; }

/* Names never change: the decoded case points at these (nothing to copy
 * or free per input). */
static char *handle_names[] = {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8",
                               "c9", "c10", "c11", "c12", "t1", "t2", "t3", "t4"};
static char *created_names[] = {"t1", "t2", "t3", "t4"};
static char *watch_names[] = {"w1", "w2", "w3", "w4"};
static char *ref_names[] = {"r1", "r2", "r3", "r4"};
static char *repl_names[] = {"p1", "p2", "p3", "p4"};
static char *mark_names[] = {"m1", "m2", "m3", "m4"};

static int role_type(const zo_ruleset *rs, zo_zone_role role) {
  for (int z = 0; z < rs->nzones; z++)
    if (rs->zones[z].role == role) return z;
  return 0;
}

/* A zone that can always hold an object of this kind (no capacity, no
 * owner conflict). */
static int fallback_zone(const zo_ruleset *rs, zo_kind k) {
  if (k == ZK_TOKEN || k == ZK_MACRO || k == ZK_PROXY) return role_type(rs, ZR_BATTLEFIELD);
  if (k == ZK_ABILITY || k == ZK_COPY) return role_type(rs, ZR_STACK);
  return role_type(rs, ZR_GRAVEYARD);
}

void zo_fuzz_start(zo_fuzz *f, const uint8_t *data, size_t size) {
  static zo_fuzz_profile all;
  if (!all.all) zo_fuzz_profile_all(&all);
  zo_fuzz_start_in(f, &all, data, size);
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
  f->rs = zo_ruleset_at((size_t)p->rulesets[next(f) % p->nrulesets]);
  zo_case *c = &f->kase;
  memset(c, 0, sizeof *c);
  f->c = c;
  c->file = "fuzz-input";
  c->id = "fuzz/decoded";
  c->title = "decoded fuzz input";
  f->rs_name[0] = (char *)f->rs->id;
  c->rulesets = f->rs_name;
  c->nrulesets = 1;
  c->nplayers = 2 + next(f) % 3;
  for (int i = 0; i < c->nplayers; i++) c->players[i] = (char *)player_names[i];
  /* zone types: the case names every zone of the rule set, in order */
  c->nztypes = f->rs->nzones;
  for (int z = 0; z < c->nztypes; z++) f->ztypes[z] = (char *)f->rs->zones[z].name;
  c->ztypes = f->ztypes;
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
    cs->zone.type = z % c->nztypes;
    cs->zone.player = -1;
    cs->zone.index = 0;
    cs->types = palette(f, t & 0x7f);
    cs->face_down = (t & 0x80) != 0 && allowed(f, FT_FACE_DOWN);
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

/* ---- steps ----------------------------------------------------------- */

/* A setup card: always declared, so a printed case never names a token
 * before its create step. */
static int handle_of(zo_fuzz *f, uint8_t b) { return b % f->c->nsetup; }

/* Prefer handles that exist now, so most steps act on something. */
static int live_handle(zo_fuzz *f, uint8_t b) {
  int h = zo_game_live_handle(f->g, f->c->nhandles, b);
  return h >= 0 ? h : handle_of(f, b);
}

static void zone_spec(zo_fuzz *f, uint8_t b, uint8_t pb, zo_zone_spec *z) {
  z->index = 0;
  if (b % 23 == 22) {
    z->type = ZO_ZT_OUTSIDE;
    z->player = -1;
    return;
  }
  if (b % 23 == 21 && f->rs->sw[SW_ARENA_DEFAULT].value == ZS_PERMANENT_ZONE) {
    z->type = ZO_ZT_ARENA; /* FaB 3.0.5a: "into the arena", no zone named */
    z->player = -1;
    return;
  }
  z->type = b % f->c->nztypes;
  z->player = -1;
  if (f->rs->zones[z->type].per_player.value && (pb & 3) == 3)
    z->player = (pb >> 2) % f->c->nplayers; /* sometimes another player's */
}

/* A watch's zone filter: a zone type, or outside the game (v past the
 * types). */
static int zone_or_outside(const zo_fuzz *f, int v) {
  v %= f->c->nztypes + 1;
  return v == f->c->nztypes ? ZO_ZT_OUTSIDE : v;
}

/* The case zone type of the zone handle h is in now, ZO_ZT_OUTSIDE outside
 * the game, or ZO_ZT_ANY when it is nowhere or in a zone a zone_create
 * added (the decoder's case names the rule set's types in order); its
 * player into *player (-1 shared), when player is not NULL. */
static int zone_of(const zo_fuzz *f, int h, int *player) {
  int zone = zo_game_obj_zone(f->g, h);
  if (player) *player = -1;
  if (zone == ZO_ZONE_OUTSIDE) return ZO_ZT_OUTSIDE;
  if (zone < 0) return ZO_ZT_ANY;
  for (int t = 0; t < f->c->nztypes; t++)
    for (int p = -1; p < f->c->nplayers; p++)
      if (zo_game_zone_find(f->g, t, p) == zone) {
        if (player) *player = p;
        return t;
      }
  return ZO_ZT_ANY;
}

static int zone_type_of(const zo_fuzz *f, int h) { return zone_of(f, h, NULL); }

static zo_step *push(zo_fuzz *f) {
  zo_case *c = f->c;
  zo_step *s = &c->steps[c->nsteps++]; /* f->steps holds ZO_FUZZ_MAX_STEPS */
  zo_step_init(s);
  s->line = c->nsteps;
  s->col = 1;
  return s;
}

/* The step s's effect does next (then:/do:), of this kind, on s's line. */
static zo_step *then_of(zo_step *s, zo_step_kind kind) {
  s->then = zo_xcalloc(1, sizeof *s->then);
  zo_step_init(s->then);
  s->then->kind = kind;
  s->then->line = s->line;
  return s->then;
}

/* A move's options from 3 bytes; returns the third (its bit 7 is the
 * top-level move's from:). */
static uint8_t move_opts(zo_fuzz *f, zo_step *s) {
  uint8_t a = next(f), b = next(f), p = next(f);
  zone_spec(f, a, b, &s->to);
  switch (p & 3) {
  case 1: s->position = ZO_POS_BOTTOM; break;
  case 2: s->position = (p >> 2) & 3; break;
  default: s->position = ZO_POS_TOP;
  }
  s->face = (p & 0x30) == 0x10 ? 0 : (p & 0x30) == 0x20 ? 1 : -1;
  s->by_rule = (p & 0x40) != 0;
  const char *cause = causes[(b >> 4) % NCAUSES]; /* short constants: no formatting per step */
  memcpy(s->cause, cause, strlen(cause) + 1);
  if (f->rs->zones[s->to.type >= 0 ? s->to.type : 0].count.value > 1 && (a & 0x80))
    s->choose = 1 + (a >> 5 & 1);
  return p;
}

/* A move's from: (one byte): outside the game (where the rule set may count
 * an exile zone as outside, CR 217.1e of 2004), the zone the object is in,
 * or any zone type. */
static void move_from(zo_fuzz *f, zo_step *s, uint8_t q) {
  s->from.player = -1;
  s->from.index = 0;
  switch (q & 3) {
  case 0: s->from.type = ZO_ZT_OUTSIDE; break;
  case 1: s->from.type = zone_type_of(f, s->card); break;
  default: s->from.type = (q >> 2) % f->c->nztypes;
  }
  if (s->from.type == ZO_ZT_ANY) s->from.type = ZO_ZT_UNSET; /* nowhere to name */
}

/* A step whose names or objects ran out becomes a state check (always
 * applicable), so decoding never stops early. */
#define OR_STATE_CHECK(cond) \
  if (cond) {                \
    s->kind = ST_STATE_CHECK; \
    return;                  \
  }

/* The step kind each opcode makes (its feature is the opcode's). */
static const zo_step_kind op_kind[OP_COUNT] = {
    ST_MOVE, ST_MOVE, ST_MOVE, ST_MOVE, ST_MOVE_TOGETHER, ST_CREATE, ST_CONTROL, ST_PHASE,
    ST_TURN_FACE, ST_REORDER, ST_SHUFFLE, ST_DRAW, ST_MILL, ST_PUT_UNDER, ST_ZONE_CREATE,
    ST_ZONE_REMOVE, ST_STATE_CHECK, ST_STATE_CHECK, ST_END_GAME, ST_WATCH, ST_RESOLVE,
    ST_REMEMBER, ST_REPLACE, ST_CHOOSE_REPLACEMENT, ST_MARK,
    ST_WATCH, ST_REPLACE, ST_MOVE, ST_MARK, ST_MOVE,
    ST_MOVE, ST_MOVE_TOGETHER, ST_LOOK, ST_REVEAL, ST_ATTACH,
    ST_END_TURN, ST_WATCH, ST_MARK};
_Static_assert(OP_COUNT <= ZO_FUZZ_MAX_OPS, "zo_fuzz_profile.ops holds every opcode");

/* ---- profiles --------------------------------------------------------- */

static void profile_ops(zo_fuzz_profile *p) {
  p->nops = 0;
  for (int op = 0; op < OP_COUNT; op++) {
    zo_feature ft = zo_step_kind_feature(op_kind[op]);
    if (op == OP_MOVE_BY || op == OP_TOGETHER_BY) ft = FT_PERFORMER; /* player:, order_by: */
    if (op == OP_WATCH_CAUSE) ft = FT_TRIGGERS_CAUSE; /* G8: a part of triggers */
    if (ft == FT_NONE || ((p->features >> ft) & 1u)) p->ops[p->nops++] = (uint8_t)op;
  }
}

void zo_fuzz_profile_all(zo_fuzz_profile *p) {
  zo_fuzz_profile_make(p, NULL, NULL);
}

_Static_assert(FT_COUNT <= 32, "a profile holds the features as bits of a uint32_t");

void zo_fuzz_profile_make(zo_fuzz_profile *p, int (*has)(void *self, const char *what, int ruleset),
                          void *self) {
  memset(p, 0, sizeof *p);
  size_t nrs = zo_ruleset_count();
  for (size_t i = 0; i < nrs && p->nrulesets < ZO_FUZZ_MAX_RULESETS; i++)
    if (!has || has(self, zo_ruleset_at(i)->id, 1)) p->rulesets[p->nrulesets++] = (int)i;
  if (!p->nrulesets) /* none declared: every game is skipped anyway */
    for (size_t i = 0; i < nrs && p->nrulesets < ZO_FUZZ_MAX_RULESETS; i++) p->rulesets[p->nrulesets++] = (int)i;
  for (int ft = 0; ft < FT_COUNT; ft++) { /* a part is declared by its name or its whole's */
    zo_feature whole = zo_feature_whole((zo_feature)ft);
    if (!has || has(self, zo_feature_name((zo_feature)ft), 0) ||
        (whole != FT_NONE && has(self, zo_feature_name(whole), 0)))
      p->features |= 1u << ft;
  }
  p->all = !has || (p->nrulesets == (int)nrs && p->features == (1u << FT_COUNT) - 1);
  profile_ops(p);
}

uint32_t zo_fuzz_step_features(const zo_step *s) {
  uint32_t m = 0;
  zo_feature ft = zo_step_kind_feature(s->kind); /* the whole: a generated step may use any part */
  if (ft != FT_NONE) m |= 1u << ft;
  if (s->expect && s->expect->nvisible) m |= 1u << FT_VISIBILITY;
  if (s->face == 1) m |= 1u << FT_FACE_DOWN;
  if (s->kind == ST_REPLACE && s->repl_category != RC_OTHER) m |= 1u << FT_REPLACEMENT_CATEGORY;
  if ((s->kind == ST_MOVE || s->kind == ST_MOVE_TOGETHER || s->kind == ST_REORDER) &&
      (s->player >= 0 || s->order_by >= 0))
    m |= 1u << FT_PERFORMER;
  if (s->until) m |= 1u << FT_DURATIONS;                          /* G4 */
  if (s->kind == ST_WATCH && s->cause[0]) m |= 1u << FT_TRIGGERS_CAUSE; /* G8 */
  if (s->then) m |= zo_fuzz_step_features(s->then);
  for (int i = 0; i < s->nmoves; i++) m |= zo_fuzz_step_features(&s->moves[i]);
  return m;
}

/* ---- one generator per opcode: each reads its bytes and fills s ---- */

static void gen_move(zo_fuzz *f, zo_step *s) {
  s->kind = ST_MOVE;
  uint8_t h = next(f);
  s->card = live_handle(f, h);
  uint8_t p = move_opts(f, s);
  if ((h & 0xC0) == 0xC0 && f->marks < RESERVE) {
    /* the rest of the same effect marks the moved object (then:) */
    zo_step *t = then_of(s, ST_MARK);
    t->as = f->marks++;
    t->mark_kind = MK_EFFECT;
  }
  if (p & 0x80) move_from(f, s, next(f));
}

static void gen_together(zo_fuzz *f, zo_step *s) {
  s->kind = ST_MOVE_TOGETHER;
  int n = 2 + next(f) % 2;
  s->moves = zo_xcalloc((size_t)n, sizeof *s->moves);
  uint8_t base = next(f);
  zo_step proto;
  zo_step_init(&proto);
  proto.kind = ST_MOVE;
  move_opts(f, &proto);
  int used[NCARDS_MAX + RESERVE] = {0};
  for (int i = 0; i < n; i++) {
    int h = live_handle(f, (uint8_t)(base + i * 3));
    if (used[h]) continue;
    used[h] = 1;
    zo_step *m = &s->moves[s->nmoves++];
    *m = proto;
    m->card = h;
    m->line = s->line;
  }
}

static void gen_create(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->created >= RESERVE)
  s->kind = ST_CREATE;
  uint8_t k = next(f), z = next(f), t = next(f);
  s->as = c->nsetup + f->created++;
  s->kind_of = (k & 3) == 3 ? ZK_ABILITY : (k & 3) == 2 && !is_fab(f) ? ZK_COPY : ZK_TOKEN;
  s->owner = (k >> 2) % c->nplayers;
  s->zone.type = (z & 3) ? fallback_zone(f->rs, s->kind_of) : z % c->nztypes;
  s->zone.player = -1;
  s->types = palette(f, t);
}

static void gen_control(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_CONTROL;
  s->card = live_handle(f, next(f));
  uint8_t p = next(f);
  s->player = (p & 0x7f) % c->nplayers;
  /* G4: bit 7, a control effect until end of turn */
  if ((p & 0x80) && allowed(f, FT_DURATIONS)) s->until = ZO_UNTIL_END_OF_TURN;
}

static void gen_phase(zo_fuzz *f, zo_step *s) {
  s->kind = ST_PHASE;
  s->card = live_handle(f, next(f));
  s->out = next(f) & 1 ? 0 : 1;
}

static void gen_turn(zo_fuzz *f, zo_step *s) {
  s->kind = ST_TURN_FACE;
  s->card = live_handle(f, next(f));
  s->face = next(f) & 1;
}

static void gen_reorder(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_REORDER;
  uint8_t z = next(f), p = next(f);
  s->zone.type = z % c->nztypes;
  s->zone.player = f->rs->zones[s->zone.type].per_player.value ? p % c->nplayers : -1;
  s->by_effect = (z & 0x80) != 0; /* an effect rearranges it (CR 400.5), else its owner */
  /* the order: the zone's contents now, rotated by a byte */
  const int *objs;
  int nz = zo_game_zone_contents(f->g, zo_game_zone_find(f->g, s->zone.type, s->zone.player),
                                 &objs);
  if (nz) {
    s->order_zone_handles = zo_xcalloc((size_t)nz, sizeof(int));
    int rot = next(f) % nz;
    for (int i = 0; i < nz; i++) s->order_zone_handles[i] = objs[(i + rot) % nz];
    s->norder = nz;
  } else {
    s->order_zone_handles = zo_xcalloc(1, sizeof(int));
  }
}

static void gen_shuffle(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_SHUFFLE;
  uint8_t z = next(f), p = next(f);
  s->zone.type = z % c->nztypes;
  s->zone.player = f->rs->zones[s->zone.type].per_player.value ? p % c->nplayers : -1;
  s->seed = next(f);
  /* the result is part of the step (PROTOCOL.md, Choices), so that no
     engine needs a generator: the zone now, rotated by the seed, reversed
     by its top bit */
  const int *objs;
  int nz = zo_game_zone_contents(f->g, zo_game_zone_find(f->g, s->zone.type, s->zone.player), &objs);
  s->order_zone_handles = zo_xcalloc((size_t)nz + 1, sizeof(int));
  for (int i = 0; i < nz; i++) {
    int k = (int)((s->seed + (uint64_t)i) % (uint64_t)nz);
    s->order_zone_handles[(s->seed & 0x80) ? nz - 1 - i : i] = objs[k];
  }
  s->norder = nz;
  s->shuffle = ZO_SHUFFLE_ORDER;
}

static void gen_draw_mill(zo_fuzz *f, zo_step *s, uint8_t op) {
  zo_case *c = f->c;
  s->kind = op == OP_DRAW ? ST_DRAW : ST_MILL;
  s->player = next(f) % c->nplayers;
  s->count = 1 + next(f) % 3;
}

static void gen_put_under(zo_fuzz *f, zo_step *s) {
  s->kind = ST_PUT_UNDER;
  s->card = live_handle(f, next(f));
  s->under = live_handle(f, next(f));
}

/* attach: an object to another, both live handles (the model refuses what
 * is not two permanents on the battlefield), as a short sequence on the
 * permanent y it is attached to, by the bits of a third byte: bit 0 first
 * puts y onto the battlefield; bits 1-2: then nothing (0), y phases out
 * (1, and with bit 4 back in: indirect phasing, CR 702.26g) or leaves the
 * battlefield for its graveyard (2, 3: the attachment ends, CR 400.7);
 * bit 3: a state check follows (704.5m-n). Encoded cases write a 0 byte. */
static void gen_attach(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  uint8_t h = next(f), t = next(f), a = next(f);
  int x = live_handle(f, h), y = live_handle(f, t);
  OR_STATE_CHECK(c->nsteps + 4 > ZO_FUZZ_MAX_STEPS)
  if (a & 1) { /* y onto the battlefield first */
    s->kind = ST_MOVE;
    s->card = y;
    s->to.type = role_type(f->rs, ZR_BATTLEFIELD);
    s->to.player = -1;
    s = push(f);
  }
  s->kind = ST_ATTACH;
  s->card = x;
  s->attach_to = y;
  int then = (a >> 1) & 3;
  if (then == 1 && allowed(f, FT_PHASING)) {
    s = push(f);
    s->kind = ST_PHASE;
    s->card = y;
  } else if (then >= 2) {
    s = push(f);
    s->kind = ST_MOVE;
    s->card = y;
    s->to.type = role_type(f->rs, ZR_GRAVEYARD);
    s->to.player = -1;
  }
  if ((a & 8) && allowed(f, FT_STATE_CHECK)) push(f)->kind = ST_STATE_CHECK;
  if (then == 1 && (a & 16) && allowed(f, FT_PHASING)) {
    s = push(f);
    s->kind = ST_PHASE;
    s->card = y;
    s->out = 0;
  }
}

static void gen_zone_lifecycle(zo_fuzz *f, zo_step *s, uint8_t op) {
  zo_case *c = f->c;
  uint8_t z = next(f), p = next(f);
  int t = -1;
  for (int k = 0; k < c->nztypes && t < 0; k++) {
    int cand = (z + k) % c->nztypes;
    if (f->rs->zones[cand].per_player.value) t = cand;
  }
  OR_STATE_CHECK(t < 0)
  s->kind = op == OP_ZONE_CREATE ? ST_ZONE_CREATE : ST_ZONE_REMOVE;
  s->zone.type = t;
  s->zone.player = p % c->nplayers;
  if (s->kind == ST_ZONE_REMOVE && (p & 0x80)) s->choose = 1 + (p >> 5 & 1);
}

static void gen_state_check(zo_fuzz *f, zo_step *s) {
  s->kind = ST_STATE_CHECK;
}

static void gen_end_game(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_END_GAME;
  s->winner = next(f) % c->nplayers;
}

static void gen_watch(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->watches >= RESERVE)
  s->kind = ST_WATCH;
  s->as = f->watches++;
  s->card = live_handle(f, next(f));
  uint8_t a = next(f), b = next(f);
  s->from.type = (a & 1) ? ZO_ZT_ANY : zone_or_outside(f, a >> 1);
  s->to.type = (b & 1) ? ZO_ZT_ANY : zone_or_outside(f, b >> 1);
  s->from.player = s->to.player = -1;
}

static void gen_resolve(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(!f->watches)
  s->kind = ST_RESOLVE;
  uint8_t a = next(f);
  s->trigger = a % f->watches;
  if (a & 0x80) move_opts(f, then_of(s, ST_MOVE));
}

static void gen_remember(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->refs >= RESERVE)
  s->kind = ST_REMEMBER;
  s->as = f->refs++;
  s->card = live_handle(f, next(f));
}

static void gen_replace(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->repls >= RESERVE)
  s->kind = ST_REPLACE;
  s->as = f->repls++;
  uint8_t a = next(f), w = next(f);
  if (a & 1) s->replace_any = 1;
  else s->card = live_handle(f, a >> 1);
  s->when_to.type = (w & 1) ? ZO_ZT_ANY : (w >> 1) % c->nztypes;
  s->when_to.player = -1;
  s->when_from.type = ZO_ZT_ANY;
  s->when_from.player = -1;
  /* bits 6-7: the category (CR 616.1a; FaB 6.5); encode.c keeps the zone */
  s->repl_category = (zo_repl_category)((w >> 6) % RC_COUNT);
  move_opts(f, then_of(s, ST_MOVE));
}

static void gen_choose(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(!f->repls)
  s->kind = ST_CHOOSE_REPLACEMENT;
  uint8_t a = next(f);
  s->order_zone_handles = zo_xcalloc((size_t)f->repls, sizeof(int));
  for (int i = 0; i < f->repls; i++) s->order_zone_handles[i] = (i + a) % f->repls;
  s->norder = f->repls;
  if (a & 0x80) {
    s->player = next(f) % c->nplayers;
    s->card = live_handle(f, next(f));
  }
}

static void gen_mark(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->marks >= RESERVE)
  s->kind = ST_MARK;
  s->card = live_handle(f, next(f));
  s->as = f->marks++;
  uint8_t k = next(f);
  s->mark_kind = (zo_mark_kind)(k % 4);
  /* G4: bit 7 on an effect, until end of turn */
  if (s->mark_kind == MK_EFFECT && (k & 0x80) && allowed(f, FT_DURATIONS))
    s->until = ZO_UNTIL_END_OF_TURN;
}

/* G4: the end of the turn (its "until end of turn" effects end). */
static void gen_end_turn(zo_fuzz *f, zo_step *s) {
  (void)f;
  s->kind = ST_END_TURN;
}

/* G8: a watch on a move with a cause (a destroy is no sacrifice). */
static void gen_watch_cause(zo_fuzz *f, zo_step *s) {
  gen_watch(f, s);
  if (s->kind != ST_WATCH) return;
  const char *cause = causes[1 + next(f) % (NCAUSES - 1)];
  memcpy(s->cause, cause, strlen(cause) + 1);
}


/* ---- issue 12: the performing player (G3), look (G5), reveal (G7) ----- */

/* A move, then the player who performs it (owner_puts: the ante). */
static void gen_move_by(zo_fuzz *f, zo_step *s) {
  gen_move(f, s);
  s->player = next(f) % f->c->nplayers;
}

/* A move_together, then who performs it and, where its destination is a
 * zone, who arranged its members in reverse list order there
 * (putter_orders, order_chooser). */
static void gen_together_by(zo_fuzz *f, zo_step *s) {
  gen_together(f, s);
  uint8_t a = next(f);
  s->player = a % f->c->nplayers;
  if (s->nmoves < 2 || s->moves[0].to.type < 0 || !(a & 0x80)) return;
  s->order_zone = s->moves[0].to;
  s->order_zone_handles = zo_xcalloc((size_t)s->nmoves, sizeof(int));
  for (int i = 0; i < s->nmoves; i++) s->order_zone_handles[i] = s->moves[s->nmoves - 1 - i].card;
  s->norder = s->nmoves;
  s->order_by = (a >> 3) % f->c->nplayers;
}

static void gen_look(zo_fuzz *f, zo_step *s) {
  s->kind = ST_LOOK;
  s->card = live_handle(f, next(f));
  s->player = next(f) % f->c->nplayers;
}

static void gen_reveal(zo_fuzz *f, zo_step *s) {
  s->kind = ST_REVEAL;
  s->card = live_handle(f, next(f));
  s->end = next(f) & 1;
}

/* ---- sequences: the steps a rare rule needs, on one object ----------- */

/* The owner handle h was given: its setup card's, or the create step's. */
static int owner_of(const zo_fuzz *f, int h) {
  const zo_case *c = f->c;
  if (h < c->nsetup) return c->cards[h].owner;
  for (int i = 0; i < c->nsteps; i++)
    if (c->steps[i].kind == ST_CREATE && c->steps[i].as == h) return c->steps[i].owner;
  return -1;
}

/* The types handle h was given: its setup card's, or those of the create
 * step that names it. */
static uint64_t types_of(const zo_fuzz *f, int h) {
  const zo_case *c = f->c;
  if (h < c->nsetup) return c->cards[h].types;
  for (int i = 0; i < c->nsteps; i++)
    if (c->steps[i].kind == ST_CREATE && c->steps[i].as == h) return c->steps[i].types;
  return 0;
}

/* watch, move, resolve on one object: whether the resolving ability finds
 * the object where the move put it (CR 603.6, 603.10, 400.7; Z.1.Ruling.3;
 * FaB 3.0.9a), which a random watch, move and resolve seldom line up for. */
static void seq_trigger(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->watches >= RESERVE || c->nsteps + 2 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), d = next(f), w = next(f), r = next(f);
  int x = live_handle(f, h);
  s->kind = ST_WATCH;
  s->as = f->watches++;
  s->card = x;
  zo_step *m = push(f);
  m->kind = ST_MOVE;
  m->card = x;
  m->to.type = d % c->nztypes; /* its owner's zone of the type, or another player's */
  m->to.player = -1;
  if (f->rs->zones[m->to.type].per_player.value && (d & 0x80)) m->to.player = (d >> 5 & 3) % c->nplayers;
  m->face = (d >> 3 & 3) == 1 ? 1 : (d >> 3 & 3) == 2 ? 0 : -1;
  const char *cause = causes[(w >> 4) % NCAUSES];
  memcpy(m->cause, cause, strlen(cause) + 1);
  s->from.player = s->to.player = -1;
  switch (w & 3) {
  case 0: s->from.type = ZO_ZT_ANY; break;
  case 1: s->from.type = zone_type_of(f, x); break;
  case 2: s->from.type = ZO_ZT_OUTSIDE; break;
  default: s->from.type = (w >> 4) % c->nztypes;
  }
  s->to.type = (w & 4) ? ZO_ZT_ANY : m->to.type;
  if ((r & 6) == 2) s->types = types_of(f, x); /* fires only on an object with properties (FaB 3.0.7a) */
  zo_step *t = push(f);
  t->kind = ST_RESOLVE;
  t->trigger = s->as;
  if (r & 1) move_opts(f, then_of(t, ST_MOVE));
}

/* a replacement effect on an object, sometimes the order of replacements
 * chosen by a player, then a move it applies to (CR 614.1, 616.1, 400.6;
 * FaB 6.5: who may choose). */
static void seq_replace(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->repls >= RESERVE || c->nsteps + 1 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), a = next(f), b = next(f);
  int x = live_handle(f, h);
  s->kind = ST_REPLACE;
  s->as = f->repls++;
  if (a & 1) s->replace_any = 1;
  else s->card = x;
  s->when_to.type = (a & 2) ? ZO_ZT_ANY : (a >> 2) % c->nztypes;
  s->when_to.player = s->when_from.player = -1;
  s->when_from.type = ZO_ZT_ANY;
  s->repl_category = (zo_repl_category)((h >> 7) % RC_COUNT); /* CR 616.1a; FaB 6.5 */
  move_opts(f, then_of(s, ST_MOVE));
  if ((b & 1) && c->nsteps + 2 <= ZO_FUZZ_MAX_STEPS) {
    zo_step *ch = push(f);
    ch->kind = ST_CHOOSE_REPLACEMENT;
    ch->order_zone_handles = zo_xcalloc((size_t)f->repls, sizeof(int));
    for (int i = 0; i < f->repls; i++) ch->order_zone_handles[i] = (i + (b >> 1)) % f->repls;
    ch->norder = f->repls;
    ch->player = (b >> 4) % c->nplayers;
    ch->card = x;
  }
  zo_step *m = push(f);
  m->kind = ST_MOVE;
  m->card = x;
  m->to.type = s->when_to.type == ZO_ZT_ANY ? (b >> 2) % c->nztypes : s->when_to.type;
  m->to.player = -1;
}

/* an object put into the exile zone or outside the game, then moved from
 * outside the game (CR 400.10, 400.11; CR 217.1e of 2004: the
 * removed-from-the-game zone counts as outside). */
static void seq_outside(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(c->nsteps + 1 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), a = next(f);
  int x = live_handle(f, h);
  s->kind = ST_MOVE;
  s->card = x;
  s->to.type = (a & 1) ? ZO_ZT_OUTSIDE : role_type(f->rs, ZR_EXILE);
  s->to.player = -1;
  zo_step *m = push(f);
  m->kind = ST_MOVE;
  m->card = x;
  move_opts(f, m);
  m->from.type = ZO_ZT_OUTSIDE;
  m->from.player = -1;
}

/* a mark, then a move of the marked object: which marks a new object
 * keeps, e.g. a permanent spell's characteristic edits as it resolves
 * from the stack (CR 400.7a-c; Z.9.7; FaB 3.0.9), made likelier by
 * putting it on the stack first. */
static void seq_mark_move(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->marks >= RESERVE || c->nsteps + 2 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), a = next(f), b = next(f);
  int x = live_handle(f, h);
  zo_step *m = s;
  if (a & 1) { /* onto the stack first */
    s->kind = ST_MOVE;
    s->card = x;
    s->to.type = role_type(f->rs, ZR_STACK);
    s->to.player = -1;
    m = push(f);
  }
  m->kind = ST_MARK;
  m->card = x;
  m->as = f->marks++;
  m->mark_kind = (zo_mark_kind)((a >> 1) % MK_COUNT);
  zo_step *t = push(f);
  t->kind = ST_MOVE;
  t->card = x;
  t->to.type = (a & 8) ? role_type(f->rs, ZR_BATTLEFIELD) : b % c->nztypes;
  t->to.player = -1;
  if (a & 0x10) t->face = 1; /* face down: private, so a new object (FaB 3.0.9) */
}

/* G4: an effect until end of turn (sometimes a control effect too) on one
 * permanent, which phases out, sometimes sees the end of the turn, and
 * phases in: what phasing ends by era (phased_effects: CR 502.15g,
 * 702.26d, f) and what expires while it is phased out (502.15h, 702.26f). */
static void seq_duration(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->marks >= RESERVE || c->nsteps + 4 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), a = next(f);
  int x = live_handle(f, h);
  int timed = allowed(f, FT_DURATIONS) ? ZO_UNTIL_END_OF_TURN : 0;
  s->kind = ST_MARK;
  s->card = x;
  s->as = f->marks++;
  s->mark_kind = MK_EFFECT;
  s->until = (a & 4) ? 0 : timed;
  if (a & 1) {
    zo_step *t = push(f);
    t->kind = ST_CONTROL;
    t->card = x;
    t->player = (a >> 4) % c->nplayers;
    t->until = timed;
  }
  zo_step *p = push(f);
  p->kind = ST_PHASE;
  p->card = x;
  p->out = 1;
  if ((a & 2) && timed) push(f)->kind = ST_END_TURN;
  p = push(f);
  p->kind = ST_PHASE;
  p->card = x;
  p->out = 0;
}

/* two objects of the same types into one zone: what a zone's capacity
 * (FaB 3.0.6: one hero, one weapon of a kind, one piece of equipment a
 * slot) and its holds decide for the second. */
static void seq_pair(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(c->nsteps + 1 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), a = next(f), b = next(f);
  int x = live_handle(f, h), y = -1;
  uint64_t tx = types_of(f, x);
  for (int same_owner = 1; same_owner >= 0 && y < 0; same_owner--)
    for (int k = 1; k < c->nhandles && y < 0; k++) { /* the next live object of x's types */
      int cand = (x + k) % c->nhandles;
      if (zo_game_obj_exists(f->g, cand) && types_of(f, cand) == tx &&
          (!same_owner || owner_of(f, cand) == owner_of(f, x)))
        y = cand;
    }
  if (y < 0) y = live_handle(f, b);
  int player, type = zone_of(f, x, &player);
  if (type < 0 || !(a & 1)) { /* x goes first into a zone of the byte's type */
    type = b % c->nztypes;
    int ncap = 0, cap[ZO_MAX_ZONE_TYPES];
    for (int t = 0; t < c->nztypes; t++)
      if (f->rs->zones[t].capacity.value > 0) cap[ncap++] = t;
    if ((a & 2) && ncap) type = cap[b % ncap]; /* often a zone with a capacity */
    player = -1;
    s->kind = ST_MOVE;
    s->card = x;
    s->to.type = type;
    s->to.player = -1;
    s = push(f);
    player = owner_of(f, x); /* the owner's zone of the type, where x went */
  }
  s->kind = ST_MOVE;
  s->card = y;
  s->to.type = type;
  s->to.player = f->rs->zones[type].per_player.value ? player : -1;
}

/* ---- the dispatch ------------------------------------------------------ */

static void free_step(zo_step *s) {
  if (s->then) {
    free_step(s->then);
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

/* Whether step s fits the profile, after leaving out what it may go
 * without: face: down without face_down, a then:/do: needing a feature
 * the profile lacks (an instead: is required, so it stays). */
static int fit(zo_fuzz *f, zo_step *s) {
  uint32_t have = f->prof->features;
  if (!(zo_fuzz_step_features(s) & ~have)) return 1;
  if (!allowed(f, FT_FACE_DOWN)) strip_face(s);
  if (!allowed(f, FT_REPLACEMENT_CATEGORY)) s->repl_category = RC_OTHER;
  if (s->then && s->kind != ST_REPLACE && (zo_fuzz_step_features(s->then) & ~have)) {
    free_step(s->then);
    free(s->then);
    s->then = NULL;
  }
  return !(zo_fuzz_step_features(s) & ~have);
}

/* Decode one opcode and its bytes into zero or more steps appended to the
 * case: none when what it made does not fit the profile. */
static void decode_op(zo_fuzz *f) {
  const zo_fuzz_profile *p = f->prof;
  zo_case *c = f->c;
  int first = c->nsteps;
  int saved[5] = {f->created, f->watches, f->refs, f->repls, f->marks};
  uint8_t op = p->ops[next(f) % p->nops];
  if (op == OP_END_GAME && (next(f) & 7)) op = OP_STATE_CHECK; /* rare */
  zo_step *s = push(f);
  switch (op) { /* one generator per opcode */
  case OP_MOVE: case OP_MOVE2: case OP_MOVE3: case OP_MOVE4: gen_move(f, s); break;
  case OP_TOGETHER: gen_together(f, s); break;
  case OP_CREATE: gen_create(f, s); break;
  case OP_CONTROL: gen_control(f, s); break;
  case OP_PHASE: gen_phase(f, s); break;
  case OP_TURN: gen_turn(f, s); break;
  case OP_REORDER: gen_reorder(f, s); break;
  case OP_SHUFFLE: gen_shuffle(f, s); break;
  case OP_DRAW: case OP_MILL: gen_draw_mill(f, s, op); break;
  case OP_PUT_UNDER: gen_put_under(f, s); break;
  case OP_ZONE_CREATE: case OP_ZONE_REMOVE: gen_zone_lifecycle(f, s, op); break;
  case OP_STATE_CHECK: case OP_STATE_CHECK2: gen_state_check(f, s); break;
  case OP_END_GAME: gen_end_game(f, s); break;
  case OP_WATCH: gen_watch(f, s); break;
  case OP_RESOLVE: gen_resolve(f, s); break;
  case OP_REMEMBER: gen_remember(f, s); break;
  case OP_REPLACE: gen_replace(f, s); break;
  case OP_CHOOSE: gen_choose(f, s); break;
  case OP_SEQ_TRIGGER: seq_trigger(f, s); break;
  case OP_SEQ_REPLACE: seq_replace(f, s); break;
  case OP_SEQ_OUTSIDE: seq_outside(f, s); break;
  case OP_SEQ_MARK_MOVE: seq_mark_move(f, s); break;
  case OP_SEQ_PAIR: seq_pair(f, s); break;
  case OP_MOVE_BY: gen_move_by(f, s); break;
  case OP_TOGETHER_BY: gen_together_by(f, s); break;
  case OP_LOOK: gen_look(f, s); break;
  case OP_REVEAL: gen_reveal(f, s); break;
  case OP_ATTACH: gen_attach(f, s); break;
  case OP_END_TURN: gen_end_turn(f, s); break;
  case OP_WATCH_CAUSE: gen_watch_cause(f, s); break;
  case OP_SEQ_DURATION: seq_duration(f, s); break;
  case OP_MARK: default: gen_mark(f, s); break;
  }
  if (p->all) return;
  int fits = 1;
  for (int i = first; i < c->nsteps; i++) fits &= fit(f, &c->steps[i]);
  if (fits) return;
  for (int i = first; i < c->nsteps; i++) free_step(&c->steps[i]);
  c->nsteps = first;
  f->created = saved[0], f->watches = saved[1], f->refs = saved[2], f->repls = saved[3],
  f->marks = saved[4];
}

const zo_step *zo_fuzz_next(zo_fuzz *f) {
  zo_case *c = f->c;
  while (f->given >= c->nsteps) {
    if (f->at >= f->size || c->nsteps >= ZO_FUZZ_MAX_STEPS) return NULL;
    decode_op(f);
  }
  return &c->steps[f->given++];
}

void zo_fuzz_free(zo_fuzz *f) {
  if (!f->c) return;
  zo_game_free(f->g);
  for (int i = 0; i < f->c->nsteps; i++) free_step(&f->c->steps[i]);
  free(f->c->cards_json);
  f->c->cards_json = NULL;
  f->c = NULL;
  f->g = NULL;
}

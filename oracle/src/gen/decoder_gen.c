/* decoder_gen.c: one generator per opcode (layout.h), the decoder's
 * single steps: each reads its opcode's bytes (fuzz/README.md, "The
 * decoder's byte layout") and fills the step the dispatch (decoder.c)
 * pushed; attach pushes a few more. Also the readers of a move's option
 * bytes, which the sequences (decoder_seq.c) share.
 */
#include "decoder_int.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

/* The owner handle h was given (decoder_int.h). */
int zo_fuzz_owner_of(const zo_fuzz *f, int h) {
  const zo_case *c = f->c;
  if (h < c->nsetup) return c->cards[h].owner;
  for (int i = 0; i < c->nsteps; i++)
    if (c->steps[i].kind == ST_CREATE && c->steps[i].as == h) return c->steps[i].owner;
  return -1;
}

/* A zone that can always hold an object of this kind (no capacity, no
 * owner conflict). */
static int fallback_zone(const zo_ruleset *rs, zo_kind k) {
  if (k == ZK_TOKEN || k == ZK_MACRO || k == ZK_PROXY) return role_type(rs, ZR_BATTLEFIELD);
  if (k == ZK_ABILITY || k == ZK_COPY) return role_type(rs, ZR_STACK);
  return role_type(rs, ZR_GRAVEYARD);
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

/* A move's options from 3 bytes; returns the third (its bit 7 is the
 * top-level move's from:). */
uint8_t zo_fuzz_move_opts(zo_fuzz *f, zo_step *s) {
  uint8_t a = next(f), b = next(f), p = next(f);
  zone_spec(f, a, b, &s->to);
  switch (p & 3) {
  case 1: s->position = ZO_POS_BOTTOM; break;
  case 2: s->position = (p >> 2) & 3; break;
  default: s->position = ZO_POS_TOP;
  }
  s->face = (p & 0x30) == 0x10 ? 0 : (p & 0x30) == 0x20 ? 1 : -1;
  s->by_rule = (p & 0x40) != 0;
  const char *cause = cause_of(f, b); /* short constants: no formatting per step */
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

/* ---- one generator per opcode: each reads its bytes and fills s ---- */

void zo_fuzz_gen_move(zo_fuzz *f, zo_step *s) {
  s->kind = ST_MOVE;
  uint8_t h = next(f);
  s->card = live_handle(f, h);
  uint8_t p = zo_fuzz_move_opts(f, s);
  if ((h & 0xC0) == 0xC0 && f->marks < RESERVE) {
    /* the rest of the same effect marks the moved object (then:) */
    zo_step *t = then_of(s, ST_MARK);
    t->as = f->marks++;
    t->mark_kind = MK_EFFECT;
  }
  if (p & 0x80) move_from(f, s, next(f));
}

void zo_fuzz_gen_together(zo_fuzz *f, zo_step *s) {
  s->kind = ST_MOVE_TOGETHER;
  int n = 2 + next(f) % 2;
  s->moves = zo_xcalloc((size_t)n, sizeof *s->moves);
  uint8_t base = next(f);
  zo_step proto;
  zo_step_init(&proto);
  proto.kind = ST_MOVE;
  zo_fuzz_move_opts(f, &proto);
  int used[NCARDS_MAX + RESERVE] = {0};
  for (int i = 0; i < n; i++) {
    /* the member's byte, then the next ones while it names an object
       already in the step (with three objects, base and base + 3 name the
       same one: the step would have a single member) */
    int h = live_handle(f, (uint8_t)(base + i * 3));
    for (int k = 1; used[h] && k < NCARDS_MAX + RESERVE; k++)
      h = live_handle(f, (uint8_t)(base + i * 3 + k));
    if (used[h]) continue;
    used[h] = 1;
    zo_step *m = &s->moves[s->nmoves++];
    *m = proto;
    m->card = h;
    m->line = s->line;
  }
}

void zo_fuzz_gen_create(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->created >= RESERVE)
  s->kind = ST_CREATE;
  uint8_t k = next(f), z = next(f), t = next(f);
  s->as = c->nsetup + f->created++;
  s->kind_of = (k & 3) == 3 ? ZK_ABILITY : (k & 3) == 2 && !is_fab(f) ? ZK_COPY : ZK_TOKEN;
  s->owner = (k >> 2) % c->nplayers;
  s->zone.type = (z & 3) ? fallback_zone(f->rs, s->kind_of) : z % c->nztypes;
  s->zone.player = -1;
  s->types = zo_fuzz_palette(f, t);
}

void zo_fuzz_gen_control(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_CONTROL;
  s->card = live_handle(f, next(f));
  uint8_t p = next(f);
  s->player = (p & 0x7f) % c->nplayers;
  /* G4: bit 7, a control effect until end of turn; with bit 6 too, until
     the next turn of the player who gains control (CR 800.4m) */
  if ((p & 0x80) && allowed(f, FT_DURATIONS)) s->until = ZO_UNTIL_END_OF_TURN;
  if (s->until && (p & 0x40) && allowed(f, FT_NEXT_TURN)) {
    s->until = ZO_UNTIL_NEXT_TURN;
    s->turn_of = s->player;
  }
}

void zo_fuzz_gen_phase(zo_fuzz *f, zo_step *s) {
  s->kind = ST_PHASE;
  s->card = live_handle(f, next(f));
  s->out = next(f) & 1 ? 0 : 1;
}

void zo_fuzz_gen_turn(zo_fuzz *f, zo_step *s) {
  s->kind = ST_TURN_FACE;
  s->card = live_handle(f, next(f));
  s->face = next(f) & 1;
}

/* The zone a reorder or shuffle acts on: a type byte, then a player byte
 * (for a per-player type); returns the type byte, whose top bit some
 * steps read too. */
static uint8_t zone_to_arrange(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  uint8_t z = next(f), p = next(f);
  s->zone.type = z % c->nztypes;
  s->zone.player = f->rs->zones[s->zone.type].per_player.value ? p % c->nplayers : -1;
  return z;
}

void zo_fuzz_gen_reorder(zo_fuzz *f, zo_step *s) {
  s->kind = ST_REORDER;
  uint8_t z = zone_to_arrange(f, s);
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

void zo_fuzz_gen_shuffle(zo_fuzz *f, zo_step *s) {
  s->kind = ST_SHUFFLE;
  zone_to_arrange(f, s);
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

void zo_fuzz_gen_draw_mill(zo_fuzz *f, zo_step *s, uint8_t op) {
  zo_case *c = f->c;
  s->kind = op == OP_DRAW ? ST_DRAW : ST_MILL;
  s->player = next(f) % c->nplayers;
  s->count = 1 + next(f) % 3;
}

void zo_fuzz_gen_put_under(zo_fuzz *f, zo_step *s) {
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
 * bit 3: a state check follows (704.5m-n). Encoded cases write a 0 byte.
 * Never to_player: (attach_player; encode.c says why). */
void zo_fuzz_gen_attach(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  uint8_t h = next(f), t = next(f), a = next(f);
  int x = live_handle(f, h), y = live_handle(f, t);
  OR_STATE_CHECK(c->nsteps + 4 > ZO_FUZZ_MAX_STEPS)
  if (a & 1) { /* y onto the battlefield first */
    move_to_role(f, s, y, ZR_BATTLEFIELD);
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
    move_to_role(f, s, y, ZR_GRAVEYARD);
  }
  if ((a & 8) && allowed(f, FT_STATE_CHECK)) push(f)->kind = ST_STATE_CHECK;
  if (then == 1 && (a & 16) && allowed(f, FT_PHASING)) {
    s = push(f);
    s->kind = ST_PHASE;
    s->card = y;
    s->out = 0;
  }
}

void zo_fuzz_gen_zone_lifecycle(zo_fuzz *f, zo_step *s, uint8_t op) {
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

void zo_fuzz_gen_state_check(zo_fuzz *f, zo_step *s) {
  s->kind = ST_STATE_CHECK;
}

void zo_fuzz_gen_end_game(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_END_GAME;
  s->winner = next(f) % c->nplayers;
}

void zo_fuzz_gen_watch(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->watches >= RESERVE)
  s->kind = ST_WATCH;
  s->as = f->watches++;
  s->card = live_handle(f, next(f));
  uint8_t a = next(f), b = next(f);
  s->from.type = (a & 1) ? ZO_ZT_ANY : zone_or_outside(f, a >> 1);
  s->to.type = (b & 1) ? ZO_ZT_ANY : zone_or_outside(f, b >> 1);
  s->from.player = s->to.player = -1;
}

void zo_fuzz_seq_aura_trigger(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->watches >= RESERVE || c->nsteps + 5 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), x = next(f), b = next(f), z = next(f), t = next(f);
  int y = live_handle(f, h), aura = live_handle(f, x);
  int bf = role_type(f->rs, ZR_BATTLEFIELD);
  if (b && (b & 1)) { /* attach it first */
    s->kind = ST_ATTACH;
    s->card = aura;
    s->attach_to = y;
    s = push(f);
  }
  s->kind = ST_WATCH;
  int trig = s->as = f->watches++;
  s->card = y;
  s->aura = aura;
  s->from.player = s->to.player = -1;
  if (!b) { /* the watch alone */
    s->from.type = (z & 1) ? ZO_ZT_ANY : zone_or_outside(f, z >> 1);
    s->to.type = (t & 1) ? ZO_ZT_ANY : zone_or_outside(f, t >> 1);
    return;
  }
  s->from.type = bf;
  s->to.type = ZO_ZT_ANY;
  zo_step *m = push(f);
  if ((b & 2) && aura != y) { /* the host and the Aura leave together */
    m->kind = ST_MOVE_TOGETHER;
    m->moves = zo_xcalloc(2, sizeof *m->moves);
    for (int i = 0; i < 2; i++) {
      zo_step *mv = &m->moves[m->nmoves++];
      zo_step_init(mv);
      move_to_role(f, mv, i ? aura : y, ZR_GRAVEYARD);
      mv->line = m->line;
    }
  } else {
    move_to_role(f, m, y, (b & 4) ? ZR_HAND : ZR_GRAVEYARD);
  }
  if ((b & 8) && allowed(f, FT_STATE_CHECK)) push(f)->kind = ST_STATE_CHECK;
  m = push(f);
  m->kind = ST_RESOLVE;
  m->trigger = trig;
  move_to_role(f, then_of(m, ST_MOVE), -1, (b & 16) ? ZR_EXILE : ZR_HAND);
}

/* Today's madness (CR 400.7k, 702.35c): a watch on a card, its discard
 * into exile (what madness's replacement makes of it, written as that
 * move), the madness trigger putting it into a zone (cause madness) or
 * casting it (cause cast), sometimes a move on, then the watch resolving:
 * whether the trigger on the discard finds the card. */
void zo_fuzz_seq_madness(zo_fuzz *f, zo_step *s) {
  static const zo_zone_role onto[4] = {ZR_GRAVEYARD, ZR_STACK, ZR_HAND, ZR_BATTLEFIELD};
  zo_case *c = f->c;
  OR_STATE_CHECK(f->watches >= RESERVE || c->nsteps + 5 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), d = next(f), r = next(f);
  int x = live_handle(f, h);
  s->kind = ST_WATCH;
  int trig = s->as = f->watches++;
  s->card = x;
  s->from.player = s->to.player = -1;
  s->from.type = (d & 1) ? role_type(f->rs, ZR_HAND) : ZO_ZT_ANY;
  s->to.type = ZO_ZT_ANY;
  if ((d & 2) && allowed(f, FT_TRIGGERS_CAUSE)) memcpy(s->cause, "discard", sizeof "discard");
  zo_step *m = push(f);
  move_to_role(f, m, x, ZR_EXILE);
  memcpy(m->cause, "discard", sizeof "discard");
  m = push(f);
  move_to_role(f, m, x, onto[(d >> 2) & 3]);
  if (d & 0x10) memcpy(m->cause, "cast", sizeof "cast");
  else memcpy(m->cause, "madness", sizeof "madness");
  if (d & 0x20) { /* the card moves on before the trigger resolves */
    m = push(f);
    m->kind = ST_MOVE;
    m->card = x;
    zo_fuzz_move_opts(f, m);
  }
  m = push(f);
  m->kind = ST_RESOLVE;
  m->trigger = trig;
  if (r & 1) move_to_role(f, then_of(m, ST_MOVE), -1, (r & 2) ? ZR_EXILE : ZR_HAND);
}

void zo_fuzz_gen_resolve(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(!f->watches)
  s->kind = ST_RESOLVE;
  uint8_t a = next(f);
  s->trigger = a % f->watches;
  if (a & 0x80) zo_fuzz_move_opts(f, then_of(s, ST_MOVE));
}

void zo_fuzz_gen_remember(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->refs >= RESERVE)
  s->kind = ST_REMEMBER;
  s->as = f->refs++;
  s->card = live_handle(f, next(f));
}

void zo_fuzz_gen_replace(zo_fuzz *f, zo_step *s) {
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
  zo_fuzz_move_opts(f, then_of(s, ST_MOVE));
}

/* A "can't" effect (feature cant; CR 614.17): byte a: bit 0 any, else
 * the handle a >> 1; byte w: bit 0 to: any, else bits 1-5 the destination
 * zone type modulo the count, bit 7 types: [creature] (judged as it would
 * enter, 614.17d); byte v: bit 0 from: any, else bits 1-5 the origin's. */
void zo_fuzz_gen_cant(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_CANT;
  uint8_t a = next(f), w = next(f), v = next(f);
  if (a & 1) s->replace_any = 1;
  else s->card = live_handle(f, a >> 1);
  s->when_to.type = (w & 1) ? ZO_ZT_ANY : ((w >> 1) & 0x1f) % c->nztypes;
  s->when_from.type = (v & 1) ? ZO_ZT_ANY : ((v >> 1) & 0x1f) % c->nztypes;
  s->when_to.player = s->when_from.player = -1;
  if (w & 0x80) s->types = ZO_TYPE(CREATURE);
}

/* A player's untap step (feature untap_phasing; CR 702.26a): byte a: the
 * player; byte b: how many permanents have phasing (b % 3), then a byte
 * for each (a card that exists now, each once). */
void zo_fuzz_gen_untap(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  s->kind = ST_UNTAP;
  s->player = next(f) % c->nplayers;
  int n = next(f) % 3;
  s->order_zone_handles = zo_xcalloc(3, sizeof(int));
  for (int i = 0; i < n; i++) {
    int h = live_handle(f, next(f)), dup = 0;
    for (int j = 0; j < s->norder; j++) dup |= s->order_zone_handles[j] == h;
    if (!dup) s->order_zone_handles[s->norder++] = h;
  }
}

/* A player leaves the game (feature leave_game; CR 800.4a): byte a: the
 * player; only in a game of three players or more (a state check
 * otherwise, as a two-player game would end). */
void zo_fuzz_gen_leave_game(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->c->nplayers < 3)
  s->kind = ST_LEAVE_GAME;
  s->player = next(f) % f->c->nplayers;
}

/* A trigger on a card phasing out (feature phasing_triggers; CR 603.10b):
 * byte a: the card. */
void zo_fuzz_gen_watch_phase(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->watches >= RESERVE)
  s->kind = ST_WATCH;
  s->as = f->watches++;
  s->card = live_handle(f, next(f));
  s->from.type = s->to.type = ZO_ZT_ANY;
  s->from.player = s->to.player = -1;
  s->on_phase = 1;
}

void zo_fuzz_gen_choose(zo_fuzz *f, zo_step *s) {
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

void zo_fuzz_gen_mark(zo_fuzz *f, zo_step *s) {
  OR_STATE_CHECK(f->marks >= RESERVE)
  s->kind = ST_MARK;
  s->card = live_handle(f, next(f));
  s->as = f->marks++;
  uint8_t k = next(f);
  /* the kinds today's 400.7 keeps (kept_marks) from bit 6, rarer */
  s->mark_kind = (zo_mark_kind)((k & 0x40) && allowed(f, FT_KEPT_MARKS) ? MK_STICKER + (k & 3) % 3 : k % 4);
  /* G4: bit 7 on an effect, until end of turn */
  if (s->mark_kind == MK_EFFECT && (k & 0x80) && allowed(f, FT_DURATIONS))
    s->until = ZO_UNTIL_END_OF_TURN;
  /* with bit 5, until a player's next turn: bits 2-4 the player (800.4m) */
  if (s->until && (k & 0x20) && allowed(f, FT_NEXT_TURN)) {
    s->until = ZO_UNTIL_NEXT_TURN;
    s->turn_of = ((k >> 2) & 7) % f->c->nplayers;
  }
}

/* G4: the end of the turn (its "until end of turn" effects end). */
void zo_fuzz_gen_end_turn(zo_fuzz *f, zo_step *s) {
  (void)f;
  s->kind = ST_END_TURN;
}

/* G8: a watch on a move with a cause (a destroy is no sacrifice). */
void zo_fuzz_gen_watch_cause(zo_fuzz *f, zo_step *s) {
  zo_fuzz_gen_watch(f, s);
  if (s->kind != ST_WATCH) return;
  const char *cause = causes[1 + next(f) % (NCAUSES - 1)];
  memcpy(s->cause, cause, strlen(cause) + 1);
}


/* ---- issue 12: the performing player (G3), look (G5), reveal (G7) ----- */

/* A move, then the player who performs it (owner_puts: the ante). */
void zo_fuzz_gen_move_by(zo_fuzz *f, zo_step *s) {
  zo_fuzz_gen_move(f, s);
  s->player = next(f) % f->c->nplayers;
}

/* A move_together, then who performs it and, where its destination is a
 * zone, who arranged its members in reverse list order there
 * (putter_orders, order_chooser). */
void zo_fuzz_gen_together_by(zo_fuzz *f, zo_step *s) {
  zo_fuzz_gen_together(f, s);
  uint8_t a = next(f);
  s->player = a % f->c->nplayers;
  if (s->nmoves < 2 || s->moves[0].to.type < 0 || !(a & 0x80)) return;
  s->order_zone = s->moves[0].to;
  s->order_zone_handles = zo_xcalloc((size_t)s->nmoves, sizeof(int));
  for (int i = 0; i < s->nmoves; i++) s->order_zone_handles[i] = s->moves[s->nmoves - 1 - i].card;
  s->norder = s->nmoves;
  s->order_by = (a >> 3) % f->c->nplayers;
}

void zo_fuzz_gen_look(zo_fuzz *f, zo_step *s) {
  s->kind = ST_LOOK;
  s->card = live_handle(f, next(f));
  s->player = next(f) % f->c->nplayers;
}

void zo_fuzz_gen_reveal(zo_fuzz *f, zo_step *s) {
  s->kind = ST_REVEAL;
  uint8_t h = next(f), a = next(f);
  s->end = a & 1;
  if (a & 2) { /* a player plays with their library's top card revealed (CR 401.5) */
    s->player = (a >> 2) % f->c->nplayers;
    /* bit 7: then one of their cards covers the top card and leaves again,
       so the card below is revealed anew (401.6), which random moves
       seldom line up for */
    int x = live_handle(f, h), own;
    if (!s->end && (a & 0x80) && f->c->nsteps + 2 <= ZO_FUZZ_MAX_STEPS &&
        (own = zo_fuzz_owner_of(f, x)) >= 0) {
      s->player = own;
      move_to_role(f, push(f), x, ZR_LIBRARY);
      move_to_role(f, push(f), x, (a & 0x40) ? ZR_HAND : ZR_GRAVEYARD);
    }
    return;
  }
  s->card = live_handle(f, h);
}

/* ---- the generic step (OP_GENERIC) ---------------------------------------- */

void zo_fuzz_gen_generic(zo_fuzz *f, zo_step *s) {
  zo_step_kind kinds[ST_COUNT];
  int n = 0, line = s->line, col = s->col;
  for (int k = 0; k < ST_COUNT; k++)
    if (zo_step_kind_generated((zo_step_kind)k)) kinds[n++] = (zo_step_kind)k;
  uint8_t b = next(f);
  OR_STATE_CHECK(n == 0);
  zo_step_defaults(s, kinds[b % n]);
  s->line = line, s->col = col;
  size_t no;
  const zo_step_option *o = zo_step_options(s->kind, &no);
  for (size_t i = 0; i < no; i++) {
    if (o[i].type == OT_REF) continue; /* the object is named by card: */
    uint8_t v = next(f);
    if (!(o[i].flags & (OPT_REQ | OPT_OBJECT)) && !(v & 0x80)) continue;
    v &= 0x7f;
    void *field = (char *)s + o[i].offset;
    int *ip = field;
    switch (o[i].type) {
    case OT_CARD:
    case OT_HANDLE: *ip = live_handle(f, v); break;
    case OT_PLAYER: *ip = v % f->c->nplayers; break;
    case OT_BOOL:
    case OT_FACE: *ip = v & 1; break;
    case OT_AMOUNT: *ip = v & 3; break;
    case OT_CHOOSE: *ip = 1 + (v & 1); break;
    case OT_CAUSE: snprintf(field, ZO_NAME, "%s", cause_of(f, (uint8_t)(v << 4))); break;
    case OT_ZONE: {
      zo_zone_spec *z = field;
      zone_spec(f, v, 0, z);
      if ((z->type == ZO_ZT_OUTSIDE && !(o[i].flags & OPT_OUTSIDE)) ||
          (z->type == ZO_ZT_ARENA && !(o[i].flags & OPT_ARENA)))
        z->type = v % f->c->nztypes; /* a zone the option may name */
      break;
    }
    default: break; /* kept at its default (decoder_int.h) */
    }
  }
}

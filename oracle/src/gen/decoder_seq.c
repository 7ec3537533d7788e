/* decoder_seq.c: the sequences: the steps a rare rule needs, on one
 * object (a watch, a move and a resolve; a replacement and the move it
 * applies to; a trip outside the game; a mark and a move; a duration
 * through phasing; two objects into one zone), which random single steps
 * seldom line up for. Each reads its opcode's bytes and pushes its steps
 * after the one the dispatch (decoder.c) pushed.
 */
#include "decoder_int.h"

#include <string.h>

#include "util.h"

/* ---- sequences: the steps a rare rule needs, on one object ----------- */

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
void zo_fuzz_seq_trigger(zo_fuzz *f, zo_step *s) {
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
  const char *cause = cause_of(f, w);
  memcpy(m->cause, cause, strlen(cause) + 1);
  s->from.player = s->to.player = -1;
  switch (w & 3) {
  case 0: s->from.type = ZO_ZT_ANY; break;
  case 1: s->from.type = zone_type_of(f, x); break;
  case 2: s->from.type = ZO_ZT_OUTSIDE; break;
  default: s->from.type = (w >> 4) % c->nztypes;
  }
  s->to.type = (w & 4) ? ZO_ZT_ANY : m->to.type;
  if ((r & 6) == 2) {
    s->types = types_of(f, x); /* fires only on an object with properties (FaB 3.0.7a) */
    /* with visibility per object, mostly a move that turns the object
       from private to public or back: whether it has properties as it
       moves is what the flip step decides (FaB 3.0.8) */
    int from = zone_type_of(f, x);
    if (f->rs->sw[SW_VISIBILITY].value == ZS_PER_OBJECT && from >= 0 && (r & 0x18)) {
      int pub = f->rs->zones[from].pub.value;
      for (int k = 0; k < c->nztypes; k++) {
        int t = (m->to.type + k) % c->nztypes;
        if (t != from && f->rs->zones[t].pub.value != pub) {
          m->to.type = t;
          m->to.player = -1;
          break;
        }
      }
      m->face = -1;
      if (s->to.type != ZO_ZT_ANY) s->to.type = m->to.type;
    }
  }
  zo_step *t = push(f);
  t->kind = ST_RESOLVE;
  t->trigger = s->as;
  if (r & 1) zo_fuzz_move_opts(f, then_of(t, ST_MOVE));
}

/* a replacement effect on an object, sometimes the order of replacements
 * chosen by a player, then a move it applies to (CR 614.1, 616.1, 400.6;
 * FaB 6.5: who may choose). */
void zo_fuzz_seq_replace(zo_fuzz *f, zo_step *s) {
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
  zo_fuzz_move_opts(f, then_of(s, ST_MOVE));
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
void zo_fuzz_seq_outside(zo_fuzz *f, zo_step *s) {
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
  zo_fuzz_move_opts(f, m);
  m->from.type = ZO_ZT_OUTSIDE;
  m->from.player = -1;
}

/* a mark, then a move of the marked object: which marks a new object
 * keeps, e.g. a permanent spell's characteristic edits as it resolves
 * from the stack (CR 400.7a-c; Z.9.7; FaB 3.0.9), made likelier by
 * putting it on the stack first. */
void zo_fuzz_seq_mark_move(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(f->marks >= RESERVE || c->nsteps + 2 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), a = next(f), b = next(f);
  int x = live_handle(f, h);
  zo_step *m = s;
  if (a & 1) { /* onto the stack first */
    move_to_role(f, s, x, ZR_STACK);
    m = push(f);
  }
  m->kind = ST_MARK;
  m->card = x;
  m->as = f->marks++;
  m->mark_kind = (zo_mark_kind)((a >> 1) % MK_COUNT);
  if (m->mark_kind >= MK_STICKER && !allowed(f, FT_KEPT_MARKS)) m->mark_kind = (zo_mark_kind)((a >> 1) % 4);
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
void zo_fuzz_seq_duration(zo_fuzz *f, zo_step *s) {
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
void zo_fuzz_seq_pair(zo_fuzz *f, zo_step *s) {
  zo_case *c = f->c;
  OR_STATE_CHECK(c->nsteps + 1 > ZO_FUZZ_MAX_STEPS)
  uint8_t h = next(f), a = next(f), b = next(f);
  int x = live_handle(f, h), y = -1;
  uint64_t tx = types_of(f, x);
  for (int same_owner = 1; same_owner >= 0 && y < 0; same_owner--)
    for (int k = 1; k < c->nhandles && y < 0; k++) { /* the next live object of x's types */
      int cand = (x + k) % c->nhandles;
      if (zo_game_obj_exists(f->g, cand) && types_of(f, cand) == tx &&
          (!same_owner || zo_fuzz_owner_of(f, cand) == zo_fuzz_owner_of(f, x)))
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
    player = zo_fuzz_owner_of(f, x); /* the owner's zone of the type, where x went */
  }
  s->kind = ST_MOVE;
  s->card = y;
  s->to.type = type;
  s->to.player = f->rs->zones[type].per_player.value ? player : -1;
}

/* decoder_int.h: what the decoder's four files share (internal to gen/;
 * the byte layout itself is layout.h), each calling only those below it:
 * decoder_dispatch.c (an opcode to its generator) -> decoder_seq.c (the
 * sequences) -> decoder_gen.c (one generator per opcode) -> decoder.c
 * (the header bytes, the profiles, the palettes, what fits a profile).
 * The small readers of the bytes and of
 * the game being built are `static inline` here; the generators the
 * dispatch calls, and the two helpers two files use, are declared below.
 * Every generator reads its opcode's bytes through next() (a missing byte
 * reads as 0) and fills the step s the dispatch pushed; some push more
 * steps (push) into f->c->steps. What a step allocates (then:, moves,
 * orders) belongs to f's case and is freed by zo_fuzz_free, or by the
 * dispatch when the steps do not fit the profile. */
#ifndef ZO_DECODER_INT_H
#define ZO_DECODER_INT_H

#include <stdint.h>
#include <string.h>

#include "decoder.h"
#include "layout.h"
#include "util.h"

#define NCARDS_MAX ZO_FUZZ_MAX_CARDS
#define RESERVE ZO_FUZZ_RESERVE /* created handles, watches, refs, replacements, marks */
#define causes zo_fuzz_causes
#define NCAUSES ZO_FUZZ_NCAUSES

/* Is the game Flesh and Blood (its palette, its kinds)? */
static inline int is_fab(const zo_fuzz *f) { return strcmp(f->rs->game, "fab") == 0; }

/* May the game use feature ft? */
static inline int allowed(const zo_fuzz *f, zo_feature ft) {
  return (int)((f->prof->features >> ft) & 1u);
}

/* A move's cause word from the high nibble of byte b (layout.h): the
 * cause madness only where the profile has feature madness (CR 400.7k),
 * else none. Static storage. */
static inline const char *cause_of(const zo_fuzz *f, uint8_t b) {
  int k = (b >> 4) % NCAUSES;
  return causes[k == ZO_FUZZ_CAUSE_MADNESS && !allowed(f, FT_MADNESS) ? 0 : k];
}

/* The next input byte; 0 past the end. */
static inline uint8_t next(zo_fuzz *f) { return f->at < f->size ? f->data[f->at++] : 0; }

/* The first zone type of the rule set with this role (0: none has it). */
static inline int role_type(const zo_ruleset *rs, zo_zone_role role) {
  for (int z = 0; z < rs->nzones; z++)
    if (rs->zones[z].role == role) return z;
  return 0;
}

/* A setup card: always declared, so a printed case never names a token
 * before its create step. */
static inline int handle_of(zo_fuzz *f, uint8_t b) { return b % f->c->nsetup; }

/* Prefer handles that exist now, so most steps act on something. */
static inline int live_handle(zo_fuzz *f, uint8_t b) {
  int h = zo_game_live_handle(f->g, f->c->nhandles, b);
  return h >= 0 ? h : handle_of(f, b);
}

/* The case zone type of the zone handle h is in now, ZO_ZT_OUTSIDE outside
 * the game, or ZO_ZT_ANY when it is nowhere or in a zone a zone_create
 * added (the decoder's case names the rule set's types in order); its
 * player into *player (-1 shared), when player is not NULL. */
static inline int zone_of(const zo_fuzz *f, int h, int *player) {
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

/* zone_of without the player. */
static inline int zone_type_of(const zo_fuzz *f, int h) { return zone_of(f, h, NULL); }

/* A new step appended to the case (its line the step's number), for a
 * generator to fill; the caller checks there is room (ZO_FUZZ_MAX_STEPS). */
static inline zo_step *push(zo_fuzz *f) {
  zo_case *c = f->c;
  zo_step *s = &c->steps[c->nsteps++]; /* f->steps holds ZO_FUZZ_MAX_STEPS */
  zo_step_init(s);
  s->line = c->nsteps;
  s->col = 1;
  return s;
}

/* Make s a move of card into the rule set's zone of that role (shared, or
 * the owner's), the first step of a sequence. */
static inline void move_to_role(zo_fuzz *f, zo_step *s, int card, zo_zone_role role) {
  s->kind = ST_MOVE;
  s->card = card;
  s->to.type = role_type(f->rs, role);
  s->to.player = -1;
}

/* The step s's effect does next (then:/do:), of this kind, on s's line. */
static inline zo_step *then_of(zo_step *s, zo_step_kind kind) {
  s->then = zo_xcalloc(1, sizeof *s->then);
  zo_step_init(s->then);
  s->then->kind = kind;
  s->then->line = s->line;
  return s->then;
}

/* A step whose names or objects ran out becomes a state check (always
 * applicable), so decoding never stops early. */
#define OR_STATE_CHECK(cond) \
  if (cond) {                \
    s->kind = ST_STATE_CHECK; \
    return;                  \
  }

/* ---- decoder.c ---------------------------------------------------------- */

/* The type bits of palette row i (modulo the game's palette: Magic's or
 * Flesh and Blood's, layout.h); looked up once per process. Reads no byte. */
uint64_t zo_fuzz_palette(const zo_fuzz *f, int i);

/* Free what step s owns (its then:/do: step, moves, orders, JSON text),
 * not s itself; s is left without them. */
void zo_fuzz_free_step(zo_step *s);

/* Whether step s (pushed by a generator) fits f's profile, after leaving
 * out what it may go without (face: down, a given shuffle order, a
 * then:/do: needing a feature the profile lacks); 0 when it still needs
 * more, or names a zone or kind the profile does not allow. */
int zo_fuzz_fit(zo_fuzz *f, zo_step *s);

/* ---- decoder_gen.c ------------------------------------------------------ */

/* OP_GENERIC (layout.h): a step of a kind the step table marks generated
 * (steps.def), made from its row alone: a byte picks the kind among every
 * generated kind (one the profile lacks the feature of doesn't fit and is
 * dropped), then a byte per option in the row's order: a required one
 * reads its value from it, an optional one is given when bit 7 is set and
 * reads it from the low bits. Option types a value can't be made of from
 * a byte (steps, lists, names) keep their defaults: a generated kind has
 * none required. */
void zo_fuzz_gen_generic(zo_fuzz *f, zo_step *s);

/* The owner handle h was given: its setup card's, or the create step's
 * (-1 if none names it yet). Reads only. */
int zo_fuzz_owner_of(const zo_fuzz *f, int h);

/* A move's options into s from 3 bytes (destination and its player,
 * position, face, by_rule, cause, choose); returns the third, whose bit 7
 * says that a from: byte follows for a top-level move. Allocates nothing.
 * Used by the generators and the sequences. */
uint8_t zo_fuzz_move_opts(zo_fuzz *f, zo_step *s);

/* One generator per opcode (layout.h): reads the opcode's bytes and fills
 * s, the step the dispatch pushed, or makes it a state check when its
 * names or objects ran out. zo_fuzz_gen_attach may push up to three steps
 * more; zo_fuzz_gen_draw_mill and zo_fuzz_gen_zone_lifecycle take the
 * opcode. */
void zo_fuzz_gen_move(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_together(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_create(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_control(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_phase(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_turn(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_reorder(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_shuffle(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_draw_mill(zo_fuzz *f, zo_step *s, uint8_t op);
void zo_fuzz_gen_put_under(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_attach(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_zone_lifecycle(zo_fuzz *f, zo_step *s, uint8_t op);
void zo_fuzz_gen_state_check(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_end_game(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_watch(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_resolve(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_remember(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_replace(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_cant(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_untap(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_leave_game(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_watch_phase(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_choose(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_mark(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_end_turn(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_watch_cause(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_move_by(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_together_by(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_look(zo_fuzz *f, zo_step *s);
void zo_fuzz_gen_reveal(zo_fuzz *f, zo_step *s);

/* ---- decoder_seq.c ------------------------------------------------------ */

/* The sequences: several steps on one object that a rare rule needs and
 * random single steps seldom line up for. Each fills s with the first and
 * pushes the rest (planned on the state before the first), or makes s a
 * state check when the steps or the names would run out. */
void zo_fuzz_seq_trigger(zo_fuzz *f, zo_step *s);
void zo_fuzz_seq_replace(zo_fuzz *f, zo_step *s);
void zo_fuzz_seq_outside(zo_fuzz *f, zo_step *s);
void zo_fuzz_seq_mark_move(zo_fuzz *f, zo_step *s);
void zo_fuzz_seq_duration(zo_fuzz *f, zo_step *s);
/* An Aura's trigger on the permanent it enchants leaving (CR 400.7f,
 * 603.6e): bytes host, Aura, flags, from, to; flags 0: the watch alone
 * (an encoded case's), else attach, watch, the host leaving (with the
 * Aura, or alone), a state check and the resolve, as the flags say. */
void zo_fuzz_seq_aura_trigger(zo_fuzz *f, zo_step *s);
void zo_fuzz_seq_madness(zo_fuzz *f, zo_step *s);
void zo_fuzz_seq_pair(zo_fuzz *f, zo_step *s);

#endif

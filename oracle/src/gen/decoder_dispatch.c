/* decoder_dispatch.c: the top of the decoder (decoder.h): zo_fuzz_next
 * reads an opcode byte and calls its generator (decoder_gen.c) or
 * sequence (decoder_seq.c), then drops the steps that do not fit the
 * engine's profile (decoder.c). Nothing below calls back up here. */
#include "decoder_int.h"

#include <stdlib.h>

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
  case OP_MOVE: case OP_MOVE2: case OP_MOVE3: case OP_MOVE4: zo_fuzz_gen_move(f, s); break;
  case OP_TOGETHER: zo_fuzz_gen_together(f, s); break;
  case OP_CREATE: zo_fuzz_gen_create(f, s); break;
  case OP_CONTROL: zo_fuzz_gen_control(f, s); break;
  case OP_PHASE: zo_fuzz_gen_phase(f, s); break;
  case OP_TURN: zo_fuzz_gen_turn(f, s); break;
  case OP_REORDER: zo_fuzz_gen_reorder(f, s); break;
  case OP_SHUFFLE: zo_fuzz_gen_shuffle(f, s); break;
  case OP_DRAW: case OP_MILL: zo_fuzz_gen_draw_mill(f, s, op); break;
  case OP_PUT_UNDER: zo_fuzz_gen_put_under(f, s); break;
  case OP_ZONE_CREATE: case OP_ZONE_REMOVE: zo_fuzz_gen_zone_lifecycle(f, s, op); break;
  case OP_STATE_CHECK: case OP_STATE_CHECK2: zo_fuzz_gen_state_check(f, s); break;
  case OP_END_GAME: zo_fuzz_gen_end_game(f, s); break;
  case OP_WATCH: zo_fuzz_gen_watch(f, s); break;
  case OP_RESOLVE: zo_fuzz_gen_resolve(f, s); break;
  case OP_REMEMBER: zo_fuzz_gen_remember(f, s); break;
  case OP_REPLACE: zo_fuzz_gen_replace(f, s); break;
  case OP_CHOOSE: zo_fuzz_gen_choose(f, s); break;
  case OP_SEQ_TRIGGER: zo_fuzz_seq_trigger(f, s); break;
  case OP_SEQ_REPLACE: zo_fuzz_seq_replace(f, s); break;
  case OP_SEQ_OUTSIDE: zo_fuzz_seq_outside(f, s); break;
  case OP_SEQ_MARK_MOVE: zo_fuzz_seq_mark_move(f, s); break;
  case OP_SEQ_PAIR: zo_fuzz_seq_pair(f, s); break;
  case OP_MOVE_BY: zo_fuzz_gen_move_by(f, s); break;
  case OP_TOGETHER_BY: zo_fuzz_gen_together_by(f, s); break;
  case OP_LOOK: zo_fuzz_gen_look(f, s); break;
  case OP_REVEAL: zo_fuzz_gen_reveal(f, s); break;
  case OP_ATTACH: zo_fuzz_gen_attach(f, s); break;
  case OP_END_TURN: zo_fuzz_gen_end_turn(f, s); break;
  case OP_WATCH_CAUSE: zo_fuzz_gen_watch_cause(f, s); break;
  case OP_SEQ_DURATION: zo_fuzz_seq_duration(f, s); break;
  case OP_WATCH_AURA: zo_fuzz_seq_aura_trigger(f, s); break;
  case OP_SEQ_MADNESS: zo_fuzz_seq_madness(f, s); break;
  case OP_CANT: zo_fuzz_gen_cant(f, s); break;
  case OP_UNTAP: zo_fuzz_gen_untap(f, s); break;
  case OP_LEAVE_GAME: zo_fuzz_gen_leave_game(f, s); break;
  case OP_WATCH_PHASE: zo_fuzz_gen_watch_phase(f, s); break;
  case OP_GENERIC: zo_fuzz_gen_generic(f, s); break;
  case OP_MARK: default: zo_fuzz_gen_mark(f, s); break;
  }
  if (p->all) return;
  int fits = 1;
  for (int i = first; i < c->nsteps; i++) fits &= zo_fuzz_fit(f, &c->steps[i]);
  if (fits) return;
  for (int i = first; i < c->nsteps; i++) zo_fuzz_free_step(&c->steps[i]);
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

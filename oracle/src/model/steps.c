/* steps.c: applying a step (zo_game_apply and friends): the step's kind
 * names the room that does it, one line each (zo_step_dispatch). A move is
 * most steps, so zo_game_apply_to, which every step goes through, lives
 * with the move (move.c) and does a move itself, inlined; it sends any
 * other step here.
 */
#include <string.h>

#include "model_int.h"

int zo_step_object(zo_game *g, const zo_step *s, zo_step_result *r) {
  if (s->ref >= 0) {
    if (!ref_finds(g, s->ref)) {
      r->outcome = ZO_OUTCOME_NOT_FOUND;
      r->error = ZO_E_NOT_FOUND;
      return -1;
    }
    return g->refs[s->ref].obj;
  }
  if (s->card < 0 || !g->objs[s->card].exists) {
    r->outcome = ZO_OUTCOME_NOT_FOUND;
    r->error = ZO_E_NOT_FOUND;
    if (s->card >= 0) event(r, s->card, ZO_OUTCOME_NOT_FOUND);
    return -1;
  }
  return s->card;
}

int zo_magic_only(const zo_game *g, zo_step_result *r) {
  if (!g->rs->game || strcmp(g->rs->game, "fab")) return 0;
  r->outcome = ZO_OUTCOME_REJECTED;
  r->error = ZO_E_UNSUPPORTED;
  return 1;
}

void zo_step_dispatch(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  switch (s->kind) {
  case ST_MOVE: zo_game_apply_to(g, s, obj, r); return;
  case ST_MOVE_TOGETHER: zo_step_move_together(g, s, obj, r); return;
  case ST_CREATE: zo_step_create(g, s, obj, r); return;
  case ST_CONTROL: zo_step_control(g, s, obj, r); return;
  case ST_PHASE: zo_step_phase(g, s, obj, r); return;
  case ST_TURN_FACE: zo_step_turn_face(g, s, obj, r); return;
  case ST_REORDER: zo_step_reorder(g, s, obj, r); return;
  case ST_SHUFFLE: zo_step_shuffle(g, s, obj, r); return;
  case ST_DRAW: zo_step_draw_mill(g, s, obj, r); return;
  case ST_MILL: zo_step_draw_mill(g, s, obj, r); return;
  case ST_PUT_UNDER: zo_step_put_under(g, s, obj, r); return;
  case ST_ZONE_CREATE: zo_step_zone_create(g, s, obj, r); return;
  case ST_ZONE_REMOVE: zo_step_zone_remove(g, s, obj, r); return;
  case ST_STATE_CHECK: zo_step_state_check(g, s, obj, r); return;
  case ST_END_GAME: zo_step_end_game(g, s, obj, r); return;
  case ST_WATCH: zo_step_watch(g, s, obj, r); return;
  case ST_RESOLVE: zo_step_resolve(g, s, obj, r); return;
  case ST_REMEMBER: zo_step_remember(g, s, obj, r); return;
  case ST_REPLACE: zo_step_replace(g, s, obj, r); return;
  case ST_CHOOSE_REPLACEMENT: zo_step_choose_replacement(g, s, obj, r); return;
  case ST_MARK: zo_step_mark(g, s, obj, r); return;
  case ST_LOOK: zo_step_look(g, s, obj, r); return;
  case ST_REVEAL: zo_step_reveal(g, s, obj, r); return;
  case ST_ATTACH: zo_step_attach(g, s, obj, r); return;
  case ST_END_TURN: zo_step_end_turn(g, s, obj, r); return;
  case ST_CANT: zo_step_cant(g, s, obj, r); return;
  case ST_REPLACE_DRAW: zo_step_replace_draw(g, s, obj, r); return;
  case ST_UNTAP: zo_step_untap(g, s, obj, r); return;
  case ST_LEAVE_GAME: zo_step_leave_game(g, s, obj, r); return;
  case ST_AS_ENTERS: zo_step_as_enters(g, s, obj, r); return;
  default: return;
  }
}

void zo_game_apply(zo_game *g, const zo_step *s, zo_step_result *r) {
  memset(r, 0, sizeof *r);
  zo_game_apply_to(g, s, -1, r);
  if (g->top_revealed) zo_top_reveals_update(g, r);
  g->nsteps++;
}

void zo_game_apply_again(zo_game *g, const zo_step *s, zo_step_result *r) {
  r->outcome = ZO_OUTCOME_NONE;
  r->error = ZO_E_NONE;
  r->nevents = 0; /* the events buffer is kept */
  zo_game_apply_to(g, s, -1, r);
  if (g->top_revealed) zo_top_reveals_update(g, r);
  g->nsteps++;
}

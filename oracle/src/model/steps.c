/* steps.c: applying a step (zo_game_apply and friends): the step's kind
 * names the room that does it (zo_step_dispatch), from the step table. A move is
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

/* The rooms, by kind (the step table, case/steps.def). */
#define ROW_ROOM(id, name, ...) [id] = zo_step_##name,
static void (*const rooms[ST_COUNT])(zo_game *, const zo_step *, int, zo_step_result *) = {
    ZO_STEP_KINDS(ROW_ROOM)};
#undef ROW_ROOM

void zo_step_dispatch(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  if ((unsigned)s->kind < ST_COUNT) rooms[s->kind](g, s, obj, r);
}

/* A move: zo_game_apply_to (move.c) does it inlined; here for the table. */
void zo_step_move(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  zo_game_apply_to(g, s, obj, r);
}

/* draw (CR 121.2) and mill (701.17a): moves of several objects, one room. */
void zo_step_draw(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  zo_step_draw_mill(g, s, obj, r);
}
void zo_step_mill(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  zo_step_draw_mill(g, s, obj, r);
}

void zo_game_apply(zo_game *g, const zo_step *s, zo_step_result *r) {
  memset(r, 0, sizeof *r);
  zo_game_apply_to(g, s, -1, r);
  if (g->top_revealed) zo_top_reveals_update(g, r);
  if (g->has_ceasing) zo_zones_cease_empty(g); /* issue 31: ceases_empty */
  g->nsteps++;
}

void zo_game_apply_again(zo_game *g, const zo_step *s, zo_step_result *r) {
  r->outcome = ZO_OUTCOME_NONE;
  r->error = ZO_E_NONE;
  r->nevents = 0; /* the events buffer is kept */
  zo_game_apply_to(g, s, -1, r);
  if (g->top_revealed) zo_top_reveals_update(g, r);
  if (g->has_ceasing) zo_zones_cease_empty(g); /* issue 31: ceases_empty */
  g->nsteps++;
}

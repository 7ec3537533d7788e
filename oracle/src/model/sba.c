/* sba.c: state-based actions (CR 704) on zones: an Aura attached to
 * nothing, or to a player who has left the game, goes to its owner's
 * graveyard and other attachments come off (CR 704.5m-n, 303.4c,
 * attached.c); a token that is not on the
 * battlefield ceases to exist (CR 704.5d; Z.3.Ruling.1; 216.3), and a
 * phased-out token where the rule set says so (702.24k, 217.8d); a copy of
 * a spell off the stack ceases (704.5e); a player who drew from an empty
 * library loses (704.5b). Repeated until nothing more happens.
 */
#include "model_int.h"

/* Perform the state-based actions; 1 when any was performed. */
static int state_check(zo_game *g, zo_step_result *r) {
  int any = 0, again = 1;
  while (again) {
    again = 0;
    for (int i = 0; i < g->nobjs; i++) {
      zo_obj *o = &g->objs[i];
      if (!o->exists) continue;
      int on_bf = o->zone >= 0 && ZT(g, o->zone)->role == ZR_BATTLEFIELD;
      if (is_token(g, o) && SW(g, SW_TOKEN_LEAVES) == ZS_AT_STATE_CHECK && !on_bf) {
        HITSW(g, SW_TOKEN_LEAVES); /* CR 704.5d; Z.3.Ruling.1; 216.3 */
        if (o->zone >= 0 && ZT(g, o->zone)->role == ZR_PHASED_OUT)
          HITSW(g, SW_PHASED_TOKENS); /* CR 217.8d */
        zo_obj_cease(g, i, r);
        again = any = 1;
      } else if (is_token(g, o) && o->phased_out && SW(g, SW_PHASED_TOKENS) == ZS_CEASE) {
        HITSW(g, SW_PHASED_TOKENS); /* CR 702.24k */
        zo_obj_cease(g, i, r);
        again = any = 1;
      } else if (o->kind == ZK_COPY && SW(g, SW_COPIES) == ZS_CEASE_OFF_STACK &&
                 o->zone != ZO_ZONE_OUTSIDE && !is_stack(g, o->zone) && !on_bf) {
        /* a copy made outside the game (CR 707.13) is in no zone: 704.5e
           speaks of zones */
        HITSW(g, SW_COPIES); /* CR 704.5e */
        zo_obj_cease(g, i, r);
        again = any = 1;
      } else if ((o->attached >= 0 || o->attached_player) && on_bf && !o->phased_out &&
                 zo_attached_to(g, i) < 0 && zo_attached_player(g, i) < 0) {
        /* CR 704.5m-n: attached to nothing any more, or to a player who
           has left the game (303.4c; attached.c) */
        if (zo_attached_state_check(g, i, r)) again = 1;
        any = 1;
      }
    }
  }
  for (int p = 0; p < g->c->nplayers; p++)
    if (g->drew_empty[p] && !g->lost[p]) {
      HITSW(g, SW_DRAW_EMPTY); /* CR 704.5b */
      g->lost[p] = 1;
      any = 1;
    }
  return any;
}

/* The state_check step: ceased when an object ceased; else moved when an
 * object changed zones (an Aura put into its owner's graveyard, CR
 * 704.5m); else no_move. */
void zo_step_state_check(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)s;
  (void)obj;
  int ceased = 0, moved = 0;
  if (state_check(g, r))
    for (int i = 0; i < r->nevents; i++) {
      zo_outcome e = r->events[i].outcome;
      if (e == ZO_OUTCOME_MOVED || e == ZO_OUTCOME_REPLACED) moved = 1;
      else ceased = 1;
    }
  r->outcome = ceased ? ZO_OUTCOME_CEASED : moved ? ZO_OUTCOME_MOVED : ZO_OUTCOME_NO_MOVE;
  r->error = ZO_E_NONE;
}

/* durations.c: how long an effect lasts (G4 of issue 12). A mark of kind
 * effect or a control step may say `until: end_of_turn`; without it the
 * effect has no duration and lasts until the game ends (CR 611.2a; 418.3a
 * of 1999/2004). The end_turn step is the cleanup's end of "until end of
 * turn" effects (CR 514.2; 314.2 of 2004/2008; 314.1b of 1999), phased-out
 * permanents included (702.24e of 2011, 702.26f: an effect may expire
 * while the permanent is phased out; 502.15h of 2004: it may then phase in
 * under another player). An effect on an object ends when the object
 * becomes a new object (CR 400.7; marks are dropped by objects.c, a control
 * effect is tied to the object's identity here). Control effects are kept
 * in timestamp order (g->ctrls): the latest in force decides, and when it
 * ends an earlier one still in force decides again (613.7, 611.2a), else
 * the object's default controller (110.2). Phasing out ends the
 * effects the rule set says (switch phased_effects: 502.15g of 2004 ends
 * limited durations; 702.24d-e, 702.26d, f end none). An effect "until
 * [a player's] next turn" ends as that turn begins, at the untap step
 * that begins it (players.c), or, when that player has left the game, as
 * the turn would have begun: neither at once nor never (CR 800.4m).
 */
#include <stdlib.h>

#include "model_int.h"

/* zcp/1's meaning (ctrl_until, ctrl_base): kept beside g->ctrls only to
 * tell when a case relies on control_effects */
static void zcp1_control_duration(zo_game *g, int o, int until) {
  zo_obj *ob = &g->objs[o];
  int in_force = ob->ctrl_until && ob->ctrl_until_id == ob->id;
  if (!until) {
    ob->ctrl_until = 0; /* zcp/1: a later effect without a duration wins for good */
    return;
  }
  if (!in_force) ob->ctrl_base = ob->controller >= 0 ? ob->controller : ob->owner;
  ob->ctrl_until = 1;
  ob->ctrl_until_id = ob->id;
}

/* Whether effect e still applies: its object is the one it was given for
 * (CR 400.7). */
static int ctrl_in_force(const zo_game *g, const zo_ctrl_effect *e) {
  const zo_obj *ob = &g->objs[e->obj];
  return ob->exists && ob->id == e->id;
}

/* Keep the effects for which keep(g, e, arg) is true, in their order. */
static void ctrls_keep(zo_game *g, int (*keep)(const zo_game *, const zo_ctrl_effect *, int),
                       int arg) {
  int n = 0;
  for (int k = 0; k < g->nctrls; k++)
    if (keep(g, &g->ctrls[k], arg)) g->ctrls[n++] = g->ctrls[k];
  g->nctrls = n;
}

static int keep_in_force(const zo_game *g, const zo_ctrl_effect *e, int arg) {
  (void)arg;
  return ctrl_in_force(g, e);
}

/* Whether effect (until, of) ends now: at end_turn (q < 0) those until
 * end of turn; as player q's turn begins, those until the next turn of q
 * (a turn of of's that no untap step names was skipped and waits for the
 * next, 614.10a), or of a departed player whose turn would have come since
 * g->turn_player's (800.4m; an extra turn of the same player comes first,
 * 500.7). */
static int ends_now(const zo_game *g, int until, int of, int q) {
  if (q < 0) return until == ZO_UNTIL_END_OF_TURN;
  if (until != ZO_UNTIL_NEXT_TURN) return 0;
  if (of == q) return 1;
  return of >= 0 && of < ZO_MAX_PLAYERS && g->left[of] && zo_turn_between(g, g->turn_player, q, of);
}

static int keep_not_ending(const zo_game *g, const zo_ctrl_effect *e, int q) {
  return !ends_now(g, e->until, e->until_of, q);
}

static int keep_not_player(const zo_game *g, const zo_ctrl_effect *e, int p) {
  (void)g;
  return e->player != p;
}

void zo_control_begin(zo_game *g, int o, int p, int until, int until_of) {
  zcp1_control_duration(g, o, until == ZO_UNTIL_END_OF_TURN);
  ctrls_keep(g, keep_in_force, 0); /* those on objects gone by now end */
  if (g->nctrls == g->capctrls) {
    g->capctrls = g->capctrls ? 2 * g->capctrls : 4;
    g->ctrls = zo_xrealloc(g->ctrls, (size_t)g->capctrls * sizeof *g->ctrls);
  }
  g->ctrls[g->nctrls++] = (zo_ctrl_effect){o, p, until, until_of, g->objs[o].id};
}

int zo_control_now(const zo_game *g, int o) {
  for (int k = g->nctrls - 1; k >= 0; k--) /* CR 613.7: the latest */
    if (g->ctrls[k].obj == o && ctrl_in_force(g, &g->ctrls[k])) return g->ctrls[k].player;
  const zo_obj *ob = &g->objs[o];
  return ob->ctrl_default >= 0 ? ob->ctrl_default : ob->owner; /* CR 110.2 */
}

void zo_control_carry(zo_game *g, int o, uint64_t old_id, int origin, int dest) {
  if (!g->nctrls || origin < 0 || dest < 0 || !is_stack(g, origin) ||
      ZT(g, dest)->role != ZR_BATTLEFIELD)
    return;
  HITSW(g, SW_KEEPS_CONTROL);
  if (SW(g, SW_KEEPS_CONTROL) != ZS_YES) return;
  for (int k = 0; k < g->nctrls; k++)
    if (g->ctrls[k].obj == o && g->ctrls[k].id == old_id) g->ctrls[k].id = g->objs[o].id;
}

void zo_control_end_player(zo_game *g, int p) {
  if (g->nctrls) ctrls_keep(g, keep_not_player, p);
}

void zo_durations_phase_out(zo_game *g, int o) {
  HITSW(g, SW_PHASED_EFFECTS);
  if (SW(g, SW_PHASED_EFFECTS) != ZS_LIMITED_LOST) return;
  for (int m = 0; m < g->nmarks; m++) {
    zo_mark *mk = &g->marks[m];
    if (mk->alive && mk->obj == o && mk->until != ZO_UNTIL_NONE) mk->alive = 0;
  }
}

/* The controller o has now, phased out or not (phasing as a zone keeps
 * the one it will phase in under apart, 502.15h). */
static int controller_now(const zo_game *g, int o) {
  const zo_obj *ob = &g->objs[o];
  if (ob->phased_out && SW(g, SW_PHASING) == ZS_ZONE) return ob->phase_controller;
  return ob->controller;
}

/* The effects that end now (ends_now's q) end: the marks, and the control
 * effects, whose objects get the controller the others still in force
 * give them (613.7), or at end_turn (q < 0) zcp/1's returned one. 1 when
 * an object was exiled for want of a player to return to (800.4c). */
static int end_effects(zo_game *g, int q, zo_step_result *r) {
  int exiled = 0;
  for (int m = 0; m < g->nmarks; m++)
    if (g->marks[m].alive && ends_now(g, g->marks[m].until, g->marks[m].until_of, q))
      g->marks[m].alive = 0;
  unsigned char *ended = NULL;
  if (g->nctrls) {
    ended = zo_xcalloc((size_t)g->nobjs, 1);
    for (int k = 0; k < g->nctrls; k++)
      if (ends_now(g, g->ctrls[k].until, g->ctrls[k].until_of, q) &&
          ctrl_in_force(g, &g->ctrls[k]))
        ended[g->ctrls[k].obj] = 1;
    ctrls_keep(g, keep_not_ending, q);
  }
  for (int i = 0; i < g->nobjs; i++) {
    zo_obj *ob = &g->objs[i];
    int zcp1 = q < 0 && ob->ctrl_until && ob->exists && ob->ctrl_until_id == ob->id && ob->zone >= 0;
    if (q < 0) ob->ctrl_until = 0;
    int now = ended && ended[i] && ob->exists && ob->zone >= 0;
    if (!zcp1 && !now) continue;
    /* 502.15h: phases in under it; 702.24e, 702.26f: also phased out;
       800.4c: exiled when that player has left the game */
    if (ZT(g, ob->zone)->role != ZR_PHASED_OUT && !ZT(g, ob->zone)->controller.value) continue;
    int was = controller_now(g, i);
    int back = now ? zo_control_now(g, i) : was;
    if (q < 0 && (zcp1 ? ob->ctrl_base : was) != back)
      g->features_used |= (uint64_t)1 << FT_CONTROL_EFFECTS; /* zcp/1 meant another */
    if (now) exiled |= zo_control_returns(g, i, back, r);
  }
  free(ended);
  return exiled;
}

int zo_next_turn_unsupported(const zo_game *g, const zo_step *s, zo_step_result *r) {
  if (s->until != ZO_UNTIL_NEXT_TURN) return 0;
  if (zo_magic_only(g, r)) return 1;
  if (SW(g, SW_PHASING) != ZS_NONE) return 0; /* the untap step is there */
  r->outcome = ZO_OUTCOME_REJECTED;
  r->error = ZO_E_UNSUPPORTED;
  return 1;
}

int zo_durations_turn_begins(zo_game *g, int q, zo_step_result *r) {
  return end_effects(g, q, r);
}

void zo_step_end_turn(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)s;
  (void)obj;
  /* no_move: nothing changes zones, but for 800.4c */
  if (end_effects(g, -1, r)) r->outcome = ZO_OUTCOME_MOVED;
}

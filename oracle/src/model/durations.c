/* durations.c: how long an effect lasts (G4 of issue 12). A mark of kind
 * effect or a control step may say `until: end_of_turn`; without it the
 * effect has no duration and lasts until the game ends (CR 611.2a; 418.3a
 * of 1999/2004). The end_turn step is the cleanup's end of "until end of
 * turn" effects (CR 514.2; 314.2 of 2004/2008; 314.1b of 1999), phased-out
 * permanents included (702.24e of 2011, 702.26f: an effect may expire
 * while the permanent is phased out; 502.15h of 2004: it may then phase in
 * under another player). An effect on an object ends when the object
 * becomes a new object (CR 400.7; marks are dropped by objects.c, a control
 * effect is tied to the object's identity here). Phasing out ends the
 * effects the rule set says (switch phased_effects: 502.15g of 2004 ends
 * limited durations; 702.24d-e, 702.26d, f end none).
 */
#include "model_int.h"

void zo_control_duration(zo_game *g, int o, int until) {
  zo_obj *ob = &g->objs[o];
  int in_force = ob->ctrl_until && ob->ctrl_until_id == ob->id;
  if (!until) {
    ob->ctrl_until = 0; /* a later effect without a duration wins for good */
    return;
  }
  if (!in_force) ob->ctrl_base = ob->controller >= 0 ? ob->controller : ob->owner;
  ob->ctrl_until = 1;
  ob->ctrl_until_id = ob->id;
}

void zo_durations_phase_out(zo_game *g, int o) {
  HITSW(g, SW_PHASED_EFFECTS);
  if (SW(g, SW_PHASED_EFFECTS) != ZS_LIMITED_LOST) return;
  for (int m = 0; m < g->nmarks; m++) {
    zo_mark *mk = &g->marks[m];
    if (mk->alive && mk->obj == o && mk->until != ZO_UNTIL_NONE) mk->alive = 0;
  }
}

void zo_step_end_turn(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)s;
  (void)obj;
  int exiled = 0; /* no_move: nothing changes zones, but for 800.4c */
  for (int m = 0; m < g->nmarks; m++)
    if (g->marks[m].alive && g->marks[m].until == ZO_UNTIL_END_OF_TURN) g->marks[m].alive = 0;
  for (int i = 0; i < g->nobjs; i++) {
    zo_obj *ob = &g->objs[i];
    if (!ob->ctrl_until) continue;
    ob->ctrl_until = 0;
    if (!ob->exists || ob->ctrl_until_id != ob->id || ob->zone < 0) continue;
    /* 502.15h: phases in under it; 702.24e, 702.26f: also phased out;
       800.4c: exiled when that player has left the game */
    if (ZT(g, ob->zone)->role == ZR_PHASED_OUT || ZT(g, ob->zone)->controller.value)
      exiled |= zo_control_returns(g, i, ob->ctrl_base, r);
  }
  if (exiled) r->outcome = ZO_OUTCOME_MOVED;
}

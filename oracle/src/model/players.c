/* players.c: what the turn and the players in it do to the zones: a
 * player's untap step, where permanents with phasing phase out and those
 * that phased out under that player phase in (CR 702.26a; 502.15a of
 * 2004; Z.7 of 1999), and a player leaving a multiplayer game, with what
 * they own and control (800.4a, 603.6c, 702.26k, 702.26n). Turns are
 * counted only as far as the zones need: whose turn it is (the first
 * player's at the start, then the player of the last untap step), so that
 * a departed player's next turn is known to have "come round" (702.26n),
 * and effects "until [a player's] next turn" end as it begins, or as it
 * would have begun for a departed player (500.5, 800.4m; durations.c).
 * Flesh and Blood's zones chapter has neither: both steps are rejected
 * there (unsupported).
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static int departed(const zo_game *g, int p) { return p >= 0 && p < ZO_MAX_PLAYERS && g->left[p]; }

int zo_step_names_departed(const zo_game *g, const zo_step *s) {
  if (!g->nleft) return 0;
  if (departed(g, s->player) || departed(g, s->order_by) || departed(g, s->attach_player)) return 1;
  if (s->until == ZO_UNTIL_NEXT_TURN && departed(g, s->turn_of)) return 1;
  if (s->kind == ST_CREATE && (departed(g, s->owner) || departed(g, s->controller))) return 1;
  if (s->kind == ST_END_GAME && departed(g, s->winner)) return 1;
  return 0;
}

/* The player who controls o now, phased out or not: where phasing is a
 * zone a phased-out permanent has none, and the one it will phase in
 * under is kept apart (502.15h). -1 none. */
static int controller_of(const zo_game *g, int o) {
  const zo_obj *ob = &g->objs[o];
  if (ob->phased_out && SW(g, SW_PHASING) == ZS_ZONE) return ob->phase_controller;
  return ob->controller;
}

static void set_controller(zo_game *g, int o, int p) {
  zo_obj *ob = &g->objs[o];
  if (ob->phased_out && SW(g, SW_PHASING) == ZS_ZONE) ob->phase_controller = p;
  else ob->controller = p;
}

int zo_turn_between(const zo_game *g, int from, int to, int p) {
  int n = g->c->nplayers;
  if (from == to) return 0; /* an extra turn, added right after (CR 500.7) */
  for (int k = (from + 1) % n; k != to; k = (k + 1) % n)
    if (k == p) return 1;
  return 0;
}

/* ---- the untap step (CR 702.26a, 702.26n) ------------------------------- */

/* Whether o is attached, directly or through what it is attached to, to a
 * permanent that phases out in this step (act 1): then it phases out only
 * indirectly, with that one (702.26h, 702.26g). */
static int carried_out(const zo_game *g, const unsigned char *act, int o) {
  for (int x = o, k = 0; k < g->nobjs; k++) {
    int host = g->objs[x].attached;
    if (host < 0 || host == o || !zo_attached_same(g, x, host)) return 0;
    if (act[host] == 1) return 1;
    x = host;
  }
  return 0;
}

void zo_step_untap(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (zo_magic_only(g, r)) return;
  if (SW(g, SW_PHASING) == ZS_NONE) {
    r->outcome = ZO_OUTCOME_REJECTED;
    r->error = ZO_E_UNSUPPORTED;
    return;
  }
  int q = s->player;
  /* the turn begins: effects "until" it end first (CR 500.5, 800.4m),
     before the untap step's phasing (502.1), which looks at who controls
     each permanent then */
  int exiled = zo_durations_turn_begins(g, q, r);
  /* CR 702.26n: a departed player's next turn would have begun between
     the last turn and this one: what phased out under them phases in now */
  unsigned char due[ZO_MAX_PLAYERS] = {0};
  for (int p = 0; p < g->c->nplayers && p < ZO_MAX_PLAYERS; p++)
    if (g->left_due[p] && zo_turn_between(g, g->turn_player, q, p)) {
      due[p] = 1;
      g->left_due[p] = 0;
    }
  /* decided for every permanent before any phases (702.26a: at the same
     time), so none phases in and out in one untap step */
  unsigned char *act = zo_xcalloc((size_t)g->nobjs + 1, 1); /* 1 out, 2 in */
  for (int k = 0; k < s->norder; k++) {
    int o = s->order_zone_handles[k];
    const zo_obj *ob = &g->objs[o];
    if (ob->exists && !ob->phased_out && ob->zone >= 0 &&
        ZT(g, ob->zone)->role == ZR_BATTLEFIELD && ob->controller == q)
      act[o] = 1; /* a phased-in permanent with phasing that player controls */
  }
  for (int o = 0; o < g->nobjs; o++) {
    const zo_obj *ob = &g->objs[o];
    /* phased out directly (what phased out with another phases in with it,
       702.26g) under that player, or under a departed one whose turn came */
    if (!ob->exists || !ob->phased_out || ob->phased_with >= 0 || ob->phased_under < 0) continue;
    if (ob->phased_under == q || (ob->phased_under < ZO_MAX_PLAYERS && due[ob->phased_under]))
      act[o] = 2;
  }
  for (int o = 0; o < g->nobjs; o++)
    if (act[o] == 1 && g->has_attach && carried_out(g, act, o)) act[o] = 3; /* indirectly */
  int moved = 0;
  for (int o = 0; o < g->nobjs; o++) {
    if (act[o] != 1 && act[o] != 2) continue;
    /* one phasing out earlier in this loop may have taken this one with it */
    if (act[o] == 1 && g->objs[o].phased_out) continue;
    if (act[o] == 2 && (!g->objs[o].phased_out || g->objs[o].phased_with >= 0)) continue;
    zo_step_result sub;
    memset(&sub, 0, sizeof sub);
    zo_phase_one(g, o, act[o] == 1, &sub);
    if (sub.outcome == ZO_OUTCOME_MOVED) moved = 1;
    take_events(r, &sub);
    zo_step_result_free(&sub);
  }
  free(act);
  g->turn_player = q;
  r->outcome = moved || exiled ? ZO_OUTCOME_MOVED : ZO_OUTCOME_NO_MOVE;
}

/* ---- a player leaves the game (CR 800.4a) ------------------------------- */

/* Exile o by the rules (800.4a, 800.4c): a zone change like any; a
 * phased-out permanent is treated as though it doesn't exist (702.26b),
 * so its going triggers nothing. */
static void exile_by_rule(zo_game *g, int o, zo_step_result *r) {
  zo_obj *ob = &g->objs[o];
  int quiet = ob->phased_out, ntrig = g->ntrig;
  ob->phased_out = 0;
  ob->phased_with = -1;
  if (quiet) g->ntrig = 0;
  zo_rule_move(g, o, g->exile_slot, "", r);
  g->ntrig = ntrig;
}

int zo_control_returns(zo_game *g, int o, int p, zo_step_result *r) {
  if (!departed(g, p)) {
    set_controller(g, o, p);
    return zo_control_follow(g, o, r); /* issue 31: follows_control */
  }
  exile_by_rule(g, o, r); /* CR 800.4c: no player to return to */
  return 1;
}

void zo_step_leave_game(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (zo_magic_only(g, r)) return;
  int p = s->player;
  g->left[p] = 1;
  g->left_due[p] = 1; /* 702.26n: until their next turn would have begun */
  g->nleft++;
  /* 1. everything they own leaves the game (not the ante: 800.4n); a
     phased-in permanent's leaving is a leaves-the-battlefield event
     (603.6c), a phased-out one's triggers nothing (702.26k) */
  for (int o = 0; o < g->nobjs; o++) {
    zo_obj *ob = &g->objs[o];
    if (!ob->exists || ob->owner != p || ob->zone < 0 || ob->under >= 0) continue;
    if (ZT(g, ob->zone)->role == ZR_ANTE) continue;
    if (g->ntrig && !ob->phased_out && ZT(g, ob->zone)->role == ZR_BATTLEFIELD)
      zo_watches_fire(g, o, ob->zone, -1, 1, ob->controller, "");
    if (ob->kind == ZK_CARD && !is_token(g, ob)) g->cards_left++;
    zo_obj_cease(g, o, r);
  }
  /* ... and the effects that gave them control of objects end, on every
     object: what they controlled goes to the player the latest control
     effect still in force gives it to, else to its default controller
     (613.7, 110.2); one left with a departed player is exiled below */
  zo_control_end_player(g, p);
  for (int o = 0; o < g->nobjs; o++) {
    zo_obj *ob = &g->objs[o];
    if (!ob->exists || controller_of(g, o) != p) continue;
    int back = zo_control_now(g, o);
    int zcp1 = ob->ctrl_until && ob->ctrl_until_id == ob->id ? ob->ctrl_base : ob->ctrl_default;
    ob->ctrl_until = 0;
    if (back < 0 || departed(g, back)) back = p;
    if (zcp1 < 0 || departed(g, zcp1)) zcp1 = p;
    if (back != zcp1) g->features_used |= (uint64_t)1 << FT_CONTROL_EFFECTS; /* zcp/1 meant another */
    if (back != p) {
      set_controller(g, o, back);
      zo_control_follow(g, o, r); /* issue 31: follows_control */
    }
  }
  /* 2. what they control on the stack that is not a card ceases */
  for (int o = 0; o < g->nobjs; o++) {
    zo_obj *ob = &g->objs[o];
    if (ob->exists && controller_of(g, o) == p && ob->zone >= 0 && is_stack(g, ob->zone) &&
        (ob->kind == ZK_ABILITY || ob->kind == ZK_COPY))
      zo_obj_cease(g, o, r);
  }
  /* 3. whatever they still control is exiled (800.4a; what a departed
     player controls by default once the effects end, 800.4c) */
  for (int o = 0; o < g->nobjs; o++) {
    const zo_obj *ob = &g->objs[o];
    int c = ob->exists ? controller_of(g, o) : -1;
    if (c == p || (c >= 0 && departed(g, c))) exile_by_rule(g, o, r);
  }
  r->outcome = ZO_OUTCOME_NO_MOVE;
}

/* replace.c: replacement effects on zone changes (CR 614.1, 616.1; FaB
 * 6.5). A replace step puts an effect in force: "when <object or any>
 * would move from <zone> to <zone> (by <cause>), <instead>". A move
 * (move.c) applies those in force in the chosen order, each at most once,
 * re-checking the others after each (616.1); a choose_replacement step
 * sets that order, chosen by the affected object's controller or owner
 * (CR 400.6, 616.1) or by the turn player (FaB 6.5), within the order
 * the effects' categories impose (switch replace_order: CR 616.1a-c;
 * 2004 419.6d; FaB 6.5). A move runs none of this while no effect is in
 * force (g->nactive_repl).
 */
#include <stdio.h>
#include <string.h>

#include "model_int.h"

static int cause_is(const char *cause, const char *want) {
  return want[0] == 0 || strcmp(cause, want) == 0;
}

/* Whether replacement rp applies to obj's move from origin to dest by
 * cause (CR 614.1; FaB 6.5). */
static int repl_matches(zo_game *g, const zo_replacement *rp, int obj, int origin, int dest,
                        const char *cause) {
  if (rp->draw) return 0; /* it replaces draws, not moves */
  if (!rp->any && rp->obj != obj) return 0;
  if (!zo_zone_watch_matches(g, rp->when_to, rp->when_to_player, rp->when_to_index, dest))
    return 0;
  if (!zo_zone_watch_matches(g, rp->when_from, rp->when_from_player, rp->when_from_index, origin))
    return 0;
  return cause_is(cause, rp->when_cause);
}

/* The rank of category c under the rule set's replace_order: effects of the
 * lowest rank among those that apply must be applied first. self_first:
 * self-replacement effects, then the rest (CR 616.1a; 2004 419.6d; FaB
 * 6.5). none: one rank. */
static int repl_rank(zo_game *g, zo_repl_category c) {
  return SW(g, SW_REPLACE_ORDER) == ZS_SELF_FIRST && c != RC_SELF;
}

/* The next effect to apply: the first in the chosen order among those of
 * the lowest rank that apply and are unused (CR 616.1a-e; FaB 6.5), or -1.
 * Counts a hit on replace_order when the ranks told two apart. */
static int repl_next(zo_game *g, int obj, int origin, int dest, const char *cause,
                     int only_self) {
  const unsigned char *used = g->repl_used;
  int best = -1, best_rank = 0, ranks_differ = 0;
  for (int k = 0; k < g->nrepl; k++) {
    int ri = g->repl_order[k];
    const zo_replacement *rp = &g->repl[ri];
    if (!rp->active || used[ri] || !repl_matches(g, rp, obj, origin, dest, cause)) continue;
    if (only_self && rp->category != RC_SELF) continue; /* CR 614.17c */
    int rank = repl_rank(g, rp->category);
    if (best >= 0 && rank != best_rank) ranks_differ = 1;
    if (best < 0 || rank < best_rank) {
      best = ri;
      best_rank = rank;
    }
  }
  if (ranks_differ) HITSW(g, SW_REPLACE_ORDER);
  return best;
}

/* Each effect applies at most once to one move (CR 614.5; FaB 6.5):
 * g->repl_used marks those used (one per replacement effect of the case,
 * so no count is too many). */
int zo_replacements_apply(zo_game *g, int obj, int origin, int *dest, const zo_step **mv,
                          const char *cause) {
  if (!g->nactive_repl) return 0;
  int replaced = 0;
  unsigned char *used = g->repl_used;
  memset(used, 0, (size_t)g->nrepl);
  for (;;) {
    /* CR 614.17c: an event that can't happen (as it now stands) is
       replaced only by a self-replacement effect */
    int only_self = g->ncants && zo_cant_forbids(g, obj, origin, *dest,
                                                 (*mv)->cause[0] ? (*mv)->cause : cause,
                                                 (*mv)->face == 1);
    int ri = repl_next(g, obj, origin, *dest, cause, only_self);
    if (ri < 0) break;
    zo_replacement *rp = &g->repl[ri];
    int redirected;
    zo_step_error e;
    int nd = resolve_dest(g, obj, &rp->instead->to, rp->instead->choose, &redirected, &e);
    used[ri] = 1;
    if (nd == -1) continue; /* impossible replacement: ignored (614.6) */
    *dest = nd;
    *mv = rp->instead;
    HITSW(g, SW_REPLACE_CHOOSER);
    replaced = 1;
  }
  return replaced;
}

/* ---- steps ------------------------------------------------------------- */

/* Put replacement effect s->as in force (again: it replaces its old terms). */
void zo_step_replace(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  (void)r;
  zo_replacement *rp = &g->repl[s->as];
  if (!rp->active) g->nactive_repl++;
  rp->active = 1;
  rp->any = s->replace_any;
  rp->obj = s->card;
  rp->when_to = s->when_to.type;
  rp->when_to_player = s->when_to.player;
  rp->when_from = s->when_from.type;
  rp->when_from_player = s->when_from.player;
  rp->when_to_index = s->when_to.index;
  rp->when_from_index = s->when_from.index;
  snprintf(rp->when_cause, sizeof rp->when_cause, "%s", s->when_cause);
  rp->instead = s->then;
  rp->category = s->repl_category;
}

/* The order replacement effects apply in: the chosen ones first, in that
 * order (each once), then the rest as created. Only the player the rules
 * name may choose (CR 400.6, 616.1; FaB 6.5). */
void zo_step_choose_replacement(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (s->player >= 0) {
    int ok;
    if (SW(g, SW_REPLACE_CHOOSER) == ZS_TURN_PLAYER) {
      ok = s->player == 0; /* FaB 6.5: the turn player picks */
    } else {
      /* CR 400.6, 616.1: the affected object's controller, or owner */
      int who = -1;
      if (s->card >= 0 && g->objs[s->card].exists)
        who = g->objs[s->card].controller >= 0 ? g->objs[s->card].controller
                                               : g->objs[s->card].owner;
      ok = who < 0 || who == s->player;
    }
    HITSW(g, SW_REPLACE_CHOOSER);
    if (!ok) {
      r->outcome = ZO_OUTCOME_REJECTED;
      r->error = ZO_E_WRONG_PLAYER;
      return;
    }
  }
  /* the chosen ones first, in that order, then the rest as created */
  int k = 0;
  int *ord = g->repl_order;
  unsigned char *seen = g->repl_used;
  memset(seen, 0, (size_t)g->nrepl);
  for (int i = 0; i < s->norder && k < g->nrepl; i++) {
    int ri = s->order_zone_handles[i];
    if (ri >= 0 && ri < g->nrepl && !seen[ri]) {
      seen[ri] = 1;
      ord[k++] = ri;
    }
  }
  for (int i = 0; i < g->nrepl && k < g->nrepl; i++)
    if (!seen[i]) ord[k++] = i;
}

/* ---- draw replacements (CR 614.11) -------------------------------------- */

int zo_draw_replacement(const zo_game *g, int player) {
  for (int k = 0; k < g->nrepl; k++) {
    const zo_replacement *rp = &g->repl[g->repl_order[k]];
    if (rp->active && rp->draw && rp->player == player && !rp->suspended) return g->repl_order[k];
  }
  return -1;
}

void zo_draw_replace(zo_game *g, int ri, zo_step_result *r) {
  zo_replacement *rp = &g->repl[ri];
  if (rp->once) { /* "the next time ... would draw": used up */
    rp->active = 0;
    g->nactive_repl--;
  }
  rp->suspended = 1; /* 614.5: not again on its own steps' draws */
  for (int i = 0; i < rp->ndraw_steps; i++) nested_step(g, &rp->draw_steps[i], -1, r);
  rp->suspended = 0;
}

/* From this step on, the player's draws are replaced (CR 614.11), even
 * from an empty library. Magic only, like cant. Its name is a
 * replacement's: choose_replacement orders it among the others. */
void zo_step_replace_draw(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (zo_magic_only(g, r)) return;
  zo_replacement *rp = &g->repl[s->as];
  if (!rp->active) g->nactive_repl++;
  memset(rp, 0, sizeof *rp);
  rp->active = 1;
  rp->draw = 1;
  rp->player = s->player;
  rp->once = s->once;
  rp->draw_steps = s->costs;
  rp->ndraw_steps = s->ncosts;
}

/* ---- as-enters effects (CR 614.13) -------------------------------------- */

static void etb_arrays(zo_game *g) {
  if (g->entering) return;
  g->entering = zo_xcalloc((size_t)g->nobjs + 1, 1);
  g->etb_chosen = zo_xcalloc((size_t)g->nobjs + 1, 1);
}

void zo_etb_mark(zo_game *g, int obj) {
  etb_arrays(g);
  g->entering[obj] = 1;
}

void zo_etb_event_end(zo_game *g) {
  if (!g->entering || g->in_etb) return;
  memset(g->entering, 0, (size_t)g->nobjs + 1);
  memset(g->etb_chosen, 0, (size_t)g->nobjs + 1);
}

/* The steps of one as-enters effect (CR 614.13), each as a top-level step,
 * their events into r. */
static void etb_steps(zo_game *g, const zo_step *steps, int nsteps, zo_step_result *r) {
  for (int i = 0; i < nsteps; i++) {
    zo_step_result sub = {0};
    const zo_step *st = &steps[i];
    zo_game_apply_to(g, st, -1, &sub);
    /* a move it can't choose: one rejected event for the object (a step
       moving several gives its members' events itself) */
    if (st->kind == ST_MOVE && st->card >= 0 && sub.outcome == ZO_OUTCOME_REJECTED &&
        sub.error == ZO_E_CANNOT_CHOOSE && !sub.nevents)
      event(&sub, st->card, ZO_OUTCOME_REJECTED);
    take_events(r, &sub);
    zo_step_result_free(&sub);
  }
}

void zo_etb_apply(zo_game *g, int obj, zo_step_result *r) {
  int any = 0;
  for (int k = 0; k < g->netb && !any; k++) any = g->etb[k].card == obj;
  if (!any) return;
  etb_arrays(g);
  int own = !g->entering[obj]; /* a move of its own, not a move_together's member */
  g->entering[obj] = 1;        /* 614.13a: it can't be chosen */
  g->in_etb++;
  for (int k = 0; k < g->netb; k++)
    if (g->etb[k].card == obj) etb_steps(g, g->etb[k].steps, g->etb[k].nsteps, r);
  g->in_etb--;
  if (own) zo_etb_event_end(g);
}

void zo_etb_token(zo_game *g, int obj, const zo_step *steps, int nsteps, zo_step_result *r) {
  etb_arrays(g);
  g->entering[obj] = 1; /* 614.13a: it can't be chosen (it isn't there yet) */
  g->in_etb++;
  etb_steps(g, steps, nsteps, r);
  g->in_etb--;
  zo_etb_event_end(g);
}

/* Array a of n entries (capacity *cap, entries of size bytes) with room
 * for one more: grown (doubled, 4 at first) when full. Returns the array
 * (it may have moved). Effects that stay for the rest of the game. */
static void *room_for_one(void *a, int n, int *cap, size_t size) {
  if (n < *cap) return a;
  *cap = *cap ? 2 * *cap : 4;
  return zo_xrealloc(a, (size_t)*cap * size);
}

/* From this step on, each time the card would enter the battlefield its
 * steps are done first (CR 614.13, 614.1c). Magic only, like cant. */
void zo_step_as_enters(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (zo_magic_only(g, r)) return;
  g->etb = room_for_one(g->etb, g->netb, &g->capetb, sizeof *g->etb);
  struct zo_etb *e = &g->etb[g->netb++];
  e->card = s->card;
  e->steps = s->costs;
  e->nsteps = s->ncosts;
}

/* ---- "can't" effects (CR 614.17) ---------------------------------------- */

/* The types obj has for a "can't" effect on its move into dest: those it
 * would have there (CR 614.17d), where a face-down permanent or spell is a
 * creature with no other types (708.2a); for a move elsewhere, those it
 * has where it is, face-down on the battlefield or the stack likewise,
 * and none at all face down anywhere else: a card exiled face down has no
 * characteristics (406.3a). */
static uint64_t cant_types(const zo_game *g, int obj, int origin, int dest, int face_down) {
  const zo_obj *o = &g->objs[obj];
  int z = dest;
  int down = face_down;
  if (dest < 0 || ZT(g, dest)->role != ZR_BATTLEFIELD) {
    z = origin;
    down = o->face_down;
  }
  if (down && z >= 0 && (ZT(g, z)->role == ZR_BATTLEFIELD || is_stack(g, z)))
    return g->classes.creature;
  if (down && z >= 0 && ZT(g, z)->role == ZR_EXILE) return 0;
  return o->types;
}

/* Is the move from origin to dest by cause a draw of player p's (CR 121.1:
 * the top card of p's library put into p's hand; a move with cause draw,
 * wherever the card was in the library)? */
static int is_draw_of(const zo_game *g, int p, int origin, int dest, const char *cause) {
  return !strcmp(cause, "draw") && origin >= 0 && dest >= 0 &&
         ZT(g, origin)->role == ZR_LIBRARY && g->zones[origin].player == p &&
         ZT(g, dest)->role == ZR_HAND && g->zones[dest].player == p;
}

int zo_cant_forbids(zo_game *g, int obj, int origin, int dest, const char *cause,
                    int face_down) {
  for (int i = 0; i < g->ncants; i++) {
    const zo_cant *s = &g->cants[i];
    if (s->drawer >= 0) { /* CR 121.3: a player who can't draw */
      if (!is_draw_of(g, s->drawer, origin, dest, cause)) continue;
      g->features_used |= (uint64_t)1 << FT_CANT_DRAW_MOVES; /* cant_draw did not say so */
      return 1;
    }
    if (!s->any && s->obj != obj) continue;
    if (!zo_zone_watch_matches(g, s->to.type, s->to.player, s->to.index, dest) ||
        !zo_zone_watch_matches(g, s->from.type, s->from.player, s->from.index, origin) ||
        !cause_is(cause, s->cause))
      continue;
    if (s->types && (cant_types(g, obj, origin, dest, face_down) & s->types) != s->types) continue;
    return 1;
  }
  return 0;
}

/* From this step on, the effect forbids the moves it names (CR 614.17);
 * none that already happened (614.17a). Magic only: the Flesh and Blood
 * zones chapter has no such effect (rejected, unsupported). */
void zo_step_cant(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  (void)obj;
  if (zo_magic_only(g, r)) return;
  g->cants = room_for_one(g->cants, g->ncants, &g->capcants, sizeof *g->cants);
  zo_cant *k = &g->cants[g->ncants++];
  k->drawer = -1;
  if (s->player >= 0) { /* CR 121.3: the player can't draw, nor have a card
                           moved from their library to their hand as a draw */
    g->cant_draw |= 1u << s->player;
    memset(k, 0, sizeof *k);
    k->drawer = s->player;
    return;
  }
  k->any = s->replace_any;
  k->obj = s->card;
  k->to = s->when_to;
  k->from = s->when_from;
  snprintf(k->cause, sizeof k->cause, "%s", s->when_cause);
  k->types = s->types;
}

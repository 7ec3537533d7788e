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
static int repl_next(zo_game *g, int obj, int origin, int dest, const char *cause) {
  const unsigned char *used = g->repl_used;
  int best = -1, best_rank = 0, ranks_differ = 0;
  for (int k = 0; k < g->nrepl; k++) {
    int ri = g->repl_order[k];
    const zo_replacement *rp = &g->repl[ri];
    if (!rp->active || used[ri] || !repl_matches(g, rp, obj, origin, dest, cause)) continue;
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
    int ri = repl_next(g, obj, origin, *dest, cause);
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

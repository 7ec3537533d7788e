/* replace.c: replacement effects on zone changes (CR 614.1, 616.1; FaB
 * 6.5). A replace step puts an effect in force: "when <object or any>
 * would move from <zone> to <zone> (by <cause>), <instead>". A move
 * (move.c) applies those in force in the chosen order, each at most once,
 * re-checking the others after each (616.1); a choose_replacement step
 * sets that order, chosen by the affected object's controller or owner
 * (CR 400.6, 616.1) or by the turn player (FaB 6.5). A move runs none of
 * this while no effect is in force (g->nactive_repl).
 */
#include <stdio.h>
#include <string.h>

#include "model_int.h"

static int cause_is(const char *cause, const char *want) {
  return want[0] == 0 || strcmp(cause, want) == 0;
}

/* Each effect applies at most once to one move: g->repl_used marks those
 * used (one per replacement effect of the case, so no count is too many). */
int zo_replacements_apply(zo_game *g, int obj, int origin, int *dest, const zo_step **mv,
                          const char *cause) {
  if (!g->nactive_repl) return 0;
  int replaced = 0;
  unsigned char *used = g->repl_used;
  memset(used, 0, (size_t)g->nrepl);
  for (;;) {
    int applied = 0;
    for (int k = 0; k < g->nrepl && !applied; k++) {
      int ri = g->repl_order[k];
      zo_replacement *rp = &g->repl[ri];
      if (!rp->active || used[ri]) continue;
      if (!rp->any && rp->obj != obj) continue;
      if (!zo_zone_watch_matches(g, rp->when_to, rp->when_to_player, rp->when_to_index, *dest))
        continue;
      if (!zo_zone_watch_matches(g, rp->when_from, rp->when_from_player, rp->when_from_index,
                                 origin))
        continue;
      if (!cause_is(cause, rp->when_cause)) continue;
      int redirected;
      zo_step_error e;
      int nd = resolve_dest(g, obj, &rp->instead->to, rp->instead->choose,
                            &redirected, &e);
      used[ri] = 1;
      if (nd == -1) continue; /* impossible replacement: ignored (614.6) */
      *dest = nd;
      *mv = rp->instead;
      HITSW(g, SW_REPLACE_CHOOSER);
      replaced = applied = 1;
    }
    if (!applied) break;
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

/* replay.c: a fuzz_moves input replayed on the oracle and printed as a YAML
 * case (`zoneoracle replay --harness moves`): each decoded step with the
 * outcome the model gave, the invariants checked after every step as
 * fuzz_moves checks them, and, when one breaks, the case stopped at that
 * step and citing the invariant's rule. */
#include <stdio.h>
#include <string.h>

#include "decoder.h"

int zo_gen_replay_moves(const uint8_t *data, size_t size, const char *id, FILE *out,
                        char *note, size_t cap) {
  zo_fuzz fz;
  zo_fuzz_start(&fz, data, size);
  zo_outcome outcomes[ZO_FUZZ_MAX_STEPS];
  zo_step_error errors[ZO_FUZZ_MAX_STEPS];
  snprintf(note, cap, "zoneoracle replay of a fuzz_moves input: no invariant broken");
  char rule[64] = "";
  int broken = 0;
  zo_violation v;
  int fab = fz.rs->sw[SW_TOKEN_LEAVES].value == ZS_IMMEDIATELY;
  if (zo_game_check(fz.g, 0, &v)) broken = 1;
  const zo_step *s;
  while (!broken && (s = zo_fuzz_next(&fz))) {
    zo_step_result res;
    zo_game_apply(fz.g, s, &res);
    outcomes[fz.given - 1] = res.outcome; /* its index: a sequence decodes ahead */
    errors[fz.given - 1] = res.error;
    zo_step_result_free(&res);
    if (zo_game_check(fz.g, s->kind == ST_STATE_CHECK || fab, &v)) broken = 1;
  }
  if (broken) {
    /* the case stops at the step that broke it (a sequence decodes ahead) */
    while (fz.c->nsteps > fz.given && zo_fuzz_drop_step(&fz, fz.c->nsteps - 1)) {
    }
    snprintf(note, cap, "fuzz_moves finding: invariant %s (%s) broken at step %d: %s",
             v.invariant, v.rule, fz.given, v.detail);
    /* cite the first of the invariant's rules that the rule set lists
       ("CR 704.5d; FaB 8.1.8a" under fab: FaB 8.1.8a) */
    char rules[128];
    snprintf(rules, sizeof rules, "%s", v.rule);
    char *save = NULL;
    for (char *part = strtok_r(rules, ";", &save); part && !rule[0]; part = strtok_r(NULL, ";", &save)) {
      while (*part == ' ') part++;
      if (zo_ruleset_rule(fz.rs, part) >= 0) snprintf(rule, sizeof rule, "%s", part);
    }
  }
  zo_fuzz_print_yaml(&fz, outcomes, errors, id, rule[0] ? rule : NULL, note, out);
  zo_fuzz_free(&fz);
  return broken;
}

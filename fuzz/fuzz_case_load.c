/* fuzz_case_load: bytes as a case file into the loader. Errors are fine;
 * crashes, leaks, hangs and blowups (alias bombs, deep nesting, huge maps)
 * are not. A loaded case is also set up and run once on the oracle. */
#include "model_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  zo_case *c = NULL;
  zo_error err;
  if (zo_case_load_mem("fuzz.yaml", (const char *)data, size, &c, &err) == ZO_OK) {
    for (int r = 0; r < c->nrulesets; r++) {
      zo_game *g;
      if (zo_game_new(zo_ruleset_find(c->rulesets[r]), c, &g, &err)) continue;
      for (int i = 0; i < c->nsteps; i++) {
        zo_step_result res;
        zo_game_apply(g, &c->steps[i], &res);
        zo_step_result_free(&res);
      }
      zo_observation ob;
      zo_game_observe(g, &ob);
      zo_observation_free(&ob);
      zo_game_free(g);
    }
    zo_case_free(c);
  }
  return 0;
}

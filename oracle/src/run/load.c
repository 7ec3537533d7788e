/* load.c: zo_case_load_file / zo_case_load_mem (zo.h), the case loader
 * that users call: the case layer parses (case/case_parse.c), then each rule
 * set the case names builds its starting position, so a position the rule
 * set forbids is refused at load (ZO_ERR_SETUP) rather than at run time.
 * It lives above the model because it needs one: the case layer knows no
 * game. */
#include "model.h"

/* Build and drop a game per rule set of c: the first refusal wins. */
static zo_status check_setups(const zo_case *c, zo_error *err) {
  for (int r = 0; r < c->nrulesets; r++) {
    const zo_ruleset *rs = zo_ruleset_find(c->rulesets[r]);
    if (!rs) continue; /* the parser has refused unknown ids already */
    zo_game *g;
    zo_status st = zo_game_new(rs, c, &g, err);
    if (st) return st;
    zo_game_free(g);
  }
  return ZO_OK;
}

static zo_status checked(zo_status st, zo_case **out, zo_error *err) {
  if (st) return st;
  st = check_setups(*out, err);
  if (st) {
    zo_case_free(*out);
    *out = NULL;
  }
  return st;
}

zo_status zo_case_load_mem(const char *name, const char *text, size_t len,
                           zo_case **out, zo_error *err) {
  return checked(zo_case_parse_mem(name, text, len, out, err), out, err);
}

zo_status zo_case_load_file(const char *path, zo_case **out, zo_error *err) {
  return checked(zo_case_parse_file(path, out, err), out, err);
}

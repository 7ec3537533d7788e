/* consumer.c: the installed library used from outside the source tree
 * (oracle/tests/install.sh). Loads a case from memory and sets up a game
 * under each of its rule sets, through zo.h only; prints what it did and
 * exits 0, or 1 with the library's error. */
#include <stdio.h>

#include "zo.h"

static const char text[] =
    "id: consumer/bear-in-library\n"
    "title: a card set up in its owner's library\n"
    "rulesets: [mtg-current, mtg-2011]\n"
    "rules: [\"CR 400.1\"]\n"
    "players: [alice, bob]\n"
    "cards:\n"
    "  bear: {owner: alice, zone: library, types: [creature]}\n"
    "steps: []\n";

int main(void) {
  zo_case *c;
  zo_error err = {0};
  if (zo_case_load_mem("consumer.yaml", text, sizeof text - 1, &c, &err)) {
    fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.column, err.message);
    return 1;
  }
  int games = 0;
  for (size_t i = 0; i < zo_case_ruleset_count(c); i++) {
    const zo_ruleset *rs = zo_ruleset_find(zo_case_ruleset(c, i));
    zo_game *g;
    zo_violation v;
    if (!rs || zo_game_new(rs, c, &g, &err)) {
      fprintf(stderr, "no game under %s: %s\n", zo_case_ruleset(c, i), err.message);
      zo_case_free(c);
      return 1;
    }
    if (zo_game_check(g, 1, &v)) {
      fprintf(stderr, "invariant %s broken: %s\n", v.invariant, v.detail);
      zo_game_free(g);
      zo_case_free(c);
      return 1;
    }
    zo_game_free(g);
    games++;
  }
  printf("consumer: %s set up under %d rule sets of %zu; data in %s\n", zo_case_id(c), games,
         zo_ruleset_count(), ZO_DATA_DIR);
  zo_case_free(c);
  return games == 2 ? 0 : 1;
}
